/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracefs tree's control and buffer files, driven through the path API
 * every door uses: kernel names, contents, errno values and effects. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_test_events.h"

#include "runtime/core/registry.h"
#include "runtime/tracefs/tfs_marker.h"
#include "wire/page.h"
#include "tfs_helpers.h"
#include <uft/uft.h>

static char *cat(const char *path)
{
	int err = 0;
	char *s = tfs_cat(path, &err);
	assert_int_equal(err, 0);
	return s;
}

static void expect_file(const char *path, const char *want)
{
	char *s = cat(path);
	assert_string_equal(s, want);
	free(s);
}

static int setup(void **state)
{
	uft_set_event("tfst:*", 0);
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	return 0;
}

static void test_tracers_and_tracing_on(void **state)
{
	expect_file("available_tracers",
		    "timerlat osnoise function_graph wakeup_dl wakeup_rt wakeup "
		    "preemptirqsoff preemptoff irqsoff function nop\n");
	expect_file("current_tracer", "nop\n");
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("current_tracer", "bogus", UFT_TFS_TRUNC), -EINVAL);
	expect_file("tracing_on", "1\n");
	assert_int_equal(tfs_echo("tracing_on", "0", UFT_TFS_TRUNC), 0);
	expect_file("tracing_on", "0\n");
	assert_int_equal(tfs_echo("tracing_on", "x", UFT_TFS_TRUNC), -EINVAL);
	expect_file("tracing_on", "0\n");
	/* Off: nothing is recorded. */
	uft_set_event("tfst:*", 1);
	trace_ping(1, "off");
	char *t = cat("trace");
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	trace_ping(2, "on");
	t = cat("trace");
	assert_int_equal(tfs_count(t, "ping: n=2 s=on\n"), 1);
	free(t);
}

static void test_paths(void **state)
{
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat("", &st), 0);
	assert_int_equal(st.type, UFT_TFS_DIR);
	assert_int_equal(uft_tracefs_stat("trace", &st), 0);
	assert_int_equal(st.type, UFT_TFS_FILE);
	assert_int_equal(st.mode, 0644);
	assert_int_equal(uft_tracefs_stat("nosuch", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("trace/x", &st), -ENOTDIR);
	assert_int_equal(uft_tracefs_stat("per_cpu/cpu0/stats", &st), 0);
	assert_int_equal(uft_tracefs_stat("per_cpu/cpu99999/stats", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("options/irq-info", &st), 0);
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open("events", UFT_TFS_READ, &h), -EISDIR);
	assert_int_equal(uft_tracefs_open("README", UFT_TFS_WRITE, &h), -EACCES);
	char *r = cat("README");
	assert_non_null(strstr(r, "tracing mini-HOWTO"));
	free(r);
}

static void test_trace_and_clear(void **state)
{
	uft_set_event("tfst:*", 1);
	for (int i = 0; i < 3; i++)
		trace_ping(i, "abc");
	char *t = cat("trace");
	assert_true(strncmp(t, "# tracer: nop\n#\n# entries-in-buffer/entries-written: 3/3   #P:",
			    62) == 0);
	assert_non_null(strstr(t, "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"));
	assert_int_equal(tfs_count(t, "ping: n="), 3);
	assert_non_null(strstr(t, "ping: n=0 s=abc\n"));
	free(t);
	/* `echo > trace` clears, and so does any write. */
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	t = cat("trace");
	assert_non_null(strstr(t, "entries-in-buffer/entries-written: 0/0 "));
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);
	trace_ping(7, "after");
	t = cat("trace");
	assert_int_equal(tfs_count(t, "ping:"), 1);
	free(t);
}

static void *late_writer(void *arg)
{
	usleep(100000);
	trace_ping(42, "late");
	return NULL;
}

static void test_trace_pipe(void **state)
{
	uft_set_event("tfst:*", 1);
	struct uft_tfs_handle *h;
	char buf[8192];
	assert_int_equal(uft_tracefs_open("trace_pipe", UFT_TFS_READ | UFT_TFS_NONBLOCK, &h), 0);
	assert_int_equal(uft_tracefs_read(h, buf, sizeof(buf), 0), -EAGAIN);
	trace_ping(1, "x");
	trace_ping(2, "y");
	ssize_t n = uft_tracefs_read(h, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	buf[n] = 0;
	assert_int_equal(tfs_count(buf, "ping: n="), 2);
	assert_null(strstr(buf, "# tracer")); /* no header */
	assert_int_equal(uft_tracefs_read(h, buf, sizeof(buf), 0), -EAGAIN);
	uft_tracefs_release(h);
	/* Consumed: `trace` no longer shows them. */
	char *t = cat("trace");
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);

	/* A blocking read waits for the next event. */
	assert_int_equal(uft_tracefs_open("trace_pipe", UFT_TFS_READ, &h), 0);
	pthread_t th;
	pthread_create(&th, NULL, late_writer, NULL);
	n = uft_tracefs_read(h, buf, sizeof(buf) - 1, 0);
	pthread_join(th, NULL);
	assert_true(n > 0);
	buf[n] = 0;
	assert_non_null(strstr(buf, "ping: n=42 s=late\n"));
	uft_tracefs_release(h);

	/* A short read leaves the rest of a line for the next one. */
	trace_ping(3, "split");
	assert_int_equal(uft_tracefs_open("trace_pipe", UFT_TFS_READ | UFT_TFS_NONBLOCK, &h), 0);
	char whole[512] = "";
	size_t len = 0;
	while ((n = uft_tracefs_read(h, whole + len, 5, 0)) > 0)
		len += (size_t)n;
	whole[len] = 0;
	assert_non_null(strstr(whole, "ping: n=3 s=split\n"));
	uft_tracefs_release(h);
}

