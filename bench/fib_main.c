/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Times bf_fib(N) in a program without libuft, for tracers that run it from
 * outside (uftrace): prints "FIB ns_per_call calls", the median of the timed
 * runs. Nothing here is instrumented but bf_fib.
 *
 *   fib_main [-n N] [-r REPS] [-c CPU]   (defaults 27, 5, no pinning) */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench_time.h"
#include "ftrace_fib.h"

static double now_ns(void)
{
	return (double)bench_mono_raw_ns();
}

int main(int argc, char **argv)
{
	unsigned n = 27;
	int reps = 5, opt;
	while ((opt = getopt(argc, argv, "n:r:c:")) != -1) {
		if (opt == 'n') {
			n = (unsigned)atoi(optarg);
		} else if (opt == 'r') {
			reps = atoi(optarg);
		} else if (opt == 'c') {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(atoi(optarg), &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				perror("fib_main: sched_setaffinity");
		} else {
			fprintf(stderr, "usage: fib_main [-n N] [-r REPS] [-c CPU]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > 32 || n > 40) {
		fprintf(stderr, "fib_main: -r is 1..32, -n at most 40\n");
		return 2;
	}
	double t[32];
	unsigned long s = bf_fib(n); /* warm-up */
	for (int r = 0; r < reps; r++) {
		double a = now_ns();
		s += bf_fib(n);
		t[r] = (now_ns() - a) / (double)bf_fib_calls(n);
	}
	__asm__ volatile("" : : "r"(s));
	qsort(t, (size_t)reps, sizeof(t[0]), bench_cmp_double);
	printf("FIB %.3f %lu\n", t[reps / 2], bf_fib_calls(n));
	return 0;
}
