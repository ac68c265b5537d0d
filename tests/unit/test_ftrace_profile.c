/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The function profiler (function_profile_enabled, trace_stat/functionN)
 * and the stack tracer (stack_trace, stack_max_size, stack_trace_filter,
 * stack_tracer_enabled) on this program's own functions, built with
 * patchable entries: hit counts of known calls, the kernel's formats, the
 * call chain of a known deep call, the reset and the filters. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tfs_helpers.h"
#include <uft/uft.h>

static volatile unsigned long sink;

/* The profiled functions: fp_top calls fp_mid, which calls fp_leaf. */
__attribute__((noinline, used)) void fp_leaf(void)
{
	sink++;
}

__attribute__((noinline, used)) void fp_mid(void)
{
	fp_leaf();
	sink++;
}

__attribute__((noinline, used)) void fp_top(void)
{
	fp_mid();
	sink++;
}

__attribute__((noinline, used)) void fp_other(void)
{
	sink++;
}

/* Keeps a whole array in the frame: the compiler must assume it is read. */
#define escape(p) __asm__ volatile("" : : "r"(p) : "memory")

/* A known deep chain: fp_d1 -> fp_d2 -> fp_d3 -> fp_d4, each with a frame
 * of its own (no tail call: work follows each call). */
__attribute__((noinline, used)) unsigned long fp_d4(void)
{
	char pad[64];
	pad[0] = 1;
	escape(pad);
	return pad[0] + sink;
}

__attribute__((noinline, used)) unsigned long fp_d3(void)
{
	char pad[96];
	pad[0] = (char)fp_d4();
	escape(pad);
	return pad[0] + 1;
}

__attribute__((noinline, used)) unsigned long fp_d2(void)
{
	char pad[128];
	pad[0] = (char)fp_d3();
	escape(pad);
	return pad[0] + 1;
}

__attribute__((noinline, used)) unsigned long fp_d1(void)
{
	char pad[160];
	pad[0] = (char)fp_d2();
	escape(pad);
	return pad[0] + 1;
}

static char *cat(const char *path)
{
	int err = 0;
	char *s = tfs_cat(path, &err);
	assert_int_equal(err, 0);
	return s;
}

static int echo(const char *path, const char *text)
{
	return tfs_echo(path, text, UFT_TFS_TRUNC);
}

static char stat_file[32]; /* trace_stat/function<this CPU> */

/* The hits of fn in the profile (-1: not listed); its line in *line. */
static long hits_of(const char *text, const char *fn, const char **line)
{
	char key[64];
	snprintf(key, sizeof(key), "\n  %-30.30s  ", fn);
	const char *p = strstr(text, key);
	if (!p)
		return -1;
	if (line)
		*line = p + 1;
	return strtol(p + strlen(key), NULL, 10);
}

static const char stat_header[] =
    "  Function                               Hit    Time            Avg             s^2\n"
    "  --------                               ---    ----            ---             ---\n";

static void test_profile_counts(void **state)
{
	assert_int_equal(echo("set_ftrace_filter", "fp_top fp_mid fp_leaf"), 0);
	assert_int_equal(echo("function_profile_enabled", "1"), 0);
	char *s = cat("function_profile_enabled");
	assert_string_equal(s, "1\n");
	free(s);
	for (int i = 0; i < 7; i++)
		fp_top();
	for (int i = 0; i < 3; i++)
		fp_leaf();
	fp_other(); /* not in set_ftrace_filter */
	assert_int_equal(echo("function_profile_enabled", "0"), 0);

	s = cat(stat_file);
	assert_memory_equal(s, stat_header, sizeof(stat_header) - 1);
	const char *top, *mid, *leaf;
	assert_int_equal(hits_of(s, "fp_top", &top), 7);
	assert_int_equal(hits_of(s, "fp_mid", &mid), 7);
	assert_int_equal(hits_of(s, "fp_leaf", &leaf), 10);
	assert_int_equal(hits_of(s, "fp_other", NULL), -1);
	/* Sorted by total time: fp_top's calls hold fp_mid's. */
	assert_true(top < mid);
	/* The columns: hits in 10, then three durations in us. */
	char want[64];
	snprintf(want, sizeof(want), "  %-30s  %10d    ", "fp_top", 7);
	assert_int_equal(strncmp(top, want, strlen(want)), 0);
	assert_non_null(strstr(top, " us "));
	free(s);

	/* Off: the counts stay as they are. */
	fp_top();
	s = cat(stat_file);
	assert_int_equal(hits_of(s, "fp_top", NULL), 7);
	free(s);

	/* On again: from zero. */
	assert_int_equal(echo("function_profile_enabled", "1"), 0);
	fp_leaf();
	assert_int_equal(echo("function_profile_enabled", "0"), 0);
	s = cat(stat_file);
	assert_int_equal(hits_of(s, "fp_top", NULL), -1);
	assert_int_equal(hits_of(s, "fp_leaf", NULL), 1);
	free(s);
	assert_int_equal(echo("set_ftrace_filter", ""), 0);
}

/* The profiler and the graph tracer share the return hooks: one at a
 * time, as in the kernel (6.1). */
