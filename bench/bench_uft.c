/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft tracepoint costs, per iteration of the same loop:
 *   none   the loop alone
 *   floor  a TSC read and a 32-byte store into a per-thread array of 1 MiB
 *   floor64  the same over 64 MiB, the size of the rings bench/run.sh records with
 *   ints   trace_ints(int, u32, u64), a UFT_EVENT
 *   str    trace_str("hello-world!"), a UFT_EVENT with a __string field
 *   trace  UFT_TRACE with three integers
 *   tstr   UFT_TRACE with the 12-character string of str
 *   fpass  trace_fpass(): the ints event under a two-term filter that passes
 *   frej   trace_frej(): the same under a two-term filter that rejects
 *   hist   trace_hist(): the ints event with a hist trigger of one key (b,
 *          64 values) and one value (c), recorded as well
 *   histonly  trace_histonly(): the same trigger on an event that is not
 *          enabled (soft-disabled: the record is built for the trigger only)
 * The tracepoints are off unless -e (enable in-process with uft_set_event) is
 * given or the program runs under `uft record`; under a recorder every timed
 * run starts once the consumer has drained the ring. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define UFT_CREATE_EVENTS
#include "bench_events.h"

#include "bench.h"
#include "uft_stats.h"

/* ---- floor ---- */

struct floor_slot {
	uint64_t w[4];
};

#define FLOOR_SLOTS (1u << 15)	 /* 1 MiB, as uft's default ring */
#define FLOOR64_SLOTS (1u << 21) /* 64 MiB */

static __thread struct floor_slot *floor_buf;
static __thread uint32_t floor_idx;

static inline __attribute__((always_inline)) void floor_loop(uint64_t n, uint32_t mask)
{
	struct floor_slot *buf = floor_buf;
	uint32_t idx = floor_idx;
	BENCH_LOOP(n, i, {
		struct floor_slot *s = &buf[idx++ & mask];
		s->w[0] = __rdtsc();
		s->w[1] = i;
		s->w[2] = i;
		s->w[3] = i;
	});
	floor_idx = idx;
}

static __attribute__((noinline)) void loop_floor(uint64_t n)
{
	floor_loop(n, FLOOR_SLOTS - 1);
}

static __attribute__((noinline)) void loop_floor64(uint64_t n)
{
	floor_loop(n, FLOOR64_SLOTS - 1);
}

/* ---- uft tracepoints ---- */

static __attribute__((noinline)) void loop_ints(uint64_t n)
{
	BENCH_LOOP(n, i, trace_ints((int)i, (uint32_t)i, i));
}

static const char *volatile short_str = "hello-world!"; /* 12 characters */

static __attribute__((noinline)) void loop_str(uint64_t n)
{
	const char *s = short_str;
	BENCH_LOOP(n, i, trace_str(s));
}

static __attribute__((noinline)) void loop_trace(uint64_t n)
{
	BENCH_LOOP(n, i,
		   UFT_TRACE(bench, trace3, "a=%d b=%u c=%llu", (int)i, (uint32_t)i,
			     (unsigned long long)i));
}

static __attribute__((noinline)) void loop_tstr(uint64_t n)
{
	const char *s = short_str;
	BENCH_LOOP(n, i, UFT_TRACE(bench, trace_str, "s=%s", s));
}

static __attribute__((noinline)) void loop_fpass(uint64_t n)
{
	BENCH_LOOP(n, i, trace_fpass((int)(i & 0x7fffffff), (uint32_t)i, i));
}

static __attribute__((noinline)) void loop_frej(uint64_t n)
{
	BENCH_LOOP(n, i, trace_frej((int)(i & 0x7fffffff), (uint32_t)i, i));
}

static __attribute__((noinline)) void loop_hist(uint64_t n)
{
	BENCH_LOOP(n, i, trace_hist((int)i, (uint32_t)(i & 63), i));
}

static __attribute__((noinline)) void loop_histonly(uint64_t n)
{
	BENCH_LOOP(n, i, trace_histonly((int)i, (uint32_t)(i & 63), i));
}

/* Both filters evaluate both terms: a >= 0 always holds, b never is 2^32-1
 * (the loops stay far below). */
static void set_filters(void)
{
	char err[512];
	if (uft_set_filter("bench:fpass", "a >= 0 && b != 4294967295", err, sizeof(err)) < 0 ||
	    uft_set_filter("bench:frej", "a >= 0 && b == 4294967295", err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_uft: filter: %s", err);
		exit(1);
	}
}

/* ---- hooks ---- */

static bool enable_in_process, enabled, recording;

static void before_run(void)
{
	if (enable_in_process && !enabled) {
		if (uft_set_event("bench:*", 1) <= 0) {
			fprintf(stderr, "bench_uft: cannot enable bench:*\n");
			exit(1);
		}
		/* The hist triggers; histonly stays off, its trigger keeps it armed. */
		if (uft_set_event("bench:histonly", 0) < 0 ||
		    bench_uft_write("events/bench/hist/trigger", "hist:keys=b:vals=c") ||
		    bench_uft_write("events/bench/histonly/trigger", "hist:keys=b:vals=c")) {
			fprintf(stderr, "bench_uft: cannot install the hist triggers\n");
			exit(1);
		}
		enabled = true;
	}
	/* A timed run starts with an empty ring: discard mode then never drops
	 * as long as one run fits in the ring. */
	if (recording)
		bench_uft_wait_drained(2000);
}

static const struct bench_variant variants[] = {
    {"none", bench_loop_none, before_run, bench_uft_counts},
    {"floor", loop_floor, before_run, bench_uft_counts},
    {"floor64", loop_floor64, before_run, bench_uft_counts},
    {"ints", loop_ints, before_run, bench_uft_counts},
    {"str", loop_str, before_run, bench_uft_counts},
    {"trace", loop_trace, before_run, bench_uft_counts},
    {"tstr", loop_tstr, before_run, bench_uft_counts},
    {"fpass", loop_fpass, before_run, bench_uft_counts},
    {"frej", loop_frej, before_run, bench_uft_counts},
    {"hist", loop_hist, before_run, bench_uft_counts},
    {"histonly", loop_histonly, before_run, bench_uft_counts},
};

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-e") == 0) {
		enable_in_process = true;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	const char *rec = getenv("UFT_RECORD");
	recording = rec && *rec;
	set_filters();
	floor_buf = aligned_alloc(64, FLOOR64_SLOTS * sizeof(struct floor_slot));
	if (!floor_buf)
		return 1;
	memset(floor_buf, 0, FLOOR64_SLOTS * sizeof(struct floor_slot));
	int rc = bench_main(argc, argv, variants, sizeof(variants) / sizeof(variants[0]));
	uft_flush();
	/* The triggers' totals, for the log: proof that they ran. */
	static char text[1 << 16];
	for (int i = 0; enabled && i < 2; i++) {
		const char *ev = i ? "histonly" : "hist";
		char path[64];
		snprintf(path, sizeof(path), "events/bench/%s/hist", ev);
		if (bench_uft_read(path, text, sizeof(text)) > 0 && strstr(text, "Hits:"))
			fprintf(stderr, "bench:%s trigger: %.*s\n", ev,
				(int)strcspn(strstr(text, "Hits:"), "\n"), strstr(text, "Hits:"));
	}
	return rc;
}
