/* SPDX-License-Identifier: GPL-2.0-or-later */
/* LTTng-UST tracepoint cost, per iteration of the same loop as bench_uft:
 *   none   the loop alone
 *   ints   lttng_ust_tracepoint(bench_lttng, ints, int, u32, u64)
 * Whether the event records depends on the session bench/run.sh set up. With
 * BENCH_PAUSE_MS set, every timed run waits that long first so the consumer
 * daemon can drain the buffers. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "lttng_tp.h"

static __attribute__((noinline)) void loop_ints(uint64_t n)
{
	BENCH_LOOP(n, i, lttng_ust_tracepoint(bench_lttng, ints, (int)i, (uint32_t)i, i));
}

static unsigned pause_ms;

static void before_run(void)
{
	if (pause_ms)
		usleep(pause_ms * 1000u);
}

static const struct bench_variant variants[] = {
    {"none", bench_loop_none, before_run, NULL},
    {"ints", loop_ints, before_run, NULL},
};

int main(int argc, char **argv)
{
	const char *p = getenv("BENCH_PAUSE_MS");
	pause_ms = p ? (unsigned)atoi(p) : 0;
	return bench_main(argc, argv, variants, sizeof(variants) / sizeof(variants[0]));
}
