/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Triggers of ftrace:print run by trace_marker writes, as the kernel's since
 * 4.17: the files of events/ftrace/print, hist keys on common_pid and buf,
 * a snapshot, onmatch to and from the print event, traceoff, and each
 * instance's writes running its own triggers only. */
#define _GNU_SOURCE
#include <errno.h>
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

static const char help[] =
    "# Available triggers:\n"
    "# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist "
    "disable_hist hist\n";

/* One write of exactly `s` (echo -n). */
static void mark_n(const char *in, const char *s)
{
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open(p(in, "trace_marker"), UFT_TFS_WRITE, &h), 0);
	assert_int_equal(uft_tracefs_write(h, s, strlen(s), 0), (ssize_t)strlen(s));
	uft_tracefs_release(h);
}

static void mark(const char *in, const char *s)
{
	assert_int_equal(echo(p(in, "trace_marker"), W, s), 0);
}

#define PRINT(in, f) p(in, "events/ftrace/print/" f)

/* Fails unless `text` holds `needle` exactly n times. */
static void expect_count(const char *path, const char *needle, int n)
{
	char *t = rd(path);
	if (tfs_count(t, needle) != n)
		fail_msg("%s: %d of \"%s\", expected %d\n%s", path, tfs_count(t, needle), needle, n,
			 t);
	free(t);
}

