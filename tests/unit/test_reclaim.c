/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reclamation: what control writes replace is freed once no writer can be
 * reading it. Each control operation is repeated many times while a thread
 * writes the event without pause; the process's resident size stays within
 * a few MB of where it started (before grace periods it grew by the size
 * of everything replaced). The function tracers' lists (function
 * commands, set_ftrace_pid) are cycled the same way while a thread calls
 * traced functions (this file is built with the patchable entries). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <malloc.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "runtime/core/grace.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"
#include "util/atomics.h"
#include "sanitized.h"

static volatile int stop;
static pthread_t writer;

static void *write_loop(void *arg)
{
	(void)arg;
	for (unsigned i = 0; !READ_ONCE(stop); i++)
		trace_num((int)(i & 15), i, "w", "/p");
	return NULL;
}

static long rss_kb(void)
{
	long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%ld %ld", &size, &res) != 2)
		res = 0;
	if (f)
		fclose(f);
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static int setup(void **state)
{
	(void)state;
	WRITE_ONCE(stop, 0);
	assert_int_equal(echo("events/tfsev/num/enable", W, "1"), 0);
	assert_int_equal(pthread_create(&writer, NULL, write_loop, NULL), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	WRITE_ONCE(stop, 1);
	pthread_join(writer, NULL);
	echo("events/tfsev/num/enable", W, "0");
	return 0;
}

/* Under a sanitizer freed memory waits in a quarantine and every operation
 * is slower: fewer cycles, and the growth is shown, not checked (the run
 * is there to catch a use after free). */
#if SANITIZED
#define CYCLES(n) ((n) / 10)
#else
#define CYCLES(n) (n)
#endif

/* Growth allowed over the whole run: a few MB (allocator slack, the rings
 * the writer fills). */
#define SLACK_KB (6 * 1024)

/* Runs op(i) n times after a warm-up of a few, and checks the growth. */
static void cycle(const char *what, int n, void (*op)(int))
{
	for (int i = 0; i < 4; i++)
		op(i);
	long start = rss_kb();
	for (int i = 0; i < n; i++)
		op(i);
	long end = rss_kb();
	print_message("%s: %d cycles, RSS %ld -> %ld kB\n", what, n, start, end);
#if !SANITIZED
	if (end - start > SLACK_KB)
		fail_msg("%s: RSS grew %ld kB over %d cycles", what, end - start, n);
#endif
}

/* A filter of `n` clauses. */
static char *filter_of(int n)
{
	size_t cap = 16384, len = 0;
	char *s = malloc(cap);
	s[0] = 0;
	for (int k = 0; k < n; k++)
		len += (size_t)snprintf(s + len, cap - len, "%sa == %d", k ? " || " : "", 1000 + k);
	return s;
}

/* A few hundred clauses: several KB once compiled. */
static char *big_filter(void)
{
	return filter_of(300);
}

static char *flt;

static void filter_op(int i)
{
	(void)i;
	assert_int_equal(echo("events/tfsev/num/filter", W, flt), 0);
	assert_int_equal(echo("events/tfsev/num/filter", W, "0"), 0);
}

static void test_filter(void **state)
{
	(void)state;
	flt = big_filter();
	cycle("filter set/clear", CYCLES(1000), filter_op);
	free(flt);
}

static void hist_op(int i)
{
	(void)i;
	const char *spec = "hist:keys=a,u:vals=hitcount:size=131072";
	assert_int_equal(echo("events/tfsev/num/trigger", W, spec), 0);
	char rm[128];
	snprintf(rm, sizeof(rm), "!%s", spec);
	assert_int_equal(echo("events/tfsev/num/trigger", A, rm), 0);
}

static void test_hist(void **state)
{
	(void)state;
	/* 5 MB a cycle when tables were never freed. */
	cycle("hist add/remove", CYCLES(60), hist_op);
}

static void trigger_op(int i)
{
	(void)i;
	char *s = malloc(16384 + 64);
	snprintf(s, 16384 + 64, "traceon if %s", flt);
	assert_int_equal(echo("events/tfsev/num/trigger", W, s), 0);
	snprintf(s, 16384 + 64, "!traceon");
	assert_int_equal(echo("events/tfsev/num/trigger", A, s), 0);
	free(s);
}

static void test_trigger(void **state)
{
	(void)state;
	flt = big_filter();
	cycle("trigger add/remove", CYCLES(1000), trigger_op);
	free(flt);
}

/* A synthetic event of many fields: a few KB of definition, format and
 * descriptor each time. */
static void synth_def(char *buf, size_t cap, const char *name)
{
	size_t len = (size_t)snprintf(buf, cap, "%s", name);
	for (int k = 0; k < 60; k++)
		len += (size_t)snprintf(buf + len, cap - len, "%su64 field_number_%d",
					k ? "; " : " ", k);
}

static void synth_same_op(int i)
{
	(void)i;
	char def[4096];
	synth_def(def, sizeof(def), "cycled");
	assert_int_equal(echo("synthetic_events", A, def), 0);
	assert_int_equal(echo("events/synthetic/cycled/enable", W, "1"), 0);
	assert_int_equal(echo("events/synthetic/cycled/enable", W, "0"), 0);
	assert_int_equal(echo("synthetic_events", A, "!cycled"), 0);
}

static void test_synth_same(void **state)
{
	(void)state;
	cycle("synthetic event add/remove", CYCLES(1000), synth_same_op);
}

static void synth_renamed_op(int i)
{
	char def[4096], name[32], rm[40];
	snprintf(name, sizeof(name), "cycled_%d", i);
	synth_def(def, sizeof(def), name);
	assert_int_equal(echo("synthetic_events", A, def), 0);
	snprintf(rm, sizeof(rm), "!%s", name);
	assert_int_equal(echo("synthetic_events", A, rm), 0);
}

/* A new name each time: each removed event keeps its id and its format
 * text (its records may still be in a buffer), nothing else: about its
 * format's size, where the descriptor, definition and fields cost four
 * times that before they were freed. */
static void test_synth_renamed(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++)
		synth_renamed_op(1000000 + i);
	int n = CYCLES(1000);
	size_t start = mallinfo2().uordblks;
	for (int i = 0; i < n; i++)
		synth_renamed_op(i);
	size_t end = mallinfo2().uordblks;
	char def[4096];
	synth_def(def, sizeof(def), "cycled");
	assert_int_equal(echo("synthetic_events", A, def), 0);
	char *fmt = rd("events/synthetic/cycled/format");
	assert_int_equal(echo("synthetic_events", A, "!cycled"), 0);
	size_t per = end > start ? (end - start) / (size_t)n : 0;
	print_message("new name each time: %zu heap bytes a cycle, format %zu bytes\n", per,
		      strlen(fmt));
#if !SANITIZED
	if (per > 2 * strlen(fmt))
		fail_msg("a removed synthetic event keeps %zu bytes (format: %zu)", per,
			 strlen(fmt));
#endif
	free(fmt);
}

static void instance_op(int i)
{
	(void)i;
	mkinst("cycled");
	assert_int_equal(echo("instances/cycled/events/tfsev/num/enable", W, "1"), 0);
	assert_int_equal(echo("instances/cycled/events/tfsev/num/filter", W, "a > 3"), 0);
	rminst("cycled");
}

static void test_instance(void **state)
{
	(void)state;
	cycle("instance mkdir/rmdir", CYCLES(1000), instance_op);
}

static void enable_op(int i)
{
	(void)i;
	/* Each change republishes the event's target list. */
	assert_int_equal(echo("events/tfsev/other/enable", W, "1"), 0);
	assert_int_equal(echo("events/tfsev/other/enable", W, "0"), 0);
}

static void test_pending_bounded(void **state)
{
	(void)state;
	cycle("enable/disable", CYCLES(1000), enable_op);
	assert_true(uft_grace_pending() <= 64);
	assert_true(uft_grace_freed() > 0);
}

static void *idle_thread(void *arg)
{
	return arg;
}

static char me_line[32];

static void set_follow(bool on)
{
	snprintf(me_line, sizeof(me_line), "%d", (int)gettid());
	assert_int_equal(echo("options/event-fork", W, on ? "1" : "0"), 0);
	assert_int_equal(echo("set_event_pid", W, on ? me_line : ""), 0);
}

static void thread_op(int i)
{
	(void)i;
	for (int k = 0; k < 100; k++) {
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, idle_thread, NULL), 0);
		pthread_join(th, NULL);
	}
}

