/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hooks the trampolines call: function records at entry, and for the
 * graph tracer an entry record, a shadow stack entry and a hooked return
 * address, then the exit record when the function returns.
 *
 * The shadow stack is the thread's; a signal handler that runs traced code
 * pushes above the interrupted function's entries and pops them again before
 * it returns. Entries left behind by a long jump are dropped at the next
 * entry or return: an entry of the same signal level whose return slot is
 * below the new one (or the same slot, no longer holding the return hook),
 * or one of a deeper signal level than the thread is in now, belongs to a
 * frame that no longer exists. A tail call finds its slot hooked already: it
 * is pushed above its caller's entry with the hook as its return address,
 * so both exits are written, as the kernel does. The hooks never recurse:
 * a hook interrupted by a signal handler that runs traced code lets those
 * calls go untraced.
 *
 * The lists a call may read (set_ftrace_pid, set_ftrace_notrace_pid, the
 * function commands) are read inside a grace section (runtime/core/grace.h),
 * opened only when one is set for the buffers the call concerns, so that
 * their replaced versions can be freed. The exit hook reads none of them. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wire/ftrace_records.h"
#include "runtime/core/trace_clock.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "runtime/ftrace/ftrace_shadow.h"
#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "util/atomics.h"
#include <uft/fastpath.h>

struct uft_ftrace_pids *uft_ftrace_pids[32];
struct uft_ftrace_pids *uft_ftrace_no_pids[32];
uint32_t uft_ftrace_pid_bufs;
uint32_t uft_ftrace_max_depth;
uint32_t uft_ftrace_graph_starts;

__thread uint32_t uft_ftrace_busy;
__thread struct fstack *uft_ftrace_stack;
/* While the hook's grace section is open: the thread's grace depth before
 * it, plus one (a long jump out of a signal handler that interrupted the
 * hook closes the section: uft_ftrace_after_jump). */
static __thread uint32_t hook_section __attribute__((tls_model("initial-exec")));

/* Stacks of exited threads, for new threads (a thread's first hook may run
 * in a signal handler: a busy lock means a fresh mapping). */
static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fstack *free_stacks;

/* The free list's lock is held with every signal blocked: a handler that
 * long-jumps out of the code it interrupted would leave it held for good. */
static void free_list_lock(sigset_t *old)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
	pthread_mutex_lock(&free_lock);
}

