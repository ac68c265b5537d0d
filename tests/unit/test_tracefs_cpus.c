/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the tree lets a buffer do per CPU, driven through its path calls:
 * tracing_cpumask (its text, errors, and that a CPU left out records
 * nothing, on the inline fast path too), per_cpu/cpuN/buffer_size_kb (a
 * thread's ring takes the size of the CPU it opens it on; the top file reads
 * "X" while they differ) and options/stacktrace (a stack after each event). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"

/* ---- helpers ---- */

static int nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? (int)n : 1;
}

/* Whether the test may run on CPUs 0 and 1. */
static bool two_cpus(void)
{
	cpu_set_t set;
	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_ISSET(0, &set) &&
	       CPU_ISSET(1, &set);
}

/* The kernel's text of a mask of the possible CPUs, all set. */
static const char *all_cpus(void)
{
	static char buf[4096];
	int n = nr_cpus(), width = n % 32 ? n % 32 : 32;
	size_t at = 0;
	for (int lo = (n - 1) / 32 * 32; lo >= 0; lo -= 32) {
		uint32_t v = width == 32 ? 0xffffffffu : (1u << width) - 1;
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%0*x",
				       lo + width < n ? "," : "", (width + 3) / 4, v);
		width = 32;
	}
	snprintf(buf + at, sizeof(buf) - at, "\n");
	return buf;
}

struct on_cpu {
	int cpu;
	int a;
};

/* Writes a num record with a = arg->a from a new thread bound to arg->cpu. */
static void *pinned(void *arg)
{
	const struct on_cpu *oc = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(oc->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0 || sched_getcpu() != oc->cpu)
		return (void *)1;
	trace_num(oc->a, 0, "pinned", "/p");
	return NULL;
}

static void emit_on(int cpu, int a)
{
	pthread_t th;
	struct on_cpu oc = {cpu, a};
	void *ret;
	assert_int_equal(pthread_create(&th, NULL, pinned, &oc), 0);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_null(ret);
}

static bool has_num(const char *in, int a)
{
	char needle[32];
	snprintf(needle, sizeof(needle), "num: a=%d ", a);
	char *t = rd(p(in, "trace"));
	bool found = strstr(t, needle) != NULL;
	free(t);
	return found;
}

static unsigned long read_ul(const char *path)
{
	char *t = rd(path);
	unsigned long v = strtoul(t, NULL, 10);
	free(t);
	return v;
}

static cpu_set_t start_set; /* the CPUs the test may run on */

/* Back on every CPU, each traced, whatever a failed test left. */
static int unpin(void **state)
{
	(void)state;
	sched_setaffinity(0, sizeof(start_set), &start_set);
	tfs_echo("tracing_cpumask", all_cpus(), UFT_TFS_WRITE | UFT_TFS_TRUNC);
	return 0;
}

/* ---- tracing_cpumask ---- */

static void test_cpumask_text(void **state)
{
	(void)state;
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat("tracing_cpumask", &st), 0);
	assert_int_equal(st.mode, 0644);
	mkinst("mtext");
	check("tracing_cpumask", all_cpus());
	check(p("mtext", "tracing_cpumask"), all_cpus());
	if (nr_cpus() != 2) {
		rminst("mtext");
		skip();
	}
	check("tracing_cpumask", "3\n");
	assert_int_equal(echo(p("mtext", "tracing_cpumask"), W, "2"), 0);
	check(p("mtext", "tracing_cpumask"), "2\n");
	check("tracing_cpumask", "3\n"); /* each buffer has its own */
	/* Bits of CPUs that do not exist are dropped; groups of 32 bits are
	 * separated by commas, a trailing one ignored. */
	assert_int_equal(echo(p("mtext", "tracing_cpumask"), W, "ff"), 0);
	check(p("mtext", "tracing_cpumask"), "3\n");
	assert_int_equal(echo(p("mtext", "tracing_cpumask"), W, "f0,00000001,"), 0);
	check(p("mtext", "tracing_cpumask"), "1\n");
	/* Errors change nothing. */
	assert_int_equal(echo(p("mtext", "tracing_cpumask"), W, "0x2"), -EINVAL);
	assert_int_equal(echo(p("mtext", "tracing_cpumask"), W, "g"), -EINVAL);
	assert_int_equal(echo(p("mtext", "tracing_cpumask"), W, "123456789"), -EOVERFLOW);
	check(p("mtext", "tracing_cpumask"), "1\n");
	/* No CPU at all is a mask too. */
	assert_int_equal(echo(p("mtext", "tracing_cpumask"), W, ""), 0);
	check(p("mtext", "tracing_cpumask"), "0\n");
	rminst("mtext");
	/* A new instance in the same slot starts with every CPU. */
	mkinst("mtext");
	check(p("mtext", "tracing_cpumask"), "3\n");
	rminst("mtext");
}

