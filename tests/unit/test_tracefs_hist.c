/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hist triggers live in the process, through the tree's path calls: the
 * `hist` file byte for byte, the trigger file's lines, pause, continue,
 * clear and removal, `>` clearing, errno values and error_log lines, soft
 * mode, instances, and exact counts with writers on several threads and in
 * signal handlers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"
#include "util/atomics.h"

static const char help[] =
    "# Available triggers:\n"
    "# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist "
    "disable_hist hist\n";

/* ---- helpers ---- */

/* Path of a file of event tfsev/num in instance `in` ("" for the top). */
static const char *num(const char *in, const char *file)
{
	static char buf[16][256];
	static int k;
	char *b = buf[k++ & 15];
	snprintf(b, 256, "%s%s%sevents/tfsev/num/%s", *in ? "instances/" : "", in, *in ? "/" : "",
		 file);
	return b;
}

static char *error_log(const char *in)
{
	char path[128];
	snprintf(path, sizeof(path), "%s%s%serror_log", *in ? "instances/" : "", in,
		 *in ? "/" : "");
	return tfs_strip_stamps(rd(path));
}

/* (a, u) pairs: a=1 three times, a=3 twice, a=2 once. */
static void emit_six(void)
{
	static const int a[6] = {1, 1, 1, 2, 3, 3};
	static const unsigned u[6] = {10, 20, 30, 5, 1, 2};
	for (int i = 0; i < 6; i++)
		trace_num(a[i], u[i], "n", "/p");
}

/* Opens a file for writing with O_TRUNC and writes nothing (`: > FILE`). */
static int open_trunc(const char *path)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, W, &h);
	if (rc == 0)
		uft_tracefs_release(h);
	return rc;
}

static uint64_t total(const char *text, const char *what)
{
	const char *p = strstr(text, what);
	return p ? strtoull(p + strlen(what), NULL, 10) : UINT64_MAX;
}

/* ---- tests ---- */

static void test_basic_soft_mode(void **state)
{
	(void)state;
	mkinst("b");
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat(num("b", "hist"), &st), 0);
	assert_int_equal(st.mode, 0444);
	assert_int_equal(uft_tracefs_stat("events/ftrace/raw_data/enable", &st), -ENOENT);
	/* No hist trigger: an empty file. */
	check(num("b", "hist"), "");

	assert_int_equal(echo(num("b", "trigger"), A, "hist:keys=a:vals=u"), 0);
	check(num("b", "enable"), "0*\n"); /* armed for the trigger, records not kept */
	emit_six();
	check(num("b", "hist"),
	      "# event histogram\n"
	      "#\n"
	      "# trigger info: hist:keys=a:vals=hitcount,u:sort=hitcount:size=2048 "
	      "[active]\n"
	      "#\n"
	      "\n"
	      "{ a:          2 } hitcount:          1  u:          5\n"
	      "{ a:          3 } hitcount:          2  u:          3\n"
	      "{ a:          1 } hitcount:          3  u:         60\n"
	      "\n"
	      "Totals:\n"
	      "    Hits: 6\n"
	      "    Entries: 3\n"
	      "    Dropped: 0\n");
	char *t = rd("instances/b/trace");
	assert_int_equal(tfs_count(t, "num: a="), 0);
	free(t);
	/* The top and other events are untouched. */
	check(num("", "hist"), "");
	check(num("", "trigger"), help);
	check("instances/b/events/tfsev/other/hist", "");

	/* Enabled: records kept and still counted. */
	assert_int_equal(echo(num("b", "enable"), W, "1"), 0);
	check(num("b", "enable"), "1*\n");
	trace_num(2, 7, "n", "/p");
	t = rd("instances/b/trace");
	assert_int_equal(tfs_count(t, "num: a=2 u=7"), 1);
	free(t);
	t = rd(num("b", "hist"));
	assert_non_null(strstr(t, "{ a:          2 } hitcount:          2  u:         12\n"));
	free(t);
	assert_int_equal(echo(num("b", "trigger"), A, "!hist:keys=a:vals=u"), 0);
	check(num("b", "hist"), "");
	check(num("b", "trigger"), help);
	check(num("b", "enable"), "1\n");
	rminst("b");
}

