/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Instruction-boundary probes through the tree: points inside functions
 * whose instructions are known (written in assembly below), with register,
 * stack and memory fetches; %rip-relative, jcc and call instructions among
 * the displaced ones; libc's write and malloc; the kernel's and uft's
 * refusals with their error_log lines; the code bytes restored exactly;
 * probes added and removed while threads run through the probed code. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
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
#include "probe_tree.h"
#include "sanitized.h"

/* Functions without a sled, their offsets known:
 * it_sum(a, b) = (a + b) + (a + b + 16) * b
 *	+0 mov %rdi,%rax  +3 add %rsi,%rax  +6 lea 16(%rax),%rdx
 *	+10 mov %rdx,%rcx  +13 imul %rsi,%rcx  +17 add %rcx,%rax  +20 ret
 * it_rip(x) = it_value + x: +0 mov it_value(%rip),%rax (7 bytes) +7 add +10 ret
 * it_sign(x) = x > 0 ? 1 : 2: +0 test +3 jle +11  +5 mov $1 +10 ret  +11 mov $2 +16 ret
 * it_call(x) = it_twice(x) + 1: +0 sub $8,%rsp  +4 call  +9 add $8,%rsp  +13 add $1  +17 ret
 * it_loop(x, n) = x * n (n > 0): +0 xor  +2 add %rdi,%rax  +5 dec %rsi  +8 jnz +2  +10 ret
 * it_stack(x): pushes x, +5 reads it back (a $stack fetch)
 * it_spin() loops while it_spinning: +0 xor  +2 add $1,%rcx  +6 mov %rcx,%rax
 *	+9 cmpl $0,it_spinning(%rip)  +16 jne +2  +18 ret (most of its time in the
 *	displaced add and mov of a point at +2)
 * it_sys(): mov %edi,%eax; syscall; ret
 * it_tiny: ret */
__asm__(".text\n"
	".globl it_sum\n.type it_sum,@function\nit_sum:\n"
	"mov %rdi,%rax\nadd %rsi,%rax\nlea 16(%rax),%rdx\nmov %rdx,%rcx\n"
	"imul %rsi,%rcx\nadd %rcx,%rax\nret\n.size it_sum,.-it_sum\n"
	".globl it_rip\n.type it_rip,@function\nit_rip:\n"
	"mov it_value(%rip),%rax\nadd %rdi,%rax\nret\n.size it_rip,.-it_rip\n"
	".globl it_sign\n.type it_sign,@function\nit_sign:\n"
	"test %rdi,%rdi\njle 1f\nmov $1,%eax\nret\n1: mov $2,%eax\nret\n.size it_sign,.-it_sign\n"
	".globl it_twice\n.type it_twice,@function\nit_twice:\n"
	"lea (%rdi,%rdi),%rax\nret\n.size it_twice,.-it_twice\n"
	".globl it_call\n.type it_call,@function\nit_call:\n"
	"sub $8,%rsp\ncall it_twice\nadd $8,%rsp\nadd $1,%rax\nret\n.size it_call,.-it_call\n"
	".globl it_loop\n.type it_loop,@function\nit_loop:\n"
	"xor %eax,%eax\n2: add %rdi,%rax\ndec %rsi\njnz 2b\nret\n.size it_loop,.-it_loop\n"
	".globl it_stack\n.type it_stack,@function\nit_stack:\n"
	"push %rdi\nmovl $0x12345678,%eax\nmov (%rsp),%rax\npop %rdx\nret\n"
	".size it_stack,.-it_stack\n"
	".globl it_sys\n.type it_sys,@function\nit_sys:\n"
	"mov %edi,%eax\nsyscall\nret\n.size it_sys,.-it_sys\n"
	".globl it_icall\n.type it_icall,@function\nit_icall:\n"
	"mov %rdi,%rax\ncall *%rsi\nret\n.size it_icall,.-it_icall\n"
	".globl it_spin\n.type it_spin,@function\nit_spin:\n"
	"xor %ecx,%ecx\n3: add $1,%rcx\nmov %rcx,%rax\ncmpl $0,it_spinning(%rip)\njne 3b\nret\n"
	".size it_spin,.-it_spin\n"
	".globl it_tiny\n.type it_tiny,@function\nit_tiny:\nret\n.size it_tiny,.-it_tiny\n");

