/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Return probes through the tree, end to end: r:, p:...%return, fprobe
 * exits and uprobe returns on sled functions, their format, listing and
 * trace text, known return values and $argN at the return, an entry and a
 * return probe on one function beside the function and graph tracers, a
 * long jump out of probed functions, a tail call, a probe inside a signal handler, and
 * definitions made, enabled and deleted while threads run through the
 * function. */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"
#include "tfs_helpers.h"
#include "util/atomics.h"
#include <uft/uft.h>
#include "file_offset.h"
#include "probe_tree.h"

/* The probed functions: built with patchable entries, as every test is. */
__attribute__((noinline, used)) unsigned parse_request(const char *path, unsigned len)
{
	__asm__ volatile("" ::"r"(path) : "memory");
	return len + 1;
}

__attribute__((noinline, used)) long add3(long a, long b, long c)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c;
}

static unsigned (*volatile call_parse)(const char *, unsigned) = parse_request;
static long (*volatile call_add3)(long, long, long) = add3;

/* The caller whose return site the records name. */
__attribute__((noinline, used)) long via_add3(long a, long b, long c)
{
	long r = call_add3(a, b, c);
	__asm__ volatile("" ::"r"(r) : "memory");
	return r;
}

static long (*volatile call_via)(long, long, long) = via_add3;

static int setup(void **state)
{
	(void)state;
	tfs_echo("events/enable", "0", W);
	tfs_echo("current_tracer", "nop", W);
	tfs_echo("set_ftrace_filter", "", W);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", W), 0);
	return 0;
}

