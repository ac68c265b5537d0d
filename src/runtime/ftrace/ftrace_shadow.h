/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The graph tracer's per-thread state, shared by the hooks (ftrace_hooks.c)
 * and their fast path (ftrace_fast.c). */
#ifndef UFT_LIB_FTRACE_SHADOW_H
#define UFT_LIB_FTRACE_SHADOW_H

#include <stdint.h>

#include "runtime/ftrace/ftrace.h"
#include "util/atomics.h"

#define SHADOW_MAX 512
#define FTRACE_HIDDEN __attribute__((visibility("hidden")))
/* Slots of the dynamic probes' table (ftrace_probe.c): each thread counts
 * its hits of each in its own stack. */
#define FSTACK_PROBES 256

enum {
	KIND_TRACED,
	KIND_SKIP,   /* set_graph_notrace: it and its callees */
	KIND_PROF,   /* the profiler's: no record, its time counted */
	KIND_RPROBE, /* return probes alone: no record, no depth (ftrace_probe.c) */
};

/* c0/c1 of an entry without a calltime in that slot. */
#define NO_CLOCK 0xff

struct shadow {
	uintptr_t ret;	 /* the real return address */
	uintptr_t hook;	 /* what took its place */
	uintptr_t *slot; /* where it was on the stack */
	uintptr_t func;
	uint64_t t0, t1; /* calltime in the clocks c0 and c1 */
	uint32_t mask;	 /* buffers that got the entry record */
	int32_t depth;
	uint32_t siglvl; /* signal handlers running when it was pushed */
	uint32_t gen;	 /* the graph tracer's run it belongs to */
	uint8_t kind, start, c0, c1;
	uint8_t rprobe; /* return probes want this exit: its registers in fstack.rregs */
	const struct uft_ftrace_site *site; /* KIND_PROF: whose counts */
};

/* What a return probe keeps of a call's entry: the argument registers
 * ($argN at return) and the callee-saved ones (the same at the return). */
enum {
	RREG_DI,
	RREG_SI,
	RREG_DX,
	RREG_CX,
	RREG_R8,
	RREG_R9,
	RREG_BX,
	RREG_BP,
	RREG_R12,
	RREG_R13,
	RREG_R14,
	RREG_R15,
	RREG_NR
};

/* The thread's sites found last, by the sled's end, for the generation of
 * the objects' list they were found in. */
#define SITE_CACHE 64
struct site_slot {
	uintptr_t ret;
	struct uft_ftrace_site *site;
	uint32_t gen;
};

struct fstack {
	uint32_t top;
	uint32_t starts;     /* set_graph_function entries on the stack */
	uint32_t skips;	     /* set_graph_notrace entries on the stack */
	uint32_t depth;	     /* traced entries on the stack */
	uint32_t overrun;    /* calls not hooked: the stack was full */
	uintptr_t stack_top; /* the thread stack's top, 0: not known yet, 1: none */
	struct fstack *next_free;
	struct site_slot cache[SITE_CACHE];
	struct shadow e[SHADOW_MAX];
	/* Touched only by return probes. */
	uint64_t rregs[SHADOW_MAX][RREG_NR];
	/* Hits of the probe in each slot by the threads that used this stack
	 * (kprobe_profile): written only by its thread with plain adds, kept
	 * when the stack is reused, summed by the reader. */
	uint64_t probe_hits[FSTACK_PROBES];
	/* Every stack ever made (never unmapped); past the part cleared at
	 * each reuse, as probe_hits. */
	struct fstack *next_all;
};

/* The first of every stack (through next_all). */
extern struct fstack *uft_ftrace_all_stacks FTRACE_HIDDEN;
/* The calling thread's stack, made at its first use; NULL when no memory. */
struct fstack *uft_ftrace_thread_stack(void) FTRACE_HIDDEN;

