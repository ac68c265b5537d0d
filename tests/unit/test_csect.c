/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The critical-section tracers irqsoff, preemptoff and preemptirqsoff in the
 * process's own tree: sections of known lengths, tracing_max_latency keeping
 * the longest, the max trace in the latency format with the section's ends,
 * tracing_thresh, the reset, snapshot's EBUSY, bad writes and several
 * threads at once. Bounds are generous: never a tight timing. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <regex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "runtime/core/runtime.h"
#include "tfs_helpers.h"
#include "lat_helpers.h"
#include <uft/critical.h>
#include <uft/uft.h>

static __thread sigset_t saved; /* each thread restores its own mask */

/* The section's ends, each its own function so the header names them. */
__attribute__((noinline)) void csect_block_sigs(void)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &saved);
	__asm__ volatile("" ::: "memory"); /* a call, not a tail jump */
}

__attribute__((noinline)) void csect_unblock_sigs(void)
{
	sigprocmask(SIG_SETMASK, &saved, NULL);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void csect_enter(void)
{
	uft_critical_start();
	uft_critical_start(); /* nested: the outermost pair makes the section */
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void csect_leave(void)
{
	uft_critical_stop();
	uft_critical_stop();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void csect_sigs_2ms(void)
{
	csect_block_sigs();
	wait_ms(2);
	csect_unblock_sigs();
	__asm__ volatile("" ::: "memory"); /* a call, not a tail jump */
}

__attribute__((noinline)) void csect_sigs_5ms(void)
{
	csect_block_sigs();
	wait_ms(5);
	csect_unblock_sigs();
	__asm__ volatile("" ::: "memory"); /* a call, not a tail jump */
}

__attribute__((noinline)) void csect_sigs_3ms(void)
{
	csect_block_sigs();
	wait_ms(3);
	csect_unblock_sigs();
	__asm__ volatile("" ::: "memory"); /* a call, not a tail jump */
}

static void crit_ms(int ms)
{
	csect_enter();
	wait_ms(ms);
	csect_leave();
}

/* The number of lines of text matching the extended regex re is n. */
static void assert_line_re(const char *text, const char *re, int n)
{
	regex_t rx;
	assert_int_equal(regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB), 0);
	int found = 0;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *line = strndup(p, len);
		found += regexec(&rx, line, 0, NULL, 0) == 0;
		free(line);
		p += len + (e != NULL);
	}
	regfree(&rx);
	if (found != n) {
		fprintf(stderr, "%d lines match \"%s\" (not %d) in:\n%s\n", found, re, n, text);
		fail();
	}
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tfs_echo("tracing_thresh", "0", UFT_TFS_TRUNC);
	tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC);
	return 0;
}

static void test_listed(void **state)
{
	(void)state;
	char *s = cat("available_tracers");
	assert_has(s, "irqsoff");
	assert_has(s, "preemptoff");
	assert_has(s, "preemptirqsoff");
	assert_has(s, "nop");
	free(s);
	assert_int_equal(tfs_echo("current_tracer", "irqsoff", UFT_TFS_TRUNC), 0);
	s = cat("current_tracer");
	assert_string_equal(s, "irqsoff\n");
	free(s);
	assert_int_equal(tfs_echo("current_tracer", "bogus", UFT_TFS_TRUNC), -EINVAL);
	s = cat("current_tracer");
	assert_string_equal(s, "irqsoff\n");
	free(s);
}

