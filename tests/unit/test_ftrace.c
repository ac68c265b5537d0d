/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The function tracers: the tree files (available_filter_functions,
 * set_ftrace_filter and friends, current_tracer) byte for byte, and the
 * records of function and function_graph read back from the rings: nesting,
 * depth limits, graph filters, a shared library, signal handlers, long jumps
 * and tracers switched while threads run the traced code. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <complex.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "wire/ftrace_records.h"
#include "wire/ring_reader.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/runtime.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tracefs.h"
#include "runtime/core/trigger_run.h"
#include "ftrace_recs.h"
#include "tfs_helpers.h"
#include "util/atomics.h"
#include <uft/uft.h> /* its registration constructors are in this program */

#define W (UFT_TFS_WRITE | UFT_TFS_TRUNC)  /* echo > */
#define A (UFT_TFS_WRITE | UFT_TFS_APPEND) /* echo >> */

/* ---- traced code (this file is built with the patchable entries) ---- */

#define NOINLINE __attribute__((noinline))
static volatile unsigned sink;

NOINLINE int ft_leaf(int x)
{
	uft_add_return_relaxed(&sink, (unsigned)x);
	__asm__ volatile("" ::: "memory");
	return x & 0xffff;
}

NOINLINE int ft_mid(int x)
{
	return ft_leaf(x) * 2;
}

NOINLINE int ft_top(int x)
{
	return ft_mid(x) + ft_leaf(x);
}

/* Switches the top's tracer off while its own call is being graphed. */
NOINLINE int ft_switcher(int x)
{
	tfs_echo("current_tracer", "nop", UFT_TFS_WRITE | UFT_TFS_TRUNC);
	return ft_leaf(x);
}

static sigjmp_buf jump_env;

NOINLINE void ft_jump_deep(int x)
{
	ft_leaf(x);
	siglongjmp(jump_env, 1);
}

NOINLINE void ft_jump_mid(int x)
{
	ft_jump_deep(x);
	uft_add_return_relaxed(&sink, 1);
}

NOINLINE int ft_jumper(int x)
{
	if (sigsetjmp(jump_env, 0) == 0)
		ft_jump_mid(x);
	return ft_leaf(x);
}

static void on_usr1(int sig)
{
	ft_leaf(sig);
}

NOINLINE int ft_raiser(int x)
{
	raise(SIGUSR1);
	return ft_leaf(x);
}

/* Calls of every shape the trampolines must keep intact: arguments on the
 * stack, vector arguments, a variadic call (al counts the vector
 * registers), results in rax:rdx, in xmm0 and through memory, a tail call. */
struct cs_big {
	long a, b, c, d;
};

NOINLINE long cs_many(int a, int b, int c, int d, int e, int f, int g, int h, double x, double y,
		      struct cs_big s)
{
	uft_add_return_relaxed(&sink, 1);
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + (long)(x * 10) +
	       (long)(y * 100) + s.a + s.b * 2 + s.c * 3 + s.d * 4;
}

NOINLINE struct cs_big cs_make(long v)
{
	uft_add_return_relaxed(&sink, 1);
	struct cs_big b = {v, v + 1, v + 2, v + 3};
	return b;
}

NOINLINE double cs_half(double x)
{
	uft_add_return_relaxed(&sink, 1);
	return x / 2;
}

NOINLINE __int128 cs_wide(long v)
{
	uft_add_return_relaxed(&sink, 1);
	return ((__int128)v << 64) | (unsigned long)(v + 1);
}

NOINLINE long cs_sum(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	double t = 0;
	for (int i = 0; i < n; i++)
		t += va_arg(ap, double);
	va_end(ap);
	return (long)t;
}

NOINLINE int cs_tail(int x)
{
	return ft_leaf(x + 1); /* a jump to ft_leaf where the compiler can */
}

NOINLINE long double cs_ext(long double x)
{
	uft_add_return_relaxed(&sink, 1);
	return x * 3; /* in st(0) */
}

NOINLINE double complex cs_cplx(double complex z)
{
	uft_add_return_relaxed(&sink, 1);
	return z * I; /* in xmm0 and xmm1 */
}

/* Runs every shape, checking the results; returns the calls made. */
static int call_shapes(void)
{
	struct cs_big big = {1, 2, 3, 4};
	assert_int_equal(cs_many(1, 2, 3, 4, 5, 6, 7, 8, 0.5, 0.25, big), 204 + 5 + 25 + 30);
	struct cs_big m = cs_make(10);
	assert_int_equal(m.a + m.b + m.c + m.d, 46);
	assert_true(cs_half(3.0) == 1.5);
	__int128 w = cs_wide(7);
	assert_int_equal((long)(w >> 64), 7);
	assert_int_equal((long)(uint64_t)w, 8);
	assert_int_equal(cs_sum(3, 1.5, 2.25, 3.25), 7);
	assert_int_equal(cs_tail(4), 5);
	assert_true(cs_ext(1.5L) == 4.5L);
	double complex z = cs_cplx(2.0 + 3.0 * I);
	assert_true(creal(z) == -3.0 && cimag(z) == 2.0);
	return 9; /* cs_tail calls ft_leaf */
}

/* ---- reading the records back ---- */

struct rec {
	uint64_t ts;
	int32_t pid;
	uint16_t type;
	uint8_t flags;
	uint64_t a;	 /* ip / func */
	uint64_t b;	 /* parent_ip / depth */
	uint64_t t0, t1; /* calltime, rettime */
	uint64_t rv;	 /* retval */
	size_t seq;	 /* order read in: a ring's order */
};

struct recs {
	struct rec *r;
	size_t n, cap;
};

static int collect(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		   uint64_t missed)
{
	struct recs *rs = ctx;
	const struct uft_common_entry *c = data;
	if (c->type != UFT_ID_FUNCTION && c->type != UFT_ID_FUNCGRAPH_ENTRY &&
	    c->type != UFT_ID_FUNCGRAPH_EXIT)
		return 0;
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 1024;
		rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
	}
	struct rec *r = &rs->r[rs->n];
	memset(r, 0, sizeof(*r));
	r->seq = rs->n++;
	r->ts = ts;
	r->pid = c->pid;
	r->type = c->type;
	r->flags = c->flags;
	if (c->type == UFT_ID_FUNCTION) {
		const struct uft_rec_function *f = data;
		assert_int_equal(len, sizeof(*f));
		r->a = f->ip;
		r->b = f->parent_ip;
	} else if (c->type == UFT_ID_FUNCGRAPH_ENTRY) {
		const struct uft_rec_funcgraph_entry *e = data;
		assert_int_equal(len, sizeof(*e));
		r->a = e->func;
		r->b = (uint64_t)e->depth;
	} else {
		const struct uft_rec_funcgraph_exit *e = data;
		assert_int_equal(len, sizeof(*e));
		r->a = e->func;
		r->b = (uint64_t)e->depth;
		r->t0 = e->calltime;
		r->t1 = e->rettime;
		r->rv = e->retval;
	}
	return 0;
}

static void peek_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uft_ring_peek(r, collect, ctx);
}

/* Equal times keep the ring's order: a ring never runs backwards, so a
 * thread that moved to a CPU whose clock is behind writes the same time
 * again (writer.c), and an exit may carry its entry's time. */
