/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The graph tracer's common case, for the stubs' trampolines: the global
 * buffer alone, no set_ftrace_pid or set_ftrace_notrace_pid list, no
 * set_graph_function or max_graph_depth, a function no other tracer or
 * command wants, the inline reservation taking the record. Everything else goes to the general
 * hooks (ftrace_hooks.c), which the trampolines call only then.
 *
 * Built with -mgeneral-regs-only and without sanitizers: it touches no
 * vector register and calls nothing, so the trampolines save the argument
 * and return-value vector registers only on the way to the general hooks.
 * It also leaves the stop point to them (ftrace_tramp.S checks it). */
#include <stdbool.h>

#include "wire/ftrace_records.h"
#include "runtime/ftrace/ftrace_shadow.h"
#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include <uft/fastpath.h>

/* 0: the return is taken (the entry pushed, its record written); 1: the
 * general hook decides; else the body's address (no tracing here). */
uintptr_t uft_ftrace_graph_fast(uintptr_t in_stub, uintptr_t *slot)
{
	const struct uft_ftrace_site *s = uft_ftrace_stub_site(in_stub);
	struct uft_tls *t = &uft_tls;
	if (uft_ftrace_busy || t->notrace)
		return s->addr + UFT_FTRACE_SLED;
	struct fstack *st = uft_ftrace_stack;
	if (__builtin_expect(!st || st->top >= SHADOW_MAX || st->skips, 0))
		return 1;
	/* Busy before the settings are read: a tracer switch that stops this
	 * thread now waits until the hook is left, so the record written is
	 * one the settings read still ask for. */
	uft_ftrace_busy = 1;
	barrier();
	uint32_t siglvl = t->in_signal;
	if ((READ_ONCE(s->fn_mask) | READ_ONCE(s->probe) | s->graph_skip | READ_ONCE(s->want)) ||
	    !(READ_ONCE(s->graph_mask) & GLOBAL) || READ_ONCE(uft_ftrace_graph_buffers) != GLOBAL ||
	    READ_ONCE(uft_ftrace_pids[0]) || READ_ONCE(uft_ftrace_no_pids[0]) ||
	    READ_ONCE(uft_ftrace_graph_starts) || READ_ONCE(uft_ftrace_max_depth) ||
	    /* frames left by a long jump: the general hook drops them */
	    (st->top && !shadow_alive(&st->e[st->top - 1], slot, siglvl)))
		goto general;
	uint32_t depth = st->depth;
	struct uft_fast_rsv rsv;
	char *rec = uft_fast_reserve_type(UFT_ID_FUNCGRAPH_ENTRY,
					  sizeof(struct uft_rec_funcgraph_entry), &rsv);
	if (!rec)
		goto general;
	struct uft_rec_funcgraph_entry *r = (struct uft_rec_funcgraph_entry *)rec;
	r->func = s->func;
	r->depth = (int32_t)depth;
	r->pad = 0;
	uft_fast_commit(&rsv);
	/* Pushed after its record, as the general hook does. */
	struct shadow *e = &st->e[st->top];
	e->ret = *slot;
	e->hook = uft_arch_stub_body_ret(in_stub);
	e->slot = slot;
	e->func = s->func;
	e->t0 = uft_tsc_to_ns(rsv.ts);
	e->mask = GLOBAL;
	e->depth = (int32_t)depth;
	e->siglvl = siglvl;
	e->gen = READ_ONCE(uft_ftrace_graph_gen);
	e->kind = KIND_TRACED;
	e->start = 0;
	e->rprobe = 0;
	e->c0 = UFT_CLOCK_LOCAL;
	e->c1 = NO_CLOCK;
	barrier();
	st->top++;
	st->depth = depth + 1;
	barrier();
	uft_ftrace_busy = 0;
	return 0;
general:
	/* The general hook stops this thread if a switch asked meanwhile. */
	barrier();
	uft_ftrace_busy = 0;
	return 1;
}

/* The real return address, the exit record written and the entry popped;
 * 0: the general hook does it. `sp` is the stack pointer after the return,
 * `retval` the function's return value register. */
uintptr_t uft_ftrace_exit_fast(uintptr_t sp, uintptr_t retval)
{
	uintptr_t *slot = (uintptr_t *)sp - 1;
	struct uft_tls *t = &uft_tls;
	struct fstack *st = uft_ftrace_stack;
	if (uft_ftrace_busy || t->notrace || !st || !st->top)
		return 0;
	uft_ftrace_busy = 1; /* before the settings are read, as above */
	barrier();
	struct shadow *e = &st->e[st->top - 1];
	if (e->slot != slot || e->mask != GLOBAL || e->c0 != UFT_CLOCK_LOCAL || e->rprobe ||
	    e->gen != READ_ONCE(uft_ftrace_graph_gen) ||
	    !(READ_ONCE(uft_ftrace_graph_buffers) & GLOBAL))
		goto general;
	struct uft_fast_rsv rsv;
	char *rec = uft_fast_reserve_type(UFT_ID_FUNCGRAPH_EXIT,
					  sizeof(struct uft_rec_funcgraph_exit), &rsv);
	if (!rec)
		goto general;
	struct uft_rec_funcgraph_exit *r = (struct uft_rec_funcgraph_exit *)rec;
	uint64_t now = uft_tsc_to_ns(rsv.ts);
	r->func = e->func;
	r->retval = retval;
	r->depth = e->depth;
	r->overrun = st->overrun;
	r->calltime = e->t0;
	r->rettime = now;
	uft_fast_commit(&rsv);
	uintptr_t ret = e->ret;
	shadow_pop(st);
	barrier();
	uft_ftrace_busy = 0;
	return ret;
general:
	barrier();
	uft_ftrace_busy = 0;
	return 0;
}