static void test_irqsoff_max(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "irqsoff", UFT_TFS_TRUNC), 0);
	assert_int_equal(max_latency(), 0);
	/* Empty max buffer: the tracer's name and no latency block. */
	char *s = cat("trace");
	assert_string_equal(s, "# tracer: irqsoff\n#\n");
	free(s);
	csect_sigs_2ms();
	csect_sigs_5ms();
	csect_sigs_3ms();
	unsigned long m = max_latency();
	assert_true(m >= 5000 && m < MAX_SANE_US);
	s = cat("trace");
	assert_has(s, "# tracer: irqsoff\n#\n# irqsoff latency trace v1.1.5 on uft-");
	char line[128];
	snprintf(line, sizeof(line), "# latency: %lu us, #", m);
	assert_has(s, line);
	assert_has(s, "#    | task: ");
	assert_has(s, "(uid:");
	assert_has(
	    s, "#  => started at: csect_block_sigs\n#  => ended at:   csect_unblock_sigs\n#\n#\n");
	/* the section's own lines: the blocking and the unblocking call */
	assert_has(s, "sigprocmask <-csect_block_sigs");
	assert_has(s, "sigprocmask <-csect_unblock_sigs");
	/* With functions to patch, the calls inside are listed (which section
	 * won is not asserted: a loaded machine may stretch a shorter one). */
	char *tracers = cat("available_tracers");
	if (strstr(tracers, "function "))
		assert_has(s, ": csect_unblock_sigs <-csect_sigs_");
	free(tracers);
	free(s);

	/* The max buffer is taken: snapshot is busy both ways. */
	int err = 0;
	assert_null(tfs_cat("snapshot", &err));
	assert_int_equal(err, -EBUSY);
	assert_int_equal(tfs_echo("snapshot", "1", UFT_TFS_TRUNC), -EBUSY);

	/* Bad writes; then the reset, after which a shorter section wins. */
	assert_int_equal(tfs_echo("tracing_max_latency", "-1", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("tracing_max_latency", "abc", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(max_latency(), m);
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(max_latency(), 0);
	csect_sigs_2ms();
	m = max_latency();
	assert_true(m >= 2000 && m < MAX_SANE_US);

	/* `echo > trace` empties the max trace; the max stays. */
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_string_equal(s, "# tracer: irqsoff\n#\n");
	free(s);
	assert_int_equal(max_latency(), m);

	/* Back to nop: snapshot works again. */
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	s = cat("snapshot");
	free(s);
}

/* With function-trace (the default) the calls made inside the section are
 * in its trace; without, only its two ends. */
static void test_function_trace(void **state)
{
	(void)state;
	char *s = cat("available_tracers");
	bool patchable = strstr(s, "function ") != NULL;
	free(s);
	if (!patchable)
		skip();
	assert_int_equal(tfs_echo("current_tracer", "irqsoff", UFT_TFS_TRUNC), 0);
	csect_sigs_5ms();
	s = cat("trace");
	assert_has(s, ": csect_unblock_sigs <-");
	free(s);
	assert_int_equal(tfs_echo("options/function-trace", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	csect_sigs_3ms();
	s = cat("trace");
	assert_has(s, "#3/3"); /* its two ends and the closing stack only */
	assert_null(strstr(s, ": csect_unblock_sigs <-"));
	assert_has(s, "sigprocmask <-csect_unblock_sigs");
	assert_has(s, "#  => started at: csect_block_sigs\n");
	/* the kernel's closing stack: the ending thread's, from the function
	 * that ended the section */
	assert_has(s, "us : <stack trace>\n => csect_unblock_sigs\n => csect_sigs_3ms\n");
	free(s);
	assert_int_equal(tfs_echo("options/function-trace", "1", UFT_TFS_TRUNC), 0);
}

/* display-graph: the max trace in the graph's form with the kernel's
 * fixed columns; the section's ends are leaf calls of no duration. */
static void test_display_graph(void **state)
{
	(void)state;
	char *s = cat("available_tracers");
	bool patchable = strstr(s, "function ") != NULL;
	free(s);
	if (!patchable)
		skip();
	assert_int_equal(tfs_echo("current_tracer", "irqsoff", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("options/display-graph", "1", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_string_equal(s, "# tracer: irqsoff\n#\n");
	free(s);
	csect_sigs_5ms();
	s = cat("trace");
	assert_has(s, "# tracer: irqsoff\n#\n# irqsoff latency trace v1.1.5 on uft-");
	assert_has(s, "#  => started at: csect_block_sigs\n"
		      "#  => ended at:   csect_unblock_sigs\n"
		      "#\n"
		      "#\n"
		      "#                                       _-----=> signals-off     \n"
		      "#                                      / _----=> need-resched    \n"
		      "#                                     | / _---=> signal-handler  \n"
		      "#                                     || / _--=> nesting-depth   \n"
		      "#                                     ||| /                      \n"
		      "#     TIME        CPU  TASK/PID       ||||     DURATION                  "
		      "FUNCTION CALLS\n"
		      "#      |          |     |    |        ||||      |   |                     "
		      "|   |   |   |\n");
	/* The start leaf (signals blocked by then), the calls inside with
	 * their depth, the end leaf (unblocked): the kernel's line layout. */
	const char *pre = "^ *[0-9]+\\.[0-9]{6} \\| +[0-9]+\\) +test_cs-[0-9]+ +\\|  ";
	char re[256];
	snprintf(re, sizeof(re), "%sd\\.\\.\\.\\. \\|   0\\.000 us    \\|  sigprocmask\\(\\);$",
		 pre);
	assert_line_re(s, re, 1);
	snprintf(re, sizeof(re),
		 "%sd\\.\\.\\.\\. \\|               \\|    csect_unblock_sigs\\(\\) \\{$", pre);
	assert_line_re(s, re, 1);
	snprintf(re, sizeof(re), "%s\\.\\.\\.\\.\\. \\|   0\\.000 us    \\|  sigprocmask\\(\\);$",
		 pre);
	assert_line_re(s, re, 1);
	free(s);

	/* Without function-trace: the two leaves alone. */
	assert_int_equal(tfs_echo("options/function-trace", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	csect_sigs_3ms();
	s = cat("trace");
	assert_has(s, "#5/5"); /* two leaves, and the stack as a plain line */
	assert_has(s, "us : <stack trace>\n => csect_unblock_sigs\n");
	snprintf(re, sizeof(re), "%s[d.]\\.\\.\\.\\. \\|   0\\.000 us    \\|  sigprocmask\\(\\);$",
		 pre);
	assert_line_re(s, re, 2);
	free(s);
	assert_int_equal(tfs_echo("options/function-trace", "1", UFT_TFS_TRUNC), 0);

	/* Switching back restarts the max and empties the buffer, as the
	 * kernel's irqsoff_display_graph(); the plain lines return. */
	assert_int_equal(tfs_echo("options/display-graph", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(max_latency(), 0);
	s = cat("trace");
	assert_string_equal(s, "# tracer: irqsoff\n#\n");
	free(s);
	csect_sigs_2ms();
	s = cat("trace");
	assert_has(s, "sigprocmask <-csect_block_sigs");
	free(s);
}

/* Every section over tracing_thresh is recorded in turn, each replacing the
 * last, whether or not it beats the max. */
static void test_thresh(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "irqsoff", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_thresh", "1000", UFT_TFS_TRUNC), 0);
	static void (*const fns[])(void) = {csect_sigs_2ms, csect_sigs_5ms, csect_sigs_3ms};
	static const char *const names[] = {"csect_sigs_2ms", "csect_sigs_5ms", "csect_sigs_3ms"};
	static const unsigned long ms[] = {2, 5, 3};
	for (int i = 0; i < 3; i++) {
		fns[i]();
		unsigned long m = max_latency();
		assert_true(m >= ms[i] * 1000 && m < MAX_SANE_US);
		char *s = cat("trace");
		/* the ends are the helpers; the section's caller shows in the task's lines */
		assert_has(s, "#  => started at: csect_block_sigs");
		char lat[64];
		snprintf(lat, sizeof(lat), "# latency: %lu us", m);
		assert_has(s, lat);
		free(s);
		(void)names;
	}
	/* A section under the threshold is not recorded. */
	assert_int_equal(tfs_echo("tracing_thresh", "100000", UFT_TFS_TRUNC), 0);
	unsigned long before = max_latency();
	csect_sigs_2ms();
	assert_int_equal(max_latency(), before);
}

static void test_preemptoff(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "preemptoff", UFT_TFS_TRUNC), 0);
	/* Signals blocked are not a preemptoff section. */
	csect_sigs_3ms();
	assert_int_equal(max_latency(), 0);
	crit_ms(2);
	crit_ms(5);
	crit_ms(3);
	unsigned long m = max_latency();
	assert_true(m >= 5000 && m < MAX_SANE_US);
	char *s = cat("trace");
	assert_has(s, "# preemptoff latency trace v1.1.5 on uft-");
	assert_has(s, "#  => started at: csect_enter\n#  => ended at:   csect_leave\n");
	assert_has(s, "uft_critical_start <-csect_enter");
	assert_has(s, "uft_critical_stop <-csect_leave");
	free(s);
	/* An unbalanced stop is ignored. */
	uft_critical_stop();
	assert_int_equal(max_latency(), m);
}

static pthread_mutex_t mu_a = PTHREAD_MUTEX_INITIALIZER, mu_b = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) void csect_take(pthread_mutex_t *m)
{
	pthread_mutex_lock(m);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void csect_give(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
	__asm__ volatile("" ::: "memory");
}

/* A and B nested: the hold of A is the section, B's unlock ends nothing. */
static void hold_ms(int ms)
{
	csect_take(&mu_a);
	csect_take(&mu_b);
	wait_ms(1);
	csect_give(&mu_b);
	wait_ms(ms - 1);
	csect_give(&mu_a);
}

/* options/lock-holdtime: pthread mutex holds are preemptoff sections. */
static void test_lock_holdtime(void **state)
{
	(void)state;
	/* Only listed (and taken) while preemptoff or preemptirqsoff runs. */
	assert_int_equal(tfs_echo("current_tracer", "irqsoff", UFT_TFS_TRUNC), 0);
	char *s = cat("trace_options");
	assert_null(strstr(s, "lock-holdtime"));
	free(s);
	assert_int_equal(tfs_echo("current_tracer", "preemptoff", UFT_TFS_TRUNC), 0);
	s = cat("trace_options");
	assert_has(s, "\nnolock-holdtime\n");
	free(s);
	/* Off: a mutex is no section. */
	hold_ms(3);
	assert_int_equal(max_latency(), 0);
	/* A mutex taken before the option is given back after: no section. */
	csect_take(&mu_a);
	assert_int_equal(tfs_echo("options/lock-holdtime", "1", UFT_TFS_TRUNC), 0);
	wait_ms(2);
	csect_give(&mu_a);
	/* (the tree's own locks taken by this thread while it writes the
	 * option are short sections: well under the 2 ms) */
	assert_true(max_latency() < 2000);
	hold_ms(2);
	hold_ms(5);
	hold_ms(3);
	unsigned long m = max_latency();
	assert_true(m >= 5000 && m < MAX_SANE_US);
	s = cat("trace");
	assert_has(s, "#  => started at: csect_take\n#  => ended at:   csect_give\n");
	assert_has(s, "pthread_mutex_lock <-csect_take");
	assert_has(s, "pthread_mutex_unlock <-csect_give");
	free(s);
	/* A condition variable's wait gives the mutex back: the 10 ms timed
	 * wait splits the hold into two short ones. */
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec at;
	clock_gettime(CLOCK_REALTIME, &at);
	at.tv_nsec += 10000000;
	if (at.tv_nsec >= 1000000000) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000;
	}
	csect_take(&mu_a);
	assert_int_equal(pthread_cond_timedwait(&c, &mu_a, &at), ETIMEDOUT);
	csect_give(&mu_a);
	assert_true(max_latency() < 10000);
	/* Mixed with uft_critical_start/stop: one section while either holds. */
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	csect_enter();
	csect_take(&mu_a);
	csect_leave();
	wait_ms(4);
	csect_give(&mu_a);
	m = max_latency();
	assert_true(m >= 4000 && m < MAX_SANE_US);
	s = cat("trace");
	assert_has(s, "#  => started at: csect_enter\n#  => ended at:   csect_give\n");
	free(s);
	assert_int_equal(tfs_echo("options/lock-holdtime", "0", UFT_TFS_TRUNC), 0);
}

__attribute__((noinline)) void csect_in_handler(int sig)
{
	(void)sig;
	csect_enter();
	wait_ms(4);
	csect_leave();
}

static void leave_in_handler(int sig)
{
	(void)sig;
	csect_leave();
}

/* A section that ends inside a signal handler is measured too (its trace
 * is copied without malloc), its lines marked as the handler's. */
static void test_in_handler(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "preemptoff", UFT_TFS_TRUNC), 0);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = csect_in_handler;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	raise(SIGUSR1);
	unsigned long m = max_latency();
	assert_true(m >= 4000 && m < MAX_SANE_US);
	char *s = cat("trace");
	assert_has(s, "#  => started at: csect_enter\n#  => ended at:   csect_leave\n");
	assert_has(s, "..h.. "); /* the signal-handler column (the kernel's hardirq) */
	assert_has(s, "uft_critical_stop <-csect_leave");
	free(s);
	/* And one that began before the signal and ends in its handler. */
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	sa.sa_handler = leave_in_handler;
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	csect_enter();
	wait_ms(3);
	raise(SIGUSR1);
	m = max_latency();
	assert_true(m >= 3000 && m < MAX_SANE_US);
	assert_int_equal(sigaction(SIGUSR1, &old, NULL), 0);
}

/* The union: from blocking the signals to the last critical stop. */
static void test_preemptirqsoff(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "preemptirqsoff", UFT_TFS_TRUNC), 0);
	csect_block_sigs();
	wait_ms(2);
	csect_enter();
	csect_unblock_sigs();
	wait_ms(3);
	csect_leave();
	unsigned long m = max_latency();
	assert_true(m >= 5000 && m < MAX_SANE_US);
	char *s = cat("trace");
	assert_has(s, "# preemptirqsoff latency trace v1.1.5 on uft-");
	assert_has(s, "#  => started at: csect_block_sigs\n#  => ended at:   csect_leave\n");
	free(s);
	/* One buffer at a time runs a section tracer. */
	assert_int_equal(uft_tracefs_mkdir("instances/csect_other"), 0);
	assert_int_equal(tfs_echo("instances/csect_other/current_tracer", "irqsoff", UFT_TFS_TRUNC),
			 -EBUSY);
	/* Once the top lets go, the instance runs it with its own max. */
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("instances/csect_other/current_tracer", "irqsoff", UFT_TFS_TRUNC),
			 0);
	csect_sigs_5ms();
	s = cat("instances/csect_other/tracing_max_latency");
	unsigned long im = strtoul(s, NULL, 10);
	free(s);
	assert_true(im >= 5000 && im < 50000);
	s = cat("instances/csect_other/trace");
	assert_has(s, "#  => started at: csect_block_sigs\n#  => ended at:   csect_unblock_sigs\n");
	assert_has(s, "sigprocmask <-csect_block_sigs");
	free(s);
	assert_int_equal(uft_tracefs_rmdir("instances/csect_other"), 0);
	/* The instance gone, the top may run one again. */
	assert_int_equal(tfs_echo("current_tracer", "irqsoff", UFT_TFS_TRUNC), 0);
}

/* Threads ending sections at once: the longest one is the max. */
static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	for (int i = 0; i < 10; i++) {
		if (i & 1)
			crit_ms(1 + (i + id) % 3);
		else
			csect_sigs_2ms();
		if (id == 0 && i == 5)
			crit_ms(8);
	}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "preemptirqsoff", UFT_TFS_TRUNC), 0);
	pthread_t th[4];
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	/* At least the 8 ms one; a loaded machine may stretch another past it,
	 * so which section won is not asserted, only that it is whole. */
	unsigned long m = max_latency();
	assert_true(m >= 8000 && m < 1000000);
	char *s = cat("trace");
	bool crit = strstr(s, "#  => started at: csect_enter\n#  => ended at:   csect_leave\n");
	bool sigs =
	    strstr(s, "#  => started at: csect_block_sigs\n#  => ended at:   csect_unblock_sigs\n");
	assert_true(crit || sigs);
	char lat[64];
	snprintf(lat, sizeof(lat), "# latency: %lu us, #", m);
	assert_has(s, lat);
	free(s);
}

int main(void)
{
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_listed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_irqsoff_max, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_function_trace, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_display_graph, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_thresh, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_preemptoff, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_preemptirqsoff, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lock_holdtime, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_in_handler, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
