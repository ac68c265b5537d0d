/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events/SYSTEM/EVENT/trigger driven through the tree's path calls: the
 * file's text byte for byte, errno and error_log of bad commands, soft mode
 * in `enable`, and what each command does to the records, tracing_on and
 * the snapshot when its event is hit, in a signal handler too. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tracefs.h"
#include "runtime/core/trigger_run.h"
#include "tfs_cmocka.h"
#include "util/atomics.h"

static const char help[] =
    "# Available triggers:\n"
    "# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist "
    "disable_hist hist\n";

/* ---- helpers ---- */

#define NUM_TRIG(in) p(in, "events/tfsev/num/trigger")
#define OTHER_TRIG(in) p(in, "events/tfsev/other/trigger")

static const char *const names[8] = {"alpha",	 "beta", "gamma", "delta",
				     "alphabet", "zeta", "eta",	  "theta"};

static void emit_eight(void)
{
	for (int i = 0; i < 8; i++)
		trace_num(i, (unsigned)i * 10, names[i], "/p");
}

/* Number of num records with a == v in a trace text. */
static int has_num(const char *text, int v)
{
	char needle[32];
	snprintf(needle, sizeof(needle), "num: a=%d ", v);
	return tfs_count(text, needle);
}

/* Which num records (a = 0..7) a text holds, as "01234567" with '-' for
 * missing ones. */
static const char *nums(const char *text)
{
	static char b[9];
	for (int i = 0; i < 8; i++)
		b[i] = has_num(text, i) ? (char)('0' + i) : '-';
	b[8] = 0;
	return b;
}

static void expect_nums(const char *path, const char *want)
{
	char *t = rd(path);
	if (strcmp(nums(t), want) != 0)
		fail_msg("%s: records %s, expected %s\n%s", path, nums(t), want, t);
	free(t);
}

/* error_log without the timestamps. */
static char *error_log(const char *in)
{
	return tfs_strip_stamps(rd(p(in, "error_log")));
}

/* ---- tests ---- */

static void test_help_and_listing(void **state)
{
	(void)state;
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat("events/tfsev/num/trigger", &st), 0);
	assert_int_equal(st.mode, 0644);
	assert_int_equal(uft_tracefs_stat("events/ftrace/raw_data/trigger", &st), -ENOENT);
	mkinst("list");
	check(NUM_TRIG("list"), help);

	assert_int_equal(echo(NUM_TRIG("list"), W, "traceoff:5 if a == 1"), 0);
	check(NUM_TRIG("list"), "traceoff:count=5 if a == 1\n");
	/* traceon and traceoff share a slot; so do enable and disable of a target. */
	assert_int_equal(echo(NUM_TRIG("list"), A, "traceon"), -EEXIST);
	assert_int_equal(echo(NUM_TRIG("list"), A, "snapshot"), 0);
	assert_int_equal(echo(NUM_TRIG("list"), A, "  enable_event:tfsev:other:2  "), 0);
	assert_int_equal(echo(NUM_TRIG("list"), A, "disable_event:tfsev:other"), -EEXIST);
	assert_int_equal(echo(NUM_TRIG("list"), A, "disable_event:tfsev:num if u > 0x10"), 0);
	assert_int_equal(echo(NUM_TRIG("list"), A, "stacktrace:0"), 0);
	assert_int_equal(echo(NUM_TRIG("list"), A, "stacktrace 3"), -EEXIST);
	/* Newest first: the kernel adds each at the head of the list. */
	check(NUM_TRIG("list"), "stacktrace:count=0\n"
				"disable_event:tfsev:num:unlimited if u > 0x10\n"
				"enable_event:tfsev:other:count=2\n"
				"snapshot:unlimited\n"
				"traceoff:count=5 if a == 1\n");
	/* The triggers of another event and of another instance are their own. */
	check(OTHER_TRIG("list"), help);
	check("events/tfsev/num/trigger", help);

	/* Removal matches the kind (and target), whatever count or filter. */
	assert_int_equal(echo(NUM_TRIG("list"), W, "!traceon:7 if junk"), 0);
	assert_int_equal(echo(NUM_TRIG("list"), W, "!enable_event:tfsev:other:9"), 0);
	/* none there: nothing to do, and no error, as the kernel's */
	assert_int_equal(echo(NUM_TRIG("list"), W, "!disable_event:tfsev:other"), 0);
	check(NUM_TRIG("list"), "stacktrace:count=0\n"
				"disable_event:tfsev:num:unlimited if u > 0x10\n"
				"snapshot:unlimited\n");
	assert_int_equal(echo(NUM_TRIG("list"), W, "!enable_event:tfsev:num"), 0);
	assert_int_equal(echo(NUM_TRIG("list"), W, "!snapshot"), 0);
	assert_int_equal(echo(NUM_TRIG("list"), W, "!stacktrace"), 0);
	check(NUM_TRIG("list"), help);
	/* Counts as the kernel's kstrtoul reads them. */
	assert_int_equal(echo(NUM_TRIG("list"), W, "traceon:0x10"), 0);
	check(NUM_TRIG("list"), "traceon:count=16\n");
	assert_int_equal(echo(NUM_TRIG("list"), W, "!traceon"), 0);
	assert_int_equal(echo(NUM_TRIG("list"), W, "traceon:010"), 0);
	check(NUM_TRIG("list"), "traceon:count=8\n");
	assert_int_equal(echo(NUM_TRIG("list"), W, "!traceoff"), 0);
	check(NUM_TRIG("list"), help);
	rminst("list");
}