static void test_buffer_size_and_clock(void **state)
{
	uft_set_event("tfst:*", 1);
	assert_int_equal(tfs_echo("buffer_size_kb", "0", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("buffer_size_kb", "abc", UFT_TFS_TRUNC), -EINVAL);
	/* Past 1 GiB per thread ring: refused as the kernel refuses what it
	 * cannot allocate, and nothing changes. */
	char *before = cat("buffer_size_kb");
	assert_int_equal(tfs_echo("buffer_size_kb", "99999999", UFT_TFS_TRUNC), -ENOMEM);
	expect_file("buffer_size_kb", before);
	free(before);
	expect_file("tracing_thresh", "0\n");
	assert_int_equal(tfs_echo("tracing_thresh", "100", UFT_TFS_TRUNC), 0);
	expect_file("tracing_thresh", "100\n");
	assert_int_equal(tfs_echo("tracing_thresh", "-1", UFT_TFS_TRUNC), -EINVAL);
	expect_file("tracing_thresh", "100\n");
	assert_int_equal(tfs_echo("tracing_thresh", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("buffer_size_kb", "64", UFT_TFS_TRUNC), 0);
	expect_file("buffer_size_kb", "64\n");
	trace_ping(1, "resized");
	char *t = cat("trace");
	assert_int_equal(tfs_count(t, "s=resized"), 1);
	free(t);
	t = cat("buffer_total_size_kb");
	assert_true(atoi(t) >= 64);
	free(t);

	expect_file("trace_clock",
		    "[local] global counter uptime perf mono mono_raw boot tai x86-tsc\n");
	assert_int_equal(tfs_echo("trace_clock", "bogus", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("trace_clock", "counter", UFT_TFS_TRUNC), 0);
	expect_file("trace_clock",
		    "local global [counter] uptime perf mono mono_raw boot tai x86-tsc\n");
	/* A clock change empties the buffer; the counter prints raw numbers. */
	t = cat("trace");
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);
	trace_ping(5, "counted");
	t = cat("trace");
	assert_int_equal(tfs_count(t, "s=counted"), 1);
	/* "[CPU] flags       STAMP: ": a plain number, no seconds.micros. */
	const char *stamp = strstr(strstr(t, "] ....."), "..... ") + 6;
	while (*stamp == ' ')
		stamp++;
	assert_true(*stamp >= '0' && *stamp <= '9');
	assert_true(strspn(stamp, "0123456789") == (size_t)(strchr(stamp, ':') - stamp));
	free(t);
	/* Writing the clock in use empties the buffer all the same. */
	assert_int_equal(tfs_echo("trace_clock", "counter", UFT_TFS_TRUNC), 0);
	expect_file("trace_clock",
		    "local global [counter] uptime perf mono mono_raw boot tai x86-tsc\n");
	t = cat("trace");
	assert_int_equal(tfs_count(t, "s=counted"), 0);
	free(t);
	trace_ping(6, "again");
	assert_int_equal(tfs_echo("trace_clock", "  counter ", UFT_TFS_TRUNC), 0);
	t = cat("trace");
	assert_int_equal(tfs_count(t, "s=again"), 0);
	free(t);
	assert_int_equal(tfs_echo("trace_clock", "local", UFT_TFS_TRUNC), 0);
}

static void test_options(void **state)
{
	char *o = cat("trace_options");
	assert_non_null(strstr(o, "print-parent\nnosym-offset\nnosym-addr\n"));
	assert_non_null(strstr(o, "\nirq-info\n"));
	free(o);
	assert_int_equal(tfs_echo("trace_options", "bogus", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("trace_options", "noirq-info", UFT_TFS_TRUNC), 0);
	expect_file("options/irq-info", "0\n");
	char *t = cat("trace");
	assert_non_null(strstr(t, "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"));
	free(t);
	assert_int_equal(tfs_echo("options/irq-info", "2", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("options/irq-info", "1", UFT_TFS_TRUNC), 0);
	o = cat("trace_options");
	assert_non_null(strstr(o, "\nirq-info\n"));
	free(o);

	/* overwrite off: a full buffer refuses new events and counts them. */
	assert_int_equal(tfs_echo("options/overwrite", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("buffer_size_kb", "8", UFT_TFS_TRUNC), 0);
	uft_set_event("tfst:*", 1);
	for (int i = 0; i < 2000; i++)
		trace_ping(i, "fill");
	t = cat("trace");
	assert_true(tfs_count(t, "s=fill") > 0);
	assert_true(tfs_count(t, "s=fill") < 2000);
	assert_non_null(strstr(t, "ping: n=0 s=fill\n")); /* the oldest kept */
	free(t);
	assert_int_equal(tfs_echo("options/overwrite", "1", UFT_TFS_TRUNC), 0);
	for (int i = 0; i < 2000; i++)
		trace_ping(i, "wrap");
	t = cat("trace");
	assert_non_null(strstr(t, "ping: n=1999 s=wrap\n")); /* the newest kept */
	assert_null(strstr(t, "ping: n=0 s=wrap\n"));
	/* Overwritten events show in entries-written. */
	unsigned long e = 0, w = 0;
	const char *hdr = strstr(t, "entries-written: ");
	assert_non_null(hdr);
	sscanf(hdr, "entries-written: %lu/%lu", &e, &w);
	assert_true(w > e);
	free(t);
	assert_int_equal(tfs_echo("buffer_size_kb", "1024", UFT_TFS_TRUNC), 0);
}

static void test_snapshot(void **state)
{
	char *s = cat("snapshot");
	assert_non_null(strstr(s, "#\n# * Snapshot is freed *\n#\n# Snapshot commands:\n"));
	free(s);
	uft_set_event("tfst:*", 1);
	trace_ping(9, "snap");
	assert_int_equal(tfs_echo("snapshot", "1", UFT_TFS_TRUNC), 0);
	s = cat("snapshot");
	assert_int_equal(tfs_count(s, "ping: n=9 s=snap\n"), 1);
	free(s);
	s = cat("trace");
	assert_int_equal(tfs_count(s, "ping:"), 0);
	free(s);
	assert_int_equal(tfs_echo("snapshot", "2", UFT_TFS_TRUNC), 0);
	s = cat("snapshot");
	assert_non_null(strstr(s, "# * Snapshot is allocated *"));
	free(s);
	/* Writing the clock in use empties the snapshot too, still allocated,
	 * as the kernel resets both buffers. */
	trace_ping(10, "again");
	assert_int_equal(tfs_echo("snapshot", "1", UFT_TFS_TRUNC), 0);
	s = cat("snapshot");
	assert_int_equal(tfs_count(s, "ping: n=10 s=again\n"), 1);
	free(s);
	assert_int_equal(tfs_echo("trace_clock", "local", UFT_TFS_TRUNC), 0);
	s = cat("snapshot");
	assert_int_equal(tfs_count(s, "ping:"), 0);
	assert_non_null(strstr(s, "# * Snapshot is allocated *"));
	free(s);
	assert_int_equal(tfs_echo("snapshot", "0", UFT_TFS_TRUNC), 0);
	s = cat("snapshot");
	assert_non_null(strstr(s, "# * Snapshot is freed *"));
	free(s);
	assert_int_equal(tfs_echo("snapshot", "x", UFT_TFS_TRUNC), -EINVAL);
}

static void test_instances(void **state)
{
	uft_set_event("tfst:*", 0);
	assert_int_equal(uft_tracefs_mkdir("instances/foo"), 0);
	assert_int_equal(uft_tracefs_mkdir("instances/foo"), -EEXIST);
	assert_int_equal(uft_tracefs_mkdir("events/foo"), -EPERM);
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat("instances/foo/trace", &st), 0);
	assert_int_equal(uft_tracefs_stat("instances/foo/README", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("instances/foo/instances", &st), -ENOENT);
	uft_registry_enable_in(1, "tfst", NULL, true);
	trace_ping(11, "inst");
	char *t = cat("instances/foo/trace");
	assert_int_equal(tfs_count(t, "ping: n=11 s=inst\n"), 1);
	free(t);
	t = cat("trace");
	assert_int_equal(tfs_count(t, "s=inst"), 0); /* the top buffer has none */
	free(t);
	/* Both buffers at once, each its own copy. */
	uft_set_event("tfst:*", 1);
	trace_ping(12, "both");
	t = cat("trace");
	assert_int_equal(tfs_count(t, "s=both"), 1);
	free(t);
	t = cat("instances/foo/trace");
	assert_int_equal(tfs_count(t, "s=both"), 1);
	free(t);
	/* Own tracing_on. */
	assert_int_equal(tfs_echo("instances/foo/tracing_on", "0", UFT_TFS_TRUNC), 0);
	trace_ping(13, "half");
	t = cat("instances/foo/trace");
	assert_int_equal(tfs_count(t, "s=half"), 0);
	free(t);
	t = cat("trace");
	assert_int_equal(tfs_count(t, "s=half"), 1);
	free(t);
	/* Busy while a file is open. */
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open("instances/foo/trace", UFT_TFS_READ, &h), 0);
	assert_int_equal(uft_tracefs_rmdir("instances/foo"), -EBUSY);
	uft_tracefs_release(h);
	assert_int_equal(uft_tracefs_rmdir("instances/foo"), 0);
	assert_int_equal(uft_tracefs_rmdir("instances/foo"), -ENOENT);
	assert_int_equal(uft_tracefs_stat("instances/foo", &st), -ENOENT);
	trace_ping(14, "gone");
	/* A new instance starts empty and with nothing enabled. */
	assert_int_equal(uft_tracefs_mkdir("instances/bar"), 0);
	t = cat("instances/bar/trace");
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);
	assert_int_equal(uft_tracefs_rmdir("instances/bar"), 0);
}

static void test_per_cpu(void **state)
{
	uft_set_event("tfst:*", 1);
	trace_ping(21, "cpu");
	char *all = cat("trace");
	const char *line = strstr(all, "s=cpu");
	assert_non_null(line);
	while (line > all && line[-1] != '\n')
		line--;
	int cpu = -1;
	const char *br = strchr(line, '[');
	assert_non_null(br);
	cpu = atoi(br + 1);
	free(all);
	char path[64];
	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace", cpu);
	char *t = cat(path);
	assert_int_equal(tfs_count(t, "s=cpu"), 1);
	free(t);
	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	t = cat(path);
	assert_true(strncmp(t, "entries: ", 9) == 0);
	assert_non_null(strstr(t, "\noverrun: "));
	assert_non_null(strstr(t, "\ncommit overrun: 0\nbytes: "));
	assert_non_null(strstr(t, "\ndropped events: "));
	assert_non_null(strstr(t, "\nread events: "));
	free(t);
	/* Raw pages of that CPU: one kernel page per read. */
	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open(path, UFT_TFS_READ | UFT_TFS_NONBLOCK, &h), 0);
	static char page[4096];
	assert_int_equal(uft_tracefs_read(h, page, sizeof(page), 0), 4096);
	uint64_t commit;
	memcpy(&commit, page + 8, 8);
	assert_true((commit & 0xffffff) > 0);
	uft_tracefs_release(h);
}

static void test_cmdlines_and_errlog(void **state)
{
	uft_set_event("tfst:*", 1);
	trace_ping(1, "comm");
	char *c = cat("saved_cmdlines");
	char want[64];
	snprintf(want, sizeof(want), "%d test_tracefs\n", (int)gettid());
	assert_non_null(strstr(c, want));
	free(c);
	expect_file("saved_cmdlines_size", "128\n");
	assert_int_equal(tfs_echo("saved_cmdlines_size", "0", UFT_TFS_TRUNC), -EINVAL);
	expect_file("error_log", "");
	assert_int_equal(tfs_echo("error_log", "", UFT_TFS_TRUNC), 0);
}

static void test_markers(void **state)
{
	assert_int_equal(tfs_echo("trace_marker", "hello there", UFT_TFS_TRUNC), 0);
	char *t = cat("trace");
	assert_int_equal(tfs_count(t, ": tracing_mark_write: hello there\n"), 1);
	free(t);
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open("trace_marker", UFT_TFS_READ, &h), -EACCES);
	/* Raw: a 4-byte id, then bytes. */
	assert_int_equal(uft_tracefs_open("trace_marker_raw", UFT_TFS_WRITE, &h), 0);
	const char raw[] = {0x2a, 0, 0, 0, 1, 2, (char)0xff};
	assert_int_equal(uft_tracefs_write(h, raw, sizeof(raw), 0), (ssize_t)sizeof(raw));
	assert_int_equal(uft_tracefs_write(h, raw, 3, 0), -EINVAL);
	uft_tracefs_release(h);
	t = cat("trace");
	/* The record's size rounds to 4, as the kernel's; like the kernel's
	 * output, the rounding shows. */
	assert_int_equal(tfs_count(t, ": # 2a buf: 01 02 ff 00\n"), 1);
	free(t);
	/* markers off: refused. */
	assert_int_equal(tfs_echo("options/markers", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("trace_marker", "no", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("options/markers", "1", UFT_TFS_TRUNC), 0);
	/* An instance's marker goes to its buffer only. */
	assert_int_equal(uft_tracefs_mkdir("instances/m"), 0);
	assert_int_equal(tfs_echo("instances/m/trace_marker", "inner", UFT_TFS_TRUNC), 0);
	t = cat("instances/m/trace");
	assert_int_equal(tfs_count(t, "tracing_mark_write: inner\n"), 1);
	free(t);
	t = cat("trace");
	assert_int_equal(tfs_count(t, "inner"), 0);
	free(t);
	assert_int_equal(uft_tracefs_rmdir("instances/m"), 0);
}

/* Writes all of text to trace_marker as a shell's echo does: again with
 * the rest after a short write. Returns the number of writes. */
static int marker_write_all(const char *text, size_t len)
{
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open("trace_marker", UFT_TFS_WRITE, &h), 0);
	int writes = 0;
	for (size_t off = 0; off < len; writes++) {
		ssize_t n = uft_tracefs_write(h, text + off, len - off, 0);
		assert_true(n > 0);
		off += (size_t)n;
	}
	uft_tracefs_release(h);
	return writes;
}

/* The texts of the marker lines of trace, newlines dropped, end to end. */
static char *marker_text(void)
{
	char *t = cat("trace"), *out = calloc(1, strlen(t) + 1);
	const char *tag = "tracing_mark_write: ";
	size_t o = 0;
	for (const char *p = strstr(t, tag); p; p = strstr(p, tag)) {
		p += strlen(tag);
		size_t n = strcspn(p, "\n");
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	free(t);
	return out;
}

/* A marker longer than a record holds: the write records what fits and
 * returns that count, as the kernel's; the rest, written again, makes a
 * record of its own, and nothing is lost. */
static void test_long_markers(void **state)
{
	enum { LONG = 6000 };
	char *text = malloc(LONG + 1);
	for (size_t i = 0; i < LONG; i++)
		text[i] = (char)('a' + i % 26);
	text[LONG] = 0;
	static const size_t sizes[] = {4030, 4038, 4039, 4040, 4078, 4095, 4096, 4097, LONG};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t len = sizes[k];
		assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
		/* one write: a count, and the record of that many bytes */
		struct uft_tfs_handle *h;
		assert_int_equal(uft_tracefs_open("trace_marker", UFT_TFS_WRITE, &h), 0);
		ssize_t n = uft_tracefs_write(h, text, len, 0);
		uft_tracefs_release(h);
		assert_true(n > 4000 && (size_t)n <= len);
		char *got = marker_text();
		assert_int_equal(strlen(got), (size_t)n);
		assert_memory_equal(got, text, (size_t)n);
		free(got);
		/* written as echo writes it, newline included: all of it */
		assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
		char save = text[len - 1];
		text[len - 1] = '\n';
		int writes = marker_write_all(text, len);
		text[len - 1] = save;
		assert_int_equal(writes, len > (size_t)n ? 2 : 1);
		got = marker_text();
		assert_int_equal(strlen(got), len - 1);
		assert_memory_equal(got, text, len - 1);
		free(got);
	}
	free(text);
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
}

/* README: tools and the kernel's selftests ("requires: ...:README") look
 * for the kernel's strings to detect features; each feature uft has is
 * there, and what it lacks is not. */
static void test_readme_features(void **state)
{
	static const char *const have[] = {
	    /* trigger files and commands */
	    "Format: <trigger>[:count][if <filter>]",
	    "enable_event:<system>:<event>",
	    "disable_event:<system>:<event>",
	    "enable_hist:<system>:<event>",
	    "disable_hist:<system>:<event>",
	    "stacktrace",
	    "snapshot",
	    /* hist triggers (trigger-hist-expressions.tc and the inter-event tests) */
	    "hist:keys=<field1[,field2,...]>",
	    "<var1>=<field|var_ref|numeric_literal>",
	    "[:nohitcount]",
	    "common_timestamp",
	    "common_cpu",
	    "common_stacktrace",
	    "onmatch(matching.event)",
	    "onmax(var)",
	    "onchange(var)",
	    "trace(<synthetic_event>,param list)",
	    "save(field,...)",
	    "snapshot()",
	    ".hex",
	    ".sym",
	    ".sym-offset",
	    ".execname",
	    ".syscall",
	    ".log2",
	    ".buckets=size",
	    ".usecs",
	    ".percent",
	    ".graph",
	    ".stacktrace",
	    /* synthetic and dynamic events */
	    "synthetic_events",
	    "char name[]' >> synthetic_events",
	    "long[] stack' >> synthetic_events",
	    "dynamic_events",
	    "s:[synthetic/]",
	    "s:[synthetic/]<event> <field> [<field>]",
	    /* files */
	    "trace_marker",
	    "trace_marker_raw",
	    "error_log",
	    "set_event_pid",
	    "set_ftrace_filter",
	    "set_graph_function",
	    "instances",
	    "trace_clock",
	    "tracing_thresh",
	    "stack_trace_filter",
	    "function_profile_enabled",
	    /* dynamic probes: the lines ftracetest's kprobe/ and dynevent/
	     * tests look for (docs/CONFORMANCE.md) */
	    "kprobe_events",
	    "uprobe_events",
	    "<place>",
	    "Create/append/",
	    "r[maxactive]",
	    "p[:[<group>/][<event>]]",
	    "e[:[<group>/][<event>]] <attached-group>.<attached-event> [<args>] [if <filter>]",
	    "place: [<module>:]<symbol>",
	    "place (kretprobe): [<module>:]<symbol>[+<offset>]%return",
	    "place (uprobe): <path>:<offset>[%return]",
	    "+|-[u]<offset>(<fetcharg>)",
	    "x8/16/32/64",
	    "ustring",
	    "$arg<N>",
	    " <type>\\[<array-size>\\]",
	};
	static const char *const lack[] = {
	    "user_events",
	};
	char *t = cat("README");
	assert_non_null(strstr(t, "tracing mini-HOWTO"));
	for (size_t i = 0; i < sizeof(have) / sizeof(have[0]); i++) {
		if (!strstr(t, have[i]))
			fail_msg("README lacks \"%s\"", have[i]);
	}
	for (size_t i = 0; i < sizeof(lack) / sizeof(lack[0]); i++) {
		if (strstr(t, lack[i]))
			fail_msg("README has \"%s\"", lack[i]);
	}
	free(t);
}

/* The raw_data records of every CPU's trace_pipe_raw of instance `inst`,
 * in the kernel's page format: each record's bytes go to out (at most
 * `max`), its length to lens. Returns the number of records. */
static int raw_records(const char *inst, uint8_t out[][64], uint32_t *lens, int max)
{
	int n = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	for (long cpu = 0; cpu < ncpu; cpu++) {
		char path[96];
		snprintf(path, sizeof(path), "instances/%s/per_cpu/cpu%ld/trace_pipe_raw", inst,
			 cpu);
		struct uft_tfs_handle *h;
		if (uft_tracefs_open(path, UFT_TFS_READ | UFT_TFS_NONBLOCK, &h) != 0)
			continue;
		static uint8_t page[UFT_SUBBUF_SIZE];
		while (uft_tracefs_read(h, (char *)page, sizeof(page), 0) == UFT_SUBBUF_SIZE) {
			struct uft_page_iter it;
			struct uft_page_rec rec;
			uft_page_iter_init(&it, page, UFT_SUBBUF_SIZE);
			while (uft_page_iter_next(&it, &rec) > 0) {
				uint16_t type;
				memcpy(&type, rec.data, 2);
				if (type != UFT_ID_RAW_DATA || n >= max)
					continue;
				assert_true(rec.len <= 64);
				memcpy(out[n], rec.data, rec.len);
				lens[n++] = rec.len;
			}
		}
		uft_tracefs_release(h);
	}
	return n;
}

/* trace_marker_raw: the kernel's raw_data record, an int id then the bytes,
 * its size rounded to 4 (not 8), the rounding zeros; as trace_pipe_raw and
 * trace show it. */
static void test_marker_raw_layout(void **state)
{
	assert_int_equal(uft_tracefs_mkdir("instances/raw"), 0);
	uint8_t buf[4 + 40];
	for (uint32_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(0x80 + i);
	for (uint32_t p = 0; p <= 40; p++) {
		uint32_t id = 0x1000 + p;
		memcpy(buf, &id, 4);
		struct uft_tfs_handle *h;
		assert_int_equal(
		    uft_tracefs_open("instances/raw/trace_marker_raw", UFT_TFS_WRITE, &h), 0);
		assert_int_equal(uft_tracefs_write(h, (char *)buf, 4 + p, 0), (ssize_t)(4 + p));
		uft_tracefs_release(h);
		/* the text form prints the record's bytes after the id */
		char *t = cat("instances/raw/trace");
		char want[256];
		int o = snprintf(want, sizeof(want), ": # %x buf:", id);
		uint32_t shown = ((12 + p + 3) & ~3u) - 12;
		for (uint32_t i = 0; i < shown; i++)
			o += snprintf(want + o, sizeof(want) - (size_t)o, " %02x",
				      i < p ? buf[4 + i] : 0);
		snprintf(want + o, sizeof(want) - (size_t)o, "\n");
		assert_int_equal(tfs_count(t, want), 1);
		free(t);
		/* the page record: its length and bytes */
		uint8_t recs[2][64];
		uint32_t lens[2];
		assert_int_equal(raw_records("raw", recs, lens, 2), 1);
		assert_int_equal(lens[0], (12 + p + 3) & ~3u);
		uint32_t got_id;
		memcpy(&got_id, recs[0] + 8, 4);
		assert_int_equal(got_id, id);
		assert_memory_equal(recs[0] + 12, buf + 4, p);
		for (uint32_t i = 12 + p; i < lens[0]; i++)
			assert_int_equal(recs[0][i], 0);
		assert_int_equal(tfs_echo("instances/raw/trace", "", UFT_TFS_TRUNC), 0);
	}
	/* Records after one that needed the filler read back whole, in order. */
	for (uint32_t k = 0; k < 3; k++) {
		uint32_t id = 0x2000 + k;
		memcpy(buf, &id, 4);
		assert_int_equal(tfs_echo("instances/raw/trace_marker", "between", UFT_TFS_TRUNC),
				 0);
		struct uft_tfs_handle *h;
		assert_int_equal(
		    uft_tracefs_open("instances/raw/trace_marker_raw", UFT_TFS_WRITE, &h), 0);
		assert_int_equal(uft_tracefs_write(h, (char *)buf, 4 + 5, 0), 9); /* 20 bytes */
		uft_tracefs_release(h);
	}
	char *t = cat("instances/raw/trace");
	assert_int_equal(tfs_count(t, "tracing_mark_write: between\n"), 3);
	assert_int_equal(tfs_count(t, ": # 2000 buf: 84 85 86 87 88 00 00 00\n"), 1);
	assert_int_equal(tfs_count(t, ": # 2002 buf: 84 85 86 87 88 00 00 00\n"), 1);
	free(t);
	assert_int_equal(uft_tracefs_rmdir("instances/raw"), 0);
}

static void set_opt(const char *name, const char *v)
{
	char path[64];
	snprintf(path, sizeof(path), "options/%s", name);
	assert_int_equal(tfs_echo(path, v, UFT_TFS_TRUNC), 0);
}

static void test_output_forms(void **state)
{
	uft_set_event("tfst:*", 1);
	trace_ping(5, "form");
	uint16_t id = uft_event_id(uft_find_event("tfst", "ping"));
	int pid = (int)gettid();
	char want[128];

	/* raw: "pid cpu ts " and, for an event without a raw form, its type. */
	set_opt("raw", "1");
	char *t = cat("trace");
	assert_int_equal(tfs_count(t, "# tracer"), 0);
	int rpid = 0;
	unsigned cpu = 0, type = 0;
	unsigned long long ts = 0;
	assert_int_equal(sscanf(t, "%d %u %llu type: %u\n", &rpid, &cpu, &ts, &type), 4);
	assert_int_equal(rpid, pid);
	assert_int_equal(type, id);
	free(t);
	set_opt("raw", "0");

	/* hex: the same three values as fixed-width hex, then the type. */
	set_opt("hex", "1");
	t = cat("trace");
	snprintf(want, sizeof(want), "%08x %08x %016llx type: %u\n\n", pid, cpu, ts, id);
	assert_string_equal(t, want);
	free(t);
	set_opt("hex", "0");

	/* bin: pid, cpu and ts as bytes. */
	set_opt("bin", "1");
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open("trace", UFT_TFS_READ, &h), 0);
	char buf[256];
	ssize_t n = uft_tracefs_read(h, buf, sizeof(buf), 0);
	uft_tracefs_release(h);
	assert_true(n > 16);
	int32_t bpid, bcpu;
	uint64_t bts;
	memcpy(&bpid, buf, 4);
	memcpy(&bcpu, buf + 4, 4);
	memcpy(&bts, buf + 8, 8);
	assert_int_equal(bpid, pid);
	assert_int_equal(bcpu, (int32_t)cpu);
	assert_true(bts == ts);
	snprintf(want, sizeof(want), "type: %u\n", id);
	assert_int_equal((size_t)n, 16 + strlen(want));
	assert_memory_equal(buf + 16, want, strlen(want));
	set_opt("bin", "0");

	/* context-info off: bodies only. */
	set_opt("context-info", "0");
	t = cat("trace");
	assert_string_equal(t, "# tracer: nop\n#\nping: n=5 s=form\n");
	free(t);
	set_opt("context-info", "1");

	/* record-tgid: the TGID column. */
	set_opt("record-tgid", "1");
	t = cat("trace");
	assert_non_null(
	    strstr(t, "#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"));
	snprintf(want, sizeof(want), "-%-7d (%7d) [%03u] ", pid, (int)getpid(), cpu);
	assert_non_null(strstr(t, want));
	free(t);
	set_opt("record-tgid", "0");

	/* latency-format: the latency header, times relative to the first event. */
	trace_ping(6, "later");
	set_opt("latency-format", "1");
	t = cat("trace");
	assert_true(strncmp(t, "# tracer: nop\n#\n# nop latency trace v1.1.5 on uft-", 50) == 0);
	assert_non_null(strstr(t, "\n# latency: 0 us, #2/2, CPU#"));
	assert_non_null(strstr(t, "#  cmd     pid     |||||| time  |   caller     \n"));
	/* The comm is cut to 8 columns. */
	snprintf(want, sizeof(want), "test_tra-%-7d %3u.....    0us", pid, cpu);
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, ": ping: n=6 s=later\n"));
	free(t);
	set_opt("verbose", "1");
	t = cat("trace");
	assert_null(strstr(t, "#  cmd     pid"));
	snprintf(want, sizeof(want), "    test_tracefs %7d %3u 0 00000000 00000000 [", pid, cpu);
	assert_non_null(strstr(t, want));
	free(t);
	set_opt("verbose", "0");
	set_opt("latency-format", "0");
}

