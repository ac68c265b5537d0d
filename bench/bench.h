/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timing harness shared by the bench programs: a TSC calibrated against
 * CLOCK_MONOTONIC_RAW, loops timed with rdtsc, the median of several runs of
 * each variant, the variants' runs interleaved.
 * Every program prints one line per variant:
 *   ROW key ns_median cycles_median ns_min ns_max committed dropped iters reps
 * (committed and dropped: events, summed over the timed runs, where known). */
#ifndef UFT_BENCH_H
#define UFT_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "bench_time.h"

/* Keeps the loop counter opaque: the loop is never removed, unrolled into
 * nothing or vectorized, and no memory is clobbered. Same in every variant. */
#define BENCH_KEEP(i) __asm__ volatile("" : "+r"(i))

/* A loop of n iterations around BODY, identical in every variant. */
#define BENCH_LOOP(n, i, BODY)                                                                     \
	for (uint64_t i = 0; i < (n); i++) {                                                       \
		BODY;                                                                              \
		BENCH_KEEP(i);                                                                     \
	}

struct bench_variant {
	const char *key;
	void (*loop)(uint64_t n);
	void (*before_run)(void); /* called before every run (drain waits) */
	/* Events committed and dropped so far, where the variant can tell. */
	void (*counts)(uint64_t *committed, uint64_t *dropped);
};

static double bench_tsc_ghz;

static inline uint64_t bench_tsc_begin(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}

static inline uint64_t bench_tsc_end(void)
{
	unsigned aux;
	uint64_t t = __rdtscp(&aux);
	_mm_lfence();
	return t;
}

static void bench_calibrate(unsigned ms)
{
	uint64_t t0 = bench_mono_raw_ns(), c0 = __rdtsc(), t1, c1;
	do {
		t1 = bench_mono_raw_ns();
		c1 = __rdtsc();
	} while (t1 - t0 < ms * 1000000ull);
	bench_tsc_ghz = (double)(c1 - c0) / (double)(t1 - t0);
}

struct bench_opts {
	uint64_t iters;	    /* per timed run */
	uint64_t warm;	    /* warm-up iterations, run in chunks before the timed runs */
	int reps;	    /* timed runs; the median is reported */
	unsigned cal_ms;    /* TSC calibration time */
	const char *prefix; /* prepended to the keys printed */
};

#define BENCH_WARM_CHUNK 262144u
#define BENCH_MAX_VARIANTS 16

/* Timed runs of one variant and the events they committed and dropped. */
struct bench_result {
	const struct bench_variant *v;
	double *cyc;
	uint64_t committed, dropped;
};

static void bench_warm(const struct bench_variant *v, uint64_t warm)
{
	/* In chunks, letting a consumer catch up between them. */
	for (uint64_t done = 0; done < warm; done += BENCH_WARM_CHUNK) {
		if (v->before_run)
			v->before_run();
		v->loop(warm - done < BENCH_WARM_CHUNK ? warm - done : BENCH_WARM_CHUNK);
	}
}

static void bench_time(struct bench_result *res, int r, uint64_t iters)
{
	const struct bench_variant *v = res->v;
	uint64_t c0 = 0, d0 = 0, c1 = 0, d1 = 0;
	if (v->before_run)
		v->before_run();
	if (v->counts)
		v->counts(&c0, &d0);
	uint64_t t0 = bench_tsc_begin();
	v->loop(iters);
	uint64_t t1 = bench_tsc_end();
	if (v->counts)
		v->counts(&c1, &d1);
	res->cyc[r] = (double)(t1 - t0) / (double)iters;
	res->committed += c1 - c0;
	res->dropped += d1 - d0;
}

static void bench_report(struct bench_result *res, const struct bench_opts *o)
{
	int n = o->reps;
	double *cyc = res->cyc;
	qsort(cyc, (size_t)n, sizeof(cyc[0]), bench_cmp_double);
	double med = n % 2 ? cyc[n / 2] : (cyc[n / 2 - 1] + cyc[n / 2]) / 2;
	printf("ROW %s%s %.3f %.2f %.3f %.3f %llu %llu %llu %d\n", o->prefix, res->v->key,
	       med / bench_tsc_ghz, med, cyc[0] / bench_tsc_ghz, cyc[n - 1] / bench_tsc_ghz,
	       (unsigned long long)res->committed, (unsigned long long)res->dropped,
	       (unsigned long long)o->iters, n);
}

/* Runs the variants named on the command line:
 *   PROG [-n ITERS] [-r REPS] [-w WARMUP] [-p PREFIX] [-c CALIBRATION_MS] KEY... */
static int bench_main(int argc, char **argv, const struct bench_variant *vars, size_t nr_vars)
{
	struct bench_opts o = {
	    .iters = 10000000, .warm = UINT64_MAX, .reps = 7, .cal_ms = 200, .prefix = ""};
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc || argv[i][1] == 0 || argv[i][2] != 0)
			goto usage;
		const char *a = argv[i + 1];
		switch (argv[i][1]) {
		case 'n':
			o.iters = strtoull(a, NULL, 0);
			break;
		case 'r':
			o.reps = atoi(a);
			break;
		case 'w':
			o.warm = strtoull(a, NULL, 0);
			break;
		case 'p':
			o.prefix = a;
			break;
		case 'c':
			o.cal_ms = (unsigned)atoi(a);
			break;
		default:
			goto usage;
		}
	}
	if (o.iters == 0 || o.reps < 1 || o.cal_ms < 1 || i >= argc)
		goto usage;
	if (o.warm == UINT64_MAX)
		o.warm = o.iters;
	bench_calibrate(o.cal_ms);
	printf("TSC %.4f\n", bench_tsc_ghz);
	struct bench_result res[BENCH_MAX_VARIANTS];
	int nr = 0;
	for (; i < argc; i++) {
		size_t k = 0;
		while (k < nr_vars && strcmp(vars[k].key, argv[i]) != 0)
			k++;
		if (k == nr_vars || nr == BENCH_MAX_VARIANTS) {
			fprintf(stderr, "%s: unknown variant '%s'\n", argv[0], argv[i]);
			return 2;
		}
		res[nr] =
		    (struct bench_result){&vars[k], calloc((size_t)o.reps, sizeof(double)), 0, 0};
		if (!res[nr].cyc)
			return 1;
		nr++;
	}
	for (int k = 0; k < nr; k++)
		bench_warm(res[k].v, o.warm);
	/* Interleaved, so that a change in the machine's load hits every variant. */
	for (int r = 0; r < o.reps; r++)
		for (int k = 0; k < nr; k++)
			bench_time(&res[k], r, o.iters);
	for (int k = 0; k < nr; k++) {
		bench_report(&res[k], &o);
		free(res[k].cyc);
	}
	fflush(stdout);
	return 0;
usage:
	fprintf(stderr,
		"usage: %s [-n ITERS] [-r REPS] [-w WARMUP] [-p PREFIX] [-c MS] VARIANT...\n"
		"  variants:",
		argv[0]);
	for (size_t k = 0; k < nr_vars; k++)
		fprintf(stderr, " %s", vars[k].key);
	fprintf(stderr, "\n");
	return 2;
}

/* The empty loop: the baseline every program measures in its own process. */
static __attribute__((noinline, unused)) void bench_loop_none(uint64_t n)
{
	BENCH_LOOP(n, i, (void)0);
}

#endif