long it_sum(long a, long b);
long it_rip(long x);
long it_sign(long x);
long it_call(long x);
long it_loop(long x, long n);
long it_stack(long x);
long it_tiny(void);
long it_spin(void);
__attribute__((used)) volatile int it_spinning;
__attribute__((used)) long it_value = 1000;

static long (*volatile call_sum)(long, long) = it_sum;
static long (*volatile call_rip)(long) = it_rip;
static long (*volatile call_sign)(long) = it_sign;
static long (*volatile call_call)(long) = it_call;
static long (*volatile call_loop)(long, long) = it_loop;
static long (*volatile call_stack)(long) = it_stack;

/* ThreadSanitizer runs a signal's handler only when the thread next goes
 * through its runtime: a thread spinning in assembly is never stopped. */
#if defined(__SANITIZE_THREAD__)
#define TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN 1
#endif
#endif
#ifndef TSAN
#define TSAN 0
#endif

/* A C function: it has a sled (the tests are built with patchable entries). */
__attribute__((noinline, used)) long sled_fn(long x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3;
}

static long sum_ref(long a, long b)
{
	return (a + b) + (a + b + 16) * b;
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

static void define_enable(const char *def, const char *event)
{
	assert_int_equal(tfs_echo("dynamic_events", def, A), 0);
	char path[128];
	snprintf(path, sizeof(path), "events/kprobes/%s/enable", event);
	assert_int_equal(tfs_echo(path, "1", W), 0);
}

static void disable_delete(const char *event)
{
	char path[128], del[80];
	snprintf(path, sizeof(path), "events/kprobes/%s/enable", event);
	assert_int_equal(tfs_echo(path, "0", W), 0);
	snprintf(del, sizeof(del), "-:%s", event);
	assert_int_equal(tfs_echo("dynamic_events", del, A), 0);
}

/* Mid-function, register fetches: the bytes change while enabled and come
 * back exactly; the function still computes the same. */
static void test_mid_function_regs(void **state)
{
	(void)state;
	uint8_t before[21], on[21], after[21];
	memcpy(before, (const void *)it_sum, 21);
	define_enable("p:mid it_sum+10 a=%di:s64 sum=%ax:s64 dx=%dx:u64 ip=%ip:x64", "mid");
	memcpy(on, (const void *)it_sum, 21);
	assert_memory_not_equal(before + 10, on + 10, 5);
	assert_memory_equal(before, on, 10);	      /* only the displaced bytes change */
	assert_memory_equal(before + 17, on + 17, 4); /* mov (3) + imul (4) displaced */
	assert_int_equal(call_sum(3, 4), sum_ref(3, 4));
	assert_int_equal(call_sum(-5, 2), sum_ref(-5, 2));
	char want[160];
	snprintf(want, sizeof(want), "mid: (it_sum+0xa/0x15) a=3 sum=7 dx=23 ip=0x%lx\n",
		 (unsigned long)(uintptr_t)it_sum + 10);
	expect_in("trace", want, 1);
	expect_in("trace", "mid: (it_sum+0xa/0x15) a=-5 sum=-3 dx=13 ", 1);
	check("kprobe_profile",
	      "  mid                                                        2               0\n");
	disable_delete("mid");
	memcpy(after, (const void *)it_sum, 21);
	assert_memory_equal(before, after, 21);
	assert_int_equal(call_sum(3, 4), sum_ref(3, 4));
}

/* A filter and a hist trigger on an instruction probe's fields (the
 * reservation's slow path), then the inline one again without them. */
static void test_filter_hist(void **state)
{
	(void)state;
	define_enable("p:fh it_sum+6 a=%di:s64 b=%si:s64", "fh");
	assert_int_equal(tfs_echo("events/kprobes/fh/filter", "a > 0", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/fh/trigger", "hist:keys=b", W), 0);
	call_sum(3, 4);
	call_sum(-5, 4);
	call_sum(2, 9);
	expect_in("trace", "fh: (it_sum+0x6/0x15) a=", 2);
	expect_in("trace", "a=-5", 0);
	/* The trigger sees every hit, the filter keeps the buffer's records. */
	expect_in("events/kprobes/fh/hist", "{ b:          4 } hitcount:          2\n", 1);
	expect_in("events/kprobes/fh/hist", "{ b:          9 } hitcount:          1\n", 1);
	assert_int_equal(tfs_echo("events/kprobes/fh/trigger", "!hist:keys=b", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/fh/filter", "0", W), 0);
	call_sum(-5, 4);
	expect_in("trace", "fh: (it_sum+0x6/0x15) a=-5 b=4\n", 1);
	disable_delete("fh");
}

/* A %rip-relative load, a jcc and a call among the displaced instructions. */
static void test_relocated_kinds(void **state)
{
	(void)state;
	uint8_t rip[11], sign[17], call[18];
	memcpy(rip, (const void *)it_rip, sizeof(rip));
	memcpy(sign, (const void *)it_sign, sizeof(sign));
	memcpy(call, (const void *)it_call, sizeof(call));
	define_enable("p:rip it_rip x=%di:s64 value=@it_value:s64", "rip");
	define_enable("p:sign it_sign x=%di:s64", "sign");
	define_enable("p:call it_call x=%di:s64", "call");
	it_value = 1000;
	assert_int_equal(call_rip(5), 1005);
	it_value = 7;
	assert_int_equal(call_rip(5), 12);
	assert_int_equal(call_sign(9), 1);
	assert_int_equal(call_sign(-9), 2);
	assert_int_equal(call_sign(0), 2);
	assert_int_equal(call_call(21), 43);
	expect_in("trace", "rip: (it_rip+0x0/0xb) x=5 value=1000\n", 1);
	expect_in("trace", "rip: (it_rip+0x0/0xb) x=5 value=7\n", 1);
	expect_in("trace", "sign: (it_sign+0x0/0x11) x=", 3);
	expect_in("trace", "call: (it_call+0x0/0x12) x=21\n", 1);
	disable_delete("rip");
	disable_delete("sign");
	disable_delete("call");
	assert_memory_equal(rip, (const void *)it_rip, sizeof(rip));
	assert_memory_equal(sign, (const void *)it_sign, sizeof(sign));
	assert_memory_equal(call, (const void *)it_call, sizeof(call));
}

/* A loop's body, entered again by its own backward branch (which lands on
 * the point itself, not past it), and the stack at a point after a push. */
static void test_loop_and_stack(void **state)
{
	(void)state;
	define_enable("p:body it_loop+2 acc=%ax:s64 left=%si:s64", "body");
	define_enable("p:stk it_stack+1 top=$stack0:s64 sp=+0(%sp):s64", "stk");
	assert_int_equal(call_loop(3, 4), 12);
	assert_int_equal(call_stack(77), 77);
	expect_in("trace", "body: (it_loop+0x2/0xb) acc=", 4);
	expect_in("trace", "body: (it_loop+0x2/0xb) acc=9 left=1\n", 1);
	expect_in("trace", "stk: (it_stack+0x1/0xc) top=77 sp=77\n", 1);
	disable_delete("body");
	disable_delete("stk");
	assert_int_equal(call_loop(3, 4), 12);
}

/* libc: write with a string fetch through its buffer, malloc's size. */
static void test_libc(void **state)
{
	(void)state;
	define_enable("p:wr libc:write fd=%di:s32 buf=+0(%si):string len=%dx:u64", "wr");
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(write(fd[1], "hello", 6), 6);
	close(fd[0]);
	close(fd[1]);
	expect_in("trace", "buf=\"hello\" len=6\n", 1);
	expect_in("trace", "write+0x0/0x", 1);
	disable_delete("wr");
#if !SANITIZED
	/* Under a sanitizer the program's malloc is the sanitizer's. */
	define_enable("p:m libc:malloc size=%di:u64", "m");
	void *volatile mem = malloc(12345);
	free(mem);
	assert_int_equal(tfs_echo("events/kprobes/m/enable", "0", W), 0);
	/* uft's own allocations may be there too; the symbol may be an alias. */
	char *t = rd("trace");
	assert_int_equal(tfs_count(t, "malloc+0x0/0x"), tfs_count(t, "m: ("));
	assert_int_equal(tfs_count(t, " size=12345\n"), 1);
	free(t);
	assert_int_equal(tfs_echo("dynamic_events", "-:m", A), 0);
#endif
}

static void test_refusals(void **state)
{
	(void)state;
	expect_error("kprobe_events", "p:bad it_sum+1", -EILSEQ,
		     LOG("trace_kprobe", "Probe point is not an instruction boundary",
			 "p:bad it_sum+1", SP11 "      "));
	expect_error("kprobe_events", "p:bad it_loop", -EOPNOTSUPP,
		     LOG("trace_kprobe",
			 "Failed to register probe event: a branch of the function lands inside "
			 "the displaced bytes",
			 "p:bad it_loop", SP11 "      "));
	expect_error("kprobe_events", "p:bad it_sys", -EOPNOTSUPP,
		     LOG("trace_kprobe",
			 "Failed to register probe event: a system call or trap in the displaced "
			 "bytes",
			 "p:bad it_sys", SP11 "      "));
	expect_error("kprobe_events", "p:bad it_tiny", -EOPNOTSUPP,
		     LOG("trace_kprobe",
			 "Failed to register probe event: fewer than 5 bytes of the function "
			 "from the point",
			 "p:bad it_tiny", SP11 "      "));
	expect_error("kprobe_events", "p:bad it_icall", -EOPNOTSUPP,
		     LOG("trace_kprobe",
			 "Failed to register probe event: an indirect call in the displaced bytes",
			 "p:bad it_icall", SP11 "      "));
	/* Inside a patchable entry (a sled function's first bytes). */
	expect_error("kprobe_events", "p:bad sled_fn+2", -EOPNOTSUPP,
		     LOG("trace_kprobe", "Failed to register probe event", "p:bad sled_fn+2",
			 SP11 "      "));
	/* Two points whose displaced bytes overlap. */
	assert_int_equal(tfs_echo("kprobe_events", "p:one it_sum+3", A), 0);
	expect_error("kprobe_events", "p:two it_sum+6", -EOPNOTSUPP,
		     LOG("trace_kprobe",
			 "Failed to register probe event: the displaced bytes overlap another "
			 "probe point's",
			 "p:two it_sum+6", SP11 "      "));
	/* The same point: shared. */
	assert_int_equal(tfs_echo("kprobe_events", "p:two it_sum+3 b=%si", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/one/enable", "1", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/two/enable", "1", W), 0);
	assert_int_equal(call_sum(1, 2), sum_ref(1, 2));
	expect_in("trace", "one: (it_sum+0x3/0x15)\n", 1);
	expect_in("trace", "two: (it_sum+0x3/0x15) b=0x2\n", 1);
	assert_int_equal(tfs_echo("events/kprobes/one/enable", "0", W), 0);
	assert_int_equal(call_sum(1, 2), sum_ref(1, 2));
	expect_in("trace", "two: (it_sum+0x3/0x15) b=0x2\n", 2);
	assert_int_equal(tfs_echo("events/kprobes/two/enable", "0", W), 0);
	assert_int_equal(tfs_echo("kprobe_events", "", W), 0);
}

/* Probes made, enabled, disabled and deleted while threads run through the
 * probed instructions: no crash, the right results, records, the bytes
 * back exactly. */
static volatile int running;
static volatile int wrong;
static uint64_t calls; /* the callers' rounds */

static void *spinner(void *arg)
{
	*(long *)arg = it_spin();
	return NULL;
}

static void *caller(void *arg)
{
	long k = (long)(intptr_t)arg;
	while (READ_ONCE(running)) {
		if (call_sum(k, 5) != sum_ref(k, 5) || call_sign(k) != 1 || call_loop(2, 3) != 6)
			WRITE_ONCE(wrong, 1);
		uft_fetch_add(&calls, 1);
	}
	return NULL;
}

/* Under a sanitizer each stop is far slower: fewer rounds. */
#define CHURN_ROUNDS (SANITIZED ? 5 : 20)

static void test_churn_under_threads(void **state)
{
	(void)state;
	uint8_t sum[21], sign[17], loop[11];
	memcpy(sum, (const void *)it_sum, sizeof(sum));
	memcpy(sign, (const void *)it_sign, sizeof(sign));
	memcpy(loop, (const void *)it_loop, sizeof(loop));
	uint8_t spin[18];
	memcpy(spin, (const void *)it_spin, sizeof(spin));
	pthread_t th[3], sp;
	long spins = 0;
	WRITE_ONCE(running, 1);
	WRITE_ONCE(it_spinning, 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, caller, (void *)(intptr_t)(i + 1)),
				 0);
	/* A thread that the stops mostly catch inside the displaced bytes (or
	 * their copy in the stub): it is moved each time. */
	if (!TSAN)
		assert_int_equal(pthread_create(&sp, NULL, spinner, &spins), 0);
	for (int round = 0; round < CHURN_ROUNDS; round++) {
		assert_int_equal(tfs_echo("dynamic_events", "p:cs it_sum+6 b=%si:s64", A), 0);
		assert_int_equal(tfs_echo("dynamic_events", "p:cg it_sign", A), 0);
		assert_int_equal(tfs_echo("dynamic_events", "p:cl it_loop+2", A), 0);
		assert_int_equal(tfs_echo("dynamic_events", "p:cp it_spin+2 n=%cx:u64", A), 0);
		/* Its hits are many: a filter keeps them out of the ring. */
		assert_int_equal(tfs_echo("events/kprobes/cp/filter", "n == 0", W), 0);
		if (round == CHURN_ROUNDS - 1)
			assert_int_equal(tfs_echo("trace", "", W), 0);
		assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
		/* At least a millisecond, and in the last round until the callers
		 * went through the points while they were patched. */
		uint64_t start = uft_load_seq_cst(&calls);
		for (int ms = 0; ms < 10000; ms++) {
			struct timespec one = {0, 1000000};
			nanosleep(&one, NULL);
			if (round < CHURN_ROUNDS - 1 || uft_load_seq_cst(&calls) > start + 100)
				break;
		}
		assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
		if (round == CHURN_ROUNDS - 1) {
			char *s = rd("trace");
			assert_true(tfs_count(s, "cs: (it_sum+0x6/0x15) b=5\n") > 0);
			free(s);
		}
		assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	}
	WRITE_ONCE(running, 0);
	WRITE_ONCE(it_spinning, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	if (!TSAN) {
		pthread_join(sp, NULL);
		assert_true(spins > 0);
	}
	assert_memory_equal(spin, (const void *)it_spin, sizeof(spin));
	assert_int_equal(wrong, 0);
	assert_memory_equal(sum, (const void *)it_sum, sizeof(sum));
	assert_memory_equal(sign, (const void *)it_sign, sizeof(sign));
	assert_memory_equal(loop, (const void *)it_loop, sizeof(loop));
}

int main(void)
{
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_mid_function_regs, setup),
	    cmocka_unit_test_setup(test_filter_hist, setup),
	    cmocka_unit_test_setup(test_relocated_kinds, setup),
	    cmocka_unit_test_setup(test_loop_and_stack, setup),
	    cmocka_unit_test_setup(test_libc, setup),
	    cmocka_unit_test_setup(test_refusals, setup),
	    cmocka_unit_test_setup(test_churn_under_threads, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