/* Each new thread joins set_event_pid and leaves it when it exits, and
 * every change rebuilds the event's filter around the pid check. */
static void test_thread_lifetimes(void **state)
{
	(void)state;
	char *f = filter_of(30);
	assert_int_equal(echo("events/tfsev/num/filter", W, f), 0);
	free(f);
	set_follow(true);
	cycle("thread lifetimes (x100)", CYCLES(100), thread_op);
	assert_int_equal(echo("events/tfsev/num/filter", W, "0"), 0);
	check("set_event_pid", strcat(strcpy((char[40]){0}, me_line), "\n"));
	set_follow(false);
}

/* Keeps the tree busy, so that new threads find it taken. */
static void *tree_reader(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop))
		free(tfs_cat("set_event_pid", NULL));
	return NULL;
}

static void *first_event(void *arg)
{
	trace_num(77, (unsigned)(uintptr_t)arg, "first", "/f");
	return NULL;
}

/* A new thread is listed before it runs its program's code: its first event
 * is recorded however busy the tree is. */
static void test_fork_first_event(void **state)
{
	(void)state;
	enum { N = 400 };
	assert_int_equal(echo("trace", W, ""), 0);
	set_follow(true);
	pthread_t busy;
	assert_int_equal(pthread_create(&busy, NULL, tree_reader, NULL), 0);
	for (uintptr_t k = 0; k < N; k++) {
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, first_event, (void *)k), 0);
		pthread_join(th, NULL);
	}
	WRITE_ONCE(stop, 1); /* the writer stops too; teardown joins it */
	pthread_join(busy, NULL);
	set_follow(false);
	char *t = rd("trace");
	int got = tfs_count(t, "name=first");
	free(t);
	if (got != N)
		fail_msg("%d of %d threads' first events recorded", got, N);
}

