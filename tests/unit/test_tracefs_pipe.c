/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Consuming readers stopped half way: trace_pipe, per_cpu/cpuN/trace_pipe and
 * trace_pipe_raw read in part, then the buffer cleared (`echo > trace`, a
 * write to `trace`, a CPU's `trace`) or its instance removed. The records the
 * pipe already took are the reader's, the ones still queued are dropped by the
 * clear; the open handle keeps what it holds and goes on with new events, as
 * the kernel's reader does. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_test_events.h"

#include "tfs_cmocka.h"
#include <uft/uft.h>

#define RO (UFT_TFS_READ | UFT_TFS_NONBLOCK)
#define UFT_PAGE 4096 /* a kernel page, as trace_pipe_raw hands them out */

static cpu_set_t saved_affinity;

/* Events of this thread all land on one CPU: the one it runs on now. */
static int pin(void)
{
	int cpu = sched_getcpu();
	assert_true(cpu >= 0);
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	return cpu;
}

static int setup(void **state)
{
	assert_int_equal(sched_getaffinity(0, sizeof(saved_affinity), &saved_affinity), 0);
	uft_set_event("tfst:*", 0);
	assert_int_equal(echo("trace", W, ""), 0);
	assert_int_equal(echo("tracing_on", W, "1"), 0);
	return 0;
}

static int teardown(void **state)
{
	uft_set_event("tfst:*", 0);
	sched_setaffinity(0, sizeof(saved_affinity), &saved_affinity);
	return 0;
}

static struct uft_tfs_handle *opn(const char *path)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, RO, &h);
	if (rc)
		fail_msg("open %s: %d", path, rc);
	return h;
}

/* Everything the handle gives until it would block, NUL terminated. */
static char *drain(struct uft_tfs_handle *h)
{
	size_t cap = 1 << 16, len = 0;
	char *s = malloc(cap);
	assert_non_null(s);
	ssize_t n;
	while ((n = uft_tracefs_read(h, s + len, cap - len - 1, 0)) > 0)
		len += (size_t)n;
	assert_int_equal(n, -EAGAIN);
	s[len] = 0;
	return s;
}

/* A reader that stops early: `n` bytes of the first line only. */
static void read_part(struct uft_tfs_handle *h, char *out, size_t n)
{
	assert_int_equal(uft_tracefs_read(h, out, n, 0), (ssize_t)n);
	out[n] = 0;
}

/* The rest of the line a short read began, byte by byte. */
static void read_rest_of_line(struct uft_tfs_handle *h, char *out, size_t cap)
{
	size_t len = strlen(out);
	while (len == 0 || out[len - 1] != '\n') {
		assert_true(len + 1 < cap);
		assert_int_equal(uft_tracefs_read(h, out + len, 1, 0), 1);
		len++;
	}
	out[len] = 0;
}

static void pings(int from, int to, const char *s)
{
	for (int i = from; i <= to; i++)
		trace_ping(i, s);
}

static void enable(const char *inst)
{
	if (*inst)
		assert_int_equal(echo(p(inst, "set_event"), W, "tfst:ping"), 0);
	else
		uft_set_event("tfst:*", 1);
}

enum clear_how { BY_TRUNC, BY_WRITE, BY_CPU_TRUNC };

static void clear(const char *inst, enum clear_how how, int cpu)
{
	if (how == BY_TRUNC) {
		assert_int_equal(echo(p(inst, "trace"), W, ""), 0);
	} else if (how == BY_WRITE) {
		struct uft_tfs_handle *h;
		assert_int_equal(uft_tracefs_open(p(inst, "trace"), UFT_TFS_WRITE, &h), 0);
		assert_int_equal(uft_tracefs_write(h, "x", 1, 0), 1);
		uft_tracefs_release(h);
	} else {
		char file[64];
		snprintf(file, sizeof(file), "per_cpu/cpu%d/trace", cpu);
		assert_int_equal(echo(p(inst, file), W, ""), 0);
	}
}

/* A reader of `pipe` takes the first of three records into its text and
 * stops; the buffer is cleared. The reader still has the rest of its line,
 * the two queued records are gone for every reader, and new events reach the
 * pipes. */
