/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hooks never recurse: this program defines its own clock_gettime(),
 * built with the patchable entries like the rest of the file, so with the
 * `mono` trace clock the graph tracer's hooks call a traced function for
 * every timestamp. Without the per-thread guard each hook would enter the
 * hook again until the stack ran out. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "wire/ftrace_records.h"
#include "wire/ring_reader.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_helpers.h"
#include "util/atomics.h"

#define W (UFT_TFS_WRITE | UFT_TFS_TRUNC)

static volatile unsigned calls;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	uft_add_return_relaxed(&calls, 1);
	return (int)syscall(SYS_clock_gettime, id, ts);
}

__attribute__((noinline)) int gd_leaf(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

__attribute__((noinline)) int gd_outer(int x)
{
	return gd_leaf(x) + gd_leaf(x + 1);
}

struct tally {
	long entries, exits, clock_entries, bad;
	uint64_t open[64];
	unsigned top;
};

static int count(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		 uint64_t missed)
{
	struct tally *t = ctx;
	const struct uft_common_entry *c = data;
	if (c->type == UFT_ID_FUNCGRAPH_ENTRY) {
		const struct uft_rec_funcgraph_entry *e = data;
		t->entries++;
		t->clock_entries += e->func == (uintptr_t)clock_gettime;
		if (t->top < 64)
			t->open[t->top++] = e->func;
	} else if (c->type == UFT_ID_FUNCGRAPH_EXIT) {
		const struct uft_rec_funcgraph_exit *e = data;
		t->exits++;
		if (!t->top || t->open[t->top - 1] != e->func)
			t->bad++;
		else
			t->top--;
	}
	return 0;
}

static void peek(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uft_ring_peek(r, count, ctx);
}

static void test_hooks_do_not_recurse(void **state)
{
	assert_int_equal(tfs_echo("trace_clock", "mono", W), 0);
	assert_int_equal(tfs_echo("set_ftrace_filter", "gd_* clock_gettime", W), 0);
	assert_int_equal(tfs_echo("current_tracer", "function_graph", W), 0);
	unsigned before = READ_ONCE(calls);
	assert_int_equal(gd_outer(1), 5);
	/* The hooks did read the clock through the traced function. */
	assert_true(READ_ONCE(calls) > before);
	assert_int_equal(tfs_echo("tracing_on", "0", W), 0);
	struct tally t;
	memset(&t, 0, sizeof(t));
	pthread_mutex_lock(&tfs_lock);
	tfs_for_each_ring(0, peek, &t);
	pthread_mutex_unlock(&tfs_lock);
	/* gd_outer { gd_leaf gd_leaf }: the hooks' own clock reads are not
	 * traced; only the program's own calls could be. */
	assert_true(t.entries >= 3);
	assert_int_equal(t.bad, 0);
	assert_int_equal(t.entries - t.clock_entries, 3);
	assert_int_equal(tfs_echo("current_tracer", "nop", W), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", W), 0);
	assert_int_equal(tfs_echo("trace_clock", "local", W), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hooks_do_not_recurse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