static void test_errors(void **state)
{
	(void)state;
	mkinst("err");
	char t[256];
	strcpy(t, NUM_TRIG("err"));
	/* A newline alone names no command (EINVAL); no bytes at all is a
	 * write that does nothing, as the kernel's. */
	assert_int_equal(echo(t, W, ""), -EINVAL);
	assert_int_equal(echo(t, W, "traceon:3"), 0);
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open(t, UFT_TFS_WRITE, &h), 0);
	assert_int_equal(uft_tracefs_write(h, "", 0, 0), 0);
	uft_tracefs_release(h);
	check(t, "traceon:count=3\n");
	assert_int_equal(echo(t, W, "!traceon"), 0);
	assert_int_equal(echo(t, W, "bogus"), -EINVAL);
	/* An empty parameter is no parameter, as the kernel splits it. */
	assert_int_equal(echo(t, W, "traceon:"), 0);
	check(t, "traceon:unlimited\n");
	assert_int_equal(echo(t, W, "!traceon"), 0);
	assert_int_equal(echo(t, W, "traceon:abc"), -EINVAL);
	assert_int_equal(echo(t, W, "traceon:5x"), -EINVAL);
	assert_int_equal(echo(t, W, "traceon:08"), -EINVAL);
	assert_int_equal(echo(t, W, "traceon:99999999999999999999"), -ERANGE);
	assert_int_equal(echo(t, W, "traceon if"), -EINVAL);
	assert_int_equal(echo(t, W, "traceon iff a == 1"), -EINVAL);
	assert_int_equal(echo(t, W, "traceon:3 junk"), -EINVAL);
	assert_int_equal(echo(t, W, "enable_event"), -EINVAL);
	assert_int_equal(echo(t, W, "enable_event:tfsev"), -EINVAL);
	assert_int_equal(echo(t, W, "enable_event:tfsev:nosuch"), -EINVAL);
	assert_int_equal(echo(t, W, "enable_event:ftrace:print"), -EINVAL);
	assert_int_equal(echo(t, W, "enable_event:tfsev:other:"), -EINVAL);
	assert_int_equal(echo(t, W, "enable_event:tfsev:other:x"), -EINVAL);
	assert_int_equal(echo(t, W, "!enable_event:tfsev:nosuch"), -EINVAL);
	/* Removing a trigger that is not there succeeds (the selftests' reset
	 * writes "!CMD" for whatever it finds), for every command. */
	static const char *const absent[] = {"!traceon",
					     "!traceoff",
					     "!snapshot",
					     "!stacktrace",
					     "!traceoff:unlimited",
					     "!stacktrace:count=3 if a == 1",
					     "!enable_event:tfsev:other",
					     "!disable_event:tfsev:other:count=2",
					     "!enable_hist:tfsev:other",
					     "!disable_hist:tfsev:other:unlimited",
					     "!hist:keys=a",
					     "!hist:keys=u:vals=a if a > 1"};
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		assert_int_equal(echo(t, W, absent[i]), 0);
	/* A removal never reads its filter; a second traceon is EEXIST: no
	 * line either. */
	assert_int_equal(echo(t, W, "!traceon if nosuch == 1"), 0);
	assert_int_equal(echo(t, W, "traceon"), 0);
	assert_int_equal(echo(t, W, "traceoff"), -EEXIST);
	assert_int_equal(echo(t, W, "enable_event:tfsev:other"), 0);
	assert_int_equal(echo(t, W, "disable_event:tfsev:other"), -EEXIST);
	assert_int_equal(echo(t, W, "!traceon"), 0);
	assert_int_equal(echo(t, W, "!enable_event:tfsev:other"), 0);
	char *log = error_log("err");
	assert_string_equal(log, ""); /* only filters log */
	free(log);

	/* A bad filter: EINVAL and the filter's error_log entry, the same as
	 * the filter file's for that expression. */
	assert_int_equal(echo(t, W, "traceoff if a == 1 && nosuch == 2"), -EINVAL);
	assert_int_equal(echo(t, W, "enable_event:tfsev:other if name == 3"), -EINVAL);
	assert_int_equal(echo(p("err", "events/tfsev/num/filter"), W, "a == 1 && nosuch == 2"),
			 -EINVAL);
	log = error_log("err");
	assert_string_equal(log, "event filter parse error: error: Field not found\n"
				 "  Command: a == 1 && nosuch == 2\n"
				 "                            ^\n"
				 "event filter parse error: error: Expecting string field\n"
				 "  Command: name == 3\n"
				 "                    ^\n"
				 "event filter parse error: error: Field not found\n"
				 "  Command: a == 1 && nosuch == 2\n"
				 "                            ^\n");
	free(log);
	/* Nothing changed. */
	check(t, help);
	check(p("err", "events/tfsev/num/enable"), "0\n");
	check(p("err", "events/tfsev/other/enable"), "0\n");
	rminst("err");
}