static void free_list_unlock(const sigset_t *old)
{
	pthread_mutex_unlock(&free_lock);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static __attribute__((noinline)) struct fstack *new_thread_stack(void)
{
	/* A thread's first traced call, perhaps inside a signal handler: the
	 * program's errno stays as it was. */
	int saved = errno;
	struct fstack *s = NULL;
	sigset_t old;
	free_list_lock(&old);
	s = free_stacks;
	if (s)
		free_stacks = s->next_free;
	free_list_unlock(&old);
	if (!s) {
		void *p = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		errno = saved;
		if (p == MAP_FAILED)
			return NULL;
		s = p;
		struct fstack *head = __atomic_load_n(&uft_ftrace_all_stacks, __ATOMIC_RELAXED);
		do
			s->next_all = head;
		while (!__atomic_compare_exchange_n(&uft_ftrace_all_stacks, &head, s, true,
						    __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	}
	memset(s, 0, offsetof(struct fstack, e));
	uft_ftrace_stack = s;
	errno = saved;
	return s;
}

static inline struct fstack *thread_stack(void)
{
	struct fstack *s = uft_ftrace_stack;
	return __builtin_expect(s != NULL, 1) ? s : new_thread_stack();
}

struct fstack *uft_ftrace_all_stacks;

struct fstack *uft_ftrace_thread_stack(void)
{
	return thread_stack();
}

void uft_ftrace_thread_exit(void)
{
	struct fstack *s = uft_ftrace_stack;
	if (!s || s->top)
		return; /* hooked returns still ahead: keep it */
	uft_ftrace_stack = NULL;
	sigset_t old;
	free_list_lock(&old);
	s->next_free = free_stacks;
	free_stacks = s;
	free_list_unlock(&old);
}

/* uft_ftrace_site_at through the thread's cache. The generation is read
 * before the search: a site of an object marked gone after it is cached
 * under the old generation, never found in the cache again. */
static struct uft_ftrace_site *site_of(struct fstack *st, uintptr_t ret)
{
	uint32_t gen = smp_load_acquire(&uft_ftrace_sites_gen);
	if (__builtin_expect(!st, 0))
		return uft_ftrace_site_at(ret);
	struct site_slot *c = &st->cache[(ret >> 4) % SITE_CACHE];
	if (c->ret == ret && c->gen == gen)
		return c->site;
	struct uft_ftrace_site *s = uft_ftrace_site_at(ret);
	if (s) {
		c->ret = ret;
		c->site = s;
		c->gen = gen;
	}
	return s;
}

static int32_t thread_tid(struct uft_tls *t)
{
	if (__builtin_expect(!t->tid, 0)) {
		t->tid = (int32_t)syscall(SYS_gettid);
		uft_tls_sync_common(t);
	}
	return t->tid;
}

static bool listed(const struct uft_ftrace_pids *pl, int32_t tid)
{
	for (uint32_t i = 0; i < pl->nr; i++)
		if (pl->tid[i] == tid)
			return true;
	return false;
}

/* The buffers of mask that trace the calling thread: in set_ftrace_pid when
 * it lists any, and never in set_ftrace_notrace_pid. Only the `sets`
 * buffers' lists are read, inside the hook's grace section. */
static uint32_t pid_filter(struct uft_tls *t, uint32_t mask, uint32_t sets)
{
	for (uint32_t m = mask & sets; m; m &= m - 1) {
		unsigned b = (unsigned)__builtin_ctz(m);
		const struct uft_ftrace_pids *pl = smp_load_acquire(&uft_ftrace_pids[b]);
		const struct uft_ftrace_pids *no = smp_load_acquire(&uft_ftrace_no_pids[b]);
		if (!pl && !no)
			continue;
		int32_t tid = thread_tid(t);
		if ((pl && !listed(pl, tid)) || (no && listed(no, tid)))
			mask &= ~(1u << b);
	}
	return mask;
}

static volatile uint16_t fn_gate, ent_gate, ret_gate;

static const struct uft_field fn_fields[] = {
    {"unsigned long", "ip", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned long", "parent_ip", 16, 8, 0, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field ent_fields[] = {
    {"unsigned long", "func", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"int", "depth", 16, 4, 1, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field ret_fields[] = {
    {"unsigned long", "func", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned long", "retval", 16, 8, 0, UFT_FIELD_SCALAR, 0},
    {"int", "depth", 24, 4, 1, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "overrun", 28, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned long long", "calltime", 32, 8, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned long long", "rettime", 40, 8, 0, UFT_FIELD_SCALAR, 0},
};

#define FTRACE_EVENT(var, nm, f, sz, fmt)                                                          \
	static struct uft_event var = {                                                            \
	    .magic = UFT_EVENT_MAGIC,                                                              \
	    .style = UFT_STYLE_STRUCT,                                                             \
	    .gate = &var##_gate,                                                                   \
	    .system = "ftrace",                                                                    \
	    .name = nm,                                                                            \
	    .fields = f,                                                                           \
	    .nr_fields = sizeof(f) / sizeof(f[0]),                                                 \
	    .fixed_size = sz,                                                                      \
	    .print_fmt = fmt,                                                                      \
	    .file = __FILE__,                                                                      \
	    .line = __LINE__,                                                                      \
	}
#define fn_ev_gate fn_gate
#define ent_ev_gate ent_gate
#define ret_ev_gate ret_gate
FTRACE_EVENT(fn_ev, "function", fn_fields, 24,
	     "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip");
FTRACE_EVENT(ent_ev, "funcgraph_entry", ent_fields, 24,
	     "\"--> %ps (%d)\", (void *)REC->func, REC->depth");
FTRACE_EVENT(ret_ev, "funcgraph_exit", ret_fields, 48,
	     "\"<-- %ps (%d) (start: %llx  end: %llx) over: %d retval: %lx\", (void *)REC->func, "
	     "REC->depth, REC->calltime, REC->rettime, REC->depth, REC->retval");

void uft_ftrace_events_init(void)
{
	uft_registry_add_fixed(&fn_ev, UFT_ID_FUNCTION);
	uft_registry_add_fixed(&ent_ev, UFT_ID_FUNCGRAPH_ENTRY);
	uft_registry_add_fixed(&ret_ev, UFT_ID_FUNCGRAPH_EXIT);
}

/* Buffers whose current tracer is function / function_graph, and the run of
 * the graph tracer (a new one at each switch): an exit is written only in
 * the run its entry was, so a buffer never holds an exit without its entry. */
uint32_t uft_ftrace_fn_buffers, uft_ftrace_graph_buffers, uft_ftrace_graph_gen;
uint32_t uft_ftrace_graph_since[32];
uint32_t uft_ftrace_fn_stack;

static void write_function(uint32_t mask, const struct uft_ftrace_site *s, uintptr_t parent)
{
	if (mask & GLOBAL) {
		struct uft_fast_rsv rsv;
		char *rec =
		    uft_fast_reserve_type(UFT_ID_FUNCTION, sizeof(struct uft_rec_function), &rsv);
		if (rec) {
			struct uft_rec_function *r = (struct uft_rec_function *)rec;
			r->ip = s->func;
			r->parent_ip = parent;
			uft_fast_commit(&rsv);
			mask &= ~GLOBAL;
		}
	}
	struct uft_rec_function r = {{0, 0, 0, 0}, s->func, parent};
	for (; mask; mask &= mask - 1)
		uft_write_to_buffer((uint32_t)__builtin_ctz(mask), &fn_ev, &r, sizeof(r), NULL, 0);
}

uint64_t uft_ftrace_write_fn(uint32_t buffer, uintptr_t ip, uintptr_t parent)
{
	if (buffer == 0) { /* the inline reservation when it can take it */
		struct uft_fast_rsv rsv;
		char *rec =
		    uft_fast_reserve_type(UFT_ID_FUNCTION, sizeof(struct uft_rec_function), &rsv);
		if (rec) {
			struct uft_rec_function *f = (struct uft_rec_function *)rec;
			f->ip = ip;
			f->parent_ip = parent;
			uft_fast_commit(&rsv);
			return rsv.ts;
		}
	}
	struct uft_rec_function r = {{0, 0, 0, 0}, ip, parent};
	uft_write_to_buffer(buffer, &fn_ev, &r, sizeof(r), NULL, 0);
	return 0;
}

/* A call of ip as the graph's leaf at depth 0 that took no time (an entry
 * and its exit, calltime = rettime): the section tracers' ends with
 * display-graph, as the kernel's trace_graph_function(). */
void uft_ftrace_write_leaf(uint32_t buffer, uintptr_t ip)
{
	struct uft_rec_funcgraph_entry en = {{0, 0, 0, 0}, ip, 0, 0};
	uft_write_to_buffer(buffer, &ent_ev, &en, sizeof(en), NULL, 0);
	uint64_t now = uft_clock_now((enum uft_clock)uft_buffers[buffer].clock);
	struct uft_rec_funcgraph_exit ex = {{0, 0, 0, 0}, ip, 0, 0, 0, now, now};
	uft_write_to_buffer(buffer, &ret_ev, &ex, sizeof(ex), NULL, 0);
}

/* The entry record in the global buffer by the inline path: its TSC, or 0
 * when that path cannot take it. */
static uint64_t fast_entry(uintptr_t func, int32_t depth)
{
	struct uft_fast_rsv rsv;
	char *rec = uft_fast_reserve_type(UFT_ID_FUNCGRAPH_ENTRY,
					  sizeof(struct uft_rec_funcgraph_entry), &rsv);
	if (!rec)
		return 0;
	struct uft_rec_funcgraph_entry *r = (struct uft_rec_funcgraph_entry *)rec;
	r->func = func;
	r->depth = depth;
	r->pad = 0;
	uft_fast_commit(&rsv);
	return rsv.ts;
}

static void write_entry(uint32_t mask, uintptr_t func, int32_t depth)
{
	struct uft_rec_funcgraph_entry r = {{0, 0, 0, 0}, func, depth, 0};
	for (; mask; mask &= mask - 1)
		uft_write_to_buffer((uint32_t)__builtin_ctz(mask), &ent_ev, &r, sizeof(r), NULL, 0);
}

/* Pushes the shadow entry of a call whose return address is at `slot`, to
 * be replaced by `hook`: whether it did (the caller then puts the hook in
 * place). */
static bool graph_entry(struct uft_tls *t, struct fstack *st, struct uft_ftrace_site *s,
			uintptr_t *slot, uint32_t mask, uintptr_t hook)
{
	if (!st)
		return false;
	shadow_drop_dead(st, slot, t->in_signal);
	bool start = s->graph_start;
	uint8_t kind = s->graph_skip ? KIND_SKIP : KIND_TRACED;
	if (st->skips)
		return false; /* under a set_graph_notrace function */
	if (kind == KIND_TRACED) {
		if (READ_ONCE(uft_ftrace_graph_starts) && !st->starts && !start)
			return false;
		uint32_t max = READ_ONCE(uft_ftrace_max_depth);
		if (max && st->depth >= max)
			return false;
	}
	struct shadow *e = shadow_next(st, slot, hook, s->func, t->in_signal);
	if (!e)
		return false;
	e->kind = kind;
	e->start = start;
	e->mask = kind == KIND_TRACED ? mask : 0;
	/* The entry record is written before the entry is pushed: a signal
	 * handler's traced calls in between push and pop above it. calltime is
	 * the entry record's own timestamp in the global buffer (the local
	 * clock in ns: raw TSC whenever the inline path wrote it), else read
	 * once per clock of the other buffers. */
	uint32_t rest = e->mask;
	if (rest & GLOBAL) {
		uint64_t tsc = fast_entry(e->func, e->depth);
		if (tsc) {
			e->c0 = UFT_CLOCK_LOCAL;
			e->t0 = uft_tsc_to_ns(tsc);
			rest &= ~GLOBAL;
		}
	}
	for (uint32_t m = rest; m; m &= m - 1) {
		uint8_t c = (uint8_t)uft_buffers[__builtin_ctz(m)].clock;
		if (c == e->c0 || c == e->c1)
			continue;
		if (e->c0 == NO_CLOCK) {
			e->c0 = c;
			e->t0 = uft_clock_now((enum uft_clock)c);
		} else if (e->c1 == NO_CLOCK) {
			e->c1 = c;
			e->t1 = uft_clock_now((enum uft_clock)c);
		}
	}
	if (rest)
		write_entry(rest, e->func, e->depth);
	barrier();
	st->top++;
	st->starts += start;
	if (kind == KIND_SKIP)
		st->skips++;
	else
		st->depth++;
	barrier();
	return true;
}

/* Runs a probe hook in a grace section that a long jump out of a signal
 * handler interrupting it leaves (uft_ftrace_after_jump). */
#define probe_section(call)                                                                        \
	do {                                                                                       \
		struct uft_grace_rec *r_ = uft_grace_me;                                           \
		hook_section = (r_ ? r_->depth : 0) + 1;                                           \
		barrier();                                                                         \
		uft_grace_enter();                                                                 \
		call;                                                                              \
		uft_grace_exit();                                                                  \
		barrier();                                                                         \
		hook_section = 0;                                                                  \
	} while (0)

/* What every tracer wants of a call of site s: its function records, its
 * graph entry (the return hooked by `hook`: whether it was) and its
 * commands, whose stack traces start at `ra`. */
static bool on_call(struct uft_tls *t, struct fstack *st, struct uft_ftrace_site *s,
		    uintptr_t *slot, uintptr_t hook, void *ra)
{
	uint32_t fn = READ_ONCE(s->fn_mask) & READ_ONCE(uft_ftrace_fn_buffers);
	uint32_t gr = READ_ONCE(s->graph_mask) & READ_ONCE(uft_ftrace_graph_buffers);
	uint32_t probe = READ_ONCE(s->probe);
	bool hooked = false;
	/* A section only when a list is to be read: the bits are published
	 * after the lists they announce, and a list seen a little late is one
	 * set just after this call began. */
	uint32_t sets = (fn | gr | probe) & READ_ONCE(uft_ftrace_pid_bufs);
	bool section = probe || sets;
	if (__builtin_expect(section, 0)) {
		struct uft_grace_rec *r = uft_grace_me;
		hook_section = (r ? r->depth : 0) + 1;
		barrier();
		uft_grace_enter();
	}
	if (fn && (fn = pid_filter(t, fn, sets))) {
		write_function(fn, s, *slot);
		uint32_t stacks = fn & READ_ONCE(uft_ftrace_fn_stack);
		for (; stacks; stacks &= stacks - 1)
			uft_stack_record((uint32_t)__builtin_ctz(stacks), ra);
	}
	if (gr && (gr = pid_filter(t, gr, sets)))
		hooked = graph_entry(t, st, s, slot, gr, hook);
	if (probe && (probe = pid_filter(t, probe, sets)))
		uft_ftrace_probe_hit(s, probe, ra);
	if (__builtin_expect(section, 0)) {
		uft_grace_exit();
		barrier();
		hook_section = 0;
	}
	/* The stack tracer and the profiler, which write no records. */
	uint8_t want = READ_ONCE(s->want);
	if (__builtin_expect(want != 0, 0)) {
		if (want & UFT_WANT_STACK)
			uft_ftrace_stack_check(t, st, slot, s->addr + UFT_FTRACE_SLED, ra);
		if ((want & UFT_WANT_PROF) && uft_ftrace_prof_entry(t, st, s, slot, hook) &&
		    !hooked)
			hooked = true;
	}
	return hooked;
}

/* Called by uft_ftrace_caller: `sled_end` is where the patched call returns,
 * `slot` the traced function's return address on the stack, `saved` the
 * registers it saved (for the dynamic probes). */
void uft_ftrace_entry(uintptr_t sled_end, uintptr_t *slot, const uint64_t *saved)
{
	struct uft_tls *t = &uft_tls;
	if (uft_ftrace_busy || t->notrace)
		return;
	uft_ftrace_busy = 1;
	barrier();
	struct fstack *st = thread_stack();
	struct uft_ftrace_site *s = site_of(st, sled_end);
	if (s && __builtin_expect(READ_ONCE(s->want) & UFT_WANT_DPROBE, 0))
		probe_section(uft_ftrace_dprobe_hit(s, slot, saved));
	bool hooked =
	    s && on_call(t, st, s, slot, (uintptr_t)uft_ftrace_return, __builtin_return_address(0));
	/* Return probes ride the graph tracer's entry when it pushed one. */
	if (s && __builtin_expect(READ_ONCE(s->want) & UFT_WANT_RPROBE, 0) &&
	    uft_ftrace_rprobe_entry(t, st, s, slot, (uintptr_t)uft_ftrace_return, saved, hooked))
		hooked = true;
	if (hooked)
		*slot = (uintptr_t)uft_ftrace_return;
	barrier();
	uft_ftrace_busy = 0;
	uft_ftrace_stop_point();
}

/* Called by uft_ftrace_graph_caller from the stub of a site (`in_stub` is
 * where its first call returns): 0 when the return is taken, the stub then
 * calling the body with the return landing on its jump to uft_ftrace_return;
 * else the body's address, to go to directly. */
uintptr_t uft_ftrace_graph_entry(uintptr_t in_stub, uintptr_t *slot)
{
	struct uft_ftrace_site *s = uft_ftrace_stub_site(in_stub);
	struct uft_tls *t = &uft_tls;
	if (uft_ftrace_busy || t->notrace)
		return s->addr + UFT_FTRACE_SLED;
	uft_ftrace_busy = 1;
	barrier();
	struct fstack *st = thread_stack();
	bool hooked =
	    on_call(t, st, s, slot, uft_arch_stub_body_ret(in_stub), __builtin_return_address(0));
	barrier();
	uft_ftrace_busy = 0;
	uft_ftrace_stop_point();
	return hooked ? 0 : s->addr + UFT_FTRACE_SLED;
}

/* Called by uft_ftrace_return with the stack pointer after the return and
 * the function's return value registers (rax, rdx): writes the exit record, pops the
 * entry and gives the real return address. */
uintptr_t uft_ftrace_exit(uintptr_t sp, uintptr_t retval, uintptr_t retval2)
{
	uintptr_t *slot = (uintptr_t *)sp - 1;
	struct uft_tls *t = &uft_tls;
	struct fstack *st = uft_ftrace_stack;
	uint32_t was_uft_ftrace_busy = uft_ftrace_busy;
	uft_ftrace_busy = 1;
	barrier();
	/* The entry is the newest one for this slot; newer ones are dead. */
	uint32_t i = st ? st->top : 0;
	while (i && st->e[i - 1].slot != slot)
		i--;
	if (!i) {
		static const char msg[] = "uft: function_graph: return without a shadow entry\n";
		ssize_t w = write(2, msg, sizeof(msg) - 1);
		(void)w;
		abort();
	}
	while (st->top > i)
		shadow_pop(st);
	/* Still on the stack while its record is written: nothing is pushed
	 * above it meanwhile (the thread is in the hook). */
	const struct shadow *e = &st->e[i - 1];
	if (e->kind == KIND_PROF)
		uft_ftrace_prof_exit(st, i - 1);
	/* Not inside another hook: its grace section is its own. */
	if (e->rprobe && !was_uft_ftrace_busy && !t->notrace)
		probe_section(uft_ftrace_rprobe_exit(st, i - 1, sp, retval, retval2));
	uint32_t mask = e->mask & READ_ONCE(uft_ftrace_graph_buffers);
	if (t->notrace)
		mask = 0;
	if (e->gen != READ_ONCE(uft_ftrace_graph_gen))
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned b = (unsigned)__builtin_ctz(m);
			if ((int32_t)(e->gen - READ_ONCE(uft_ftrace_graph_since[b])) < 0)
				mask &= ~(1u << b);
		}
	if (mask & GLOBAL) {
		struct uft_fast_rsv rsv;
		char *rec = uft_fast_reserve_type(UFT_ID_FUNCGRAPH_EXIT,
						  sizeof(struct uft_rec_funcgraph_exit), &rsv);
		if (rec) {
			/* The inline path wrote it: the global buffer's clock is
			 * the local one and the record's TSC is rettime. */
			struct uft_rec_funcgraph_exit *r = (struct uft_rec_funcgraph_exit *)rec;
			uint64_t now = uft_tsc_to_ns(rsv.ts);
			r->func = e->func;
			r->retval = retval;
			r->depth = e->depth;
			r->overrun = st->overrun;
			r->calltime = e->c0 == UFT_CLOCK_LOCAL	 ? e->t0
				      : e->c1 == UFT_CLOCK_LOCAL ? e->t1
								 : now;
			r->rettime = now;
			uft_fast_commit(&rsv);
			mask &= ~GLOBAL;
		}
	}
	if (mask) {
		struct uft_rec_funcgraph_exit r = {{0, 0, 0, 0}, e->func, retval, e->depth,
						   st->overrun,	 0,	  0};
		for (; mask; mask &= mask - 1) {
			uint32_t b = (uint32_t)__builtin_ctz(mask);
			uint8_t c = (uint8_t)uft_buffers[b].clock;
			r.rettime = uft_clock_now((enum uft_clock)c);
			r.calltime = c == e->c0 ? e->t0 : c == e->c1 ? e->t1 : r.rettime;
			uft_write_to_buffer(b, &ret_ev, &r, sizeof(r), NULL, 0);
		}
	}
	uintptr_t ret = e->ret;
	shadow_pop(st);
	barrier();
	uft_ftrace_busy = was_uft_ftrace_busy;
	if (!was_uft_ftrace_busy)
		uft_ftrace_stop_point();
	return ret;
}

bool uft_ftrace_in_hook(void)
{
	return uft_ftrace_busy != 0;
}

uint32_t uft_ftrace_hold(void)
{
	uint32_t prev = uft_ftrace_busy;
	uft_ftrace_busy = 1;
	barrier();
	return prev;
}

void uft_ftrace_unhold(uint32_t prev)
{
	barrier();
	uft_ftrace_busy = prev;
	if (!prev)
		uft_ftrace_stop_point();
}

/* Leaves the grace sections a jump abandoned, down to `depth`. */
static void grace_leave_to(uint32_t depth)
{
	struct uft_grace_rec *r = uft_grace_me;
	if (!r || r->depth <= depth)
		return;
	if (!depth)
		smp_store_release(&r->seq, r->seq + 1);
	smp_store_release(&r->depth, depth);
}

void uft_ftrace_after_jump(void)
{
	uint32_t from = hook_section;
	if (from) {
		hook_section = 0;
		grace_leave_to(from - 1);
	}
	uft_ftrace_busy = 0;
	uft_ftrace_stop_point();
}

void uft_ftrace_unhook_returns(void)
{
	struct fstack *st = uft_ftrace_stack;
	if (!st)
		return;
	uint32_t was_uft_ftrace_busy = uft_ftrace_busy;
	uft_ftrace_busy = 1;
	barrier();
	while (st->top) {
		struct shadow *e = &st->e[st->top - 1];
		if (*e->slot == e->hook)
			*e->slot = e->ret;
		shadow_pop(st);
	}
	barrier();
	uft_ftrace_busy = was_uft_ftrace_busy;
	if (!was_uft_ftrace_busy)
		uft_ftrace_stop_point();
}