/* Set while the thread is in a hook: nothing it calls is traced. */
extern __thread uint32_t uft_ftrace_busy
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
extern __thread struct fstack *uft_ftrace_stack
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* Buffers whose current tracer is function / function_graph, and the run of
 * the graph tracer (a new one at each switch of any buffer's tracer). */
extern uint32_t uft_ftrace_fn_buffers FTRACE_HIDDEN;
extern uint32_t uft_ftrace_graph_buffers FTRACE_HIDDEN;
extern uint32_t uft_ftrace_graph_gen FTRACE_HIDDEN;
/* Per buffer, the run its tracer last switched in: an entry pushed in an
 * earlier run writes no exit there (its entry record was cleared), while
 * the other buffers, which kept theirs, still get theirs. */
extern uint32_t uft_ftrace_graph_since[32] FTRACE_HIDDEN;

/* The global buffer (bit 0 of a mask) takes the inline reservation of static
 * events when it can (uft/fastpath.h: level 0, the record fits the page, raw
 * TSC); every other case goes through uft_write_to_buffer. */
#define GLOBAL 1u

/* Always inlined: the fast path (ftrace_fast.c) calls nothing. */
static inline __attribute__((always_inline)) void shadow_pop(struct fstack *st)
{
	struct shadow *e = &st->e[st->top - 1];
	if (e->start)
		st->starts--;
	if (e->kind == KIND_SKIP)
		st->skips--;
	else if (e->kind != KIND_RPROBE)
		st->depth--;
	barrier();
	st->top--;
}

/* Whether the top entry `e` still belongs to a live frame when a call at
 * signal level `siglvl` has its return address at `slot` (the stack grows
 * down: a live caller's slot is above). The same slot still holding the
 * entry's hook is a tail call: the entry lives on below the new one. */
static inline __attribute__((always_inline)) bool shadow_alive(const struct shadow *e,
							       uintptr_t *slot, uint32_t siglvl)
{
	if (e->siglvl != siglvl)
		return e->siglvl < siglvl;
	return e->slot > slot || (e->slot == slot && *slot == e->hook);
}

/* Drops the entries of frames a long jump left (ftrace_hooks.c). */
static inline void shadow_drop_dead(struct fstack *st, uintptr_t *slot, uint32_t siglvl)
{
	while (st->top && !shadow_alive(&st->e[st->top - 1], slot, siglvl))
		shadow_pop(st);
}

/* The next shadow entry, filled with what every kind holds (the return at
 * `slot`, to be replaced by `hook`; the function; depth, signal level and
 * graph run); the caller fills the rest and pushes it by raising st->top.
 * NULL (counted as an overrun) when the stack is full. */
static inline struct shadow *shadow_next(struct fstack *st, uintptr_t *slot, uintptr_t hook,
					 uintptr_t func, uint32_t siglvl)
{
	if (st->top >= SHADOW_MAX) {
		st->overrun++;
		return NULL;
	}
	struct shadow *e = &st->e[st->top];
	e->ret = *slot;
	e->hook = hook;
	e->slot = slot;
	e->func = func;
	e->depth = (int32_t)st->depth;
	e->siglvl = siglvl;
	e->gen = READ_ONCE(uft_ftrace_graph_gen);
	e->c0 = e->c1 = NO_CLOCK;
	e->rprobe = 0;
	return e;
}

struct uft_tls;
struct uft_probe_regs;
/* The profiler at a call: counts the hit and, with a shadow entry, hooks
 * the return (whether it did: the caller puts `hook` in place). */
bool uft_ftrace_prof_entry(struct uft_tls *t, struct fstack *st, const struct uft_ftrace_site *s,
			   uintptr_t *slot, uintptr_t hook) FTRACE_HIDDEN;
/* The profiler's entry e (the index of) returns: its time is counted. */
void uft_ftrace_prof_exit(struct fstack *st, uint32_t e) FTRACE_HIDDEN;
/* The stack tracer at a call whose return address is at `slot`; `ra` is
 * the hook's return address into the trampoline, `ip` the sled's end. */
/* Return probes: at a call of s whose return address is at `slot` (the
 * entry's registers in `saved`, the trampoline's frame), marks the entry
 * just pushed for it (hooked) or pushes one: whether the return is hooked
 * now (ftrace_probe.c). At the return, with the entry still on the stack:
 * the probes' records (index i, `sp` after the return, rax and rdx). */
bool uft_ftrace_rprobe_entry(struct uft_tls *t, struct fstack *st, const struct uft_ftrace_site *s,
			     uintptr_t *slot, uintptr_t hook, const uint64_t *saved,
			     bool hooked) FTRACE_HIDDEN;
/* Return probes on a function without a sled: at the instruction probe on
 * its first instruction (r: the registers there, the return address at
 * the stack pointer), pushes an entry of its own and hooks the return.
 * Whether it did (else a miss is counted). The thread's hooks are held. */
bool uft_ftrace_rprobe_hook(const struct uft_ftrace_site *s,
			    const struct uft_probe_regs *r) FTRACE_HIDDEN;
void uft_ftrace_rprobe_exit(struct fstack *st, uint32_t i, uintptr_t sp, uint64_t ax,
			    uint64_t dx) FTRACE_HIDDEN;
void uft_ftrace_stack_check(struct uft_tls *t, struct fstack *st, uintptr_t *slot, uintptr_t ip,
			    void *ra) FTRACE_HIDDEN;

#endif