static void test_files(void **state)
{
	(void)state;
	struct uft_tfs_stat st;
	/* As the kernel's: print has a trigger file; every ftrace event a
	 * hist file; none has enable or filter. */
	assert_int_equal(uft_tracefs_stat("events/ftrace/print/trigger", &st), 0);
	assert_int_equal(st.mode, 0644);
	assert_int_equal(uft_tracefs_stat("events/ftrace/print/hist", &st), 0);
	assert_int_equal(st.mode, 0444);
	assert_int_equal(uft_tracefs_stat("events/ftrace/raw_data/hist", &st), 0);
	assert_int_equal(uft_tracefs_stat("events/ftrace/raw_data/trigger", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("events/ftrace/print/enable", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("events/ftrace/print/filter", &st), -ENOENT);
	check(PRINT("", "trigger"), help);
	check(PRINT("", "hist"), "");
	mkinst("files");
	check(PRINT("files", "trigger"), help);
	rminst("files");
}

static void test_hist_keys(void **state)
{
	(void)state;
	assert_int_equal(echo(PRINT("", "trigger"), W, "hist:keys=common_pid"), 0);
	for (int i = 0; i < 10; i++)
		mark("", "hello");
	/* Every write has the process's pid, whichever thread served it. */
	char want[96];
	snprintf(want, sizeof(want), "{ common_pid: %10d } hitcount:         10\n", (int)getpid());
	expect_count(PRINT("", "hist"), want, 1);
	assert_int_equal(echo(PRINT("", "trigger"), W, "!hist:keys=common_pid"), 0);
	check(PRINT("", "trigger"), help);

	/* buf as written: the newline the marker adds comes after the
	 * triggers, one the writer wrote is the text's. */
	assert_int_equal(echo(PRINT("", "trigger"), W, "hist:keys=buf"), 0);
	mark_n("", "start");
	mark_n("", "start");
	mark_n("", "end");
	mark("", "nl");
	expect_count(PRINT("", "hist"), "{ buf: start ", 1);
	expect_count(PRINT("", "hist"), "{ buf: end ", 1);
	expect_count(PRINT("", "hist"), "{ buf: nl\n", 1);
	expect_count(PRINT("", "hist"), "} hitcount:          2\n", 1);
	/* The records keep their newline: one line each. */
	expect_count("trace", "tracing_mark_write: start\n", 2);
	expect_count("trace", "tracing_mark_write: nl\n", 1);
	assert_int_equal(echo(PRINT("", "trigger"), W, "!hist:keys=buf"), 0);

	/* A filter on buf, matched whole as the kernel's. */
	assert_int_equal(echo(PRINT("", "trigger"), W, "hist:keys=common_pid if buf == \"go\""), 0);
	mark_n("", "go");
	mark_n("", "gone");
	mark("", "go"); /* "go\n" */
	expect_count(PRINT("", "hist"), "hitcount:          1\n", 1);
	assert_int_equal(echo(PRINT("", "trigger"), W, "!hist:keys=common_pid"), 0);
	assert_int_equal(echo("trace", W, ""), 0);
}

static void test_snapshot(void **state)
{
	(void)state;
	assert_int_equal(echo(PRINT("", "trigger"), W, "snapshot if buf == \"now\""), 0);
	expect_count("snapshot", "# * Snapshot is allocated *\n", 1);
	mark_n("", "before");
	mark_n("", "now");
	mark_n("", "after");
	/* The snapshot holds the records up to the write that fired it. */
	expect_count("snapshot", "tracing_mark_write: before\n", 1);
	expect_count("snapshot", "tracing_mark_write: now\n", 1);
	expect_count("snapshot", "tracing_mark_write: after\n", 0);
	expect_count("trace", "tracing_mark_write: after\n", 1);
	expect_count("trace", "tracing_mark_write: now\n", 0);
	assert_int_equal(echo(PRINT("", "trigger"), W, "!snapshot"), 0);
	assert_int_equal(echo("snapshot", W, "0"), 0);
	assert_int_equal(echo("trace", W, ""), 0);
}

static void test_onmatch_print_to_synthetic(void **state)
{
	(void)state;
	assert_int_equal(echo("synthetic_events", W, "mark_lat u64 lat"), 0);
	assert_int_equal(
	    echo(PRINT("", "trigger"), W,
		 "hist:keys=common_pid:ts0=common_timestamp.usecs if buf == \"start\""),
	    0);
	assert_int_equal(echo(PRINT("", "trigger"), A,
			      "hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(ftrace.print).mark_lat($lat) if buf == \"end\""),
			 0);
	assert_int_equal(echo("events/synthetic/mark_lat/trigger", W, "hist:keys=lat"), 0);
	mark_n("", "start");
	mark_n("", "end");
	expect_count(PRINT("", "hist"), "hitcount:          1\n", 2);
	expect_count("events/synthetic/mark_lat/hist", "hitcount:          1\n", 1);
	assert_int_equal(echo("events/synthetic/mark_lat/trigger", A, "!hist:keys=lat"), 0);
	assert_int_equal(echo(PRINT("", "trigger"), A,
			      "!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:"
			      "onmatch(ftrace.print).mark_lat($lat) if buf == \"end\""),
			 0);
	assert_int_equal(
	    echo(PRINT("", "trigger"), A,
		 "!hist:keys=common_pid:ts0=common_timestamp.usecs if buf == \"start\""),
	    0);
	assert_int_equal(echo("synthetic_events", A, "!mark_lat"), 0);
}

static void test_onmatch_event_to_print(void **state)
{
	(void)state;
	/* The process's main thread writes num; the marker's pid is its. */
	assert_int_equal(gettid(), getpid());
	assert_int_equal(echo("synthetic_events", W, "ev_lat u64 lat"), 0);
	assert_int_equal(
	    echo("events/tfsev/num/trigger", W, "hist:keys=common_pid:t0=common_timestamp.usecs"),
	    0);
	assert_int_equal(echo(PRINT("", "trigger"), W,
			      "hist:keys=common_pid:lat=common_timestamp.usecs-$t0:"
			      "onmatch(tfsev.num).ev_lat($lat)"),
			 0);
	assert_int_equal(echo("events/synthetic/ev_lat/trigger", W, "hist:keys=lat"), 0);
	trace_num(1, 1, "x", "/x");
	mark("", "done");
	expect_count("events/synthetic/ev_lat/hist", "hitcount:          1\n", 1);
	assert_int_equal(echo("events/synthetic/ev_lat/trigger", A, "!hist:keys=lat"), 0);
	assert_int_equal(echo(PRINT("", "trigger"), A,
			      "!hist:keys=common_pid:lat=common_timestamp.usecs-$t0:"
			      "onmatch(tfsev.num).ev_lat($lat)"),
			 0);
	assert_int_equal(
	    echo("events/tfsev/num/trigger", A, "!hist:keys=common_pid:t0=common_timestamp.usecs"),
	    0);
	assert_int_equal(echo("synthetic_events", A, "!ev_lat"), 0);
}

static void test_traceoff(void **state)
{
	(void)state;
	mkinst("off");
	assert_int_equal(echo(PRINT("off", "trigger"), W, "traceoff if buf == \"stop\""), 0);
	assert_int_equal(echo(PRINT("off", "trigger"), A, "hist:keys=common_pid"), 0);
	mark_n("off", "go");
	check(p("off", "tracing_on"), "1\n");
	mark_n("off", "stop");
	check(p("off", "tracing_on"), "0\n");
	check("tracing_on", "1\n");
	/* With the buffer off a write records nothing and runs no trigger. */
	mark_n("off", "later");
	expect_count(PRINT("off", "hist"), "hitcount:          2\n", 1);
	expect_count(p("off", "trace"), "tracing_mark_write: stop\n", 1);
	expect_count(p("off", "trace"), "tracing_mark_write: later\n", 0);
	rminst("off");
}

static void test_instances(void **state)
{
	(void)state;
	mkinst("m1");
	mkinst("m2");
	assert_int_equal(echo(PRINT("m1", "trigger"), W, "hist:keys=buf"), 0);
	assert_int_equal(echo(PRINT("m2", "trigger"), W, "hist:keys=buf"), 0);
	mark_n("m1", "one");
	mark_n("m2", "two");
	mark_n("m2", "two");
	mark_n("", "top");
	/* Each instance's writes run its own triggers only. */
	expect_count(PRINT("m1", "hist"), "{ buf: one ", 1);
	expect_count(PRINT("m1", "hist"), "{ buf: two ", 0);
	expect_count(PRINT("m2", "hist"), "{ buf: two ", 1);
	expect_count(PRINT("m2", "hist"), "hitcount:          2\n", 1);
	expect_count(PRINT("m2", "hist"), "{ buf: one ", 0);
	check(PRINT("", "hist"), "");
	check(PRINT("", "trigger"), help);
	expect_count(p("m1", "trace"), "tracing_mark_write: one\n", 1);
	rminst("m1");
	rminst("m2");
	/* Triggers gone, writes are plain again. */
	mark_n("", "plain");
	expect_count("trace", "tracing_mark_write: plain\n", 1);
	assert_int_equal(echo("trace", W, ""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_files),
	    cmocka_unit_test(test_hist_keys),
	    cmocka_unit_test(test_snapshot),
	    cmocka_unit_test(test_onmatch_print_to_synthetic),
	    cmocka_unit_test(test_onmatch_event_to_print),
	    cmocka_unit_test(test_traceoff),
	    cmocka_unit_test(test_instances),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