static int by_pid_time(const void *x, const void *y)
{
	const struct rec *a = x, *b = y;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The ftrace records of buffer 0, per thread in time order. */
static struct recs peek_records(void)
{
	struct recs rs = {0};
	pthread_mutex_lock(&tfs_lock);
	tfs_for_each_ring(0, peek_ring, &rs);
	pthread_mutex_unlock(&tfs_lock);
	if (rs.n)
		qsort(rs.r, rs.n, sizeof(*rs.r), by_pid_time);
	return rs;
}

/* Every exit closes the newest open entry of its thread (same function and
 * depth), and depths count the open entries. Returns the number of exits. */
static size_t check_nesting(const struct recs *rs)
{
	struct rec *open[512];
	size_t top = 0, exits = 0;
	int32_t pid = -1;
	for (size_t i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		if (r->pid != pid) {
			pid = r->pid;
			top = 0;
		}
		if (r->type == UFT_ID_FUNCGRAPH_ENTRY) {
			assert_true(top < 512);
			open[top++] = r;
		} else if (r->type == UFT_ID_FUNCGRAPH_EXIT) {
			assert_true(top > 0);
			struct rec *e = open[--top];
			assert_int_equal(e->a, r->a);
			assert_int_equal(e->b, r->b);
			assert_true(r->t0 <= r->t1);
			/* calltime and rettime are taken no later than the records
			 * are stamped, in the buffer's clock (the same time when
			 * the record is written inline). */
			assert_true(r->t0 <= e->ts);
			assert_true(r->t1 <= r->ts);
			exits++;
		}
	}
	return exits;
}

static int echo(const char *path, const char *text, unsigned flags)
{
	return tfs_echo(path, text, flags);
}

static int echo(const char *path, const char *text, unsigned flags);

/* Stops tracing, reads what the buffer holds, and goes back to nop (which
 * clears the buffer, as the kernel's tracer switch does). */
static struct recs read_records(void)
{
	assert_int_equal(echo("tracing_on", "0", UFT_TFS_WRITE | UFT_TFS_TRUNC), 0);
	struct recs rs = peek_records();
	assert_int_equal(echo("current_tracer", "nop", UFT_TFS_WRITE | UFT_TFS_TRUNC), 0);
	assert_int_equal(echo("tracing_on", "1", UFT_TFS_WRITE | UFT_TFS_TRUNC), 0);
	return rs;
}

/* Whether text has the whole line `line`. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void expect_file(const char *path, const char *want)
{
	int err;
	char *got = tfs_cat(path, &err);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void reset(void)
{
	assert_int_equal(echo("current_tracer", "nop", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "", W), 0);
	assert_int_equal(echo("set_ftrace_notrace", "", W), 0);
	assert_int_equal(echo("set_graph_function", "", W), 0);
	assert_int_equal(echo("set_graph_notrace", "", W), 0);
	assert_int_equal(echo("set_ftrace_pid", "", W), 0);
	assert_int_equal(echo("set_ftrace_notrace_pid", "", W), 0);
	assert_int_equal(echo("options/function-fork", "0", W), 0);
	assert_int_equal(echo("max_graph_depth", "0", W), 0);
	assert_int_equal(echo("trace_clock", "local", W), 0);
	assert_int_equal(echo("buffer_size_kb", "1024", W), 0);
	assert_int_equal(echo("trace", "", W), 0);
}

/* Rings large enough that nothing is overwritten (an overwritten entry would
 * leave its exit alone). */
static void big_rings(void)
{
	assert_int_equal(echo("buffer_size_kb", "16384", W), 0);
}

/* ---- tests ---- */

static void test_tracers_listed(void **state)
{
	expect_file("available_tracers",
		    "timerlat osnoise function_graph wakeup_dl wakeup_rt wakeup "
		    "preemptirqsoff preemptoff irqsoff function nop\n");
	expect_file("current_tracer", "nop\n");
	assert_int_equal(echo("current_tracer", "function", W), 0);
	expect_file("current_tracer", "function\n");
	assert_int_equal(echo("current_tracer", "nosuch", W), -EINVAL);
	expect_file("current_tracer", "function\n");
	assert_int_equal(uft_tracefs_mkdir("instances/ft"), 0);
	expect_file(
	    "instances/ft/available_tracers",
	    "timerlat osnoise function_graph wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff "
	    "irqsoff function nop\n");
	assert_int_equal(echo("instances/ft/current_tracer", "function_graph", W), 0);
	expect_file("instances/ft/current_tracer", "function_graph\n");
	assert_int_equal(echo("instances/ft/current_tracer", "function", W), 0);
	expect_file("instances/ft/current_tracer", "function\n");
	expect_file("instances/ft/set_ftrace_filter", "#### all functions enabled ####\n");
	/* set_graph_function, set_graph_notrace and max_graph_depth are the
	 * top's only, and apply to every graph tracer, as in the kernel. */
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat("instances/ft/set_graph_function", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("instances/ft/set_graph_notrace", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("instances/ft/max_graph_depth", &st), -ENOENT);
	assert_int_equal(uft_tracefs_rmdir("instances/ft"), 0);
	reset();
}

/* The graph records' formats are the kernel's (funcgraph_exit with retval,
 * as from 6.5), byte for byte. */
static void test_graph_formats(void **state)
{
	expect_file("events/ftrace/funcgraph_entry/format", ftr_entry_format);
	expect_file("events/ftrace/funcgraph_exit/format", ftr_exit_format);
}

static void test_available_filter_functions(void **state)
{
	int err;
	char *all = tfs_cat("available_filter_functions", &err);
	assert_non_null(all);
	assert_true(has_line(all, "ft_leaf"));
	assert_true(has_line(all, "ft_mid"));
	/* libuft is not built with the entries, and uft's code in the program
	 * (the registration constructors of uft.h) has none. */
	assert_null(strstr(all, "uft_ftrace_entry"));
	assert_null(strstr(all, "uft__"));
	free(all);
}

static void test_filter_file_text(void **state)
{
	reset();
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n");
	expect_file("set_ftrace_notrace", "#### no functions disabled ####\n");
	expect_file("set_graph_function", "#### all functions enabled ####\n");
	expect_file("set_graph_notrace", "#### no functions disabled ####\n");
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	expect_file("set_ftrace_filter", "ft_leaf\n");
	/* Functions are listed in address order: ft_leaf is defined first. */
	assert_int_equal(echo("set_ftrace_filter", "ft_m*", A), 0);
	expect_file("set_ftrace_filter", "ft_leaf\nft_mid\n");
	assert_int_equal(echo("set_ftrace_filter", "!ft_leaf", A), 0);
	expect_file("set_ftrace_filter", "ft_mid\n");
	/* No match: EINVAL, and a write with a bad token changes nothing. */
	assert_int_equal(echo("set_ftrace_filter", "no_such_function", A), -EINVAL);
	assert_int_equal(echo("set_ftrace_filter", "ft_top no_such_function", A), -EINVAL);
	expect_file("set_ftrace_filter", "ft_mid\n");
	assert_int_equal(echo("set_ftrace_filter", "*_jump_de*", W), 0);
	expect_file("set_ftrace_filter", "ft_jump_deep\n");
	assert_int_equal(echo("set_ftrace_filter", "*raiser", W), 0);
	expect_file("set_ftrace_filter", "ft_raiser\n");
	/* Commands, with the kernel's read-back lines. */
	assert_int_equal(echo("set_ftrace_filter", "ft_top:traceoff:3", A), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_mid:traceon", A), 0);
	expect_file("set_ftrace_filter",
		    "ft_raiser\nft_top:traceoff:count=3\nft_mid:traceon:unlimited\n");
	assert_int_equal(echo("set_ftrace_filter", "ft_mid:nosuchcmd", A), -EINVAL);
	assert_int_equal(echo("set_ftrace_filter", "ft_top:traceoff:x", A), -EINVAL);
	/* Removing: none of that command on the function is EINVAL, none of
	 * that command at all ENODEV, as the kernel's. */
	assert_int_equal(echo("set_ftrace_filter", "!ft_leaf:traceoff", A), -EINVAL);
	assert_int_equal(echo("set_ftrace_filter", "!ft_top:snapshot", A), -ENODEV);
	/* the lines as listed remove them, count and all */
	assert_int_equal(echo("set_ftrace_filter", "!ft_top:traceoff:count=3", A), 0);
	assert_int_equal(echo("set_ftrace_filter", "!ft_mid:traceon:unlimited", A), 0);
	assert_int_equal(echo("set_ftrace_filter", "!ft_mid:traceon", A), -ENODEV);
	/* `>` empties the functions, not the commands (none left here). */
	assert_int_equal(echo("set_ftrace_filter", "", W), 0);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n");
	assert_int_equal(echo("set_ftrace_notrace", "ft_leaf", W), 0);
	expect_file("set_ftrace_notrace", "ft_leaf\n");
	/* Commands belong to set_ftrace_filter only. */
	assert_int_equal(echo("set_ftrace_notrace", "ft_leaf:traceon", A), -EINVAL);
	expect_file("set_ftrace_pid", "no pid\n");
	assert_int_equal(echo("set_ftrace_pid", "34 12", W), 0);
	expect_file("set_ftrace_pid", "12\n34\n");
	assert_int_equal(echo("set_ftrace_pid", "x", A), -EINVAL);
	expect_file("set_ftrace_pid", "12\n34\n");
	assert_int_equal(echo("set_ftrace_pid", "20 12", A), 0);
	expect_file("set_ftrace_pid", "12\n20\n34\n");
	expect_file("set_ftrace_notrace_pid", "no pid\n");
	assert_int_equal(echo("set_ftrace_notrace_pid", "7", W), 0);
	expect_file("set_ftrace_notrace_pid", "7\n");
	assert_int_equal(echo("set_ftrace_notrace_pid", "4194304", A), -EINVAL);
	expect_file("set_ftrace_notrace_pid", "7\n");
	assert_int_equal(echo("set_ftrace_notrace_pid", "", W), 0);
	expect_file("set_ftrace_notrace_pid", "no pid\n");
	expect_file("max_graph_depth", "0\n");
	assert_int_equal(echo("max_graph_depth", "3", W), 0);
	expect_file("max_graph_depth", "3\n");
	assert_int_equal(echo("max_graph_depth", "-1", W), -EINVAL);
	expect_file("max_graph_depth", "3\n");
	reset();
}

static void test_function_records(void **state)
{
	reset();
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf ft_mid", W), 0);
	expect_file("enabled_functions", "");
	assert_int_equal(echo("current_tracer", "function", W), 0);
	expect_file("enabled_functions", "ft_leaf (1)      \nft_mid (1)      \n");
	ft_mid(1);
	ft_top(2); /* not selected itself; its callees are */
	struct recs rs = read_records();
	expect_file("enabled_functions", "");
	/* touched_functions keeps the functions ever patched, in the same form. */
	int err;
	char *touched = tfs_cat("touched_functions", &err);
	assert_true(has_line(touched, "ft_leaf (0)      "));
	assert_true(has_line(touched, "ft_mid (0)      "));
	free(touched);
	assert_int_equal(rs.n, 5);
	int32_t tid = (int32_t)syscall(SYS_gettid);
	uintptr_t top = (uintptr_t)ft_top, mid = (uintptr_t)ft_mid;
	assert_int_equal(rs.r[0].a, mid);
	assert_int_equal(rs.r[1].a, (uintptr_t)ft_leaf);
	assert_true(rs.r[1].b > mid && rs.r[1].b < mid + 64); /* returns into ft_mid */
	assert_int_equal(rs.r[2].a, mid);
	assert_true(rs.r[2].b > top && rs.r[2].b < top + 64);
	assert_int_equal(rs.r[3].a, (uintptr_t)ft_leaf);
	assert_true(rs.r[3].b > mid && rs.r[3].b < mid + 64);
	assert_int_equal(rs.r[4].a, (uintptr_t)ft_leaf);
	assert_true(rs.r[4].b > top && rs.r[4].b < top + 64);
	for (size_t i = 0; i < rs.n; i++) {
		assert_int_equal(rs.r[i].type, UFT_ID_FUNCTION);
		assert_int_equal(rs.r[i].pid, tid);
	}
	free(rs.r);
	/* notrace wins over the filter. */
	assert_int_equal(echo("set_ftrace_notrace", "ft_leaf", W), 0);
	assert_int_equal(echo("current_tracer", "function", W), 0);
	ft_mid(1);
	rs = read_records();
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].a, mid);
	free(rs.r);
	/* set_ftrace_pid: another thread id only. */
	assert_int_equal(echo("set_ftrace_pid", "1", W), 0);
	assert_int_equal(echo("current_tracer", "function", W), 0);
	ft_mid(1);
	rs = read_records();
	assert_int_equal(rs.n, 0);
	free(rs.r);
	reset();
}

static void test_graph_records(void **state)
{
	reset();
	assert_int_equal(echo("set_ftrace_filter", "ft_*", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	ft_top(3);
	struct recs rs = read_records();
	/* top { mid { leaf } leaf } */
	assert_int_equal(rs.n, 8);
	const struct {
		uint16_t type;
		void *fn;
		int depth;
	} want[] = {
	    {UFT_ID_FUNCGRAPH_ENTRY, ft_top, 0},  {UFT_ID_FUNCGRAPH_ENTRY, ft_mid, 1},
	    {UFT_ID_FUNCGRAPH_ENTRY, ft_leaf, 2}, {UFT_ID_FUNCGRAPH_EXIT, ft_leaf, 2},
	    {UFT_ID_FUNCGRAPH_EXIT, ft_mid, 1},	  {UFT_ID_FUNCGRAPH_ENTRY, ft_leaf, 1},
	    {UFT_ID_FUNCGRAPH_EXIT, ft_leaf, 1},  {UFT_ID_FUNCGRAPH_EXIT, ft_top, 0},
	};
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(rs.r[i].type, want[i].type);
		assert_int_equal(rs.r[i].a, (uintptr_t)want[i].fn);
		assert_int_equal(rs.r[i].b, want[i].depth);
	}
	assert_int_equal(check_nesting(&rs), 4);
	/* Each exit holds what its function returned (int: the low half). */
	assert_int_equal((uint32_t)rs.r[3].rv, 3);
	assert_int_equal((uint32_t)rs.r[4].rv, 6);
	assert_int_equal((uint32_t)rs.r[6].rv, 3);
	assert_int_equal((uint32_t)rs.r[7].rv, 9);
	free(rs.r);

	/* max_graph_depth 2: the leaf under ft_mid is deeper. */
	assert_int_equal(echo("max_graph_depth", "2", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	ft_top(3);
	rs = read_records();
	assert_int_equal(rs.n, 6);
	assert_int_equal(check_nesting(&rs), 3);
	free(rs.r);
	assert_int_equal(echo("max_graph_depth", "0", W), 0);

	/* set_graph_function: ft_mid and what it calls, from depth 0. */
	assert_int_equal(echo("set_graph_function", "ft_mid", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	ft_top(3);
	rs = read_records();
	assert_int_equal(rs.n, 4);
	assert_int_equal(rs.r[0].a, (uintptr_t)ft_mid);
	assert_int_equal(rs.r[0].b, 0);
	assert_int_equal(rs.r[1].a, (uintptr_t)ft_leaf);
	assert_int_equal(rs.r[1].b, 1);
	/* The general hooks (set_graph_function is not the fast path's) too. */
	assert_int_equal((uint32_t)rs.r[2].rv, 3);
	assert_int_equal((uint32_t)rs.r[3].rv, 6);
	free(rs.r);
	assert_int_equal(echo("set_graph_function", "", W), 0);

	/* set_graph_notrace: ft_mid and its callees are left out. */
	assert_int_equal(echo("set_graph_notrace", "ft_mid", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	ft_top(3);
	rs = read_records();
	assert_int_equal(rs.n, 4); /* top { leaf } */
	assert_int_equal(rs.r[1].a, (uintptr_t)ft_leaf);
	assert_int_equal(rs.r[1].b, 1);
	free(rs.r);
	reset();
}

/* The first byte of a function's sled: 0xe9 a jump to its stub, 0xe8 a
 * call of the trampoline, else the NOPs it was built with. */
static uint8_t sled_byte(const void *fn)
{
	return *(const volatile uint8_t *)fn;
}

/* The shapes under function_graph: through the inline path, through the
 * general hooks (a set_ftrace_pid list; a clock the inline path does not
 * read, which sends the returns to the general hook too), and with a
 * function command on each function (whose sled then calls the trampoline
 * that returns into the function). Every call gets its entry and exit and
 * its result. */
static void test_graph_call_shapes(void **state)
{
	const void *fn = (const void *)(uintptr_t)cs_half;
	uint8_t orig[5];
	memcpy(orig, fn, sizeof(orig));
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	for (int pass = 0; pass < 4; pass++) {
		reset();
		big_rings();
		assert_int_equal(echo("set_ftrace_filter", "cs_* ft_leaf", W), 0);
		if (pass == 1)
			assert_int_equal(echo("set_ftrace_pid", pid, W), 0);
		if (pass == 2)
			assert_int_equal(echo("set_ftrace_filter", "cs_*:traceon", A), 0);
		if (pass == 3)
			assert_int_equal(echo("trace_clock", "mono", W), 0);
		assert_int_equal(echo("current_tracer", "function_graph", W), 0);
		assert_int_equal(sled_byte(fn), pass == 2 ? 0xe8 : 0xe9);
		int calls = call_shapes();
		struct recs rs = read_records();
		assert_int_equal(check_nesting(&rs), calls);
		assert_int_equal(rs.n, 2 * calls);
		free(rs.r);
		if (pass == 2) { /* the commands live on without a tracer */
			assert_int_equal(sled_byte(fn), 0xe8);
			assert_int_equal(echo("set_ftrace_filter", "!cs_*:traceon", A), 0);
		}
		assert_memory_equal(fn, orig, sizeof(orig));
	}
	reset();
	/* And untraced, with the sleds back to NOPs. */
	assert_memory_equal(fn, orig, sizeof(orig));
	call_shapes();
}

static void test_graph_longjmp(void **state)
{
	reset();
	assert_int_equal(echo("set_ftrace_filter", "ft_*", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	ft_jumper(4);
	ft_top(1); /* after the jump, depths start from 0 again */
	struct recs rs = read_records();
	/* jumper { mid { deep { leaf } (jump) } leaf } then top {...} */
	size_t i = 0;
	assert_int_equal(rs.r[i].a, (uintptr_t)ft_jumper);
	i++;
	assert_int_equal(rs.r[i].a, (uintptr_t)ft_jump_mid);
	i++;
	assert_int_equal(rs.r[i].a, (uintptr_t)ft_jump_deep);
	assert_int_equal(rs.r[i].b, 2);
	i += 3; /* leaf entry and exit */
	assert_int_equal(rs.r[i].type, UFT_ID_FUNCGRAPH_ENTRY);
	assert_int_equal(rs.r[i].a, (uintptr_t)ft_leaf);
	assert_int_equal(rs.r[i].b, 1); /* under ft_jumper only */
	i += 2;
	assert_int_equal(rs.r[i].type, UFT_ID_FUNCGRAPH_EXIT);
	assert_int_equal(rs.r[i].a, (uintptr_t)ft_jumper);
	i++;
	assert_int_equal(rs.r[i].a, (uintptr_t)ft_top);
	assert_int_equal(rs.r[i].b, 0);
	free(rs.r);
	reset();
}

static void test_graph_signal_handler(void **state)
{
	reset();
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_*", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	ft_raiser(5);
	struct recs rs = read_records();
	/* raiser { leaf (in the handler) leaf } */
	assert_int_equal(rs.n, 6);
	assert_int_equal(check_nesting(&rs), 3);
	assert_int_equal(rs.r[1].a, (uintptr_t)ft_leaf);
	assert_int_equal(rs.r[1].b, 1);
	assert_true(rs.r[1].flags & UFT_FLAG_IN_SIGNAL);
	assert_false(rs.r[3].flags & UFT_FLAG_IN_SIGNAL);
	free(rs.r);
	signal(SIGUSR1, SIG_DFL);
	reset();
}

/* A profiling timer interrupts traced code (and the hooks themselves) all
 * the time: every exit still closes its entry. */
static volatile sig_atomic_t ticks;
static void on_prof(int sig)
{
	ticks++;
	ft_leaf(sig);
}

static void test_graph_under_signal_storm(void **state)
{
	reset();
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGPROF, &sa, NULL), 0);
	big_rings();
	assert_int_equal(echo("set_ftrace_filter", "ft_*", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	struct itimerval it = {{0, 200}, {0, 200}};
	setitimer(ITIMER_PROF, &it, NULL);
	for (int i = 0; i < 20000 && (i < 3000 || ticks < 20); i++)
		ft_top(i);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_PROF, &off, NULL);
	struct recs rs = read_records();
	signal(SIGPROF, SIG_DFL);
	assert_true(check_nesting(&rs) > 1000);
	free(rs.r);
	reset();
}

static void test_shared_library(void **state)
{
	reset();
	char path[4096];
	const char *build = getenv("UFT_BUILD");
	snprintf(path, sizeof(path), "%s/tests/libftrace_lib.so", build ? build : "build");
	void *h = dlopen(path, RTLD_NOW);
	assert_non_null(h);
	int (*twice)(int) = (int (*)(int))dlsym(h, "fx_twice_square");
	int (*square)(int) = (int (*)(int))dlsym(h, "fx_square");
	assert_non_null(twice);
	int err;
	char *all = tfs_cat("available_filter_functions", &err);
	assert_true(has_line(all, "fx_square [libftrace_lib.so]"));
	free(all);
	assert_int_equal(echo("set_ftrace_filter", "*:mod:libftrace_lib.so", W), 0);
	expect_file("set_ftrace_filter",
		    "fx_square [libftrace_lib.so]\nfx_twice_square [libftrace_lib.so]\n");
	assert_int_equal(echo("set_ftrace_filter", "!fx_twice*:mod:libftrace_lib.so", A), 0);
	expect_file("set_ftrace_filter", "fx_square [libftrace_lib.so]\n");
	/* A library not loaded: kept pending and listed, as the kernel's
	 * module commands (see test_library_loaded_while_tracing). */
	assert_int_equal(echo("set_ftrace_filter", "*:mod:nosuch.so", A), 0);
	expect_file("set_ftrace_filter", "fx_square [libftrace_lib.so]\n*:mod:nosuch.so\n");
	assert_int_equal(echo("set_ftrace_filter", "!*:mod:nosuch.so", A), 0);
	expect_file("set_ftrace_filter", "fx_square [libftrace_lib.so]\n");
	assert_int_equal(echo("set_ftrace_filter", "fx_square:mod:!nosuch.so", A), 0);
	assert_int_equal(echo("set_ftrace_filter", ":mod:libftrace_lib.so", W), 0);
	expect_file("set_ftrace_filter",
		    "fx_square [libftrace_lib.so]\nfx_twice_square [libftrace_lib.so]\n");
	assert_int_equal(echo("set_ftrace_filter", "fx_square:traceon:2", W), 0);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n"
					 "fx_square [libftrace_lib.so]:traceon:count=2\n");
	assert_int_equal(echo("set_ftrace_filter", "!fx_square:traceon", A), 0);
	assert_int_equal(echo("set_ftrace_filter", "fx_*", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	assert_int_equal(twice(3), 18);
	struct recs rs = read_records();
	assert_int_equal(rs.n, 4);
	assert_int_equal(rs.r[0].a, (uintptr_t)twice);
	assert_int_equal(rs.r[1].a, (uintptr_t)square);
	assert_int_equal(check_nesting(&rs), 2);
	free(rs.r);
	reset();
}

/* A library loaded while the function tracer traces everything is patched
 * as it arrives. */
static void test_library_loaded_while_tracing(void **state)
{
	reset();
	char path[4096];
	const char *build = getenv("UFT_BUILD");
	snprintf(path, sizeof(path), "%s/tests/libftrace_late.so", build ? build : "build");
	assert_int_equal(echo("current_tracer", "function", W), 0);
	void *h = dlopen(path, RTLD_NOW);
	assert_non_null(h);
	int (*late)(int) = (int (*)(int))dlsym(h, "fx_late");
	assert_int_equal(late(1), 8);
	struct recs rs = read_records();
	size_t hits = 0;
	for (size_t i = 0; i < rs.n; i++)
		hits += rs.r[i].a == (uintptr_t)late;
	assert_int_equal(hits, 1);
	free(rs.r);
	/* Closed and loaded again (fresh code, NOPs again): patched again. */
	assert_int_equal(echo("current_tracer", "function", W), 0);
	assert_int_equal(dlclose(h), 0);
	h = dlopen(path, RTLD_NOW);
	assert_non_null(h);
	late = (int (*)(int))dlsym(h, "fx_late");
	assert_int_equal(late(2), 9);
	rs = read_records();
	hits = 0;
	for (size_t i = 0; i < rs.n; i++)
		hits += rs.r[i].a == (uintptr_t)late;
	assert_int_equal(hits, 1);
	free(rs.r);
	expect_file("enabled_functions", "");
	/* FUNC:mod:LIB before LIB is loaded: pending until dlopen() brings
	 * it, then applied (the kernel's module load), once. */
	assert_int_equal(echo("current_tracer", "nop", W), 0);
	assert_int_equal(dlclose(h), 0);
	assert_int_equal(echo("set_ftrace_filter", "fx_late:mod:libftrace_late.so", W), 0);
	assert_int_equal(echo("set_ftrace_notrace", "zz*:mod:libftrace_late.so", W), 0);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n"
					 "fx_late:mod:libftrace_late.so\n");
	expect_file("set_ftrace_notrace", "#### no functions disabled ####\n"
					  "zz*:mod:libftrace_late.so\n");
	/* `>` forgets the pending ones of that file */
	assert_int_equal(echo("set_ftrace_notrace", "", W), 0);
	expect_file("set_ftrace_notrace", "#### no functions disabled ####\n");
	h = dlopen(path, RTLD_NOW);
	assert_non_null(h);
	expect_file("set_ftrace_filter", "fx_late [libftrace_late.so]\n");
	assert_int_equal(echo("current_tracer", "function", W), 0);
	late = (int (*)(int))dlsym(h, "fx_late");
	assert_int_equal(late(3), 10);
	ft_leaf(1);
	rs = read_records();
	assert_int_equal(rs.n, 1);
	assert_int_equal(rs.r[0].a, (uintptr_t)late);
	free(rs.r);
	reset();
}

/* A function command stops tracing after the third hit of ft_mid. */
static void test_traceoff_command(void **state)
{
	reset();
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_mid:traceoff:1", A), 0);
	assert_int_equal(echo("current_tracer", "function", W), 0);
	ft_leaf(1);
	ft_leaf(2);
	ft_mid(3); /* tracing goes off before its ft_leaf */
	ft_leaf(4);
	expect_file("tracing_on", "0\n");
	expect_file("set_ftrace_filter", "ft_leaf\nft_mid:traceoff:count=0\n");
	struct recs rs = read_records();
	assert_int_equal(rs.n, 2);
	free(rs.r);
	assert_int_equal(echo("tracing_on", "1", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "!ft_mid:traceoff:0", A), 0);
	reset();
}

/* stacktrace: a kernel_stack record from the traced function up; snapshot:
 * the buffer so far moves to the snapshot. */
struct stack_seen {
	int stacks;
	uint64_t first, second;
};

static int see_stack(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		     uint64_t missed)
{
	struct stack_seen *s = ctx;
	const struct uft_common_entry *c = data;
	if (c->type != UFT_ID_KERNEL_STACK)
		return 0;
	const struct {
		struct uft_common_entry c;
		int32_t size;
		uint32_t pad;
		uint64_t caller[8];
	} *r = data;
	s->stacks++;
	s->first = r->caller[0];
	s->second = r->caller[1];
	return 0;
}

static void peek_stack(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uft_ring_peek(r, see_stack, ctx);
}

static void test_stacktrace_and_snapshot_commands(void **state)
{
	reset();
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:stacktrace:1", W), 0);
	ft_mid(1); /* tracer nop: the command still patches ft_leaf */
	ft_mid(2); /* count used up */
	struct stack_seen seen = {0};
	pthread_mutex_lock(&tfs_lock);
	tfs_for_each_ring(0, peek_stack, &seen);
	pthread_mutex_unlock(&tfs_lock);
	assert_int_equal(seen.stacks, 1);
	uintptr_t leaf = (uintptr_t)ft_leaf, mid = (uintptr_t)ft_mid;
	assert_true(seen.first > leaf && seen.first < leaf + 32);
	assert_true(seen.second > mid && seen.second < mid + 64);
	expect_file("set_ftrace_filter",
		    "#### all functions enabled ####\nft_leaf:stacktrace:count=0\n");
	assert_int_equal(echo("set_ftrace_filter", "!ft_leaf:stacktrace:0", A), 0);

	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_mid:snapshot", A), 0);
	assert_int_equal(echo("current_tracer", "function", W), 0);
	ft_leaf(1);
	ft_mid(2); /* the snapshot holds the first ft_leaf */
	int err;
	char *snap = tfs_cat("snapshot", &err); /* the tree takes pending snapshots first */
	assert_non_null(snap);
	assert_non_null(strstr(snap, "entries-in-buffer/entries-written: 1/1"));
	free(snap);
	struct recs rs = read_records();
	assert_int_equal(rs.n, 1); /* ft_mid's ft_leaf, after the snapshot */
	free(rs.r);
	assert_int_equal(echo("set_ftrace_filter", "!ft_mid:snapshot", A), 0);
	assert_int_equal(echo("snapshot", "0", W), 0);
	reset();
}

/* ft_leaf calls of this thread and of a new one: the records of each. */
static void *leaf_thread(void *arg)
{
	*(int *)arg = (int)syscall(SYS_gettid);
	ft_leaf(2);
	return NULL;
}

static void count_by_thread(const char *tracer, size_t *mine, size_t *theirs)
{
	assert_int_equal(echo("current_tracer", tracer, W), 0);
	ft_leaf(1);
	int other = 0;
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, leaf_thread, &other), 0);
	pthread_join(th, NULL);
	struct recs rs = read_records();
	*mine = *theirs = 0;
	for (size_t i = 0; i < rs.n; i++)
		if (rs.r[i].type != UFT_ID_FUNCGRAPH_EXIT)
			*(rs.r[i].pid == other ? theirs : mine) += 1;
	free(rs.r);
}

/* set_ftrace_notrace_pid keeps its threads out of both tracers, even when
 * set_ftrace_pid lists them. */
static void test_notrace_pid(void **state)
{
	reset();
	char me[32];
	snprintf(me, sizeof(me), "%d", (int)syscall(SYS_gettid));
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	static const char *const tracers[] = {"function", "function_graph"};
	for (int k = 0; k < 2; k++) {
		size_t mine, theirs;
		assert_int_equal(echo("set_ftrace_notrace_pid", me, W), 0);
		count_by_thread(tracers[k], &mine, &theirs);
		assert_int_equal(mine, 0);
		assert_int_equal(theirs, 1);
		assert_int_equal(echo("set_ftrace_pid", me, W), 0);
		count_by_thread(tracers[k], &mine, &theirs);
		assert_int_equal(mine + theirs, 0);
		assert_int_equal(echo("set_ftrace_notrace_pid", "", W), 0);
		count_by_thread(tracers[k], &mine, &theirs);
		assert_int_equal(mine, 1);
		assert_int_equal(theirs, 0);
		assert_int_equal(echo("set_ftrace_pid", "", W), 0);
	}
	reset();
}

/* A thread that sees itself in set_ftrace_pid (or not) and calls ft_leaf. */
static void *listed_thread(void *arg)
{
	char tid[32];
	snprintf(tid, sizeof(tid), "%d\n", (int)syscall(SYS_gettid));
	int err;
	char *pids = tfs_cat("set_ftrace_pid", &err);
	*(bool *)arg = pids && has_line(pids, strtok(tid, "\n"));
	free(pids);
	ft_leaf(4);
	return NULL;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* The function tracer's records of one ft_leaf call of this thread. */
static size_t leaf_records(void)
{
	assert_int_equal(echo("current_tracer", "function", W), 0);
	ft_leaf(1);
	struct recs rs = read_records();
	free(rs.r);
	return rs.n;
}

/* A thread that waits for the word at arg to turn non-zero. */
static void *waiting_thread(void *arg)
{
	volatile int *go = arg;
	while (!smp_load_acquire(go))
		usleep(100);
	return NULL;
}

/* function-fork: when the last thread of set_ftrace_pid exits, the list
 * stays, empty: no thread is traced (not every thread). */
static void test_function_fork_last_exit(void **state)
{
	reset();
	char me[32], tid[32];
	snprintf(me, sizeof(me), "%d", (int)syscall(SYS_gettid));
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	assert_int_equal(echo("options/function-fork", "1", W), 0);
	assert_int_equal(echo("set_ftrace_pid", me, W), 0);
	int go = 0;
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, waiting_thread, &go), 0);
	int err;
	char *pids = tfs_cat("set_ftrace_pid", &err);
	assert_int_equal(count_lines(pids), 2);
	snprintf(tid, sizeof(tid), "%s", strchr(pids, '\n') + 1);
	if (atoi(tid) == atoi(me)) /* sorted: the other line */
		snprintf(tid, sizeof(tid), "%.*s", (int)(strchr(pids, '\n') - pids), pids);
	free(pids);
	assert_int_equal(echo("set_ftrace_pid", tid, W), 0);
	smp_store_release(&go, 1);
	pthread_join(th, NULL);
	expect_file("set_ftrace_pid", "");
	assert_int_equal(leaf_records(), 0);
	/* `>` gives every thread back. */
	assert_int_equal(echo("set_ftrace_pid", "", W), 0);
	expect_file("set_ftrace_pid", "no pid\n");
	assert_int_equal(leaf_records(), 1);
	reset();
}

/* A thread made while the tree is held (here by its creator, as a tree
 * call holds it while it waits for the loader a library constructor making
 * threads holds) does not wait for the tree: its join is queued and
 * applied when the tree is let go. */
static void test_follow_while_tree_held(void **state)
{
	reset();
	char me[32];
	snprintf(me, sizeof(me), "%d", (int)syscall(SYS_gettid));
	assert_int_equal(echo("options/function-fork", "1", W), 0);
	assert_int_equal(echo("set_ftrace_pid", me, W), 0);
	int go = 0;
	pthread_t th;
	pthread_mutex_lock(&tfs_lock);
	assert_int_equal(pthread_create(&th, NULL, waiting_thread, &go), 0);
	tfs_unlock();
	int err;
	char *pids = tfs_cat("set_ftrace_pid", &err);
	assert_int_equal(count_lines(pids), 2);
	free(pids);
	smp_store_release(&go, 1);
	pthread_join(th, NULL);
	char want[40];
	snprintf(want, sizeof(want), "%s\n", me);
	expect_file("set_ftrace_pid", want);
	reset();
}

/* function-fork: a listed parent's child process joins set_ftrace_pid and
 * set_ftrace_notrace_pid, and is traced (or not) as its parent is; so does
 * a thread it creates, which leaves the lists when it exits. */
static void test_function_fork(void **state)
{
	reset();
	char me[32];
	snprintf(me, sizeof(me), "%d", (int)getpid());
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	for (int opt = 0; opt < 2; opt++) {
		assert_int_equal(echo("options/function-fork", opt ? "1" : "0", W), 0);
		assert_int_equal(echo("set_ftrace_pid", me, W), 0);
		assert_int_equal(echo("current_tracer", "function", W), 0);
		pid_t child = fork();
		assert_true(child >= 0);
		if (child == 0) {
			char want[64];
			tfs_child_pids(want, sizeof(want), opt);
			int err;
			char *pids = tfs_cat("set_ftrace_pid", &err);
			ft_leaf(3);
			struct recs rs = peek_records();
			_exit(pids && strcmp(pids, want) == 0 && rs.n == (size_t)opt ? 0 : 1);
		}
		assert_int_equal(tfs_child_status(child), 0);
		assert_int_equal(echo("current_tracer", "nop", W), 0);

		assert_int_equal(echo("current_tracer", "function", W), 0);
		bool listed = !opt;
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, listed_thread, &listed), 0);
		pthread_join(th, NULL);
		assert_int_equal(listed, opt);
		char want[40];
		snprintf(want, sizeof(want), "%s\n", me);
		expect_file("set_ftrace_pid", want); /* the thread left */
		struct recs rs = read_records();
		assert_int_equal(rs.n, (size_t)opt);
		free(rs.r);
	}
	reset();
}

/* An event for the enable_event and disable_event commands. */
NOINLINE void tmark(int v)
{
	UFT_TRACE(ftt, mark, "v=%d", v);
}

/* The lines of the trace file that hold `what`. */
static int trace_lines_with(const char *what)
{
	int err, n = 0;
	char *text = tfs_cat("trace", &err);
	assert_non_null(text);
	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	free(text);
	return n;
}

/* enable_event/disable_event: the event is soft-disabled while a command
 * aims at it, the command flips it when its function runs (counting only
 * the calls that change it), and the event leaves soft mode with the last
 * command. */
static void test_event_commands(void **state)
{
	reset();
	tmark(0); /* registers the event */
	expect_file("events/ftt/mark/enable", "0\n");
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:enable_event:ftt:mark", A), 0);
	assert_int_equal(echo("set_ftrace_filter", "cs_half:disable_event:ftt:mark:1", A), 0);
	expect_file("events/ftt/mark/enable", "0*\n");
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n"
					 "ft_leaf:enable_event:ftt:mark:unlimited\n"
					 "cs_half:disable_event:ftt:mark:count=1\n");
	tmark(1); /* soft-disabled: not kept */
	ft_leaf(1);
	expect_file("events/ftt/mark/enable", "1*\n");
	tmark(2);
	cs_half(1.0); /* disables: its count is used up */
	tmark(3);
	ft_leaf(1);
	tmark(4);
	cs_half(1.0); /* count 0: stays enabled */
	tmark(5);
	assert_int_equal(trace_lines_with("mark: v="), 3);
	assert_int_equal(trace_lines_with("mark: v=2\n"), 1);
	assert_int_equal(trace_lines_with("mark: v=4\n"), 1);
	assert_int_equal(trace_lines_with("mark: v=5\n"), 1);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n"
					 "ft_leaf:enable_event:ftt:mark:unlimited\n"
					 "cs_half:disable_event:ftt:mark:count=0\n");
	/* No such event, or no such command to remove: nothing changes. */
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:enable_event:ftt:nosuch", A), -EINVAL);
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:enable_event:ftt", A), -EINVAL);
	/* The ftrace entries are never enabled: no target either. */
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:enable_event:ftrace:function", A),
			 -EINVAL);
	assert_int_equal(echo("set_ftrace_filter", "!cs_half:enable_event:ftt:mark", A), -EINVAL);
	assert_int_equal(echo("set_ftrace_filter", "!cs_*:traceon", A), -ENODEV);
	/* The last command gone, an enabled event stays on. */
	assert_int_equal(echo("set_ftrace_filter", "!ft_leaf:enable_event:ftt:mark", A), 0);
	expect_file("events/ftt/mark/enable", "1*\n");
	/* removed by its line as listed, count included */
	assert_int_equal(echo("set_ftrace_filter", "!cs_half:disable_event:ftt:mark:count=0", A),
			 0);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n");
	expect_file("events/ftt/mark/enable", "1\n");
	assert_int_equal(echo("events/ftt/mark/enable", "0", W), 0);
	/* A soft-disabled event goes back off. */
	assert_int_equal(echo("set_ftrace_filter", "cs_half:enable_event:ftt:mark:0", A), 0);
	expect_file("events/ftt/mark/enable", "0*\n");
	assert_int_equal(echo("set_ftrace_filter", "!cs_half:enable_event:ftt:mark", A), 0);
	expect_file("events/ftt/mark/enable", "0\n");
	/* Removed as ftracetest's reset_ftrace_filter does: a `>` write of
	 * the listed line with its count, after `echo > set_ftrace_filter`. */
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:enable_event:ftt:mark:3", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "", W), 0);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n"
					 "ft_leaf:enable_event:ftt:mark:count=3\n");
	assert_int_equal(echo("set_ftrace_filter", "!ft_leaf:enable_event:ftt:mark:count=3", W), 0);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n");
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:disable_event:ftt:mark", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "!ft_leaf:disable_event:ftt:mark", W), 0);
	expect_file("events/ftt/mark/enable", "0\n");
	/* Aimed at a library's event, the command outlives the library and is
	 * removed by the event's name. */
	char path[4096];
	const char *build = getenv("UFT_BUILD");
	snprintf(path, sizeof(path), "%s/tests/libtev_plugin.so", build ? build : "build");
	void *h = dlopen(path, RTLD_NOW);
	assert_non_null(h);
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf:enable_event:tplug:said", A), 0);
	expect_file("events/tplug/said/enable", "0*\n");
	dlclose(h);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n"
					 "ft_leaf:enable_event:tplug:said:unlimited\n");
	assert_int_equal(echo("set_ftrace_filter", "!ft_leaf:enable_event:tplug:said", A), 0);
	expect_file("set_ftrace_filter", "#### all functions enabled ####\n");
	reset();
}