/* A record made on a CPU outside the mask is not kept: in an instance, and
 * at the top, where a thread with its ring open writes inline while no CPU
 * is left out. The test's own thread stays on CPU 0 meanwhile. */
static void cpumask_filters(const char *in)
{
	if (!two_cpus())
		skip();
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
	assert_int_equal(sched_getcpu(), 0);
	assert_int_equal(echo(p(in, "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(p(in, "trace"), W, ""), 0);
	trace_num(100, 0, "self", "/p");
	assert_true(has_num(in, 100));
	assert_int_equal(echo(p(in, "tracing_cpumask"), W, "2"), 0);
	trace_num(101, 0, "self", "/p");
	emit_on(0, 102);
	emit_on(1, 103);
	assert_false(has_num(in, 101));
	assert_false(has_num(in, 102));
	assert_true(has_num(in, 103));
	/* The kept record is CPU 1's. */
	char *t = rd(p(in, "per_cpu/cpu1/trace"));
	assert_non_null(strstr(t, "num: a=103 "));
	free(t);
	assert_int_equal(echo(p(in, "tracing_cpumask"), W, "3"), 0);
	trace_num(104, 0, "self", "/p");
	assert_true(has_num(in, 104));
	assert_int_equal(echo(p(in, "events/tfsev/num/enable"), W, "0"), 0);
}

static void test_cpumask_instance(void **state)
{
	(void)state;
	mkinst("mask");
	cpumask_filters("mask");
	rminst("mask");
}

static void test_cpumask_top(void **state)
{
	(void)state;
	cpumask_filters("");
}

/* trace_marker writes keep to the mask as well (the kernel's per-CPU buffer
 * is off for every writer). */
static void *marker_on_cpu0(void *arg)
{
	(void)arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return (void *)1;
	return (void *)(intptr_t)echo(p("mmark", "trace_marker"), W, "masked-marker");
}

static void test_cpumask_marker(void **state)
{
	(void)state;
	if (!two_cpus())
		skip();
	mkinst("mmark");
	assert_int_equal(echo(p("mmark", "tracing_cpumask"), W, "2"), 0);
	pthread_t th;
	void *ret;
	assert_int_equal(pthread_create(&th, NULL, marker_on_cpu0, NULL), 0);
	assert_int_equal(pthread_join(th, &ret), 0);
	char *t = rd(p("mmark", "trace"));
	assert_null(strstr(t, "masked-marker"));
	free(t);
	rminst("mmark");
}

/* The function tracer's records keep to the mask too. */
void cpus_traced_fn(int x);
__attribute__((noinline)) void cpus_traced_fn(int x)
{
	__asm__ volatile("" ::"r"(x) : "memory");
}

static void test_cpumask_function(void **state)
{
	(void)state;
	if (!two_cpus())
		skip();
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
	mkinst("mfn");
	assert_int_equal(echo(p("mfn", "set_ftrace_filter"), W, "cpus_traced_fn"), 0);
	assert_int_equal(echo(p("mfn", "tracing_cpumask"), W, "2"), 0);
	assert_int_equal(echo(p("mfn", "current_tracer"), W, "function"), 0);
	cpus_traced_fn(1);
	char *t = rd(p("mfn", "trace"));
	assert_null(strstr(t, "cpus_traced_fn"));
	free(t);
	assert_int_equal(echo(p("mfn", "tracing_cpumask"), W, "1"), 0);
	cpus_traced_fn(2);
	t = rd(p("mfn", "trace"));
	assert_int_equal(tfs_count(t, ": cpus_traced_fn <-"), 1);
	free(t);
	assert_int_equal(echo(p("mfn", "current_tracer"), W, "nop"), 0);
	rminst("mfn");
}

/* ---- per-CPU ring sizes ---- */

static void per_cpu_sizes(const char *in)
{
	if (!two_cpus() || nr_cpus() != 2)
		skip();
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat(p(in, "per_cpu/cpu0/buffer_size_kb"), &st), 0);
	assert_int_equal(st.mode, 0644);
	assert_int_equal(echo(p(in, "buffer_size_kb"), W, "64"), 0);
	check(p(in, "per_cpu/cpu0/buffer_size_kb"), "64\n");
	check(p(in, "per_cpu/cpu1/buffer_size_kb"), "64\n");
	assert_int_equal(echo(p(in, "per_cpu/cpu0/buffer_size_kb"), W, "8"), 0);
	check(p(in, "per_cpu/cpu0/buffer_size_kb"), "8\n");
	check(p(in, "per_cpu/cpu1/buffer_size_kb"), "64\n");
	check(p(in, "buffer_size_kb"), "X\n");
	assert_int_equal(echo(p(in, "per_cpu/cpu0/buffer_size_kb"), W, "0"), -EINVAL);
	check(p(in, "per_cpu/cpu0/buffer_size_kb"), "8\n");

	/* A thread's ring opened on CPU 0 has CPU 0's size, one opened on
	 * CPU 1 CPU 1's. */
	assert_int_equal(echo(p(in, "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(p(in, "trace"), W, ""), 0);
	unsigned long before = read_ul(p(in, "buffer_total_size_kb"));
	emit_on(0, 200);
	assert_int_equal(read_ul(p(in, "buffer_total_size_kb")), before + 8);
	emit_on(1, 201);
	assert_int_equal(read_ul(p(in, "buffer_total_size_kb")), before + 8 + 64);
	assert_true(has_num(in, 200));
	assert_true(has_num(in, 201));
	assert_int_equal(echo(p(in, "events/tfsev/num/enable"), W, "0"), 0);

	/* The top file sets every CPU's size. */
	assert_int_equal(echo(p(in, "buffer_size_kb"), W, "16"), 0);
	check(p(in, "buffer_size_kb"), "16\n");
	check(p(in, "per_cpu/cpu0/buffer_size_kb"), "16\n");
	check(p(in, "per_cpu/cpu1/buffer_size_kb"), "16\n");
	/* Setting each CPU alike reads as one size again. */
	assert_int_equal(echo(p(in, "per_cpu/cpu1/buffer_size_kb"), W, "32"), 0);
	check(p(in, "buffer_size_kb"), "X\n");
	assert_int_equal(echo(p(in, "per_cpu/cpu0/buffer_size_kb"), W, "32"), 0);
	check(p(in, "buffer_size_kb"), "32\n");
	assert_int_equal(echo(p(in, "buffer_size_kb"), W, "1024"), 0);
}

static void test_per_cpu_size_instance(void **state)
{
	(void)state;
	mkinst("sizes");
	per_cpu_sizes("sizes");
	rminst("sizes");
}

static void test_per_cpu_size_top(void **state)
{
	(void)state;
	per_cpu_sizes("");
}

/* ---- options/stacktrace ---- */

void stack_caller(int a);
__attribute__((noinline)) void stack_caller(int a)
{
	trace_num(a, 0, "stk", "/s");
	__asm__ volatile("" ::: "memory"); /* not a tail call */
}

static void stacktrace_option(const char *in)
{
	check(p(in, "options/stacktrace"), "0\n");
	assert_int_equal(echo(p(in, "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(p(in, "trace"), W, ""), 0);
	stack_caller(300);
	assert_int_equal(echo(p(in, "options/stacktrace"), W, "1"), 0);
	check(p(in, "options/stacktrace"), "1\n");
	stack_caller(301);
	assert_int_equal(echo(p(in, "options/stacktrace"), W, "0"), 0);
	stack_caller(302);
	char *t = rd(p(in, "trace"));
	assert_int_equal(tfs_count(t, "<stack trace>\n"), 1);
	/* Right after its event, starting at the event's caller. */
	const char *ev = strstr(t, "num: a=301 ");
	assert_non_null(ev);
	const char *nl = strchr(ev, '\n');
	assert_non_null(nl);
	const char *st = strstr(nl + 1, ": <stack trace>\n => ");
	assert_non_null(st);
	assert_true(strchr(nl + 1, '\n') > st);
	st += strlen(": <stack trace>\n");
	/* The caller's frame, or the .cold part the compiler split off for the
	 * unlikely path that holds the call. */
	if (strncmp(st, " => stack_caller\n", 17) != 0 &&
	    strncmp(st, " => stack_caller.cold\n", 22) != 0)
		fail_msg("stack:\n%s", t);
	assert_non_null(strstr(t, "num: a=300 "));
	assert_non_null(strstr(t, "num: a=302 "));
	free(t);
	assert_int_equal(echo(p(in, "events/tfsev/num/enable"), W, "0"), 0);
}

static void test_stacktrace_option_instance(void **state)
{
	(void)state;
	mkinst("stko");
	stacktrace_option("stko");
	char *t = rd(p("stko", "trace_options"));
	assert_non_null(strstr(t, "\nnostacktrace\n"));
	free(t);
	rminst("stko");
}

static void test_stacktrace_option_top(void **state)
{
	(void)state;
	stacktrace_option("");
}

int main(void)
{
	if (sched_getaffinity(0, sizeof(start_set), &start_set) != 0)
		return 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_cpumask_text, unpin),
	    cmocka_unit_test_teardown(test_cpumask_instance, unpin),
	    cmocka_unit_test_teardown(test_cpumask_top, unpin),
	    cmocka_unit_test_teardown(test_cpumask_marker, unpin),
	    cmocka_unit_test_teardown(test_cpumask_function, unpin),
	    cmocka_unit_test_teardown(test_per_cpu_size_instance, unpin),
	    cmocka_unit_test_teardown(test_per_cpu_size_top, unpin),
	    cmocka_unit_test_teardown(test_stacktrace_option_instance, unpin),
	    cmocka_unit_test_teardown(test_stacktrace_option_top, unpin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