static void test_modifiers_and_listing(void **state)
{
	(void)state;
	mkinst("m");
	const char *tr = num("m", "trigger");
	assert_int_equal(echo(tr, A, "stacktrace:0"), 0);
	assert_int_equal(
	    echo(tr, A, "hist:keys=common_pid.execname:vals=hitcount,u:sort=u.descending"), 0);
	assert_int_equal(echo(tr, A, "traceoff:0"), 0);
	assert_int_equal(echo(tr, A, "hist:keys=u.log2"), 0);
	assert_int_equal(echo(tr, A, "hist:keys=a:size=100 if u > 10"), 0);
	/* Other triggers first, newest first, then hist triggers in install
	 * order, as the kernel's list keeps them. */
	check(tr, "traceoff:count=0\n"
		  "stacktrace:count=0\n"
		  "hist:keys=common_pid.execname:vals=hitcount,u:sort=u.descending:size=2048 "
		  "[active]\n"
		  "hist:keys=u.log2:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		  "hist:keys=a:vals=hitcount:sort=hitcount:size=128 if u > 10 [active]\n");
	emit_six();
	char line[128];
	snprintf(line, sizeof(line),
		 "{ common_pid: histtest        [%10d] } hitcount:          6  u:         68\n",
		 (int)syscall(SYS_gettid));
	char expect[2048];
	snprintf(expect, sizeof(expect),
		 "# event histogram\n"
		 "#\n"
		 "# trigger info: hist:keys=common_pid.execname:vals=hitcount,u:sort=u.descending:"
		 "size=2048 [active]\n"
		 "#\n"
		 "\n"
		 "%s"
		 "\n"
		 "Totals:\n"
		 "    Hits: 6\n"
		 "    Entries: 1\n"
		 "    Dropped: 0\n"
		 "\n"
		 "\n"
		 "# event histogram\n"
		 "#\n"
		 "# trigger info: hist:keys=u.log2:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		 "#\n"
		 "\n"
		 "{ u: ~ 2^4  } hitcount:          1\n"
		 "{ u: ~ 2^3  } hitcount:          1\n"
		 "{ u: ~ 2^0  } hitcount:          1\n"
		 "{ u: ~ 2^1  } hitcount:          1\n"
		 "{ u: ~ 2^5  } hitcount:          2\n"
		 "\n"
		 "Totals:\n"
		 "    Hits: 6\n"
		 "    Entries: 5\n"
		 "    Dropped: 0\n"
		 "\n"
		 "\n"
		 "# event histogram\n"
		 "#\n"
		 "# trigger info: hist:keys=a:vals=hitcount:sort=hitcount:size=128 if u > 10 "
		 "[active]\n"
		 "#\n"
		 "\n"
		 "{ a:          1 } hitcount:          2\n"
		 "\n"
		 "Totals:\n"
		 "    Hits: 2\n"
		 "    Entries: 1\n"
		 "    Dropped: 0\n",
		 line);
	check(num("m", "hist"), expect);
	rminst("m");
}

static void test_size_and_drops(void **state)
{
	(void)state;
	mkinst("d");
	assert_int_equal(echo(num("d", "trigger"), A, "hist:keys=u:size=128"), 0);
	for (unsigned i = 0; i < 200; i++)
		trace_num(0, i, "n", "/p");
	char *t = rd(num("d", "hist"));
	assert_non_null(strstr(t, "\nTotals:\n    Hits: 128\n    Entries: 128\n    Dropped: 72\n"));
	assert_int_equal(tfs_count(t, "} hitcount:          1\n"), 128);
	free(t);
	rminst("d");
}

static void test_pause_cont_clear_remove(void **state)
{
	(void)state;
	mkinst("p");
	const char *tr = num("p", "trigger");
	assert_int_equal(echo(tr, A, "hist:keys=a"), 0);
	/* Same keys with a filter: another trigger. */
	assert_int_equal(echo(tr, A, "hist:keys=a if u < 10"), 0);
	emit_six();
	/* Pause names the trigger by keys, values, sort and filter presence;
	 * size does not matter. */
	assert_int_equal(echo(tr, A, "hist:keys=a:size=4096:pause"), 0);
	check(tr, "hist:keys=a:vals=hitcount:sort=hitcount:size=2048 [paused]\n"
		  "hist:keys=a:vals=hitcount:sort=hitcount:size=2048 if u < 10 [active]\n");
	emit_six();
	char *t = rd(num("p", "hist"));
	assert_int_equal(total(t, "Hits: "), 6);
	assert_non_null(strstr(t, "# trigger info: hist:keys=a:vals=hitcount:sort=hitcount:"
				  "size=2048 [paused]\n"));
	free(t);
	assert_int_equal(echo(tr, A, "hist:keys=a:continue"), 0);
	emit_six();
	t = rd(num("p", "hist"));
	assert_int_equal(total(t, "Hits: "), 12);
	free(t);
	/* Clear empties the one whose filter presence matches, whatever its text. */
	assert_int_equal(echo(tr, A, "hist:keys=a:clear if a == 99"), 0);
	t = rd(num("p", "hist"));
	assert_non_null(strstr(t, "Hits: 12\n"));
	assert_non_null(strstr(t, "if u < 10 [active]\n#\n\n\nTotals:\n    Hits: 0\n"
				  "    Entries: 0\n    Dropped: 0\n"));
	free(t);
	/* A new trigger given with pause starts paused. */
	assert_int_equal(echo(tr, A, "hist:keys=u:pause"), 0);
	emit_six();
	t = rd(num("p", "hist"));
	assert_int_equal(tfs_count(t, "[paused]\n#\n\n\nTotals:\n    Hits: 0\n"), 1);
	free(t);
	assert_int_equal(echo(tr, A, "hist:keys=u:cont"), 0);

	/* Errors, each with its error_log line; nothing changes. */
	assert_int_equal(echo(tr, A, "hist:keys=a"), -EEXIST);
	assert_int_equal(echo(tr, A, "hist:keys=u.hex:clear"), -ENOENT);
	assert_int_equal(echo(tr, A, "hist:keys=common_pid:cont"), -ENOENT);
	/* none that matches: no error, nothing logged (the kernel's) */
	assert_int_equal(echo(tr, A, "!hist:keys=common_pid"), 0);
	char *log = error_log("p");
	assert_string_equal(log,
			    "hist:tfsev:num: error: Hist trigger already exists\n"
			    "  Command: hist:keys=a\n"
			    "           ^\n"
			    "hist:tfsev:num: error: Can't clear or continue a nonexistent hist "
			    "trigger\n"
			    "  Command: hist:keys=u.hex:clear\n"
			    "           ^\n"
			    "hist:tfsev:num: error: Can't clear or continue a nonexistent hist "
			    "trigger\n"
			    "  Command: hist:keys=common_pid:cont\n"
			    "           ^\n");
	free(log);
	check(tr, "hist:keys=a:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		  "hist:keys=a:vals=hitcount:sort=hitcount:size=2048 if u < 10 [active]\n"
		  "hist:keys=u:vals=hitcount:sort=hitcount:size=2048 [active]\n");

	/* Removal by keys and filter presence. */
	assert_int_equal(echo(tr, A, "!hist:keys=a if b > 3"), -EINVAL); /* filter must compile */
	assert_int_equal(echo(tr, A, "!hist:keys=a if a > 3"), 0);
	check(tr, "hist:keys=a:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		  "hist:keys=u:vals=hitcount:sort=hitcount:size=2048 [active]\n");

	/* `>` removes every hist trigger and leaves the others. */
	assert_int_equal(echo(tr, A, "stacktrace:0"), 0);
	assert_int_equal(echo(tr, W, "traceoff:0"), 0);
	check(tr, "traceoff:count=0\nstacktrace:count=0\n");
	check(num("p", "hist"), "");
	check(num("p", "enable"), "0*\n");
	assert_int_equal(echo(tr, A, "!stacktrace"), 0);
	assert_int_equal(echo(tr, A, "!traceoff"), 0);
	check(num("p", "enable"), "0\n");
	rminst("p");
}

static void test_parse_errors(void **state)
{
	(void)state;
	mkinst("e");
	assert_int_equal(tfs_echo("error_log", "", W), 0);
	const char *tr = num("e", "trigger");
	assert_int_equal(echo(tr, A, "hist:keys=nosuch"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:vals=u"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=a:x=u,x=a"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=a:onmax($x).save(u)"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=a if nosuch == 1"), -EINVAL);
	/* Refused without a line, as the kernel's: no parameter, an unknown
	 * attribute, a bad size, a fourth key, a third value, "if" and no
	 * filter, no closing paren of onmax(). */
	static const char *const quiet[] = {"hist",
					    "hist:",
					    "hist:keys=a:junk",
					    "!hist:keys=a:junk",
					    "hist:keys=a:size=3",
					    "hist:keys=a,u,name,common_pid",
					    "hist:keys=a:vals=u,a,common_pid",
					    "hist:keys=a if",
					    "hist:keys=a:m=u:onmax($m"};
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		assert_int_equal(echo(tr, A, quiet[i]), -EINVAL);
	char *log = error_log("e");
	assert_string_equal(log, "hist:tfsev:num: error: Couldn't find field\n"
				 "  Command: hist:keys=nosuch\n"
				 "                     ^\n"
				 "hist:tfsev:num: error: Variable already defined\n"
				 "  Command: hist:keys=a:x=u,x=a\n"
				 "                       ^\n"
				 "hist:tfsev:num: error: Invalid action param\n"
				 "  Command: hist:keys=a:onmax($x).save(u)\n"
				 "                                      ^\n"
				 "event filter parse error: error: Field not found\n"
				 "  Command: nosuch == 1\n"
				 "                  ^\n");
	free(log);
	/* The instance's own log: the top's has none of them. */
	log = error_log("");
	assert_string_equal(log, "");
	free(log);
	check(tr, help);
	check(num("e", "enable"), "0\n");
	rminst("e");
}

/* The wakeup-latency pair: num (a = pid) sets ts0, other (b = pid) reads
 * it once and emits a synthetic event with the latency. */
static void test_variables_onmatch(void **state)
{
	(void)state;
	const char *w = "events/tfsev/num/trigger", *s = "events/tfsev/other/trigger";
	assert_int_equal(tfs_echo("synthetic_events", "wakeup_latency u64 lat; pid_t pid", A), 0);
	assert_int_equal(echo(w, A, "hist:keys=a:ts0=common_timestamp.usecs"), 0);
	assert_int_equal(
	    echo(s, A,
		 "hist:keys=b:lat=common_timestamp.usecs-$ts0,c=64/8/4/2,d=14-7-5-2,"
		 "e=2+3*4,z=b/0x1-b,pid=b:onmatch(tfsev.num).trace(wakeup_latency,$lat,$pid)"),
	    0);
	/* Constants folded, as the kernel shows them. */
	check(s, "hist:keys=b:vals=hitcount:lat=common_timestamp.usecs-$ts0,c=1,"
		 "d=0,e=14,z=b/1-b,pid=b:sort=hitcount:size=2048:clock=global:"
		 "onmatch(tfsev.num).trace(wakeup_latency,$lat,$pid) [active]\n");
	assert_int_equal(
	    echo("events/synthetic/wakeup_latency/trigger", A, "hist:keys=pid,lat.buckets=10"), 0);
	/* Busy: the synthetic event is generated, ts0 is read. */
	assert_int_equal(tfs_echo("synthetic_events", "!wakeup_latency", A), -EBUSY);
	assert_int_equal(echo(w, A, "!hist:keys=a:ts0=common_timestamp.usecs"), -EBUSY);
	/* `>` on its trigger file meanwhile: the open succeeds and removes
	 * nothing, as the kernel's hist_unreg_all(); no error_log line. */
	assert_int_equal(tfs_echo("error_log", "", W), 0);
	assert_int_equal(echo(w, A, "hist:keys=u"), 0);
	assert_int_equal(open_trunc(w), 0);
	check(w, "hist:keys=a:vals=hitcount:ts0=common_timestamp.usecs:sort=hitcount:"
		 "size=2048:clock=global [active]\n"
		 "hist:keys=u:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	char *none = error_log("");
	assert_string_equal(none, "");
	free(none);
	assert_int_equal(echo(w, A, "!hist:keys=u"), 0);
	assert_int_equal(tfs_echo("events/synthetic/wakeup_latency/enable", "1", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	trace_other(7); /* no ts0 yet: ignored */
	trace_num(7, 0, "x", "/x");
	trace_other(7);
	trace_other(7); /* read once: ignored */
	trace_num(8, 0, "x", "/x");
	trace_other(8);
	char *h = rd("events/tfsev/other/hist");
	assert_int_equal(total(h, "Hits: "), 2);
	free(h);
	h = rd("events/synthetic/wakeup_latency/hist");
	assert_non_null(strstr(h, "{ pid:          7, lat: ~ "));
	assert_int_equal(total(h, "Hits: "), 2);
	free(h);
	char *t = rd("trace");
	assert_non_null(strstr(t, "wakeup_latency: lat="));
	/* Written by a trigger one nesting level down, not by a signal handler:
	 * flags "...1." (depth 1), no 'h'. */
	const char *line = strstr(t, "wakeup_latency: lat=");
	while (line > t && line[-1] != '\n')
		line--;
	const char *flags = strstr(line, "] ");
	assert_non_null(flags);
	assert_memory_equal(flags + 2, "...1.", 5);
	assert_non_null(strstr(t, " pid=7\n"));
	assert_non_null(strstr(t, " pid=8\n"));
	free(t);
	/* errors */
	assert_int_equal(echo(s, A, "hist:keys=b:x=$nosuch"), -EINVAL);
	assert_int_equal(echo(s, A, "hist:keys=b:x=b/0"), -EINVAL);
	assert_int_equal(echo(s, A, "hist:keys=b:x=b:onmatch(tfsev.num).trace(wakeup_latency,$x)"),
			 -EINVAL);
	char *log = error_log("");
	assert_string_equal(
	    log, "hist:tfsev:other: error: Couldn't find variable\n"
		 "  Command: hist:keys=b:x=$nosuch\n"
		 "                          ^\n"
		 "hist:tfsev:other: error: Division by zero\n"
		 "  Command: hist:keys=b:x=b/0\n"
		 "                           ^\n"
		 "hist:tfsev:other: error: Param count doesn't match synthetic event "
		 "field count\n"
		 "  Command: hist:keys=b:x=b:onmatch(tfsev.num).trace(wakeup_latency,$x)\n"
		 "                                                    ^\n");
	free(log);
	assert_int_equal(tfs_echo("events/synthetic/wakeup_latency/enable", "0", W), 0);
	assert_int_equal(
	    echo("events/synthetic/wakeup_latency/trigger", A, "!hist:keys=pid,lat.buckets=10"), 0);
	assert_int_equal(echo(s, W, "hist:keys=b"), 0);
	assert_int_equal(echo(w, W, "hist:keys=a"), 0);
	assert_int_equal(echo(s, W, "hist:keys=b"), 0);
	assert_int_equal(echo(w, W, "hist:keys=a"), 0);
	assert_int_equal(tfs_echo("synthetic_events", "!wakeup_latency", A), 0);
	assert_int_equal(tfs_echo("error_log", "", W), 0);
}

/* name=: triggers of two events share one table; reading either shows
 * it; a different layout is refused; pause acts on every sharer; the
 * table outlives the trigger that made it. */
static void test_named(void **state)
{
	(void)state;
	mkinst("nm");
	const char *w = num("nm", "trigger"), *s = "instances/nm/events/tfsev/other/trigger";
	const char *info = "# trigger info: hist:name=foo:keys=common_pid:vals=hitcount:"
			   "sort=hitcount:size=2048 [active]\n";
	assert_int_equal(echo(w, A, "hist:name=foo:keys=common_pid"), 0);
	assert_int_equal(echo(s, A, "hist:name=foo:keys=common_pid:size=4096"), 0);
	assert_int_equal(echo(s, A, "hist:name=foo:keys=b"), -EINVAL);
	assert_int_equal(echo(s, A, "hist:name=foo:keys=common_pid:x=b"), -EINVAL);
	char *log = error_log("nm");
	assert_string_equal(log,
			    "hist:tfsev:other: error: Named hist trigger doesn't match existing "
			    "named trigger (includes variables)\n"
			    "  Command: hist:name=foo:keys=b\n"
			    "                ^\n"
			    "hist:tfsev:other: error: Named hist trigger doesn't match existing "
			    "named trigger (includes variables)\n"
			    "  Command: hist:name=foo:keys=common_pid:x=b\n"
			    "                ^\n");
	free(log);
	trace_num(1, 1, "n", "/p");
	trace_num(2, 1, "n", "/p");
	trace_other(3);
	char want[512];
	snprintf(want, sizeof(want),
		 "# event histogram\n#\n%s#\n\n{ common_pid: %10d } hitcount:          3\n\n"
		 "Totals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n",
		 info, (int)syscall(SYS_gettid));
	check(num("nm", "hist"), want);
	check("instances/nm/events/tfsev/other/hist", want);
	/* pause through one pauses both */
	assert_int_equal(echo(s, A, "hist:name=foo:keys=common_pid:pause"), 0);
	check(w, "hist:name=foo:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [paused]\n");
	trace_num(1, 1, "n", "/p");
	assert_int_equal(echo(w, A, "hist:name=foo:keys=common_pid:cont"), 0);
	check(s, "hist:name=foo:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	/* the first trigger goes, the table stays with the second */
	assert_int_equal(echo(w, A, "!hist:name=foo:keys=common_pid"), 0);
	check(num("nm", "hist"), "");
	trace_other(3);
	char *t = rd("instances/nm/events/tfsev/other/hist");
	assert_int_equal(total(t, "Hits: "), 4);
	free(t);
	/* a new trigger of the name joins it */
	assert_int_equal(echo(w, A, "hist:name=foo:keys=common_pid if a == 9"), 0);
	trace_num(9, 1, "n", "/p");
	trace_num(8, 1, "n", "/p"); /* its own filter */
	t = rd(num("nm", "hist"));
	assert_int_equal(total(t, "Hits: "), 5);
	free(t);
	assert_int_equal(echo(s, A, "!hist:name=foo:keys=common_pid"), 0);
	assert_int_equal(echo(w, A, "!hist:name=foo:keys=common_pid if a == 9"), 0);
	rminst("nm");
}

/* common_timestamp: nanoseconds whatever the rings hold (the same
 * instant the trace file prints), and a new trigger reading it sets the
 * instance's trace clock to its clock= (global by default), the buffer
 * restarting empty. */
static void test_clock(void **state)
{
	(void)state;
	mkinst("ck");
	const char *w = num("ck", "trigger");
	assert_int_equal(echo(num("ck", "enable"), W, "1"), 0);
	check("instances/ck/trace_clock",
	      "[local] global counter uptime perf mono mono_raw boot tai x86-tsc\n");
	trace_num(5, 0, "before", "/b");
	assert_int_equal(echo(w, A, "hist:keys=a:vals=common_timestamp:clock=local"), 0);
	char *t = rd("instances/ck/trace");
	assert_int_equal(tfs_count(t, "name=before"), 0); /* the buffer restarted */
	free(t);
	trace_num(1, 0, "n", "/p");
	t = rd("instances/ck/trace");
	const char *at = strstr(t, ": num: a=1 ");
	assert_non_null(at);
	while (at > t && at[-1] != ' ')
		at--;
	unsigned long long sec = 0, usec = 0;
	assert_int_equal(sscanf(at, "%llu.%llu:", &sec, &usec), 2);
	free(t);
	t = rd(num("ck", "hist"));
	assert_non_null(strstr(t, "# trigger info: hist:keys=a:vals=hitcount,common_timestamp:"
				  "sort=hitcount:size=2048:clock=local [active]\n"));
	at = strstr(t, "common_timestamp: ");
	assert_non_null(at);
	unsigned long long ns = strtoull(at + 18, NULL, 10);
	free(t);
	assert_int_equal((ns + 500) / 1000, sec * 1000000 + usec);

	/* clock= by default global; another name switches again */
	assert_int_equal(echo(w, A, "hist:keys=u:t=common_timestamp.usecs"), 0);
	check("instances/ck/trace_clock",
	      "local [global] counter uptime perf mono mono_raw boot tai x86-tsc\n");
	assert_int_equal(echo(w, A, "hist:keys=u:t=common_timestamp:clock=mono"), 0);
	check("instances/ck/trace_clock",
	      "local global counter uptime perf [mono] mono_raw boot tai x86-tsc\n");
	/* pausing an installed one sets nothing */
	assert_int_equal(echo("instances/ck/trace_clock", W, "boot"), 0);
	assert_int_equal(echo(w, A, "hist:keys=u:t=common_timestamp:clock=mono:pause"), 0);
	check("instances/ck/trace_clock",
	      "local global counter uptime perf mono mono_raw [boot] tai x86-tsc\n");
	assert_int_equal(echo(w, A, "hist:keys=a:t=common_timestamp:clock=nosuch"), -EINVAL);
	char *log = error_log("ck");
	assert_string_equal(log, "hist:tfsev:num: error: Couldn't set trace_clock\n"
				 "  Command: hist:keys=a:t=common_timestamp:clock=nosuch\n"
				 "                                                ^\n");
	free(log);
	rminst("ck");
}

/* .sym and .sym-offset keys name this process's functions: the kernel's
 * "[addr] name" and "[addr] name+0xoff/0xsize" columns. */
void hist_sym_target(void);
static volatile int sym_sink;
__attribute__((noinline)) void hist_sym_target(void)
{
	for (int i = 0; i < 8; i++)
		sym_sink += i * sym_sink;
}

static void trace_addr(uintptr_t ip)
{
	UFT_TRACE(tfshist, addr, "ip=%lx", (unsigned long)ip);
}

static void test_sym_keys(void **state)
{
	(void)state;
	const char *tr = "events/tfshist/addr/trigger";
	uintptr_t fn = (uintptr_t)&hist_sym_target;
	Dl_info di;
	const ElfW(Sym) *sym = NULL;
	assert_true(dladdr1((void *)fn, &di, (void **)&sym, RTLD_DL_SYMENT));
	assert_non_null(sym);
	assert_true(sym->st_size > 1);
	assert_int_equal(echo(tr, A, "hist:keys=ip.sym-offset"), 0);
	assert_int_equal(echo(tr, A, "hist:keys=ip.sym:vals=hitcount"), 0);
	trace_addr(fn + 1);
	trace_addr(fn + 1);
	char name[128], line[256], want[1024];
	snprintf(name, sizeof(name), "hist_sym_target+0x1/0x%llx",
		 (unsigned long long)sym->st_size);
	snprintf(line, sizeof(line), "{ ip: [%llx] %-55s } hitcount:          2\n",
		 (unsigned long long)fn + 1, name);
	snprintf(want, sizeof(want),
		 "# event histogram\n#\n# trigger info: hist:keys=ip.sym-offset:vals=hitcount:"
		 "sort=hitcount:size=2048 [active]\n#\n\n%s\nTotals:\n    Hits: 2\n"
		 "    Entries: 1\n    Dropped: 0\n\n\n",
		 line);
	char *t = rd("events/tfshist/addr/hist");
	assert_memory_equal(t, want, strlen(want));
	snprintf(line, sizeof(line), "{ ip: [%llx] %-45s } hitcount:          2\n",
		 (unsigned long long)fn + 1, "hist_sym_target");
	assert_non_null(strstr(t, line));
	free(t);
	assert_int_equal(echo(tr, A, "!hist:keys=ip.sym-offset"), 0);
	assert_int_equal(echo(tr, A, "!hist:keys=ip.sym"), 0);
}

/* A known call chain for stack keys: the calls are no tail calls, so each
 * caller keeps its frame. */
void hist_stack_leaf(int a);
void hist_stack_mid(int a);
void hist_stack_top(int a);
void hist_stack_on_signal(int sig);
__attribute__((noinline)) void hist_stack_leaf(int a)
{
	trace_num(a, 0, "s", "/s");
	__asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void hist_stack_mid(int a)
{
	hist_stack_leaf(a);
	__asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void hist_stack_top(int a)
{
	hist_stack_mid(a);
	__asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void hist_stack_on_signal(int sig)
{
	(void)sig;
	hist_stack_leaf(7);
	__asm__ volatile("" ::: "memory");
}

/* Checks one frame line "         NAME+0xOFF/0xSIZE\n" at *at against the
 * symbol table: the function's name (or the .cold part split off from it
 * for the unlikely path), an offset inside it and, unless fn is NULL (a
 * static function dladdr does not see), its size. Moves *at on. */
static void expect_frame(const char **at, void (*fn)(int), const char *name)
{
	char want[64];
	snprintf(want, sizeof(want), "         %s", name);
	if (strncmp(*at, want, strlen(want)) != 0)
		fail_msg("frame '%s' expected at:\n%s", name, *at);
	const char *p = *at + strlen(want);
	bool cold = strncmp(p, ".cold", 5) == 0;
	if (cold)
		p += 5;
	unsigned long long off, size;
	int used = 0;
	assert_int_equal(sscanf(p, "+0x%llx/0x%llx%n", &off, &size, &used), 2);
	assert_true(used > 0 && p[used] == '\n');
	used++;
	assert_true(off > 0 && off < size);
	if (!cold && fn) {
		Dl_info di;
		const ElfW(Sym) *sym = NULL;
		assert_true(dladdr1((void *)fn, &di, (void **)&sym, RTLD_DL_SYMENT));
		assert_non_null(sym);
		assert_int_equal(size, sym->st_size);
	}
	*at = p + used;
}

/* The frames after `at` up to the closing "}": at most 16 lines. */
static int frames_left(const char *at)
{
	int n = 0;
	while (strncmp(at, "         ", 9) == 0) {
		at = strchr(at, '\n') + 1;
		n++;
	}
	assert_true(*at == '}');
	return n;
}

/* common_stacktrace keys live: the writing thread's stack from the caller
 * of the tracepoint on, one entry per distinct stack, in a signal handler
 * too; `stacktrace` is the same key. */
static void test_stack_keys(void **state)
{
	(void)state;
	mkinst("stk");
	const char *tr = num("stk", "trigger");
	assert_int_equal(echo(tr, A, "hist:keys=common_stacktrace:vals=hitcount:sort=hitcount"), 0);
	check(tr, "hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	for (volatile int i = 0; i < 3; i++) /* one call site: one stack */
		hist_stack_top(1);
	hist_stack_mid(2);
	char *t = rd(num("stk", "hist"));
	const char *hdr = "# event histogram\n#\n# trigger info: hist:keys=common_stacktrace:"
			  "vals=hitcount:sort=hitcount:size=2048 [active]\n#\n\n";
	assert_memory_equal(t, hdr, strlen(hdr));
	const char *at = t + strlen(hdr);
	/* hist_stack_mid(2) once, then hist_stack_top(1) three times */
	assert_memory_equal(at, "{ common_stacktrace:\n", 21);
	at += 21;
	expect_frame(&at, hist_stack_leaf, "hist_stack_leaf");
	expect_frame(&at, hist_stack_mid, "hist_stack_mid");
	expect_frame(&at, NULL, "test_stack_keys");
	int n = frames_left(at);
	assert_true(n <= 13);
	while (n--)
		at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "} hitcount:          1\n{ common_stacktrace:\n", 44);
	at += 44;
	expect_frame(&at, hist_stack_leaf, "hist_stack_leaf");
	expect_frame(&at, hist_stack_mid, "hist_stack_mid");
	expect_frame(&at, hist_stack_top, "hist_stack_top");
	expect_frame(&at, NULL, "test_stack_keys");
	n = frames_left(at);
	assert_true(n <= 12);
	while (n--)
		at = strchr(at, '\n') + 1;
	assert_string_equal(at, "} hitcount:          3\n\nTotals:\n    Hits: 4\n    Entries: 2\n"
				"    Dropped: 0\n");
	free(t);

	/* The old spelling names the same trigger; in a signal handler the
	 * stack goes on through the handler. */
	assert_int_equal(echo(tr, A, "hist:keys=stacktrace:vals=hitcount:sort=hitcount"), -EEXIST);
	assert_int_equal(echo(tr, A, "hist:keys=stacktrace:clear"), 0);
	struct sigaction sa = {.sa_handler = hist_stack_on_signal}, old;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR2, &sa, &old), 0);
	raise(SIGUSR2);
	sigaction(SIGUSR2, &old, NULL);
	t = rd(num("stk", "hist"));
	at = strstr(t, "{ common_stacktrace:\n");
	assert_non_null(at);
	at += 21;
	expect_frame(&at, hist_stack_leaf, "hist_stack_leaf");
	expect_frame(&at, hist_stack_on_signal, "hist_stack_on_signal");
	assert_non_null(strstr(at, "} hitcount:          1\n\nTotals:\n    Hits: 1\n"));
	free(t);
	assert_int_equal(echo(tr, A, "!hist:keys=stacktrace:vals=hitcount:sort=hitcount"), 0);
	check(tr, help);

	/* Stacks are keys only, and no variable holds one. */
	assert_int_equal(echo(tr, A, "hist:keys=a:vals=common_stacktrace"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=common_stacktrace.sym"), -EINVAL);
	char *log = error_log("stk");
	assert_string_equal(log, "hist:tfsev:num: error: Hist trigger already exists\n"
				 "  Command: hist:keys=stacktrace:vals=hitcount:sort=hitcount\n"
				 "           ^\n"
				 "hist:tfsev:num: error: Invalid field modifier\n"
				 "  Command: hist:keys=common_stacktrace.sym\n"
				 "                                       ^\n");
	free(log);
	rminst("stk");
}

/* A stack held by a variable (st=common_stacktrace) reaches a synthetic
 * event's stack field through onmatch().trace(); its format and its text
 * in the trace file are the kernel's. */
static void test_synth_stack(void **state)
{
	(void)state;
	const char *w = "events/tfsev/num/trigger", *s = "events/tfsev/other/trigger";
	assert_int_equal(
	    tfs_echo("synthetic_events", "block_lat u64 delta; unsigned long[] stack", A), 0);
	check("synthetic_events", "block_lat\tu64 delta; unsigned long[] stack\n");
	char *fmt = rd("events/synthetic/block_lat/format");
	const char *body =
	    "format:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	    "\n"
	    "\tfield:u64 delta;\toffset:8;\tsize:8;\tsigned:0;\n"
	    "\tfield:__data_loc unsigned long[] stack;\toffset:16;\tsize:8;\tsigned:1;\n"
	    "\n"
	    "print fmt: \"delta=%llu stack=%s\", REC->delta, __get_stacktrace(stack)\n";
	assert_non_null(strstr(fmt, body));
	free(fmt);

	assert_int_equal(echo(w, W, "hist:keys=a:ts=common_timestamp,st=common_stacktrace"), 0);
	assert_int_equal(echo(s, W, "hist:keys=b"), 0);
	assert_int_equal(echo(s, A, "!hist:keys=b"), 0);
	check(w, "hist:keys=a:vals=hitcount:ts=common_timestamp,st=common_stacktrace:sort=hitcount:"
		 "size=2048:clock=global [active]\n");
	/* A stack for a number and a number for a stack: refused. */
	assert_int_equal(echo(s, A,
			      "hist:keys=b:d=common_timestamp-$ts,s=$st:"
			      "onmatch(tfsev.num).trace(block_lat,$s,$d)"),
			 -EINVAL);
	assert_int_equal(echo(s, A,
			      "hist:keys=b:d=common_timestamp-$ts,s=$st:"
			      "onmatch(tfsev.num).trace(block_lat,$d,$s)"),
			 0);
	assert_int_equal(tfs_echo("events/synthetic/block_lat/enable", "1", W), 0);
	const char *bt = "events/synthetic/block_lat/trigger";
	assert_int_equal(echo(bt, A, "hist:keys=stack.stacktrace"), 0);
	assert_int_equal(echo(bt, A, "hist:keys=delta.stacktrace"), -EINVAL);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	hist_stack_mid(5);
	trace_other(5);
	/* The field's stack as a key, printed as the kernel prints it: the
	 * name and modifier, then the frames, the first on the same line. */
	char *ht = rd("events/synthetic/block_lat/hist");
	const char *hh = "# event histogram\n#\n# trigger info: hist:keys=stack.stacktrace:"
			 "vals=hitcount:sort=hitcount:size=2048 [active]\n#\n\n{ stack.stacktrace"
			 "         hist_stack_leaf";
	assert_memory_equal(ht, hh, strlen(hh));
	const char *k = strstr(ht, "\n         hist_stack_mid+0x");
	assert_non_null(k);
	k = strstr(k + 1, "\n         test_synth_stack+0x");
	assert_non_null(k);
	assert_non_null(strstr(k, "\n} hitcount:          1\n\nTotals:\n    Hits: 1\n"));
	free(ht);
	char *t = rd("trace");
	const char *at = strstr(t, "block_lat: delta=");
	assert_non_null(at);
	at = strstr(at, " stack=STACK:\n");
	assert_non_null(at);
	at += strlen(" stack=STACK:\n");
	if (strncmp(at, "=> hist_stack_leaf+0x", 21) &&
	    strncmp(at, "=> hist_stack_leaf.cold+0x", 26))
		fail_msg("trace:\n%s", t);
	at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "=> hist_stack_mid+0x", 20);
	at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "=> test_synth_stack+0x", 22);
	/* The number of frames first, then 15 frames at most: the kernel's 16
	 * words; the line ends with the record's newline after the last. */
	int frames = 3;
	while (at = strchr(at, '\n') + 1, strncmp(at, "=> ", 3) == 0)
		frames++;
	assert_true(frames <= 15);
	assert_int_equal(*at, '\n');
	free(t);
	char *log = error_log("");
	assert_string_equal(log,
			    "hist:tfsev:other: error: Param type doesn't match synthetic event "
			    "field type\n"
			    "  Command: hist:keys=b:d=common_timestamp-$ts,s=$st:"
			    "onmatch(tfsev.num).trace(block_lat,$s,$d)\n"
			    "                                                ^\n"
			    "hist:synthetic:block_lat: error: Invalid field modifier\n"
			    "  Command: hist:keys=delta.stacktrace\n"
			    "                           ^\n");
	free(log);
	assert_int_equal(tfs_echo("events/synthetic/block_lat/enable", "0", W), 0);
	assert_int_equal(echo(bt, A, "!hist:keys=stack.stacktrace"), 0);
	assert_int_equal(echo(s, W, "hist:keys=b"), 0);
	assert_int_equal(echo(w, W, "hist:keys=a"), 0);
	assert_int_equal(echo(s, W, "hist:keys=b"), 0);
	assert_int_equal(echo(w, W, "hist:keys=a"), 0);
	assert_int_equal(tfs_echo("synthetic_events", "!block_lat", A), 0);
	assert_int_equal(tfs_echo("error_log", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

/* enable_hist and disable_hist: another event's hist triggers resumed or
 * paused, counts spent on every firing, filters, removal, listing. */
static void test_enable_disable_hist(void **state)
{
	(void)state;
	mkinst("eh");
	const char *w = num("eh", "trigger"), *s = "instances/eh/events/tfsev/other/trigger";
	assert_int_equal(echo(w, A, "hist:keys=a"), 0);
	assert_int_equal(echo(w, A, "hist:keys=u"), 0);
	assert_int_equal(echo(s, A, "disable_hist:tfsev:num:1 if b == 0"), 0);
	assert_int_equal(echo(s, A, "enable_hist:tfsev:num"), -EEXIST);
	assert_int_equal(echo(s, A, "enable_event:tfsev:num"), 0); /* another kind */
	check(s, "enable_event:tfsev:num:unlimited\n"
		 "disable_hist:tfsev:num:count=1 if b == 0\n");
	trace_num(1, 1, "n", "/p");
	trace_other(3); /* filtered out */
	trace_other(0); /* pauses both */
	trace_num(1, 1, "n", "/p");
	check(w, "hist:keys=a:vals=hitcount:sort=hitcount:size=2048 [paused]\n"
		 "hist:keys=u:vals=hitcount:sort=hitcount:size=2048 [paused]\n");
	check(s, "enable_event:tfsev:num:unlimited\n"
		 "disable_hist:tfsev:num:count=0 if b == 0\n");
	assert_int_equal(echo(s, A, "!disable_hist:tfsev:num"), 0);
	assert_int_equal(echo(s, A, "!disable_hist:tfsev:num"), 0); /* none left: still no error */
	assert_int_equal(echo(s, A, "enable_hist:tfsev:num:2"), 0);
	trace_other(9); /* resumes them */
	trace_num(1, 1, "n", "/p");
	char *t = rd(num("eh", "hist"));
	assert_int_equal(tfs_count(t, "{ a:          1 } hitcount:          2\n"), 1);
	assert_int_equal(tfs_count(t, " [active]\n"), 2);
	free(t);
	/* a count is spent even when nothing changes */
	trace_other(9);
	check(s, "enable_hist:tfsev:num:count=0\n"
		 "enable_event:tfsev:num:unlimited\n");
	assert_int_equal(echo(s, A, "enable_hist:tfsev:nosuch"), -EINVAL);
	assert_int_equal(echo(s, A, "enable_hist:tfsev"), -EINVAL);
	assert_int_equal(echo(s, A, "enable_hist:ftrace:print"), -EINVAL);
	assert_int_equal(echo(s, A, "!enable_hist:tfsev:num"), 0);
	assert_int_equal(echo(s, A, "!enable_event:tfsev:num"), 0);
	check(s, help);
	rminst("eh");
}

/* onmatch().trace() with a field of the matching event (SYS.EVENT.field):
 * a hidden hist trigger on that event keeps it in a variable, with the
 * keys of a compatible histogram there; it goes with the trigger. */
static void test_field_of_other_event(void **state)
{
	(void)state;
	mkinst("fv");
	const char *w = num("fv", "trigger"), *s = "instances/fv/events/tfsev/other/trigger";
	assert_int_equal(tfs_echo("synthetic_events", "wl u64 lat; unsigned int u", A), 0);
	/* no compatible histogram on num yet */
	assert_int_equal(echo(s, A, "hist:keys=b:x=b:onmatch(tfsev.num).trace(wl,$x,tfsev.num.u)"),
			 -EINVAL);
	assert_int_equal(echo(w, A, "hist:keys=a:ts0=common_timestamp if a < 100"), 0);
	assert_int_equal(echo(s, A,
			      "hist:keys=b:lat=common_timestamp-$ts0:"
			      "onmatch(tfsev.num).trace(wl,$lat,tfsev.num.u)"),
			 0);
	check(w, "hist:keys=a:vals=hitcount:ts0=common_timestamp:sort=hitcount:size=2048:"
		 "clock=global if a < 100 [active]\n"
		 "hist:keys=a:vals=hitcount:synthetic_u=u:sort=hitcount:size=2048 if a < 100 "
		 "[active]\n");
	/* busy: the hidden one is read */
	assert_int_equal(echo(w, A, "!hist:keys=a:synthetic_u=u if a < 100"), -EBUSY);
	assert_int_equal(echo("instances/fv/events/synthetic/wl/trigger", A, "hist:keys=u"), 0);
	trace_num(7, 42, "n", "/p");
	trace_other(7);
	trace_num(8, 43, "n", "/p");
	trace_other(8);
	char *t = rd("instances/fv/events/synthetic/wl/hist");
	assert_non_null(strstr(t, "{ u:         42 } hitcount:          1\n"
				  "{ u:         43 } hitcount:          1\n"));
	free(t);
	/* errors: no such event; no compatible histogram there */
	assert_int_equal(echo(s, A, "hist:keys=b:x=b:onmatch(tfsev.num).trace(wl,$x,tfsev.zzz.u)"),
			 -EINVAL);
	assert_int_equal(
	    echo(s, A, "hist:keys=b,b:x=b:onmatch(tfsev.num).trace(wl,$x,tfsev.num.u)"), -EINVAL);
	char *log = error_log("fv");
	assert_string_equal(
	    log, "hist:tfsev:other: error: Matching event histogram not found\n"
		 "  Command: hist:keys=b:x=b:onmatch(tfsev.num).trace(wl,$x,tfsev.num.u)\n"
		 "                                          ^\n"
		 "hist:tfsev:other: error: Event file not found\n"
		 "  Command: hist:keys=b:x=b:onmatch(tfsev.num).trace(wl,$x,tfsev.zzz.u)\n"
		 "                                          ^\n"
		 "hist:tfsev:other: error: Matching event histogram not found\n"
		 "  Command: hist:keys=b,b:x=b:onmatch(tfsev.num).trace(wl,$x,tfsev.num.u)\n"
		 "                                            ^\n");
	free(log);
	/* removed with the trigger that made it */
	assert_int_equal(echo(s, A,
			      "!hist:keys=b:lat=common_timestamp-$ts0:"
			      "onmatch(tfsev.num).trace(wl,$lat,tfsev.num.u)"),
			 0);
	check(w, "hist:keys=a:vals=hitcount:ts0=common_timestamp:sort=hitcount:size=2048:"
		 "clock=global if a < 100 [active]\n");
	assert_int_equal(echo("instances/fv/events/synthetic/wl/trigger", A, "!hist:keys=u"), 0);
	rminst("fv");
	assert_int_equal(tfs_echo("synthetic_events", "!wl", A), 0);
}

/* A value that is another event's variable: summed, read once per event
 * however many times the trigger names it. */
static void test_value_refs(void **state)
{
	(void)state;
	mkinst("v");
	const char *w = num("v", "trigger"), *s = "instances/v/events/tfsev/other/trigger";
	assert_int_equal(echo(w, A, "hist:keys=a:x=u"), 0);
	assert_int_equal(echo(s, A, "hist:keys=b:vals=$x:y=$x+1,z=$x*2"), 0);
	check(s, "hist:keys=b:vals=hitcount,$x:y=$x+1,z=$x*2:sort=hitcount:size=2048 [active]\n");
	trace_num(7, 5, "n", "/p");
	trace_other(7);
	trace_other(7); /* read: unset again */
	trace_num(7, 6, "n", "/p");
	trace_other(7);
	trace_other(8); /* never set */
	check("instances/v/events/tfsev/other/hist",
	      "# event histogram\n"
	      "#\n"
	      "# trigger info: hist:keys=b:vals=hitcount,$x:y=$x+1,z=$x*2:sort=hitcount:size=2048 "
	      "[active]\n"
	      "#\n"
	      "\n"
	      "{ b:          7 } hitcount:          2  x:         11\n"
	      "\n"
	      "Totals:\n"
	      "    Hits: 2\n"
	      "    Entries: 1\n"
	      "    Dropped: 0\n");
	assert_int_equal(echo(s, A, "hist:keys=$y:y=$x"), -EINVAL);
	char *log = error_log("v");
	assert_string_equal(log, "hist:tfsev:other: error: Using variable references in keys not "
				 "supported\n"
				 "  Command: hist:keys=$y:y=$x\n"
				 "                     ^\n");
	free(log);
	rminst("v");
}

/* onmax().save() and onchange().snapshot() live: the saved fields with
 * their max, the instance's snapshot taken at the firing and its details
 * block, one conditional snapshot per instance, the kernel's errors. */
static void test_onmax_onchange(void **state)
{
	(void)state;
	mkinst("o");
	const char *tr = num("o", "trigger");
	assert_int_equal(echo(num("o", "enable"), W, "1"), 0);
	assert_int_equal(echo(tr, A, "hist:keys=a:m=u:onmax($m).save(name,path)"), 0);
	assert_int_equal(echo(tr, A, "hist:keys=a:m=u:onchange($m).snapshot()"), 0);
	/* one conditional snapshot per instance */
	assert_int_equal(echo(tr, A, "hist:keys=a:n=u:onmax($n).snapshot()"), -EBUSY);
	check(tr, "hist:keys=a:vals=hitcount:m=u:sort=hitcount:size=2048:"
		  "onmax($m).save(name,path) [active]\n"
		  "hist:keys=a:vals=hitcount:m=u:sort=hitcount:size=2048:"
		  "onchange($m).snapshot() [active]\n");
	trace_num(1, 10, "ten", "/10");
	trace_num(2, 5, "five", "/5");
	trace_num(1, 30, "thirty", "/30");
	trace_num(1, 20, "twenty", "/20"); /* changed: the last snapshot */
	trace_num(1, 20, "again", "/20");  /* no change, no max */
	check(num("o", "hist"),
	      "# event histogram\n"
	      "#\n"
	      "# trigger info: hist:keys=a:vals=hitcount:m=u:sort=hitcount:size=2048:"
	      "onmax($m).save(name,path) [active]\n"
	      "#\n"
	      "\n"
	      "{ a:          2 } hitcount:          1\n"
	      "\tmax:          5  name: five                              "
	      "path: /5                              \n"
	      "{ a:          1 } hitcount:          4\n"
	      "\tmax:         30  name: thirty                            "
	      "path: /30                             \n"
	      "\n"
	      "Totals:\n"
	      "    Hits: 5\n"
	      "    Entries: 2\n"
	      "    Dropped: 0\n"
	      "\n"
	      "\n"
	      "# event histogram\n"
	      "#\n"
	      "# trigger info: hist:keys=a:vals=hitcount:m=u:sort=hitcount:size=2048:"
	      "onchange($m).snapshot() [active]\n"
	      "#\n"
	      "\n"
	      "{ a:          2 } hitcount:          1\n"
	      "{ a:          1 } hitcount:          4\n"
	      "\n"
	      "Snapshot taken (see tracing/snapshot).  Details:\n"
	      "\ttriggering value { onchange($m) }:         20\t"
	      "triggered by event with key: { a:          1 }\n"
	      "\n"
	      "Totals:\n"
	      "    Hits: 5\n"
	      "    Entries: 2\n"
	      "    Dropped: 0\n");
	/* The last snapshot holds the event that took it (and those before it
	 * since the previous snapshot, which the tree may have served between
	 * firings); the event after it stays in the buffer. */
	char *t = rd("instances/o/snapshot");
	assert_int_equal(tfs_count(t, "num: a=1 u=20 name=twenty path=/20\n"), 1);
	assert_int_equal(tfs_count(t, "name=again"), 0);
	free(t);
	t = rd("instances/o/trace");
	assert_int_equal(tfs_count(t, "num: a="), 1);
	assert_int_equal(tfs_count(t, "num: a=1 u=20 name=again path=/20\n"), 1);
	free(t);
	/* clear: the tracked values go, the snapshot's details stay */
	assert_int_equal(echo(tr, A, "hist:keys=a:m=u:onmax($m).save(name,path):clear"), 0);
	trace_num(1, 3, "three", "/3");
	t = rd(num("o", "hist"));
	assert_non_null(strstr(t, "{ a:          1 } hitcount:          1\n"
				  "\tmax:          3  name: three     "));
	free(t);
	/* removed, the snapshot() action may go elsewhere */
	assert_int_equal(echo(tr, A, "!hist:keys=a:m=u:onchange($m).snapshot()"), 0);
	assert_int_equal(echo("instances/o/events/tfsev/other/trigger", A,
			      "hist:keys=b:n=b:onmax($n).snapshot()"),
			 0);
	/* errors */
	assert_int_equal(echo(tr, A, "hist:keys=a:m=u:onmax($m).save(nosuch)"), -EINVAL);
	assert_int_equal(
	    echo(tr, A, "hist:keys=a:m=u:onmax($m).save(name):onchange($m).save(path)"), -EEXIST);
	assert_int_equal(echo(tr, A, "hist:keys=a:m=u:onmax(m).save(name)"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=a:m=u:onchange($x).save(name)"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=a:onmatch(tfsev.other).save(name)"), -EINVAL);
	char *log = error_log("o");
	assert_string_equal(
	    log, "hist:tfsev:num: error: Couldn't find field\n"
		 "  Command: hist:keys=a:m=u:onmax($m).save(nosuch)\n"
		 "                                          ^\n"
		 "hist:tfsev:num: error: Couldn't parse field variable\n"
		 "  Command: hist:keys=a:m=u:onmax($m).save(nosuch)\n"
		 "                                          ^\n"
		 "hist:tfsev:num: error: Couldn't create field variable\n"
		 "  Command: hist:keys=a:m=u:onmax($m).save(nosuch)\n"
		 "                                          ^\n"
		 "hist:tfsev:num: error: Can't have more than one save() action per hist\n"
		 "  Command: hist:keys=a:m=u:onmax($m).save(name):onchange($m).save(path)\n"
		 "           ^\n"
		 "hist:tfsev:num: error: For onmax(x) or onchange(x), x must be a variable\n"
		 "  Command: hist:keys=a:m=u:onmax(m).save(name)\n"
		 "                       ^\n"
		 "hist:tfsev:num: error: Couldn't find onmax or onchange variable\n"
		 "  Command: hist:keys=a:m=u:onchange($x).save(name)\n"
		 "                                     ^\n"
		 "hist:tfsev:num: error: Handler doesn't support action\n"
		 "  Command: hist:keys=a:onmatch(tfsev.other).save(name)\n"
		 "                                            ^\n");
	free(log);
	rminst("o");
}

/* ---- concurrency ---- */

static int fired;
static int stop;

static void on_usr1(int sig)
{
	(void)sig;
	trace_num(5, 1, "sig", "/s");
	uft_fetch_add(&fired, 1);
}

#define PER_THREAD 20000

static void *writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < PER_THREAD; i++) {
		trace_num(i & 7, (unsigned)i, "w", "/w");
		uft_fetch_add(&fired, 1);
	}
	return NULL;
}

static void test_concurrent_writers(void **state)
{
	(void)state;
	mkinst("c");
	assert_int_equal(echo(num("c", "trigger"), A, "hist:keys=a:vals=u"), 0);
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	uft_store_seq_cst(&fired, 0);
	uft_store_seq_cst(&stop, 0);
	/* Every key exists before the race: a writer that finds a key another
	 * one (or the code its signal interrupted) has claimed but not yet
	 * published spins a while and then counts its record as dropped, as
	 * the kernel's tracing_map does; the steady state drops nothing. */
	for (unsigned k = 0; k < 8; k++) {
		trace_num(k, k, "w", "/w");
		uft_fetch_add(&fired, 1);
	}
	enum { NT = 4 };
	pthread_t th[NT];
	for (int i = 0; i < NT; i++)
		assert_int_equal(pthread_create(&th[i], NULL, writer, NULL), 0);
	/* Signals land on the writers mid-update; the tree reads meanwhile. */
	for (int k = 0; k < 200; k++) {
		for (int i = 0; i < NT; i++)
			pthread_kill(th[i], SIGUSR1);
		if (k % 20 == 0)
			free(rd(num("c", "hist")));
	}
	for (int i = 0; i < NT; i++)
		pthread_join(th[i], NULL);
	signal(SIGUSR1, SIG_DFL);
	char *t = rd(num("c", "hist"));
	uint64_t hits = total(t, "Hits: "), dropped = total(t, "Dropped: ");
	print_message("hits %" PRIu64 ", dropped %" PRIu64 "\n", hits, dropped);
	assert_int_equal(hits + dropped, (uint64_t)uft_load_seq_cst(&fired));
	/* Lock-free: while the table has room, no writer loses its record. */
	assert_int_equal(dropped, 0);
	assert_true(uft_load_seq_cst(&fired) >= NT * PER_THREAD);
	/* The entries' hitcounts add up to Hits. */
	uint64_t sum = 0;
	for (const char *p = t; (p = strstr(p, "hitcount:")); p += 9)
		sum += strtoull(p + 9, NULL, 10);
	assert_int_equal(sum, hits);
	free(t);
	rminst("c");
}

/* onmax().save() with writers on several threads and in signal handlers:
 * every entry's saved name is the text of its max, and the max is the
 * largest value written for the key. */
#define MAX_PER_THREAD 20000
#define MAX_THREADS 4

static unsigned mval(unsigned t, unsigned i)
{
	return (i * 7919u + t * 104729u) % 1000003u;
}

static void *max_writer(void *arg)
{
	unsigned t = (unsigned)(uintptr_t)arg;
	char name[16];
	for (unsigned i = 0; i < MAX_PER_THREAD; i++) {
		unsigned v = mval(t, i);
		snprintf(name, sizeof(name), "%u", v);
		trace_num((int)(i & 3), v, name, "/m");
	}
	return NULL;
}

static void on_usr1_small(int sig)
{
	(void)sig;
	trace_num(1, 2, "2", "/s");
}

static void test_onmax_concurrent(void **state)
{
	(void)state;
	mkinst("cm");
	assert_int_equal(echo(num("cm", "trigger"), A, "hist:keys=a:m=u:onmax($m).save(name)"), 0);
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1_small;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	pthread_t th[MAX_THREADS];
	for (unsigned i = 0; i < MAX_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, max_writer, (void *)(uintptr_t)i), 0);
	for (int k = 0; k < 200; k++) {
		for (int i = 0; i < MAX_THREADS; i++)
			pthread_kill(th[i], SIGUSR1);
		if (k % 20 == 0)
			free(rd(num("cm", "hist")));
	}
	for (int i = 0; i < MAX_THREADS; i++)
		pthread_join(th[i], NULL);
	signal(SIGUSR1, SIG_DFL);
	unsigned want[4] = {0, 0, 0, 0};
	for (unsigned t = 0; t < MAX_THREADS; t++)
		for (unsigned i = 0; i < MAX_PER_THREAD; i++)
			if (mval(t, i) > want[i & 3])
				want[i & 3] = mval(t, i);
	char *text = rd(num("cm", "hist"));
	for (int a = 0; a < 4; a++) {
		char line[160];
		snprintf(line, sizeof(line), "{ a: %10d } hitcount: ", a);
		const char *at = strstr(text, line);
		assert_non_null(at);
		at = strstr(at, "\n\tmax: ");
		assert_non_null(at);
		char expect_line[128];
		snprintf(expect_line, sizeof(expect_line), "\n\tmax: %10u  name: %-32u\n", want[a],
			 want[a]);
		assert_memory_equal(at, expect_line, strlen(expect_line));
	}
	free(text);
	rminst("cm");
}

static void *pair_writer(void *arg)
{
	(void)arg;
	while (!uft_load_seq_cst(&stop)) {
		trace_num(3, 0, "x", "/x");
		trace_other(3);
	}
	return NULL;
}

/* The onmatch hist removed and added again while writers run its chain:
 * a writer that met it before the removal finishes with what it loaded
 * (variables of the other table, the synthetic event) and never with a
 * reference the removal dropped. */
static void test_onmatch_removed_while_firing(void **state)
{
	(void)state;
	const char *w = "events/tfsev/num/trigger", *s = "events/tfsev/other/trigger";
	const char *m = "hist:keys=b:lat=common_timestamp.usecs-$ts0:"
			"onmatch(tfsev.num).trace(race_lat,$lat)";
	char rm[256];
	snprintf(rm, sizeof(rm), "!%s", m);
	assert_int_equal(tfs_echo("synthetic_events", "race_lat u64 lat", A), 0);
	assert_int_equal(tfs_echo("events/synthetic/race_lat/enable", "1", W), 0);
	assert_int_equal(echo(w, A, "hist:keys=a:ts0=common_timestamp.usecs"), 0);
	uft_store_seq_cst(&stop, 0);
	enum { NT = 2 };
	pthread_t th[NT];
	for (int i = 0; i < NT; i++)
		assert_int_equal(pthread_create(&th[i], NULL, pair_writer, NULL), 0);
	for (int k = 0; k < 300; k++) {
		assert_int_equal(echo(s, A, m), 0);
		assert_int_equal(echo(s, A, rm), 0);
	}
	uft_store_seq_cst(&stop, 1);
	for (int i = 0; i < NT; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(tfs_echo("events/synthetic/race_lat/enable", "0", W), 0);
	assert_int_equal(echo(w, A, "!hist:keys=a:ts0=common_timestamp.usecs"), 0);
	assert_int_equal(tfs_echo("synthetic_events", "!race_lat", A), 0);
}

/* An expression of two variables of other events in a chain of
 * onmatch() actions (the kernel's inter-event combined hist selftest): the
 * synthetic event's histogram has more keys than those it reads, which
 * it looks up by the leading ones. */
static void test_onmatch_combined(void **state)
{
	(void)state;
	mkinst("oc");
	const char *w = num("oc", "trigger"), *s = "instances/oc/events/tfsev/other/trigger";
	assert_int_equal(tfs_echo("synthetic_events", "oc_one int kk; u64 mm", A), 0);
	assert_int_equal(tfs_echo("synthetic_events", "oc_two u64 total; int kk", A), 0);
	assert_int_equal(echo(w, A, "hist:keys=a:t0=common_timestamp"), 0);
	assert_int_equal(echo(w, A, "hist:keys=a:x=u"), 0);
	assert_int_equal(echo(s, A,
			      "hist:keys=b:y=b*10,kk=b,t=common_timestamp-$t0:"
			      "onmatch(tfsev.num).trace(oc_one,$kk,$t)"),
			 0);
	assert_int_equal(
	    echo("instances/oc/events/synthetic/oc_one/trigger", A,
		 "hist:keys=kk,mm:sum=$x+$y:onmatch(synthetic.oc_one).oc_two($sum,kk)"),
	    0);
	assert_int_equal(tfs_echo("instances/oc/events/synthetic/oc_two/enable", "1", W), 0);
	trace_num(7, 100, "seven", "/p7");
	trace_other(7);
	trace_num(9, 1000, "nine", "/p9");
	trace_other(9);
	char *t = rd("instances/oc/trace");
	if (!strstr(t, " oc_two: total=170 kk=7\n") || !strstr(t, " oc_two: total=1090 kk=9\n"))
		fail_msg("%s", t);
	free(t);
	assert_int_equal(tfs_echo("instances/oc/events/synthetic/oc_two/enable", "0", W), 0);
	rminst("oc");
	assert_int_equal(tfs_echo("synthetic_events", "!oc_two", A), 0);
	assert_int_equal(tfs_echo("synthetic_events", "!oc_one", A), 0);
}

/* A saved string variable feeds a synthetic string field; a 4-byte field
 * of this event or of the matching one is a param. */
static void test_onmatch_params(void **state)
{
	(void)state;
	mkinst("om");
	const char *w = num("om", "trigger"), *s = "instances/om/events/tfsev/other/trigger";
	assert_int_equal(
	    tfs_echo("synthetic_events",
		     "om_sum u64 s; char comm[16]; char path[]; pid_t pid; unsigned int u", A),
	    0);
	assert_int_equal(echo(w, A, "hist:keys=a:x=u,c=name,pa=path"), 0);
	if (echo(s, A,
		 "hist:keys=b:sum=$x+1:onmatch(tfsev.num).trace(om_sum,$sum,$c,$pa,common_pid,"
		 "tfsev.num.u)") != 0)
		fail_msg("%s", error_log("om"));
	assert_int_equal(tfs_echo("instances/om/events/synthetic/om_sum/enable", "1", W), 0);
	trace_num(7, 100, "seven", "/p7");
	trace_other(7);
	trace_num(9, 1000, "nine", "/p9");
	trace_other(9);
	char *t = rd("instances/om/trace");
	char l1[96], l2[96];
	snprintf(l1, sizeof(l1), " om_sum: s=101 comm=seven path=/p7 pid=%d u=100\n", getpid());
	snprintf(l2, sizeof(l2), " om_sum: s=1001 comm=nine path=/p9 pid=%d u=1000\n", getpid());
	if (!strstr(t, l1) || !strstr(t, l2))
		fail_msg("%s", t);
	free(t);
	assert_int_equal(tfs_echo("instances/om/events/synthetic/om_sum/enable", "0", W), 0);
	rminst("om");
	assert_int_equal(tfs_echo("synthetic_events", "!om_sum", A), 0);
}

/* A trace() param naming no variable (an expression of variables
 * included) is the kernel's "Couldn't find param", under the name. */
static void test_param_not_found(void **state)
{
	(void)state;
	mkinst("pn");
	const char *tr = "instances/pn/events/tfsev/other/trigger";
	assert_int_equal(tfs_echo("synthetic_events", "pns u64 a", A), 0);
	assert_int_equal(echo(num("pn", "trigger"), A, "hist:keys=a:t=u"), 0);
	assert_int_equal(echo(tr, A, "hist:keys=b:onmatch(tfsev.num).trace(pns,$nosuch)"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=b:onmatch(tfsev.num).trace(pns,$t+$t)"), -EINVAL);
	assert_int_equal(echo(tr, A, "hist:keys=b:onmatch(tfsev.num).trace(pns,tfsev.num.$zz)"),
			 -EINVAL);
	char *log = error_log("pn");
	assert_string_equal(log,
			    "hist:tfsev:other: error: Couldn't find param\n"
			    "  Command: hist:keys=b:onmatch(tfsev.num).trace(pns,$nosuch)\n"
			    "                                                     ^\n"
			    "hist:tfsev:other: error: Couldn't find param\n"
			    "  Command: hist:keys=b:onmatch(tfsev.num).trace(pns,$t+$t)\n"
			    "                                                     ^\n"
			    "hist:tfsev:other: error: Couldn't find param\n"
			    "  Command: hist:keys=b:onmatch(tfsev.num).trace(pns,tfsev.num.$zz)\n"
			    "                                                               ^\n");
	free(log);
	rminst("pn");
	assert_int_equal(tfs_echo("synthetic_events", "!pns", A), 0);
}

/* A variable of constants only is folded to its value, as the kernel's
 * trigger file shows it (ftracetest's trigger-hist-expressions): left to
 * right within a precedence, * and / before + and -. */
static void test_constant_folding(void **state)
{
	(void)state;
	static const struct {
		const char *expr, *shown;
	} cases[] = {
	    {"123", "x=123"},	 {"16-8-4-2", "x=2"}, {"64/8/4/2", "x=1"}, {"16-8+4+2", "x=14"},
	    {"4*3/2*2", "x=12"}, {"4+3*2-2", "x=8"},  {"4+6/2-2", "x=5"},
	};
	mkinst("cf");
	const char *w = num("cf", "trigger");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char cmd[64], *t;
		snprintf(cmd, sizeof(cmd), "hist:keys=common_pid:x=%s", cases[i].expr);
		assert_int_equal(echo(w, A, cmd), 0);
		t = rd(w);
		assert_non_null(strstr(t, cases[i].shown));
		free(t);
		snprintf(cmd, sizeof(cmd), "!hist:keys=common_pid:x=%s", cases[i].expr);
		assert_int_equal(echo(w, A, cmd), 0);
	}
	/* A field keeps its expression. */
	assert_int_equal(echo(w, A, "hist:keys=common_pid:x=a-8-4"), 0);
	char *t = rd(w);
	assert_non_null(strstr(t, "x=a-8-4"));
	free(t);
	rminst("cf");
}

int main(void)
{
	prctl(PR_SET_NAME, "histtest");
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_basic_soft_mode),
	    cmocka_unit_test(test_constant_folding),
	    cmocka_unit_test(test_modifiers_and_listing),
	    cmocka_unit_test(test_size_and_drops),
	    cmocka_unit_test(test_pause_cont_clear_remove),
	    cmocka_unit_test(test_parse_errors),
	    cmocka_unit_test(test_variables_onmatch),
	    cmocka_unit_test(test_onmax_onchange),
	    cmocka_unit_test(test_field_of_other_event),
	    cmocka_unit_test(test_onmatch_combined),
	    cmocka_unit_test(test_onmatch_params),
	    cmocka_unit_test(test_sym_keys),
	    cmocka_unit_test(test_stack_keys),
	    cmocka_unit_test(test_synth_stack),
	    cmocka_unit_test(test_clock),
	    cmocka_unit_test(test_named),
	    cmocka_unit_test(test_enable_disable_hist),
	    cmocka_unit_test(test_value_refs),
	    cmocka_unit_test(test_concurrent_writers),
	    cmocka_unit_test(test_onmax_concurrent),
	    cmocka_unit_test(test_onmatch_removed_while_firing),
	    cmocka_unit_test(test_param_not_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
