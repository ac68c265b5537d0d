/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Return probes on functions without a patchable entry (assembly below,
 * libc's malloc): the instruction probe at the first instruction hooks the
 * return. Known return values byte for byte, $argN at the return, an entry
 * and a return probe on one function, the kprobe (LIB:SYMBOL%return) and
 * uprobe (PATH:OFFSET) forms, a long jump out of a probed function, a tail
 * call into one, a signal handler, probes made and removed while threads
 * run the function, the code bytes back exactly; and kprobe_profile's hits
 * of threads that have exited; a sled probe of registers alone (written
 * without the engine) against the engine's record of the same args. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
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
#include "sanitized.h"

/* Without a sled:
 * rt_sum(a, b) = a * 3 + b: +0 lea (%rdi,%rdi,2),%rax  +4 add %rsi,%rax  +7 ret
 * rt_via(fn, x) = fn(x): +0 push %rbx  +1 mov %rdi,%rax  +4 mov %rsi,%rdi
 *	+7 call *%rax  +9 pop %rbx  +10 ret */
__asm__(".text\n"
	".globl rt_sum\n.type rt_sum,@function\nrt_sum:\n"
	"lea (%rdi,%rdi,2),%rax\nadd %rsi,%rax\nret\n.size rt_sum,.-rt_sum\n"
	".globl rt_via\n.type rt_via,@function\nrt_via:\n"
	"push %rbx\nmov %rdi,%rax\nmov %rsi,%rdi\ncall *%rax\npop %rbx\nret\n"
	".size rt_via,.-rt_via\n");

long rt_sum(long a, long b);
long rt_via(long (*fn)(long), long x);

static long (*volatile call_sum)(long, long) = rt_sum;
static long (*volatile call_via)(long (*)(long), long) = rt_via;

/* A C caller, whose return site the records name (it has a sled). */
__attribute__((noinline, used)) long sum_caller(long a, long b)
{
	long r = call_sum(a, b);
	__asm__ volatile("" ::"r"(r) : "memory");
	return r;
}

static int setup(void **state)
{
	(void)state;
	tfs_echo("events/enable", "0", W);
	tfs_echo("current_tracer", "nop", W);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", W), 0);
	return 0;
}

static void expect_fmt(const char *path, int times, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	expect_in(path, buf, times);
}

/* kprobe_profile with two probes: name, hits, no misses. */
static void check_profile(const char *a, unsigned long na, const char *b, unsigned long nb)
{
	char want[256];
	snprintf(want, sizeof(want), "  %-44s %15lu %15lu\n  %-44s %15lu %15lu\n", a, na, 0ul, b,
		 nb, 0ul);
	check("kprobe_profile", want);
}

/* Known returns, $argN at the return, entry and return on one function,
 * the bytes back. */
static void test_values(void **state)
{
	(void)state;
	uint8_t before[8];
	memcpy(before, (const void *)rt_sum, sizeof(before));
	assert_int_equal(
	    tfs_echo("kprobe_events", "r:rs rt_sum ret=$retval:s64 a=$arg1:s64 b=$arg2:x32", A), 0);
	assert_int_equal(tfs_echo("kprobe_events", "p:ps rt_sum a=%di:s64 b=%si:s64", A), 0);
	check("kprobe_events", "r:kprobes/rs rt_sum ret=$retval:s64 a=$arg1:s64 b=$arg2:x32\n"
			       "p:kprobes/ps rt_sum a=%di:s64 b=%si:s64\n");
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_memory_not_equal(before, (const void *)rt_sum, 5);
	assert_int_equal(sum_caller(-7, 5), -16);
	assert_int_equal(sum_caller(1000000000000, 0x7fffffff), 3000000000000 + 0x7fffffff);
	assert_int_equal(call_sum(2, 3), 9);
	expect_in("trace", "rs: (sum_caller+0x", 2);
	expect_in("trace", " <- rt_sum) ret=-16 a=-7 b=0x5\n", 1);
	expect_in("trace", " <- rt_sum) ret=3002147483647 a=1000000000000 b=0x7fffffff\n", 1);
	expect_in("trace", " <- rt_sum) ret=9 a=2 b=0x3\n", 1);
	expect_in("trace", "ps: (rt_sum+0x0/0x8) a=-7 b=5\n", 1);
	expect_in("trace", "ps: (rt_sum+0x0/0x8) a=2 b=3\n", 1);
	/* Each entry record before its return's. */
	char *t = rd("trace");
	char *e = strstr(t, "ps: (rt_sum+0x0/0x8) a=2 b=3\n"), *r = strstr(t, " ret=9 a=2");
	assert_true(e && r && e < r);
	free(t);
	check_profile("rs", 3, "ps", 3);
	assert_int_equal(tfs_echo("events/kprobes/ps/enable", "0", W), 0);
	assert_int_equal(call_sum(4, 4), 16);
	expect_in("trace", " <- rt_sum) ret=16 a=4 b=0x4\n", 1);
	expect_in("trace", "ps: ", 3);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	assert_memory_equal(before, (const void *)rt_sum, sizeof(before));
	/* A return probe past a function's entry is refused. */
	expect_error("kprobe_events", "r:bad rt_via+1", -EINVAL,
		     LOG("trace_kprobe", "Retprobe address must be an function entry",
			 "r:bad rt_via+1", SP11 "      "));
	assert_int_equal(tfs_echo("kprobe_events", "", W), 0);
}

/* malloc: the kprobe forms (LIB:SYMBOL%return, r: SYMBOL), the uprobe
 * form by file offset, its entry and return together. */
static void test_libc_malloc(void **state)
{
	(void)state;
	if (SANITIZED)
		skip(); /* the program's malloc is the sanitizer's */
	uint8_t before[16];
	void *m = dlsym(RTLD_NEXT, "malloc");
	assert_non_null(m);
	memcpy(before, m, sizeof(before));
	assert_int_equal(
	    tfs_echo("dynamic_events", "p:mr libc:malloc%return ret=$retval:x64 size=$arg1:u64", A),
	    0);
	assert_int_equal(tfs_echo("dynamic_events", "p:me libc:malloc size=%di:u64", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:mret malloc $retval", A), 0);
	Dl_info di;
	assert_true(dladdr(m, &di) && di.dli_fname);
	uint64_t off = (uintptr_t)m;
	assert_int_equal(dl_iterate_phdr(foff_one, &off), 1);
	char def[4300];
	snprintf(def, sizeof(def), "r:umret %s:0x%llx ret=$retval:x64", di.dli_fname,
		 (unsigned long long)off);
	assert_int_equal(tfs_echo("uprobe_events", def, A), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(tfs_echo("events/uprobes/enable", "1", W), 0);
	void *volatile mem = malloc(12345);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	assert_int_equal(tfs_echo("events/uprobes/enable", "0", W), 0);
	expect_fmt("trace", 1, " <- malloc) ret=0x%lx size=12345\n", (unsigned long)(uintptr_t)mem);
	expect_fmt("trace", 1, ") ret=0x%lx\n", (unsigned long)(uintptr_t)mem);
	expect_fmt("trace", 1, "malloc) arg1=0x%lx\n", (unsigned long)(uintptr_t)mem);
	expect_in("trace", " size=12345\n", 2);
	free(mem);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_memory_equal(before, m, sizeof(before));
}

/* A long jump out of a probed function: no record for it, the next calls
 * recorded. */
static jmp_buf jb;

static long jump_out(long x)
{
	longjmp(jb, (int)x);
}

static long plus_one(long x)
{
	return x + 1;
}

static void test_longjmp(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "r:rv rt_via ret=$retval:s64", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/rv/enable", "1", W), 0);
	for (int i = 1; i <= 3; i++) {
		volatile int got = setjmp(jb);
		if (!got) {
			call_via(jump_out, i);
			fail_msg("no long jump");
		}
		assert_int_equal(got, i);
		assert_int_equal(call_via(plus_one, 10 * i), 10 * i + 1);
	}
	assert_int_equal(tfs_echo("events/kprobes/rv/enable", "0", W), 0);
	expect_in("trace", " <- rt_via) ret=", 3);
	expect_in("trace", " <- rt_via) ret=11\n", 1);
	expect_in("trace", " <- rt_via) ret=31\n", 1);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

/* A tail call into a probed function from a sled function with a return
 * probe: both returns fire. */
__attribute__((noinline, used)) long tail_sum(long a, long b)
{
	return call_sum(a, b);
}

static long (*volatile call_tail)(long, long) = tail_sum;

static void test_tail_call(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "r:ts rt_sum $retval:s64", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:tt tail_sum $retval:s64", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(call_tail(1, 2), 5);
	assert_int_equal(call_tail(3, 3), 12);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	expect_in("trace", " <- rt_sum) arg1=5\n", 1);
	expect_in("trace", " <- tail_sum) arg1=5\n", 1);
	expect_in("trace", " <- rt_sum) arg1=12\n", 1);
	expect_in("trace", " <- tail_sum) arg1=12\n", 1);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

/* A return probe inside a signal handler, and on the function the signal
 * interrupted. */
static void on_usr1(int sig)
{
	(void)sig;
	sum_caller(100, 1);
}

static long raise_usr1(long x)
{
	raise(SIGUSR1);
	return x * 2;
}

static void test_signal_handler(void **state)
{
	(void)state;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:ss rt_sum $retval:s64 a=$arg1:s64", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:sv rt_via $retval:s64", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(call_via(raise_usr1, 7), 14);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	expect_in("trace", " <- rt_sum) arg1=301 a=100\n", 1);
	expect_in("trace", " <- rt_via) arg1=14\n", 1);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	sigaction(SIGUSR1, &old, NULL);
}

/* Return probes made, enabled, disabled and deleted while threads run the
 * function: right results, records, the bytes back. */
static volatile int running, wrong;

static void *caller(void *arg)
{
	long k = (long)(intptr_t)arg;
	while (READ_ONCE(running))
		if (call_sum(k, 5) != 3 * k + 5 || call_via(plus_one, k) != k + 1)
			WRITE_ONCE(wrong, 1);
	return NULL;
}

#define CHURN_ROUNDS (SANITIZED ? 5 : 20)

static void test_churn_under_threads(void **state)
{
	(void)state;
	uint8_t sum[8], via[11];
	memcpy(sum, (const void *)rt_sum, sizeof(sum));
	memcpy(via, (const void *)rt_via, sizeof(via));
	pthread_t th[3];
	WRITE_ONCE(running, 1);
	WRITE_ONCE(wrong, 0);
	for (long i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, caller, (void *)(intptr_t)(i + 1)),
				 0);
	for (int round = 0; round < CHURN_ROUNDS; round++) {
		assert_int_equal(tfs_echo("dynamic_events", "r:cr rt_sum $retval:s64 a=$arg1", A),
				 0);
		if (round & 1) {
			assert_int_equal(tfs_echo("dynamic_events", "p:ce rt_sum", A), 0);
			assert_int_equal(tfs_echo("dynamic_events", "r:cv rt_via $retval", A), 0);
		}
		if (round == CHURN_ROUNDS - 1)
			assert_int_equal(tfs_echo("trace", "", W), 0);
		assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
		assert_int_equal(call_sum(9, 5), 32);
		assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
		if (round == CHURN_ROUNDS - 1)
			expect_in("trace", " <- rt_sum) arg1=32 a=0x9\n", 1);
		assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	}
	WRITE_ONCE(running, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	assert_false(wrong);
	assert_memory_equal(sum, (const void *)rt_sum, sizeof(sum));
	assert_memory_equal(via, (const void *)rt_via, sizeof(via));
}

/* kprobe_profile counts each thread's hits in its own counters: the sum
 * keeps those of threads that have exited, and a probe made again in the
 * same slot starts from 0. */
__attribute__((noinline, used)) long counted(long x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static long (*volatile call_counted)(long) = counted;

static void *count_calls(void *arg)
{
	for (long i = 0; i < (long)(intptr_t)arg; i++)
		call_counted(i);
	return NULL;
}

static void test_profile_threads(void **state)
{
	(void)state;
	for (int again = 0; again < 2; again++) {
		assert_int_equal(tfs_echo("dynamic_events", "p:cnt counted x=%di", A), 0);
		assert_int_equal(tfs_echo("dynamic_events", "p:cnr rt_sum", A), 0);
		assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
		pthread_t th[4];
		for (long i = 0; i < 4; i++)
			assert_int_equal(
			    pthread_create(&th[i], NULL, count_calls, (void *)(intptr_t)(1000 + i)),
			    0);
		for (int i = 0; i < 4; i++)
			pthread_join(th[i], NULL);
		count_calls((void *)(intptr_t)7);
		call_sum(1, 1);
		assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
		check_profile("cnt", 4013, "cnr", 1);
		assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	}
}

/* A sled probe of registers alone is written without the engine: the same
 * values, sizes and signs as the engine's (the second probe has a string,
 * which takes the engine's path). */
static void test_regs_only_record(void **state)
{
	(void)state;
	const char *args = "a=%di:u8 b=%di:s16 c=$arg1:x32 d=%di:s64 e=%di:x64";
	char def[160];
	snprintf(def, sizeof(def), "p:fast counted %s", args);
	assert_int_equal(tfs_echo("dynamic_events", def, A), 0);
	snprintf(def, sizeof(def), "p:slow counted %s n=$comm", args);
	assert_int_equal(tfs_echo("dynamic_events", def, A), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(call_counted(-2), -1);
	assert_int_equal(call_counted(0x12345), 0x12346);
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	expect_in("trace", "fast: (counted+0x0/0x", 2);
	expect_in("trace", "slow: (counted+0x0/0x", 2);
	static const char *const want[] = {
	    " a=254 b=-2 c=0xfffffffe d=-2 e=0xfffffffffffffffe",
	    " a=69 b=9029 c=0x12345 d=74565 e=0x12345",
	};
	for (int i = 0; i < 2; i++) {
		char line[200];
		char *t = rd("trace");
		assert_int_equal(tfs_count(t, want[i]), 2); /* fast's and slow's */
		snprintf(line, sizeof(line), "%s\n", want[i]);
		assert_int_equal(tfs_count(t, line), 1); /* fast's ends there */
		free(t);
	}
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

int main(void)
{
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_values, setup),
	    cmocka_unit_test_setup(test_libc_malloc, setup),
	    cmocka_unit_test_setup(test_longjmp, setup),
	    cmocka_unit_test_setup(test_tail_call, setup),
	    cmocka_unit_test_setup(test_signal_handler, setup),
	    cmocka_unit_test_setup(test_churn_under_threads, setup),
	    cmocka_unit_test_setup(test_profile_threads, setup),
	    cmocka_unit_test_setup(test_regs_only_record, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
