/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The function profiler at run time (the kernel's function_profile_call and
 * profile_graph_entry/return): each call of a profiled function counts a hit
 * on the CPU it runs on and pushes a shadow entry of its own kind, which
 * writes no record; the return adds the call's time and its square. The
 * counts are per CPU and updated with relaxed atomic adds: lock-free, and
 * two threads that share a CPU in turn never lose one. The profiler and the
 * graph tracer never run together (as in the kernel, the second one asked
 * for is refused), so these entries never sit among the graph tracer's. */
#include <stdbool.h>

#include "runtime/core/runtime.h"
#include "runtime/core/trace_clock.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/ftrace/ftrace_shadow.h"
#include "util/atomics.h"

uint32_t uft_ftrace_prof_on, uft_ftrace_prof_graph_time = 1, uft_ftrace_prof_cpus = 1;

static struct uft_prof_cnt *cnt_of(const struct uft_ftrace_site *s)
{
	struct uft_prof_cnt *c = smp_load_acquire(&((struct uft_ftrace_site *)s)->prof);
	if (!c)
		return NULL;
	uint32_t cpu = uft_writer_cpu(), n = READ_ONCE(uft_ftrace_prof_cpus);
	return &c[cpu < n ? cpu : n - 1];
}

bool uft_ftrace_prof_entry(struct uft_tls *t, struct fstack *st, const struct uft_ftrace_site *s,
			   uintptr_t *slot, uintptr_t hook)
{
	if (!READ_ONCE(uft_ftrace_prof_on))
		return false;
	struct uft_prof_cnt *c = cnt_of(s);
	if (!c)
		return false;
	uft_add_return_relaxed(&c->hits, 1);
	if (!st)
		return false;
	shadow_drop_dead(st, slot, t->in_signal);
	struct shadow *e = shadow_next(st, slot, hook, s->func, t->in_signal);
	if (!e)
		return false;
	e->t0 = uft_clock_now(UFT_CLOCK_LOCAL);
	e->t1 = 0; /* time of profiled callees (graph-time off) */
	e->mask = 0;
	e->kind = KIND_PROF;
	e->start = 0;
	e->site = s;
	barrier();
	st->top++;
	st->depth++;
	barrier();
	return true;
}

void uft_ftrace_prof_exit(struct fstack *st, uint32_t i)
{
	struct shadow *e = &st->e[i];
	if (!READ_ONCE(uft_ftrace_prof_on))
		return; /* off: the counts stay as they were */
	uint64_t now = uft_clock_now(UFT_CLOCK_LOCAL);
	uint64_t d = now > e->t0 ? now - e->t0 : 0;
	if (!READ_ONCE(uft_ftrace_prof_graph_time)) {
		/* The caller's time leaves this call's out; this one leaves
		 * out its callees'. */
		if (i && st->e[i - 1].kind == KIND_PROF)
			st->e[i - 1].t1 += d;
		d = d > e->t1 ? d - e->t1 : 0;
	}
	struct uft_prof_cnt *c = cnt_of(e->site);
	if (!c)
		return;
	uft_add_return_relaxed(&c->time, d);
	uft_add_return_relaxed(&c->time2, d * d);
}