/* The kernel keeps "LOCATION: error: " in 128 bytes (TRACING_LOG_LOC_MAX):
 * a longer location loses its end, then the ": error: ". */
static void test_error_log_location_cut(void **state)
{
	(void)state;
	assert_int_equal(echo("error_log", W, ""), 0);
	char loc[160];
	memset(loc, 'x', sizeof(loc));
	memcpy(loc, "hist:", 5);
	pthread_mutex_lock(&tfs_lock);
	loc[118] = 0; /* 118 + ": error: " is 127: all of it */
	tfs_log_error(tfs_insts[0], loc, "keys=a", "Couldn't find field", 2);
	loc[118] = 'x';
	loc[120] = 0; /* two more: ": error" is left */
	tfs_log_error(tfs_insts[0], loc, "keys=a", "Couldn't find field", 2);
	loc[120] = 'x';
	loc[150] = 0;
	tfs_log_error(tfs_insts[0], loc, "keys=a", "Couldn't find field", 2);
	pthread_mutex_unlock(&tfs_lock);
	char x[160], want[1024];
	memset(x, 'x', sizeof(x));
	snprintf(want, sizeof(want),
		 "hist:%.113s: error: Couldn't find field\n  Command: keys=a\n             ^\n"
		 "hist:%.115s: errorCouldn't find field\n  Command: keys=a\n             ^\n"
		 "hist:%.122sCouldn't find field\n  Command: keys=a\n             ^\n",
		 x, x, x);
	char *log = error_log("");
	assert_string_equal(log, want);
	free(log);
	assert_int_equal(echo("error_log", W, ""), 0);
}

static void test_soft_mode_enable_file(void **state)
{
	(void)state;
	mkinst("soft");
	char en[256];
	strcpy(en, p("soft", "events/tfsev/num/enable"));
	check(en, "0\n");
	assert_int_equal(echo(NUM_TRIG("soft"), W, "stacktrace:0"), 0);
	check(en, "0*\n");
	/* Armed for its triggers, its records are not kept. */
	emit_eight();
	expect_nums(p("soft", "trace"), "--------");
	assert_int_equal(echo(en, W, "1"), 0);
	check(en, "1*\n");
	emit_eight();
	expect_nums(p("soft", "trace"), "01234567");
	assert_int_equal(echo(p("soft", "trace"), W, ""), 0);
	assert_int_equal(echo(en, W, "0"), 0);
	check(en, "0*\n");
	emit_eight();
	expect_nums(p("soft", "trace"), "--------");
	assert_int_equal(echo(NUM_TRIG("soft"), A, "!stacktrace"), 0);
	check(en, "0\n");
	/* An enabled event stays enabled through soft mode. */
	assert_int_equal(echo(en, W, "1"), 0);
	assert_int_equal(echo(NUM_TRIG("soft"), A, "traceon"), 0);
	check(en, "1*\n");
	assert_int_equal(echo(NUM_TRIG("soft"), A, "!traceon"), 0);
	check(en, "1\n");
	/* The target of enable_event is in soft mode too. */
	assert_int_equal(echo(NUM_TRIG("soft"), A, "enable_event:tfsev:other"), 0);
	check(p("soft", "events/tfsev/other/enable"), "0*\n");
	check(en, "1*\n");
	assert_int_equal(echo(NUM_TRIG("soft"), A, "!enable_event:tfsev:other"), 0);
	check(p("soft", "events/tfsev/other/enable"), "0\n");
	check(en, "1\n");
	check("events/tfsev/num/enable", "0\n");
	rminst("soft");
}