static void test_profile_graph_busy(void **state)
{
	assert_int_equal(echo("function_profile_enabled", "1"), 0);
	assert_int_equal(echo("current_tracer", "function_graph"), -EBUSY);
	assert_int_equal(echo("current_tracer", "function"), 0);
	assert_int_equal(echo("current_tracer", "nop"), 0);
	assert_int_equal(echo("function_profile_enabled", "0"), 0);
	assert_int_equal(echo("current_tracer", "function_graph"), 0);
	assert_int_equal(echo("function_profile_enabled", "1"), -EBUSY);
	assert_int_equal(echo("current_tracer", "nop"), 0);
	assert_int_equal(echo("function_profile_enabled", "2x"), -EINVAL);
}

struct frame {
	unsigned depth, size;
	char loc[128];
};

/* The entries of stack_trace; their number. */
static int parse_stack(const char *s, struct frame *f, int max)
{
	unsigned n;
	assert_int_equal(sscanf(s, "        Depth    Size   Location    (%u entries)\n", &n), 1);
	const char *p = strstr(s, "        -----    ----   --------\n");
	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	int k = 0;
	for (; *p && k < max; k++) {
		int idx;
		assert_int_equal(
		    sscanf(p, "%3d) %8u   %5u   %127s", &idx, &f[k].depth, &f[k].size, f[k].loc),
		    4);
		assert_int_equal(idx, k);
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	assert_int_equal((unsigned)k, n);
	return k;
}

static void test_stack_trace(void **state)
{
	char *s = cat("stack_trace_filter");
	assert_string_equal(s, "#### all functions enabled ####\n");
	free(s);
	assert_int_equal(echo("stack_trace_filter", "fp_d4"), 0);
	assert_int_equal(echo("stack_max_size", "0"), 0);
	assert_int_equal(echo("stack_tracer_enabled", "1"), 0);
	fp_d4(); /* shallow: then the deep call is a new maximum */
	sink += fp_d1();
	assert_int_equal(echo("stack_tracer_enabled", "0"), 0);
	s = cat("stack_tracer_enabled");
	assert_string_equal(s, "0\n");
	free(s);

	s = cat("stack_trace");
	struct frame f[64];
	int n = parse_stack(s, f, 64);
	assert_true(n >= 5);
	static const char *const chain[] = {"fp_d4+0x", "fp_d3+0x", "fp_d2+0x", "fp_d1+0x"};
	for (int i = 0; i < 4; i++)
		if (strncmp(f[i].loc, chain[i], strlen(chain[i])) != 0)
			fail_msg("entry %d is %s:\n%s", i, f[i].loc, s);
	/* Depths from the stack's top, each frame's size the difference. */
	for (int i = 0; i + 1 < n; i++) {
		assert_true(f[i].depth > f[i + 1].depth);
		assert_int_equal(f[i].size, f[i].depth - f[i + 1].depth);
	}
	assert_int_equal(f[n - 1].size, f[n - 1].depth);
	if (f[2].size < 128) /* fp_d2's pad */
		fail_msg("%s", s);
	free(s);
	s = cat("stack_max_size");
	assert_int_equal(strtoul(s, NULL, 10), f[0].depth);
	free(s);

	/* 0 starts again: the shallow call is now the deepest. */
	assert_int_equal(echo("stack_max_size", "0"), 0);
	s = cat("stack_max_size");
	assert_string_equal(s, "0\n");
	free(s);
	assert_int_equal(echo("stack_tracer_enabled", "1"), 0);
	fp_d4();
	assert_int_equal(echo("stack_tracer_enabled", "0"), 0);
	s = cat("stack_trace");
	n = parse_stack(s, f, 64);
	assert_true(n >= 2);
	assert_int_equal(strncmp(f[0].loc, "fp_d4+0x", 8), 0);
	assert_int_not_equal(strncmp(f[1].loc, "fp_d3+0x", 8), 0);
	free(s);

	/* The filter takes globs as set_ftrace_filter does (and, as it,
	 * refuses a name that matches nothing). */
	assert_int_equal(echo("stack_trace_filter", "no_such_function_here"), -EINVAL);
	assert_int_equal(echo("stack_trace_filter", "fp_d[23]"), 0);
	s = cat("stack_trace_filter");
	assert_int_equal(tfs_count(s, "\n"), 2);
	assert_non_null(strstr(s, "fp_d2\n"));
	assert_non_null(strstr(s, "fp_d3\n"));
	free(s);
	assert_int_equal(echo("stack_max_size", "0"), 0);
	assert_int_equal(echo("stack_tracer_enabled", "1"), 0);
	sink += fp_d1();
	assert_int_equal(echo("stack_tracer_enabled", "0"), 0);
	s = cat("stack_trace");
	n = parse_stack(s, f, 64);
	if (strncmp(f[0].loc, "fp_d3+0x", 8) != 0)
		fail_msg("%s", s);
	free(s);
	assert_int_equal(echo("stack_trace_filter", ""), 0);
}

int main(void)
{
	setenv("UFT_CTL", "0", 1);
	/* One CPU (the one it runs on: it may be given only some), so every
	 * count lands in that CPU's trace_stat file. */
	int cpu = sched_getcpu();
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		perror("sched_setaffinity");
		return 1;
	}
	snprintf(stat_file, sizeof(stat_file), "trace_stat/function%d", cpu);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_profile_counts),
	    cmocka_unit_test(test_profile_graph_busy),
	    cmocka_unit_test(test_stack_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