/* In a forked child: whether the child's own event reaches its own buffer. */
static int child_traces(void)
{
	pid_t p = fork();
	if (p == 0) {
		trace_ping(77, "child");
		char *t = tfs_cat("trace", NULL);
		_exit(t && strstr(t, "s=child") ? 0 : 1);
	}
	int st = 0;
	waitpid(p, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void test_event_fork(void **state)
{
	char me[32];
	snprintf(me, sizeof(me), "%d", (int)gettid());
	assert_int_equal(tfs_echo("events/tfst/enable", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("set_event_pid", me, UFT_TFS_TRUNC), 0);
	/* Without event-fork the child is not listed: its events are filtered. */
	assert_false(child_traces());
	assert_int_equal(tfs_echo("options/event-fork", "1", UFT_TFS_TRUNC), 0);
	assert_true(child_traces());
	assert_int_equal(tfs_echo("options/event-fork", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("set_event_pid", "", UFT_TFS_TRUNC), 0);
	assert_true(child_traces());
}

/* Seconds.micros of the line holding `needle`: after "[CPU] " and the flags. */
static double stamp_of(const char *text, const char *needle)
{
	const char *p = strstr(text, needle);
	assert_non_null(p);
	while (p > text && p[-1] != '\n')
		p--;
	p = strstr(p, "] ");
	assert_non_null(p);
	return atof(p + 2 + 5);
}

/* A filter keeps the fast reservation; records it rejects take no space, and
 * after a long gap the time extend they needed stays, so the time of the
 * next kept record is right. */
static void test_filter_fast_path(void **state)
{
	uft_set_event("tfst:*", 1);
	char err[256];
	assert_int_equal(uft_set_filter("tfst:ping", "n != 2", err, sizeof(err)), 1);
	trace_ping(1, "kept");
	usleep(150000); /* more than a 27-bit delta of TSC cycles */
	for (int i = 0; i < 100; i++)
		trace_ping(2, "dropped");
	trace_ping(3, "kept");
	char *t = cat("trace");
	assert_int_equal(tfs_count(t, "s=dropped"), 0);
	assert_int_equal(tfs_count(t, "s=kept"), 2);
	/* At least the sleep: a lost time extend would leave only the low 27
	 * bits of the delta (tens of ms). No upper bound: a loaded machine may
	 * stall the thread any time. */
	double gap = stamp_of(t, "n=3 s=kept") - stamp_of(t, "n=1 s=kept");
	if (gap < 0.149)
		fail_msg("records 0.150 s apart are %.6f s apart in:\n%s", gap, t);
	assert_non_null(strstr(t, "entries-in-buffer/entries-written: 2/2 "));
	free(t);
	assert_int_equal(uft_set_filter("tfst:ping", "0", err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_paths, setup),
	    cmocka_unit_test_setup(test_tracers_and_tracing_on, setup),
	    cmocka_unit_test_setup(test_trace_and_clear, setup),
	    cmocka_unit_test_setup(test_trace_pipe, setup),
	    cmocka_unit_test_setup(test_buffer_size_and_clock, setup),
	    cmocka_unit_test_setup(test_options, setup),
	    cmocka_unit_test_setup(test_snapshot, setup),
	    cmocka_unit_test_setup(test_instances, setup),
	    cmocka_unit_test_setup(test_per_cpu, setup),
	    cmocka_unit_test_setup(test_cmdlines_and_errlog, setup),
	    cmocka_unit_test_setup(test_markers, setup),
	    cmocka_unit_test_setup(test_long_markers, setup),
	    cmocka_unit_test_setup(test_marker_raw_layout, setup),
	    cmocka_unit_test_setup(test_readme_features, setup),
	    cmocka_unit_test_setup(test_output_forms, setup),
	    cmocka_unit_test_setup(test_event_fork, setup),
	    cmocka_unit_test_setup(test_filter_fast_path, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
