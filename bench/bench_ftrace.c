/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What function tracing costs per call: a call to an empty function without
 * a sled, with the sled and no tracer (the cost every traced build pays), and
 * with the function and function_graph tracers on that function (in-process
 * buffer, overwrite mode); then bf_fib(27) untraced and under each tracer,
 * the calls that uftrace is timed on too (bench/run.sh). Prints ns per call,
 * the median of the timed runs, and for fib "FIB_OVERHEAD tracer ns" lines:
 * (traced - untraced) / calls. Never checks a timing. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_time.h"
#include "ftrace_fib.h"
#include "ftrace_fn.h"
#include "runtime/tracefs/tracefs.h"

static double now_ns(void)
{
	return (double)bench_mono_raw_ns();
}

static double run(unsigned (*fn)(unsigned), long n, int reps)
{
	double t[32];
	unsigned s = 0;
	for (long i = 0; i < n / 10; i++) /* warm-up */
		s = fn(s);
	for (int r = 0; r < reps; r++) {
		double a = now_ns();
		for (long i = 0; i < n; i++)
			s = fn(s);
		t[r] = (now_ns() - a) / (double)n;
	}
	__asm__ volatile("" : : "r"(s));
	qsort(t, (size_t)reps, sizeof(t[0]), bench_cmp_double);
	return t[reps / 2];
}

/* ns per call of bf_fib(FIB_N), median of the timed runs. */
#define FIB_N 27
static double run_fib(int reps)
{
	double t[32];
	unsigned long s = bf_fib(FIB_N); /* warm-up */
	for (int r = 0; r < reps; r++) {
		double a = now_ns();
		s += bf_fib(FIB_N);
		t[r] = (now_ns() - a) / (double)bf_fib_calls(FIB_N);
	}
	__asm__ volatile("" : : "r"(s));
	qsort(t, (size_t)reps, sizeof(t[0]), bench_cmp_double);
	return t[reps / 2];
}

static int put(const char *path, const char *text)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | UFT_TFS_TRUNC, &h);
	if (rc)
		return rc;
	ssize_t w = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return w < 0 ? (int)w : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	int reps = argc > 2 ? atoi(argv[2]) : 7;
	if (reps < 1 || reps > 32)
		reps = 7;
	printf("%-44s %9.2f\n", "ftrace: call, no sled", run(bf_plain, n, reps));
	printf("%-44s %9.2f\n", "ftrace: call, sled, no tracer", run(bf_sled, n, reps));
	if (put("set_ftrace_filter", "bf_sled\n") || put("current_tracer", "function\n")) {
		fprintf(stderr, "bench_ftrace: cannot start the function tracer\n");
		return 1;
	}
	printf("%-44s %9.2f\n", "ftrace: call, function tracer", run(bf_sled, n / 10, reps));
	if (put("current_tracer", "function_graph\n")) {
		fprintf(stderr, "bench_ftrace: cannot start the function_graph tracer\n");
		return 1;
	}
	printf("%-44s %9.2f\n", "ftrace: call, function_graph tracer", run(bf_sled, n / 10, reps));
	if (put("current_tracer", "nop\n") || put("set_ftrace_filter", "bf_fib\n")) {
		fprintf(stderr, "bench_ftrace: cannot select bf_fib\n");
		return 1;
	}
	double fib0 = run_fib(reps);
	printf("%-44s %9.2f\n", "ftrace: fib(27), no tracer", fib0);
	static const char *const tracers[] = {"function", "function_graph"};
	for (int i = 0; i < 2; i++) {
		char cmd[32];
		snprintf(cmd, sizeof(cmd), "%s\n", tracers[i]);
		if (put("current_tracer", cmd)) {
			fprintf(stderr, "bench_ftrace: cannot start the %s tracer\n", tracers[i]);
			return 1;
		}
		double t = run_fib(reps);
		char label[64];
		snprintf(label, sizeof(label), "ftrace: fib(27), %s tracer", tracers[i]);
		printf("%-44s %9.2f\n", label, t);
		printf("FIB_OVERHEAD %s %.3f\n", tracers[i], t - fib0);
		put("current_tracer", "nop\n");
	}
	return 0;
}