/* What the tree prints on stderr while `fn` runs and a tree call follows. */
static char *stderr_of_on(void (*fn)(void), const char *tracing_on)
{
	fflush(stderr);
	int saved = dup(2);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	dup2(fileno(tmp), 2);
	fn();
	expect_file("tracing_on", tracing_on); /* served before the tree answers */
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	long n = ftell(tmp);
	fseek(tmp, 0, SEEK_END);
	n = ftell(tmp);
	rewind(tmp);
	char *text = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(text, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	return text;
}

static char *stderr_of(void (*fn)(void))
{
	return stderr_of_on(fn, "0\n");
}

static void call_mid(void)
{
	ft_mid(1);
}

/* A dump (ft_mid), then a cpudump (cs_half), asked for while the tree is
 * held. */
static void two_dumps_held(void)
{
	pthread_mutex_lock(&tfs_lock);
	ft_mid(1);
	cs_half(1.0);
	tfs_unlock();
}

/* A cpudump, then (before the tree serves it) tracing on again and another
 * record: the dump stops at its own time. */
static void cpudump_then_more(void)
{
	pthread_mutex_lock(&tfs_lock);
	ft_mid(1);
	uft_trig_set_tracing(0, true);
	ft_leaf(9);
	tfs_unlock();
}

static int count_of(const char *text, const char *what)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* dump and cpudump: tracing stops where the function runs and the buffer
 * up to then is printed on stderr, in the latency format between rulers;
 * dump consumes what it prints, cpudump prints its CPU's records only. */
static void test_dump_commands(void **state)
{
	reset();
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_mid:dump:1", A), 0);
	expect_file("set_ftrace_filter", "ft_leaf\nft_mid:dump:count=1\n");
	assert_int_equal(echo("current_tracer", "function", W), 0);
	ft_leaf(1);
	ft_leaf(2);
	char *out = stderr_of(call_mid); /* its ft_leaf comes after the stop */
	const char *ruler = "---------------------------------\n";
	assert_true(strncmp(out, "Dumping ftrace buffer:\n", 23) == 0);
	assert_true(strncmp(out + 23, ruler, strlen(ruler)) == 0);
	assert_int_equal(count_of(out, ": ft_leaf <-test_dump_commands\n"), 2);
	assert_int_equal(count_of(out, "us : ft_leaf"), 2); /* latency format */
	assert_int_equal(count_of(out, "\n"), 5);
	assert_int_equal(count_of(out, ruler), 2);
	free(out);
	struct recs rs = peek_records();
	assert_int_equal(rs.n, 0); /* consumed */
	free(rs.r);
	expect_file("set_ftrace_filter", "ft_leaf\nft_mid:dump:count=0\n");
	/* Its count spent: nothing more. */
	assert_int_equal(echo("tracing_on", "1", W), 0);
	ft_mid(1);
	expect_file("tracing_on", "1\n");
	assert_int_equal(echo("set_ftrace_filter", "!ft_mid:dump", A), 0);

	/* cpudump prints what this thread's CPU holds, and keeps it. */
	assert_int_equal(echo("trace", "", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_mid:cpudump", A), 0);
	ft_leaf(3);
	out = stderr_of(call_mid);
	expect_file("set_ftrace_filter", "ft_leaf\nft_mid:cpudump:unlimited\n");
	rs = peek_records();
	assert_int_equal(rs.n, 1); /* kept */
	free(rs.r);
	/* The one record, unless the thread moved to another CPU between. */
	assert_true(count_of(out, ": ft_leaf <-") <= 1);
	assert_true(strncmp(out, "Dumping ftrace buffer:\n", 23) == 0);
	free(out);
	out = stderr_of_on(cpudump_then_more, "1\n");
	assert_true(count_of(out, ": ft_leaf <-") <= 1); /* not the one after */
	free(out);
	assert_int_equal(echo("set_ftrace_filter", "!ft_mid:cpudump", A), 0);
	/* An empty buffer (no tracer: the command acts all the same). */
	assert_int_equal(echo("current_tracer", "nop", W), 0);
	assert_int_equal(echo("tracing_on", "1", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_mid:dump", A), 0);
	out = stderr_of(call_mid);
	assert_string_equal(out, "Dumping ftrace buffer:\n   (ftrace buffer empty)\n");
	free(out);
	/* One dump at a time: a cpudump asked for before the dump is printed
	 * is dropped, and the dump consumes what it prints. */
	assert_int_equal(echo("set_ftrace_filter", "cs_half:cpudump", A), 0);
	assert_int_equal(echo("current_tracer", "function", W), 0);
	assert_int_equal(echo("tracing_on", "1", W), 0);
	ft_leaf(1);
	out = stderr_of(two_dumps_held);
	assert_int_equal(count_of(out, "Dumping ftrace buffer:\n"), 1);
	assert_int_equal(count_of(out, ": ft_leaf <-"), 1);
	free(out);
	rs = peek_records();
	assert_int_equal(rs.n, 0);
	free(rs.r);
	assert_int_equal(echo("set_ftrace_filter", "!cs_half:cpudump", A), 0);
	assert_int_equal(echo("set_ftrace_filter", "!ft_mid:dump", A), 0);
	assert_int_equal(echo("tracing_on", "1", W), 0);
	reset();
}

/* func_stack_trace: each function record is followed by the call's stack,
 * from the traced function up; the option is the function tracer's own. */
static void test_func_stack_trace(void **state)
{
	reset();
	int err;
	char *opts = tfs_cat("trace_options", &err);
	assert_non_null(opts);
	assert_false(has_line(opts, "nofunc_stack_trace"));
	free(opts);
	assert_int_equal(echo("trace_options", "func_stack_trace", W), -EINVAL);
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	assert_int_equal(echo("current_tracer", "function", W), 0);
	opts = tfs_cat("trace_options", &err);
	assert_true(has_line(opts, "nofunc_stack_trace"));
	free(opts);
	assert_int_equal(echo("options/func_stack_trace", "1", W), 0);
	expect_file("options/func_stack_trace", "1\n");
	ft_mid(1);
	assert_int_equal(echo("tracing_on", "0", W), 0);
	struct stack_seen seen = {0};
	pthread_mutex_lock(&tfs_lock);
	tfs_for_each_ring(0, peek_stack, &seen);
	pthread_mutex_unlock(&tfs_lock);
	assert_int_equal(seen.stacks, 1);
	uintptr_t leaf = (uintptr_t)ft_leaf, mid = (uintptr_t)ft_mid;
	assert_true(seen.first > leaf && seen.first < leaf + 32);
	assert_true(seen.second > mid && seen.second < mid + 64);
	char *text = tfs_cat("trace", &err);
	assert_non_null(text);
	const char *fn = strstr(text, ": ft_leaf <-ft_mid\n");
	assert_non_null(fn);
	const char *st = strstr(fn, ": <stack trace>\n => ft_leaf\n => ft_mid\n");
	assert_non_null(st);
	free(text);
	assert_int_equal(echo("tracing_on", "1", W), 0);
	/* Off again: records alone. */
	assert_int_equal(echo("trace_options", "nofunc_stack_trace", W), 0);
	assert_int_equal(echo("trace", "", W), 0);
	ft_mid(1);
	memset(&seen, 0, sizeof(seen));
	pthread_mutex_lock(&tfs_lock);
	tfs_for_each_ring(0, peek_stack, &seen);
	pthread_mutex_unlock(&tfs_lock);
	assert_int_equal(seen.stacks, 0);
	struct recs rs = read_records();
	assert_int_equal(rs.n, 1);
	free(rs.r);
	/* With function_graph on the function in another buffer, its sled
	 * still calls (a stub would end the stack there). */
	assert_int_equal(uft_tracefs_mkdir("instances/fs"), 0);
	assert_int_equal(echo("instances/fs/set_ftrace_filter", "ft_leaf", W), 0);
	assert_int_equal(echo("instances/fs/current_tracer", "function", W), 0);
	assert_int_equal(echo("instances/fs/options/func_stack_trace", "1", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	assert_int_equal(sled_byte((const void *)(uintptr_t)ft_leaf), 0xe8);
	ft_mid(1);
	text = tfs_cat("instances/fs/trace", &err);
	assert_non_null(strstr(text, ": <stack trace>\n => ft_leaf\n => ft_mid\n"));
	free(text);
	assert_int_equal(echo("instances/fs/options/func_stack_trace", "0", W), 0);
	assert_int_equal(sled_byte((const void *)(uintptr_t)ft_leaf), 0xe9);
	assert_int_equal(uft_tracefs_rmdir("instances/fs"), 0);
	reset();
}

/* The function tracer of an instance writes into its own buffer only, with
 * its own filter. */
static void test_instance_function_tracer(void **state)
{
	reset();
	assert_int_equal(uft_tracefs_mkdir("instances/fi"), 0);
	assert_int_equal(echo("instances/fi/set_ftrace_filter", "ft_mid", W), 0);
	assert_int_equal(echo("instances/fi/current_tracer", "function", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_leaf", W), 0);
	assert_int_equal(echo("current_tracer", "function", W), 0);
	expect_file("enabled_functions", "ft_leaf (1)      \nft_mid (1)      \n");
	ft_mid(1);
	struct recs top = {0}, inst = {0};
	pthread_mutex_lock(&tfs_lock);
	uint32_t buf = 0;
	for (int i = 1; i < UFT_MAX_BUFFERS; i++)
		if (tfs_insts[i] && strcmp(tfs_insts[i]->name, "fi") == 0)
			buf = tfs_insts[i]->buffer;
	tfs_for_each_ring(0, peek_ring, &top);
	if (buf)
		tfs_for_each_ring(buf, peek_ring, &inst);
	pthread_mutex_unlock(&tfs_lock);
	assert_int_not_equal(buf, 0);
	assert_int_equal(top.n, 1);
	assert_int_equal(top.r[0].a, (uintptr_t)ft_leaf);
	assert_int_equal(inst.n, 1);
	assert_int_equal(inst.r[0].a, (uintptr_t)ft_mid);
	free(top.r);
	free(inst.r);
	assert_int_equal(uft_tracefs_rmdir("instances/fi"), 0);
	expect_file("enabled_functions", "ft_leaf (1)      \n");
	reset();
}

static uint32_t instance_buffer(const char *name)
{
	uint32_t buf = 0;
	pthread_mutex_lock(&tfs_lock);
	for (int i = 1; i < UFT_MAX_BUFFERS; i++)
		if (tfs_insts[i] && strcmp(tfs_insts[i]->name, name) == 0)
			buf = tfs_insts[i]->buffer;
	pthread_mutex_unlock(&tfs_lock);
	assert_int_not_equal(buf, 0);
	return buf;
}

static struct recs buffer_records(uint32_t buf)
{
	struct recs rs = {0};
	pthread_mutex_lock(&tfs_lock);
	tfs_for_each_ring(buf, peek_ring, &rs);
	pthread_mutex_unlock(&tfs_lock);
	if (rs.n)
		qsort(rs.r, rs.n, sizeof(*rs.r), by_pid_time);
	return rs;
}

/* function_graph in an instance and at the top at once, each with its own
 * filter, records and options: the instance's trace shows its calls with
 * their return values, the top's only its own. */
static void test_instance_graph_tracer(void **state)
{
	reset();
	assert_int_equal(uft_tracefs_mkdir("instances/gi"), 0);
	uint32_t buf = instance_buffer("gi");
	assert_int_equal(echo("instances/gi/set_ftrace_filter", "ft_mid ft_leaf", W), 0);
	assert_int_equal(echo("instances/gi/current_tracer", "function_graph", W), 0);
	assert_int_equal(echo("instances/gi/options/funcgraph-cpu", "0", W), 0);
	assert_int_equal(echo("instances/gi/options/funcgraph-duration", "0", W), 0);
	assert_int_equal(echo("instances/gi/options/funcgraph-retval", "1", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_top", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	expect_file("enabled_functions", "ft_leaf (1)      \nft_mid (1)      \nft_top (1)      \n");
	ft_top(3);
	struct recs top = buffer_records(0), inst = buffer_records(buf);
	assert_int_equal(top.n, 2);
	assert_int_equal(top.r[0].type, UFT_ID_FUNCGRAPH_ENTRY);
	assert_int_equal(top.r[0].a, (uintptr_t)ft_top);
	assert_int_equal((uint32_t)top.r[1].rv, 9);
	assert_int_equal(check_nesting(&top), 1);
	assert_int_equal(inst.n, 6);
	assert_int_equal(check_nesting(&inst), 3);
	free(top.r);
	free(inst.r);
	/* The depth counts every graphed call of the thread (the kernel's
	 * graph users share the task's return stack). */
	expect_file("instances/gi/trace", "# tracer: function_graph\n"
					  "#\n"
					  "#               FUNCTION CALLS\n"
					  "#               |   |   |   |\n"
					  "  ft_mid() {\n"
					  "    ft_leaf(); /* = 0x3 */\n"
					  "  } /* ft_mid = 0x6 */\n"
					  "  ft_leaf(); /* = 0x3 */\n");
	int err;
	char *t = tfs_cat("trace", &err);
	assert_non_null(t);
	assert_true(strstr(t, "|  ft_top();\n") != NULL);
	assert_null(strstr(t, "ft_mid"));
	assert_null(strstr(t, "/* ="));
	free(t);

	/* The top's tracer switched off inside a call both graph: the top's
	 * buffer starts empty, the instance still gets the call's exit. */
	assert_int_equal(echo("instances/gi/trace", "", W), 0);
	assert_int_equal(echo("instances/gi/set_ftrace_filter", "ft_switcher ft_leaf", W), 0);
	assert_int_equal(echo("set_ftrace_filter", "ft_switcher", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	ft_switcher(4);
	expect_file("current_tracer", "nop\n");
	top = buffer_records(0);
	inst = buffer_records(buf);
	assert_int_equal(top.n, 0);
	assert_int_equal(inst.n, 4);
	assert_int_equal(check_nesting(&inst), 2);
	assert_int_equal(inst.r[3].a, (uintptr_t)ft_switcher);
	assert_int_equal((uint32_t)inst.r[3].rv, 4);
	free(top.r);
	free(inst.r);

	/* set_graph_function (the top's) applies to the instance too. */
	assert_int_equal(echo("instances/gi/trace", "", W), 0);
	assert_int_equal(echo("instances/gi/set_ftrace_filter", "ft_*", W), 0);
	assert_int_equal(echo("set_graph_function", "ft_mid", W), 0);
	ft_top(3);
	inst = buffer_records(buf);
	assert_int_equal(inst.n, 4);
	assert_int_equal(inst.r[0].a, (uintptr_t)ft_mid);
	assert_int_equal(inst.r[0].b, 0);
	free(inst.r);
	assert_int_equal(uft_tracefs_rmdir("instances/gi"), 0);
	expect_file("enabled_functions", "");
	reset();
}

/* Threads run traced code while the tracers are switched on and off. */
static volatile int stop_workers;
static void *worker(void *arg)
{
	long n = 0;
	while (!READ_ONCE(stop_workers)) {
		ft_top((int)n);
		if ((++n & 63) == 0)
			usleep(1); /* a point where sanitizers deliver signals */
	}
	return NULL;
}

static void test_switch_while_running(void **state)
{
	reset();
	big_rings();
	pthread_t th[3];
	WRITE_ONCE(stop_workers, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker, NULL), 0);
	static const char *const seq[] = {"function", "function_graph", "nop", "function_graph",
					  "function"};
	for (int round = 0; round < 20; round++) {
		assert_int_equal(echo("current_tracer", seq[round % 5], W), 0);
		if (round % 3 == 0)
			assert_int_equal(echo("set_ftrace_filter", "ft_mid ft_leaf", W), 0);
		else
			assert_int_equal(echo("set_ftrace_filter", "", W), 0);
		usleep(2000);
	}
	assert_int_equal(echo("set_ftrace_filter", "ft_*", W), 0);
	assert_int_equal(echo("current_tracer", "function_graph", W), 0);
	usleep(3000);
	assert_int_equal(echo("tracing_on", "0", W), 0);
	WRITE_ONCE(stop_workers, 1);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	struct recs rs = read_records();
	check_nesting(&rs);
	for (size_t i = 0; i < rs.n; i++)
		assert_int_not_equal(rs.r[i].type, UFT_ID_FUNCTION);
	free(rs.r);
	assert_int_equal(echo("tracing_on", "1", W), 0);
	reset();
}

/* A switch from function_graph to function, made while threads are in the
 * graph hooks, leaves no graph record in the cleared buffer: each hook
 * either finished before the switch or sees the new tracer. */
static void test_switch_leaves_no_graph_records(void **state)
{
	reset();
	big_rings();
	size_t functions = 0;
	for (int round = 0; round < 40; round++) {
		pthread_t th[3];
		WRITE_ONCE(stop_workers, 0);
		for (int i = 0; i < 3; i++)
			assert_int_equal(pthread_create(&th[i], NULL, worker, NULL), 0);
		assert_int_equal(echo("current_tracer", "function_graph", W), 0);
		usleep(1000);
		assert_int_equal(echo("current_tracer", "function", W), 0);
		usleep(500);
		WRITE_ONCE(stop_workers, 1);
		for (int i = 0; i < 3; i++)
			pthread_join(th[i], NULL);
		struct recs rs = read_records();
		for (size_t i = 0; i < rs.n; i++) {
			assert_int_equal(rs.r[i].type, UFT_ID_FUNCTION);
			functions++;
		}
		free(rs.r);
	}
	assert_true(functions > 0); /* the function tracer ran meanwhile */
	reset();
}

/* Churn: the function tracer switched on and off, and its filter changed,
 * while threads run through the traced function as fast as they can and a
 * signal handler that calls it interrupts them: every sled is rewritten many
 * times under running threads, none of them may crash or resume inside a
 * sled, and the code bytes end as they began. */
NOINLINE int churn_leaf(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}
static int (*volatile call_churn_leaf)(int) = churn_leaf;

static void churn_signal(int sig)
{
	int saved = errno; /* the tracer's hook may make system calls */
	call_churn_leaf(sig);
	errno = saved;
}

static void *churn_worker(void *arg)
{
	long n = 0;
	while (!READ_ONCE(stop_workers)) {
		call_churn_leaf((int)n);
		if ((++n & 255) == 0)
			usleep(1); /* a point where sanitizers deliver signals */
	}
	(void)arg;
	return NULL;
}

static void test_churn_function_tracer(void **state)
{
	(void)state;
	reset();
	uint8_t before[8];
	memcpy(before, (const void *)churn_leaf, sizeof(before));
	struct sigaction sa = {.sa_handler = churn_signal}, old;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR2, &sa, &old), 0);
	pthread_t th[6];
	WRITE_ONCE(stop_workers, 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(pthread_create(&th[i], NULL, churn_worker, NULL), 0);
	static const char *const filters[] = {"churn_leaf", "", "churn_leaf ft_leaf", "ft_leaf"};
	for (int round = 0; round < 60; round++) {
		assert_int_equal(echo("set_ftrace_filter", filters[round % 4], W), 0);
		usleep(500);
		assert_int_equal(echo("current_tracer", round % 2 ? "nop" : "function", W), 0);
		for (int i = 0; i < 6; i++)
			pthread_kill(th[i], SIGUSR2);
		usleep(500);
	}
	WRITE_ONCE(stop_workers, 1);
	for (int i = 0; i < 6; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(sigaction(SIGUSR2, &old, NULL), 0);
	reset();
	assert_memory_equal(before, (const void *)churn_leaf, sizeof(before));
}

int main(void)
{
	setenv("UFT_CTL", "0", 1);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tracers_listed),
	    cmocka_unit_test(test_available_filter_functions),
	    cmocka_unit_test(test_filter_file_text),
	    cmocka_unit_test(test_function_records),
	    cmocka_unit_test(test_graph_records),
	    cmocka_unit_test(test_graph_call_shapes),
	    cmocka_unit_test(test_graph_longjmp),
	    cmocka_unit_test(test_graph_signal_handler),
	    cmocka_unit_test(test_graph_under_signal_storm),
	    cmocka_unit_test(test_shared_library),
	    cmocka_unit_test(test_library_loaded_while_tracing),
	    cmocka_unit_test(test_traceoff_command),
	    cmocka_unit_test(test_stacktrace_and_snapshot_commands),
	    cmocka_unit_test(test_func_stack_trace),
	    cmocka_unit_test(test_event_commands),
	    cmocka_unit_test(test_notrace_pid),
	    cmocka_unit_test(test_function_fork),
	    cmocka_unit_test(test_function_fork_last_exit),
	    cmocka_unit_test(test_follow_while_tree_held),
	    cmocka_unit_test(test_instance_function_tracer),
	    cmocka_unit_test(test_instance_graph_tracer),
	    cmocka_unit_test(test_graph_formats),
	    cmocka_unit_test(test_switch_while_running),
	    cmocka_unit_test(test_switch_leaves_no_graph_records),
	    cmocka_unit_test(test_churn_function_tracer),
	    /* Last: it starts the tree's thread, which a forked child of a
	     * later test would start again (ThreadSanitizer refuses that). */
	    cmocka_unit_test(test_dump_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
