/* The timing harness shared by the bench programs: a TSC calibrated against
 * CLOCK_MONOTONIC_RAW, loops timed with rdtsc, the median of several runs.
 * Every program prints one line per variant:
 *   ROW key ns_median cycles_median ns_min ns_max committed dropped iters reps */
#ifndef UFT_BENCH_H
#define UFT_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

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

static uint64_t bench_mono_raw_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void bench_calibrate(void)
{
	uint64_t t0 = bench_mono_raw_ns(), c0 = __rdtsc(), t1, c1;
	do {
		t1 = bench_mono_raw_ns();
		c1 = __rdtsc();
	} while (t1 - t0 < 200000000ull);
	bench_tsc_ghz = (double)(c1 - c0) / (double)(t1 - t0);
}

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One warm-up run, then `reps` timed runs of `iters` iterations. */
static void bench_run(const struct bench_variant *v, uint64_t iters, int reps)
{
	double cyc[reps];
	uint64_t c0 = 0, d0 = 0, c1 = 0, d1 = 0;
	if (v->before_run)
		v->before_run();
	v->loop(iters);
	for (int r = 0; r < reps; r++) {
		if (v->before_run)
			v->before_run();
		if (r == 0 && v->counts)
			v->counts(&c0, &d0);
		uint64_t t0 = bench_tsc_begin();
		v->loop(iters);
		uint64_t t1 = bench_tsc_end();
		cyc[r] = (double)(t1 - t0) / (double)iters;
	}
	if (v->counts)
		v->counts(&c1, &d1);
	qsort(cyc, (size_t)reps, sizeof(cyc[0]), bench_cmp_double);
	double med = reps % 2 ? cyc[reps / 2] : (cyc[reps / 2 - 1] + cyc[reps / 2]) / 2;
	printf("ROW %s %.3f %.2f %.3f %.3f %llu %llu %llu %d\n", v->key, med / bench_tsc_ghz, med,
	       cyc[0] / bench_tsc_ghz, cyc[reps - 1] / bench_tsc_ghz,
	       (unsigned long long)(c1 - c0), (unsigned long long)(d1 - d0),
	       (unsigned long long)iters, reps);
	fflush(stdout);
}

/* Runs the variants named on the command line:
 *   PROG [-n ITERS] [-r REPS] KEY... */
static int bench_main(int argc, char **argv, const struct bench_variant *vars, size_t nr_vars)
{
	uint64_t iters = 10000000;
	int reps = 7, i = 1;
	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			goto usage;
		if (strcmp(argv[i], "-n") == 0)
			iters = strtoull(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "-r") == 0)
			reps = atoi(argv[i + 1]);
		else
			goto usage;
	}
	if (iters == 0 || reps < 1 || i >= argc)
		goto usage;
	bench_calibrate();
	printf("TSC %.4f\n", bench_tsc_ghz);
	for (; i < argc; i++) {
		size_t k = 0;
		while (k < nr_vars && strcmp(vars[k].key, argv[i]) != 0)
			k++;
		if (k == nr_vars) {
			fprintf(stderr, "%s: unknown variant '%s'\n", argv[0], argv[i]);
			return 2;
		}
		bench_run(&vars[k], iters, reps);
	}
	return 0;
usage:
	fprintf(stderr, "usage: %s [-n ITERS] [-r REPS] VARIANT...\n  variants:", argv[0]);
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