static void partial_then_clear(const char *inst, const char *pipe, enum clear_how how, int cpu)
{
	enable(inst);
	pings(1, 3, "a");
	struct uft_tfs_handle *h = opn(p(inst, pipe));
	char first[256];
	read_part(h, first, 5);
	clear(inst, how, cpu);

	char *rest = drain(h);
	size_t n = strlen(first);
	snprintf(first + n, sizeof(first) - n, "%s", rest);
	free(rest);
	assert_int_equal(tfs_count(first, "ping: n=1 s=a\n"), 1);
	assert_int_equal(tfs_count(first, "ping:"), 1);

	struct uft_tfs_handle *h2 = opn(p(inst, pipe));
	char b[64];
	assert_int_equal(uft_tracefs_read(h2, b, sizeof(b), 0), -EAGAIN);
	char *t = rd(p(inst, "trace"));
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);

	pings(4, 4, "b");
	char *got = drain(h2);
	assert_int_equal(tfs_count(got, "ping: n=4 s=b\n"), 1);
	assert_int_equal(tfs_count(got, "ping:"), 1);
	free(got);
	assert_int_equal(uft_tracefs_read(h, b, sizeof(b), 0), -EAGAIN);
	pings(5, 5, "c");
	got = drain(h);
	assert_int_equal(tfs_count(got, "ping: n=5 s=c\n"), 1);
	free(got);
	uft_tracefs_release(h2);
	uft_tracefs_release(h);
}

static void test_top_trace_pipe_then_clear(void **state)
{
	partial_then_clear("", "trace_pipe", BY_TRUNC, -1);
	partial_then_clear("", "trace_pipe", BY_WRITE, -1);
}

static void test_instance_trace_pipe_then_clear(void **state)
{
	mkinst("half");
	partial_then_clear("half", "trace_pipe", BY_TRUNC, -1);
	partial_then_clear("half", "trace_pipe", BY_WRITE, -1);
	rminst("half");
}

static void test_cpu_trace_pipe_then_clear(void **state)
{
	int cpu = pin();
	char pipe[64];
	snprintf(pipe, sizeof(pipe), "per_cpu/cpu%d/trace_pipe", cpu);
	partial_then_clear("", pipe, BY_TRUNC, cpu);
	partial_then_clear("", pipe, BY_CPU_TRUNC, cpu);
	/* The CPU's pipe and the top one share the queue: what one took, the
	 * other does not see. */
	pings(1, 3, "top");
	struct uft_tfs_handle *h = opn(pipe);
	char first[256];
	read_part(h, first, 5);
	struct uft_tfs_handle *top = opn("trace_pipe");
	char *rest = drain(top);
	assert_int_equal(tfs_count(rest, "ping: n=1 "), 0);
	assert_int_equal(tfs_count(rest, "ping: n=2 s=top\n"), 1);
	assert_int_equal(tfs_count(rest, "ping: n=3 s=top\n"), 1);
	free(rest);
	uft_tracefs_release(top);
	uft_tracefs_release(h);

	uft_set_event("tfst:*", 0);
	mkinst("halfcpu");
	partial_then_clear("halfcpu", pipe, BY_TRUNC, cpu);
	partial_then_clear("halfcpu", pipe, BY_WRITE, cpu);
	partial_then_clear("halfcpu", pipe, BY_CPU_TRUNC, cpu);
	rminst("halfcpu");
}

/* More than a page of records on one CPU, so that a raw read takes part. */
#define MANY 400

/* The bytes of records a kernel page holds (its header's commit). */
static size_t page_bytes(const char *page)
{
	uint64_t commit;
	memcpy(&commit, page + 8, 8);
	return (size_t)(commit & 0xffffff);
}

/* trace_pipe_raw hands out one page and leaves the rest queued; a clear
 * drops the rest, and the next page read is of new events. */