static void test_traceon_traceoff(void **state)
{
	(void)state;
	mkinst("onoff");
	mkinst("bystander");
	assert_int_equal(echo(p("onoff", "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(p("bystander", "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(NUM_TRIG("onoff"), W, "traceoff:1 if a == 2"), 0);
	emit_eight();
	/* traceoff acts after its event is recorded. */
	check(p("onoff", "tracing_on"), "0\n");
	expect_nums(p("onoff", "trace"), "012-----");
	check(NUM_TRIG("onoff"), "traceoff:count=0 if a == 2\n");
	/* Other instances and the top go on. */
	check(p("bystander", "tracing_on"), "1\n");
	check("tracing_on", "1\n");
	expect_nums(p("bystander", "trace"), "01234567");
	/* Spent: it stays, inert. */
	assert_int_equal(echo(p("onoff", "tracing_on"), W, "1"), 0);
	assert_int_equal(echo(p("onoff", "trace"), W, ""), 0);
	emit_eight();
	check(p("onoff", "tracing_on"), "1\n");
	expect_nums(p("onoff", "trace"), "01234567");
	assert_int_equal(echo(NUM_TRIG("onoff"), W, "!traceoff"), 0);

	/* traceon without a filter runs before the event is written, so the
	 * event that turns tracing on is recorded; counts only while off. */
	assert_int_equal(echo(p("onoff", "trace"), W, ""), 0);
	assert_int_equal(echo(OTHER_TRIG("onoff"), W, "traceon:2"), 0);
	assert_int_equal(echo(p("onoff", "events/tfsev/other/enable"), W, "1"), 0);
	trace_other(1);
	check(OTHER_TRIG("onoff"), "traceon:count=2\n");
	assert_int_equal(echo(p("onoff", "tracing_on"), W, "0"), 0);
	trace_other(2);
	check(p("onoff", "tracing_on"), "1\n");
	check(OTHER_TRIG("onoff"), "traceon:count=1\n");
	char *t = rd(p("onoff", "trace"));
	assert_int_equal(tfs_count(t, "other: b=1\n"), 1);
	assert_int_equal(tfs_count(t, "other: b=2\n"), 1);
	free(t);

	/* A filtered traceon sees the record while tracing is off (built aside,
	 * not kept). */
	assert_int_equal(echo(NUM_TRIG("onoff"), W, "traceon if name ~ \"*ta\""), 0);
	assert_int_equal(echo(p("onoff", "tracing_on"), W, "0"), 0);
	assert_int_equal(echo(p("onoff", "trace"), W, ""), 0);
	emit_eight();
	check(p("onoff", "tracing_on"), "1\n");
	expect_nums(p("onoff", "trace"), "--234567");
	rminst("onoff");
	rminst("bystander");
}

static void test_enable_disable_event(void **state)
{
	(void)state;
	mkinst("ed");
	char other_en[256];
	strcpy(other_en, p("ed", "events/tfsev/other/enable"));
	assert_int_equal(echo(p("ed", "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(NUM_TRIG("ed"), W, "enable_event:tfsev:other:1 if a == 3"), 0);
	check(other_en, "0*\n");
	trace_other(100);
	emit_eight();
	check(other_en, "1*\n");
	trace_other(101);
	check(NUM_TRIG("ed"), "enable_event:tfsev:other:count=0 if a == 3\n");
	char *t = rd(p("ed", "trace"));
	assert_int_equal(tfs_count(t, "other: b=100\n"), 0);
	assert_int_equal(tfs_count(t, "other: b=101\n"), 1);
	free(t);
	/* Leaving soft mode keeps the state the trigger left. */
	assert_int_equal(echo(NUM_TRIG("ed"), A, "!enable_event:tfsev:other"), 0);
	check(other_en, "1\n");

	/* disable_event counts only when it changes something. */
	assert_int_equal(echo(NUM_TRIG("ed"), A, "disable_event:tfsev:other:5 if a >= 5"), 0);
	check(other_en, "1*\n");
	emit_eight();
	check(other_en, "0*\n");
	check(NUM_TRIG("ed"), "disable_event:tfsev:other:count=4 if a >= 5\n");
	trace_other(102);
	t = rd(p("ed", "trace"));
	assert_int_equal(tfs_count(t, "other: b=102\n"), 0);
	free(t);
	/* A write to `enable` in soft mode sets the soft state. */
	assert_int_equal(echo(other_en, W, "1"), 0);
	check(other_en, "1*\n");
	assert_int_equal(echo(NUM_TRIG("ed"), A, "!disable_event:tfsev:other"), 0);
	check(other_en, "1\n");
	/* An event may disable itself. */
	assert_int_equal(echo(NUM_TRIG("ed"), A, "disable_event:tfsev:num if a == 4"), 0);
	assert_int_equal(echo(p("ed", "trace"), W, ""), 0);
	emit_eight();
	expect_nums(p("ed", "trace"), "0123----");
	check(p("ed", "events/tfsev/num/enable"), "0*\n");
	rminst("ed");
}

static void test_snapshot(void **state)
{
	(void)state;
	mkinst("snap");
	assert_int_equal(echo(p("snap", "events/tfsev/num/enable"), W, "1"), 0);
	char *s = rd(p("snap", "snapshot"));
	assert_int_equal(tfs_count(s, "# * Snapshot is freed *\n"), 1);
	free(s);
	assert_int_equal(echo(NUM_TRIG("snap"), W, "snapshot:1 if a == 3"), 0);
	/* Registering allocates the snapshot buffer. */
	s = rd(p("snap", "snapshot"));
	assert_int_equal(tfs_count(s, "# * Snapshot is allocated *\n"), 1);
	free(s);
	emit_eight();
	/* Everything up to the trigger, its own event included, is the
	 * snapshot; what followed stays in the buffer. */
	expect_nums(p("snap", "snapshot"), "0123----");
	expect_nums(p("snap", "trace"), "----4567");
	check(NUM_TRIG("snap"), "snapshot:count=0 if a == 3\n");
	emit_eight();
	expect_nums(p("snap", "snapshot"), "0123----");
	/* Served by the tree's thread too, without a tree call. */
	assert_int_equal(echo(NUM_TRIG("snap"), W, "!snapshot"), 0);
	assert_int_equal(echo(p("snap", "trace"), W, ""), 0);
	assert_int_equal(echo(NUM_TRIG("snap"), W, "snapshot if a == 6"), 0);
	emit_eight();
	bool served = false;
	for (int i = 0; i < 200 && !served; i++) {
		usleep(5000);
		served = true;
		for (int b = 0; b < UFT_MAX_BUFFERS; b++)
			served &= uft_load_seq_cst(&uft_trig_snap_cut[b]) == 0;
	}
	assert_true(served);
	expect_nums(p("snap", "snapshot"), "0123456-");
	expect_nums(p("snap", "trace"), "-------7");
	rminst("snap");
}

void trig_stack_caller(int a);
__attribute__((noinline)) void trig_stack_caller(int a)
{
	trace_num(a, 0, "s", "/s");
	__asm__ volatile("" ::: "memory"); /* not a tail call */
}

static void test_stacktrace(void **state)
{
	(void)state;
	mkinst("stk");
	assert_int_equal(echo(p("stk", "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(NUM_TRIG("stk"), W, "stacktrace:1 if a == 1"), 0);
	trig_stack_caller(0);
	trig_stack_caller(1);
	trig_stack_caller(1);
	check(NUM_TRIG("stk"), "stacktrace:count=0 if a == 1\n");
	char *t = rd(p("stk", "trace"));
	assert_int_equal(tfs_count(t, "<stack trace>\n"), 1);
	/* Right after its event, starting at the caller of the tracepoint. */
	const char *ev = strstr(t, "num: a=1 ");
	assert_non_null(ev);
	const char *nl = strchr(ev, '\n');
	assert_non_null(nl);
	const char *st = strstr(nl + 1, ": <stack trace>\n => ");
	assert_non_null(st);
	assert_true(strchr(nl + 1, '\n') > st);
	st += strlen(": <stack trace>\n");
	/* The caller's frame, or the .cold part the compiler split off for the
	 * unlikely path that holds the call. */
	if (strncmp(st, " => trig_stack_caller\n", 22) != 0 &&
	    strncmp(st, " => trig_stack_caller.cold\n", 27) != 0)
		fail_msg("stack:\n%s", t);
	free(t);
	check("events/ftrace/kernel_stack/id", "4\n");
	rminst("stk");
}

/* ---- signal handlers ---- */

static volatile sig_atomic_t handled;

void on_usr1(int sig);
void on_usr1(int sig)
{
	(void)sig;
	trace_num(42, 0, "sig", "/sig");
	handled = 1;
}

static void test_from_signal_handler(void **state)
{
	(void)state;
	mkinst("sig");
	assert_int_equal(echo(p("sig", "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(NUM_TRIG("sig"), W, "traceoff if a == 42"), 0);
	assert_int_equal(echo(NUM_TRIG("sig"), A, "stacktrace:1 if a == 42"), 0);
	assert_int_equal(echo(NUM_TRIG("sig"), A, "enable_event:tfsev:other if a == 42"), 0);
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	emit_eight();
	raise(SIGUSR1);
	assert_int_equal(handled, 1);
	check(p("sig", "tracing_on"), "0\n");
	check(p("sig", "events/tfsev/other/enable"), "1*\n");
	char *t = rd(p("sig", "trace"));
	assert_int_equal(has_num(t, 42), 1);
	if (tfs_count(t, "<stack trace>\n => on_usr1\n") +
		tfs_count(t, "<stack trace>\n => on_usr1.cold\n") !=
	    1) {
		fputs(t, stderr);
		fail();
	}
	free(t);
	signal(SIGUSR1, SIG_DFL);
	rminst("sig");
}

/* Writers hitting triggers while the tree adds and removes them. */
static int stop_writers;

static void *writer(void *arg)
{
	(void)arg;
	while (!uft_load_seq_cst(&stop_writers)) {
		emit_eight();
		trace_other(7);
	}
	return NULL;
}

static void test_concurrent(void **state)
{
	(void)state;
	mkinst("conc");
	/* Enable and soft-mode changes rewrite the descriptors' gate words,
	 * which the generated writers read without atomics: set them before the
	 * writers start. Triggers that hold soft mode keep them as they are. */
	assert_int_equal(echo(p("conc", "events/tfsev/num/enable"), W, "1"), 0);
	assert_int_equal(echo(p("conc", "events/tfsev/other/enable"), W, "1"), 0);
	assert_int_equal(echo(NUM_TRIG("conc"), A, "stacktrace:0"), 0);
	assert_int_equal(echo(OTHER_TRIG("conc"), A, "stacktrace:0"), 0);
	pthread_t th[2];
	uft_store_seq_cst(&stop_writers, 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, writer, NULL), 0);
	for (int k = 0; k < 50; k++) {
		assert_int_equal(echo(NUM_TRIG("conc"), A, "traceoff:3 if a == 5"), 0);
		assert_int_equal(echo(NUM_TRIG("conc"), A, "enable_event:tfsev:other if a == 2"),
				 0);
		assert_int_equal(echo(OTHER_TRIG("conc"), A, "traceon"), 0);
		assert_int_equal(echo(OTHER_TRIG("conc"), A, "disable_event:tfsev:other"), 0);
		assert_int_equal(echo(NUM_TRIG("conc"), A, "snapshot:2 if a == 7"), 0);
		free(rd(p("conc", "trace")));
		assert_int_equal(echo(NUM_TRIG("conc"), A, "!traceoff"), 0);
		assert_int_equal(echo(NUM_TRIG("conc"), A, "!enable_event:tfsev:other"), 0);
		assert_int_equal(echo(OTHER_TRIG("conc"), A, "!traceon"), 0);
		assert_int_equal(echo(OTHER_TRIG("conc"), A, "!disable_event:tfsev:other"), 0);
		assert_int_equal(echo(NUM_TRIG("conc"), A, "!snapshot"), 0);
		free(rd(p("conc", "snapshot")));
	}
	uft_store_seq_cst(&stop_writers, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	check(NUM_TRIG("conc"), "stacktrace:count=0\n");
	check(OTHER_TRIG("conc"), "stacktrace:count=0\n");
	rminst("conc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_help_and_listing),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_error_log_location_cut),
	    cmocka_unit_test(test_soft_mode_enable_file),
	    cmocka_unit_test(test_traceon_traceoff),
	    cmocka_unit_test(test_enable_disable_event),
	    cmocka_unit_test(test_snapshot),
	    cmocka_unit_test(test_stacktrace),
	    cmocka_unit_test(test_from_signal_handler),
	    cmocka_unit_test(test_concurrent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