static void test_return_values(void **state)
{
	(void)state;
	uint8_t before[5];
	memcpy(before, (const void *)add3, 5);
	assert_int_equal(
	    tfs_echo("kprobe_events", "r:rp add3 $retval:s64 a=$arg1:s64 c=$arg3 sp=$stack", A), 0);
	check("kprobe_events",
	      "r:kprobes/rp add3 arg1=$retval:s64 a=$arg1:s64 c=$arg3 sp=$stack\n");
	char *fmt = rd("events/kprobes/rp/format");
	assert_non_null(
	    strstr(fmt, "\tfield:unsigned long __probe_func;\toffset:8;\tsize:8;\tsigned:0;\n"));
	assert_non_null(
	    strstr(fmt, "\tfield:unsigned long __probe_ret_ip;\toffset:16;\tsize:8;\tsigned:0;\n"));
	assert_non_null(strstr(fmt, "\tfield:s64 arg1;\toffset:24;\tsize:8;\tsigned:1;\n"));
	assert_non_null(strstr(fmt, "print fmt: \"(%lx <- %lx) arg1=%Ld a=%Ld c=0x%Lx sp=0x%Lx\", "
				    "REC->__probe_func, REC->__probe_ret_ip, REC->arg1, REC->a, "
				    "REC->c, REC->sp\n"));
	free(fmt);
	assert_int_equal(tfs_echo("events/kprobes/rp/enable", "1", W), 0);
	assert_memory_not_equal(before, (const void *)add3, 5);
	assert_int_equal(call_via(-40, 2, 0x11), -40 + 2 + 0x11);
	assert_int_equal(call_via(1000000000000, 1, 2), 1000000000003);
	expect_in("trace", "rp: (via_add3+0x", 2);
	expect_in("trace", " <- add3) arg1=-21 a=-40 c=0x11 sp=0x", 1);
	expect_in("trace", " <- add3) arg1=1000000000003 a=1000000000000 c=0x2 sp=0x", 1);
	check("kprobe_profile",
	      "  rp                                                         2               0\n");
	/* The stack pointer after the return, one word above the entry's. */
	char *t = rd("trace");
	char *sp = strstr(t, "sp=0x");
	assert_non_null(sp);
	assert_true(strtoull(sp + 5, NULL, 16) % 8 == 0);
	free(t);
	assert_int_equal(tfs_echo("dynamic_events", "-:rp", A), -EBUSY);
	assert_int_equal(tfs_echo("events/kprobes/rp/enable", "0", W), 0);
	assert_memory_equal(before, (const void *)add3, 5);
	assert_int_equal(tfs_echo("kprobe_events", "-:rp", A), 0);
	/* %return and maxactive, accepted as the kernel's. */
	assert_int_equal(tfs_echo("dynamic_events", "p:pr add3%return $retval", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r10:rm add3 $retval", A), 0);
	check("dynamic_events",
	      "r:kprobes/pr add3 arg1=$retval\nr10:kprobes/rm add3 arg1=$retval\n");
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	call_via(3, 4, 5);
	expect_in("trace", "pr: (via_add3+0x", 1);
	expect_in("trace", "rm: (via_add3+0x", 1);
	expect_in("trace", " <- add3) arg1=0xc\n", 2);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_memory_equal(before, (const void *)add3, 5);
}

/* An fprobe's exit, by %return or by $retval. */
static void test_fprobe_exit(void **state)
{
	(void)state;
	assert_int_equal(
	    tfs_echo("dynamic_events", "f parse_request%return r=$retval:u32 n=$arg2:u32", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "f:fx parse_request $retval:u32", A), 0);
	check("dynamic_events",
	      "f:fprobes/parse_request__exit parse_request%return r=$retval:u32 n=$arg2:u32\n"
	      "f:fprobes/fx parse_request%return arg1=$retval:u32\n");
	assert_int_equal(tfs_echo("events/fprobes/enable", "1", W), 0);
	call_parse("/f", 41);
	expect_in("trace", "parse_request__exit: (test_fprobe_exit+0x", 1);
	expect_in("trace", " <- parse_request) r=42 n=41\n", 1);
	expect_in("trace", "fx: (test_fprobe_exit+0x", 1);
	expect_in("trace", " <- parse_request) arg1=42\n", 1);
	assert_int_equal(tfs_echo("events/fprobes/enable", "0", W), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

/* A uprobe's return: addresses in hex, the return site first. */
static void test_uretprobe(void **state)
{
	(void)state;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	uint64_t off = (uintptr_t)parse_request;
	assert_int_equal(dl_iterate_phdr(foff_one, &off), 1);
	char def[4200], listing[4300];
	snprintf(def, sizeof(def), "r:ur %s:0x%llx $retval:u32", exe, (unsigned long long)off);
	snprintf(listing, sizeof(listing), "r:uprobes/ur %s:0x%016llx arg1=$retval:u32\n", exe,
		 (unsigned long long)off);
	assert_int_equal(tfs_echo("uprobe_events", def, A), 0);
	check("uprobe_events", listing);
	assert_int_equal(tfs_echo("events/uprobes/ur/enable", "1", W), 0);
	call_parse("/u", 77);
	char want[96];
	snprintf(want, sizeof(want), " <- 0x%llx) arg1=78\n",
		 (unsigned long long)(uintptr_t)parse_request);
	expect_in("trace", want, 1);
	expect_in("trace", "ur: (0x", 1);
	assert_int_equal(tfs_echo("events/uprobes/ur/enable", "0", W), 0);
	assert_int_equal(tfs_echo("uprobe_events", "", W), 0);
}

/* An entry and a return probe on one function, with the function tracer
 * and then the graph tracer on the same sled; the bytes back after each. */
static void test_pair_with_tracers(void **state)
{
	(void)state;
	uint8_t before[5];
	memcpy(before, (const void *)add3, 5);
	assert_int_equal(tfs_echo("dynamic_events", "p:pin add3 a=%di:s64", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:pout add3 r=$retval:s64 b=$arg2:s64", A), 0);
	assert_int_equal(tfs_echo("set_ftrace_filter", "add3", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(tfs_echo("current_tracer", "function", W), 0);
	call_via(10, 20, 30);
	expect_in("trace", "pin: (add3+0x0/0x", 1);
	expect_in("trace", ") a=10\n", 1);
	expect_in("trace", " <- add3) r=60 b=20\n", 1);
	expect_in("trace", "add3 <-", 1);
	assert_int_equal(tfs_echo("current_tracer", "function_graph", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	call_via(1, 2, 3);
	/* The probes' records as comments around the function's exit. */
	expect_in("trace", "/* pin: (add3+0x0/0x", 1);
	expect_in("trace", ") a=1 */\n", 1);
	expect_in("trace", "/* pout: (via_add3+0x", 1);
	expect_in("trace", " <- add3) r=6 b=2 */\n", 1);
	expect_in("trace", "add3() {", 1);
	/* The graph tracer off while the return probe stays: the probe pushes
	 * its own entries. */
	assert_int_equal(tfs_echo("current_tracer", "nop", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	call_via(2, 2, 2);
	expect_in("trace", " <- add3) r=6 b=2\n", 1);
	assert_int_equal(tfs_echo("events/kprobes/pin/enable", "0", W), 0);
	call_via(4, 4, 4);
	expect_in("trace", " <- add3) r=12 b=4\n", 1);
	expect_in("trace", ") a=4\n", 0);
	assert_int_equal(tfs_echo("events/kprobes/pout/enable", "0", W), 0);
	assert_memory_equal(before, (const void *)add3, 5);
	/* Return probe first, graph tracer second, probe gone first. */
	assert_int_equal(tfs_echo("events/kprobes/pout/enable", "1", W), 0);
	assert_int_equal(tfs_echo("current_tracer", "function_graph", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/pout/enable", "0", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	call_via(5, 5, 5);
	expect_in("trace", "add3();", 1);
	expect_in("trace", "pout", 0);
	assert_int_equal(tfs_echo("current_tracer", "nop", W), 0);
	assert_memory_equal(before, (const void *)add3, 5);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

/* A long jump out of a probed function: its return never happens (no
 * record, as the kernel's), the function that set the jump returns once. */
static jmp_buf jb;

__attribute__((noinline, used)) void jumper(int v)
{
	longjmp(jb, v);
}

static void (*volatile call_jumper)(int) = jumper;

__attribute__((noinline, used)) long landing(long v)
{
	if (setjmp(jb) == 0)
		call_jumper((int)v);
	return v + 1000;
}

static long (*volatile call_landing)(long) = landing;

static void test_longjmp(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "r:rj jumper", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:rl landing $retval:s64", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:ra add3 $retval:s64", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	for (int graph = 0; graph < 2; graph++) {
		assert_int_equal(tfs_echo("trace", "", W), 0);
		for (long i = 0; i < 3; i++)
			assert_int_equal(call_landing(i), i + 1000);
		assert_int_equal(call_via(1, 1, 1), 3);
		expect_in("trace", "rj: ", 0);
		expect_in("trace", " <- landing) arg1=1000", 1);
		expect_in("trace", " <- landing) arg1=1002", 1);
		expect_in("trace", " <- add3) arg1=3", 1);
		/* The same with the graph tracer's entries under the probes'. */
		assert_int_equal(tfs_echo("current_tracer", "function_graph", W), 0);
	}
	assert_int_equal(tfs_echo("current_tracer", "nop", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

/* A tail call (the compiler makes one of a call in return position at
 * -O1 and above): the callee returns into the caller's hook, both return
 * probes fire, and the callee's names the caller's real return site. */
__attribute__((noinline, used)) long tail_add(long a, long b, long c)
{
	return call_add3(a, b, c);
}

static long (*volatile call_tail)(long, long, long) = tail_add;

static void test_tail_call(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "r:ta add3 $retval:s64", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:tt tail_add $retval:s64", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(call_tail(1, 2, 3), 6);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	expect_in("trace", " <- add3) arg1=6\n", 1);
	expect_in("trace", " <- tail_add) arg1=6\n", 1);
	/* add3 returns to tail_add's caller (a tail call) or into tail_add. */
	char *t = rd("trace");
	char *ta = strstr(t, "ta: ("), *tt = strstr(t, "tt: (");
	assert_non_null(ta);
	assert_non_null(tt);
	bool same = strncmp(ta + 5, tt + 5, strcspn(tt + 5, " ")) == 0;
	bool inside = strncmp(ta + 5, "tail_add+", 9) == 0;
	if (!(same || inside))
		fail_msg("tail call returns: %s", t);
	free(t);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

/* A return probe inside a signal handler, and on the function the signal
 * interrupted. */
static void on_usr1(int sig)
{
	(void)sig;
	call_via(100, 20, 3);
}

__attribute__((noinline, used)) long interrupted(long x)
{
	raise(SIGUSR1);
	return x * 2;
}

static long (*volatile call_interrupted)(long) = interrupted;

static void test_signal_handler(void **state)
{
	(void)state;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:rs add3 $retval:s64 a=$arg1:s64", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:ri interrupted $retval:s64", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(call_interrupted(7), 14);
	expect_in("trace", "rs: (via_add3+0x", 1);
	expect_in("trace", " <- add3) arg1=123 a=100\n", 1);
	expect_in("trace", " <- interrupted) arg1=14\n", 1);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	sigaction(SIGUSR1, &old, NULL);
}

/* Return probes made, enabled, disabled and deleted while threads run
 * through the function: no crash, records of the enabled spells, the
 * bytes back. */
static volatile int running;

static void *caller(void *arg)
{
	(void)arg;
	while (READ_ONCE(running))
		call_parse("/thread", 7);
	return NULL;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CHURN_ROUNDS 5
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CHURN_ROUNDS 5
#endif
#endif
#ifndef CHURN_ROUNDS
#define CHURN_ROUNDS 20
#endif

static void test_churn_under_threads(void **state)
{
	(void)state;
	uint8_t before[5];
	memcpy(before, (const void *)parse_request, 5);
	pthread_t th[3];
	WRITE_ONCE(running, 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, caller, NULL), 0);
	for (int round = 0; round < CHURN_ROUNDS; round++) {
		assert_int_equal(
		    tfs_echo("dynamic_events", "r:myret parse_request $retval:u32 n=$arg2:u32", A),
		    0);
		/* Every other round an entry probe on the same sled too. */
		if (round & 1)
			assert_int_equal(tfs_echo("dynamic_events", "p:myin parse_request", A), 0);
		if (round == CHURN_ROUNDS - 1)
			assert_int_equal(tfs_echo("trace", "", W), 0);
		assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
		/* One call of our own: a record whatever the scheduler did. */
		call_parse("/thread", 7);
		assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
		if (round == CHURN_ROUNDS - 1) {
			char *s = rd("trace");
			int n = tfs_count(s, " <- parse_request) arg1=8 n=7\n");
			free(s);
			assert_true(n > 0);
		}
		assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	}
	WRITE_ONCE(running, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	assert_memory_equal(before, (const void *)parse_request, 5);
}

int main(void)
{
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_return_values, setup),
	    cmocka_unit_test_setup(test_fprobe_exit, setup),
	    cmocka_unit_test_setup(test_uretprobe, setup),
	    cmocka_unit_test_setup(test_pair_with_tracers, setup),
	    cmocka_unit_test_setup(test_longjmp, setup),
	    cmocka_unit_test_setup(test_tail_call, setup),
	    cmocka_unit_test_setup(test_signal_handler, setup),
	    cmocka_unit_test_setup(test_churn_under_threads, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