static void raw_then_clear(const char *inst, int cpu, enum clear_how how)
{
	enable(inst);
	pings(1, MANY, "raw");
	char path[64];
	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	struct uft_tfs_handle *h = opn(p(inst, path));
	static char page[UFT_PAGE];
	assert_int_equal(uft_tracefs_read(h, page, sizeof(page), 0), UFT_PAGE);
	assert_true(page_bytes(page) > UFT_PAGE / 2); /* full: the rest stays queued */
	clear(inst, how, cpu);
	assert_int_equal(uft_tracefs_read(h, page, sizeof(page), 0), -EAGAIN);
	struct uft_tfs_handle *h2 = opn(p(inst, path));
	assert_int_equal(uft_tracefs_read(h2, page, sizeof(page), 0), -EAGAIN);
	pings(1, 1, "new");
	assert_int_equal(uft_tracefs_read(h2, page, sizeof(page), 0), UFT_PAGE);
	assert_true(page_bytes(page) > 0 && page_bytes(page) < UFT_PAGE / 2);
	assert_int_equal(uft_tracefs_read(h, page, sizeof(page), 0), -EAGAIN);
	uft_tracefs_release(h2);
	uft_tracefs_release(h);
}

static void test_trace_pipe_raw_then_clear(void **state)
{
	int cpu = pin();
	raw_then_clear("", cpu, BY_TRUNC);
	raw_then_clear("", cpu, BY_WRITE);
	raw_then_clear("", cpu, BY_CPU_TRUNC);
	uft_set_event("tfst:*", 0);
	mkinst("rawhalf");
	raw_then_clear("rawhalf", cpu, BY_TRUNC);
	raw_then_clear("rawhalf", cpu, BY_CPU_TRUNC);
	rminst("rawhalf");
}

/* rmdir of an instance whose pipes took records their readers have not
 * finished: refused while a reader is open (nothing changes: the reader goes
 * on and the queued records stay), done once the readers are gone; an
 * instance made again under that name starts empty. */
static void test_rmdir_after_partial(void **state)
{
	mkinst("gone");
	enable("gone");
	pings(1, 3, "r");
	struct uft_tfs_handle *h = opn(p("gone", "trace_pipe"));
	char line[256];
	read_part(h, line, 5);
	assert_int_equal(uft_tracefs_rmdir("instances/gone"), -EBUSY);
	read_rest_of_line(h, line, sizeof(line));
	assert_int_equal(tfs_count(line, "ping: n=1 s=r\n"), 1);
	/* A second reader stops early too: both took a record. */
	struct uft_tfs_handle *h2 = opn(p("gone", "trace_pipe"));
	char part[16];
	read_part(h2, part, 5);
	uft_tracefs_release(h);
	assert_int_equal(uft_tracefs_rmdir("instances/gone"), -EBUSY);
	uft_tracefs_release(h2);
	rminst("gone");

	mkinst("gone");
	h = opn(p("gone", "trace_pipe"));
	assert_int_equal(uft_tracefs_read(h, line, sizeof(line), 0), -EAGAIN);
	uft_tracefs_release(h);
	char *t = rd(p("gone", "trace"));
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);
	rminst("gone");
}

/* The same with raw pages and a CPU's text pipe, both left half read. */
static void test_rmdir_after_partial_cpu(void **state)
{
	int cpu = pin();
	mkinst("gonecpu");
	enable("gonecpu");
	pings(1, MANY, "r");
	char path[64];
	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	struct uft_tfs_handle *raw = opn(p("gonecpu", path));
	static char page[UFT_PAGE];
	assert_int_equal(uft_tracefs_read(raw, page, sizeof(page), 0), UFT_PAGE);
	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe", cpu);
	struct uft_tfs_handle *txt = opn(p("gonecpu", path));
	char part[16];
	read_part(txt, part, 5);
	assert_int_equal(uft_tracefs_rmdir("instances/gonecpu"), -EBUSY);
	uft_tracefs_release(raw);
	uft_tracefs_release(txt);
	rminst("gonecpu");
	mkinst("gonecpu");
	char *t = rd(p("gonecpu", "trace"));
	assert_int_equal(tfs_count(t, "ping:"), 0);
	free(t);
	rminst("gonecpu");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_top_trace_pipe_then_clear, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_instance_trace_pipe_then_clear, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cpu_trace_pipe_then_clear, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_trace_pipe_raw_then_clear, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rmdir_after_partial, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rmdir_after_partial_cpu, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
