/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Return probes (r:, %return, fprobe exits) on the graph tracer's return
 * hooking. At a call of a function with an enabled return probe, the entry
 * the graph tracer or the profiler pushed for it is marked, or an entry of
 * its own (KIND_RPROBE: no record, no depth) is pushed, and the argument and
 * callee-saved registers are kept beside it. The hooked return writes the
 * records while the entry is still on the stack. So a return probe lives
 * what the graph tracer lives through: signal handlers (entries per signal
 * level), long jumps (the dead entries dropped, their probes not fired, as
 * the kernel's), tail calls (both returns, the tail callee's reporting the
 * caller's real return address), exceptions (ftrace_unwind.c puts the
 * returns back). A function without a sled gets the same from the
 * instruction probe at its first instruction (uft_ftrace_rprobe_hook). */
#define _GNU_SOURCE
#include <string.h>

#include "arch/arch.h"
#include "runtime/core/runtime.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "runtime/ftrace/ftrace_shadow.h"

bool uft_ftrace_rprobe_entry(struct uft_tls *t, struct fstack *st, const struct uft_ftrace_site *s,
			     uintptr_t *slot, uintptr_t hook, const uint64_t *saved, bool hooked)
{
	if (!st)
		return false;
	struct shadow *e;
	if (hooked) {
		if (!st->top || st->e[st->top - 1].slot != slot)
			return false;
		e = &st->e[st->top - 1]; /* pushed for this call just now */
	} else {
		shadow_drop_dead(st, slot, t->in_signal);
		e = shadow_next(st, slot, hook, s->func, t->in_signal);
		if (!e) {
			uft_dprobe_missed(s->func);
			return false;
		}
		e->kind = KIND_RPROBE;
		e->start = 0;
		e->mask = 0;
	}
	/* The trampoline's frame: rdi rsi rdx rcx r8 r9 at 0-5, rbx r12-r15
	 * at 26-30; rbp it pushed just below our return address. */
	uint64_t *r = st->rregs[e - st->e];
	memcpy(&r[RREG_DI], saved, 6 * sizeof(uint64_t));
	r[RREG_BX] = saved[26];
	r[RREG_BP] = slot[-2];
	memcpy(&r[RREG_R12], &saved[27], 4 * sizeof(uint64_t));
	barrier();
	e->rprobe = 1;
	if (!hooked) {
		barrier();
		st->top++;
		barrier();
	}
	return true;
}

bool uft_ftrace_rprobe_hook(const struct uft_ftrace_site *s, const struct uft_probe_regs *r)
{
	struct fstack *st = uft_ftrace_thread_stack();
	struct uft_tls *t = &uft_tls;
	uintptr_t *slot = (uintptr_t *)r->r[UFT_REG_SP];
	if (!st) {
		uft_dprobe_missed(s->func);
		return false;
	}
	shadow_drop_dead(st, slot, t->in_signal);
	struct shadow *e =
	    shadow_next(st, slot, (uintptr_t)uft_ftrace_return, s->func, t->in_signal);
	if (!e) {
		uft_dprobe_missed(s->func);
		return false;
	}
	e->kind = KIND_RPROBE;
	e->start = 0;
	e->mask = 0;
	uint64_t *rr = st->rregs[e - st->e];
	static const uint8_t from[RREG_NR] = {
	    [RREG_DI] = UFT_REG_DI,   [RREG_SI] = UFT_REG_SI,	[RREG_DX] = UFT_REG_DX,
	    [RREG_CX] = UFT_REG_CX,   [RREG_R8] = UFT_REG_R8,	[RREG_R9] = UFT_REG_R9,
	    [RREG_BX] = UFT_REG_BX,   [RREG_BP] = UFT_REG_BP,	[RREG_R12] = UFT_REG_R12,
	    [RREG_R13] = UFT_REG_R13, [RREG_R14] = UFT_REG_R14, [RREG_R15] = UFT_REG_R15};
	for (int i = 0; i < RREG_NR; i++)
		rr[i] = r->r[from[i]];
	e->rprobe = 1;
	barrier();
	st->top++;
	barrier();
	*slot = (uintptr_t)uft_ftrace_return;
	return true;
}

void uft_ftrace_rprobe_exit(struct fstack *st, uint32_t i, uintptr_t sp, uint64_t ax, uint64_t dx)
{
	const struct shadow *e = &st->e[i];
	const uint64_t *rr = st->rregs[i];
	/* A tail call's entry returns into its caller's hook: the real return
	 * address is the one of the entry it went through. */
	uint32_t j = i;
	while (j && st->e[j - 1].slot == e->slot && st->e[j].ret == st->e[j - 1].hook)
		j--;
	/* Copies of zero ones, not initializers: those become a `rep stos`,
	 * slower to start than a few vector stores. */
	static const struct uft_probe_regs zero_regs;
	static const struct uft_probe_ctx zero_ctx;
	struct uft_probe_regs in = zero_regs, out;
	in.r[UFT_REG_DI] = rr[RREG_DI];
	in.r[UFT_REG_SI] = rr[RREG_SI];
	in.r[UFT_REG_DX] = rr[RREG_DX];
	in.r[UFT_REG_CX] = rr[RREG_CX];
	in.r[UFT_REG_R8] = rr[RREG_R8];
	in.r[UFT_REG_R9] = rr[RREG_R9];
	in.r[UFT_REG_BX] = rr[RREG_BX];
	in.r[UFT_REG_BP] = rr[RREG_BP];
	in.r[UFT_REG_R12] = rr[RREG_R12];
	in.r[UFT_REG_R13] = rr[RREG_R13];
	in.r[UFT_REG_R14] = rr[RREG_R14];
	in.r[UFT_REG_R15] = rr[RREG_R15];
	in.r[UFT_REG_SP] = (uintptr_t)e->slot;
	in.r[UFT_REG_IP] = e->func;
	/* At the return: the callee-saved registers are the entry's again,
	 * rax and rdx the values; the argument registers are the callee's
	 * scratch, 0. */
	out = in;
	out.r[UFT_REG_DI] = out.r[UFT_REG_SI] = out.r[UFT_REG_CX] = 0;
	out.r[UFT_REG_R8] = out.r[UFT_REG_R9] = 0;
	out.r[UFT_REG_AX] = ax;
	out.r[UFT_REG_DX] = dx;
	out.r[UFT_REG_SP] = sp;
	out.r[UFT_REG_IP] = st->e[j].ret;
	struct uft_probe_ctx c = zero_ctx;
	c.regs = &out;
	c.entry_regs = &in;
	c.retval = ax;
	c.ip = c.func = e->func;
	c.ret_ip = st->e[j].ret;
	uft_dprobe_emit(NULL, e->func, &c);
}