/* ---- the function tracers' lists ---- */

/* 512 traced functions, rc_fn_000 to rc_fn_777. */
#define NOINLINE __attribute__((noinline))
static volatile unsigned fn_sink;
#define RC_FN(n)                                                                                   \
	NOINLINE int rc_fn_##n(int x)                                                              \
	{                                                                                          \
		uft_add_return_relaxed(&fn_sink, (unsigned)x);                                     \
		__asm__ volatile("" ::: "memory");                                                 \
		return x + 1;                                                                      \
	}
#define RC_FN8(n)                                                                                  \
	RC_FN(n##0)                                                                                \
	RC_FN(n##1) RC_FN(n##2) RC_FN(n##3) RC_FN(n##4) RC_FN(n##5) RC_FN(n##6) RC_FN(n##7)
#define RC_FN64(n)                                                                                 \
	RC_FN8(n##0)                                                                               \
	RC_FN8(n##1) RC_FN8(n##2) RC_FN8(n##3) RC_FN8(n##4) RC_FN8(n##5) RC_FN8(n##6) RC_FN8(n##7)
RC_FN64(0)
RC_FN64(1)
RC_FN64(2)
RC_FN64(3)
RC_FN64(4)
RC_FN64(5)
RC_FN64(6)
RC_FN64(7)
#define RC_P(n) rc_fn_##n,
#define RC_P8(n)                                                                                   \
	RC_P(n##0) RC_P(n##1) RC_P(n##2) RC_P(n##3) RC_P(n##4) RC_P(n##5) RC_P(n##6) RC_P(n##7)
#define RC_P64(n)                                                                                  \
	RC_P8(n##0)                                                                                \
	RC_P8(n##1) RC_P8(n##2) RC_P8(n##3) RC_P8(n##4) RC_P8(n##5) RC_P8(n##6) RC_P8(n##7)
static int (*const rc_fns[])(int) = {RC_P64(0) RC_P64(1) RC_P64(2) RC_P64(3) RC_P64(4) RC_P64(5)
					 RC_P64(6) RC_P64(7)};
#define NR_RC_FNS (sizeof(rc_fns) / sizeof(rc_fns[0]))

static pthread_t caller;
static int caller_tid;

/* Calls every traced function without pause: the hooks read the lists. */
static void *call_loop(void *arg)
{
	(void)arg;
	WRITE_ONCE(caller_tid, (int)gettid());
	for (unsigned i = 0; !READ_ONCE(stop); i++)
		rc_fns[i % NR_RC_FNS]((int)i);
	return NULL;
}

static int setup_ftrace(void **state)
{
	setup(state);
	assert_int_equal(echo("set_ftrace_filter", W, "rc_fn_*"), 0);
	assert_int_equal(echo("current_tracer", W, "function"), 0);
	WRITE_ONCE(caller_tid, 0);
	assert_int_equal(pthread_create(&caller, NULL, call_loop, NULL), 0);
	while (!READ_ONCE(caller_tid))
		usleep(1000);
	return 0;
}

static int teardown_ftrace(void **state)
{
	WRITE_ONCE(stop, 1);
	pthread_join(caller, NULL);
	echo("current_tracer", W, "nop");
	echo("set_ftrace_pid", W, "");
	echo("set_ftrace_filter", W, "");
	return teardown(state);
}

static void probe_op(int i)
{
	(void)i;
	assert_int_equal(echo("set_ftrace_filter", A, "rc_fn_*:traceon"), 0);
	assert_int_equal(echo("set_ftrace_filter", A, "!rc_fn_*:traceon"), 0);
}

static void test_ftrace_probes(void **state)
{
	(void)state;
	/* 512 commands: about 56 KB of lists a cycle when never freed. */
	cycle("function command add/remove (512 functions)", CYCLES(1000), probe_op);
}

#define NR_TIDS 4096
static char *tid_text;

static void pid_op(int i)
{
	(void)i;
	assert_int_equal(echo("set_ftrace_pid", W, tid_text), 0);
	assert_int_equal(echo("set_ftrace_notrace_pid", W, "1 2 3"), 0);
	assert_int_equal(echo("set_ftrace_pid", W, ""), 0);
	assert_int_equal(echo("set_ftrace_notrace_pid", W, ""), 0);
}

static void test_ftrace_pids(void **state)
{
	(void)state;
	/* Many tids, the caller's among them (its calls are traced and read
	 * the whole list), in decreasing order (cheap to insert sorted). */
	size_t cap = NR_TIDS * 12 + 32, len = 0;
	tid_text = malloc(cap);
	assert_non_null(tid_text);
	len += (size_t)snprintf(tid_text, cap, "%d", READ_ONCE(caller_tid));
	for (int k = NR_TIDS; k > 1; k--)
		len += (size_t)snprintf(tid_text + len, cap - len, " %d", 3000000 + k);
	/* 16 KB a cycle when never freed. */
	cycle("set_ftrace_pid set/clear (4096 tids)", CYCLES(1000), pid_op);
	free(tid_text);
}

/* A signal handler that interrupts a hook inside its grace section (a
 * function with a command opens one) and jumps out: the section is closed
 * by the jump, else no grace period would pass again. */
static sigjmp_buf jump_env;
static volatile sig_atomic_t jumps;
static volatile int kick_stop;
static volatile sig_atomic_t jump_armed;
static pthread_t jumper;

static void jump_handler(int sig)
{
	(void)sig;
	/* Disarmed before the join: a jump out of pthread_join would leave the
	 * thread joined twice. */
	if (!jump_armed)
		return;
	jumps++;
	siglongjmp(jump_env, 1);
}

static void *kick_loop(void *arg)
{
	(void)arg;
	while (!READ_ONCE(kick_stop)) {
		pthread_kill(jumper, SIGUSR1);
		usleep(20);
	}
	return NULL;
}

static void test_ftrace_jump(void **state)
{
	(void)state;
	assert_int_equal(echo("set_ftrace_filter", A, "rc_fn_000:traceon"), 0);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = jump_handler;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	jumps = 0;
	jump_armed = 1;
	WRITE_ONCE(kick_stop, 0);
	jumper = pthread_self();
	static pthread_t kicker;
	/* The target set before the first signal can arrive. */
	if (sigsetjmp(jump_env, 1) == 0)
		assert_int_equal(pthread_create(&kicker, NULL, kick_loop, NULL), 0);
	while (jumps < 2000)
		rc_fn_000(1);
	jump_armed = 0;
	WRITE_ONCE(kick_stop, 1);
	pthread_join(kicker, NULL);
	sigaction(SIGUSR1, &old, NULL);
	assert_false(uft_grace_inside());
	/* And a control write still passes its grace period. */
	uint64_t freed = uft_grace_freed();
	assert_int_equal(echo("set_ftrace_filter", A, "!rc_fn_000:traceon"), 0);
	for (int i = 0; i < 100 && uft_grace_freed() == freed; i++) {
		assert_int_equal(echo("set_ftrace_filter", A, "rc_fn_000:traceon"), 0);
		assert_int_equal(echo("set_ftrace_filter", A, "!rc_fn_000:traceon"), 0);
	}
	assert_true(uft_grace_freed() > freed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hist, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_trigger, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_synth_same, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_synth_renamed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_instance, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pending_bounded, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_thread_lifetimes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fork_first_event, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ftrace_probes, setup_ftrace, teardown_ftrace),
	    cmocka_unit_test_setup_teardown(test_ftrace_pids, setup_ftrace, teardown_ftrace),
	    cmocka_unit_test_setup_teardown(test_ftrace_jump, setup_ftrace, teardown_ftrace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
