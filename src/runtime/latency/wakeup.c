/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* wakeup and wakeup_rt (wakeup.h).
 *
 * A condition variable's signal does not say which thread it wakes, so the
 * wake is kept on the object: a table of slots hashed by its address holds
 * the pending wake (its CLOCK_MONOTONIC time, the buffer clock's time and
 * the wakeup record as written) and the last thread to start waiting. A
 * thread whose wait returns takes the pending wake when it came after its
 * own wait began: that wake is what let it go. It is the first wake not yet
 * taken (a second signal before the woken thread runs wakes another waiter,
 * or nobody), and taking it clears it, except a broadcast's, which is every
 * waiter's. A wake pending from before the last wait began woke nobody of
 * those waiting and is replaced. Slots are written under a sequence count taken with one
 * cmpxchg and read with retries, never with a lock: sem_post() may run in a
 * signal handler. A writer that finds the slot busy drops its stamp (that
 * wake is then not measured) rather than wait. */
#define _GNU_SOURCE
#include "runtime/latency/wakeup.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/buffer.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/trace_clock.h"
#include "util/atomics.h"

#define NR_SLOTS 1024

struct wslot {
	uint32_t seq; /* odd while written */
	int32_t waiters;
	uintptr_t obj;
	uint64_t mono, ts;  /* the pending wake; mono 0: none */
	uint64_t wait_mono; /* the last wait's start */
	uint32_t cpu;	    /* the waker's */
	uint32_t all;	    /* a broadcast: not taken by its first waiter */
	uint64_t rec[3];    /* its wakeup record (struct uft_rec_ctx) */
	int32_t waiter;	    /* the last thread to start waiting, its prio and CPU */
	uint32_t wprio, wcpu;
};
static struct wslot slots[NR_SLOTS];

/* The names of the threads whose wakes were kept, for the lines of a max
 * trace read after they exited (the kernel's saved_cmdlines). The tid is
 * stored last and checked again after the name is read. */
#define NR_COMMS 64
static struct {
	int32_t tid;
	uint64_t name[2];
} comms[NR_COMMS];

static void comm_save(int32_t tid, const char *comm)
{
	uint64_t w[2] = {0, 0};
	memcpy(w, comm, strnlen(comm, 15));
	unsigned i = (unsigned)tid % NR_COMMS;
	WRITE_ONCE(comms[i].tid, 0);
	uft_fence_release();
	WRITE_ONCE(comms[i].name[0], w[0]);
	WRITE_ONCE(comms[i].name[1], w[1]);
	smp_store_release(&comms[i].tid, tid);
}

static bool comm_saved(int32_t tid, char comm[17])
{
	unsigned i = (unsigned)tid % NR_COMMS;
	if (smp_load_acquire(&comms[i].tid) != tid)
		return false;
	uint64_t w[2] = {READ_ONCE(comms[i].name[0]), READ_ONCE(comms[i].name[1])};
	uft_fence_acquire();
	if (READ_ONCE(comms[i].tid) != tid)
		return false;
	memcpy(comm, w, 16);
	comm[16] = 0;
	return true;
}

static volatile uint16_t ctx_gate, wake_gate;
static const struct uft_field ctx_fields[] = {
    {"unsigned int", "prev_pid", 8, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "next_pid", 12, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "next_cpu", 16, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned char", "prev_prio", 20, 1, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned char", "prev_state", 21, 1, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned char", "next_prio", 22, 1, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned char", "next_state", 23, 1, 0, UFT_FIELD_SCALAR, 0},
};
#define CTX_ARGS                                                                                   \
	"REC->prev_pid, REC->prev_prio, REC->prev_state, REC->next_pid, REC->next_prio, "          \
	"REC->next_state, REC->next_cpu"
static struct uft_event ctx_ev = {
    .magic = UFT_EVENT_MAGIC,
    .style = UFT_STYLE_STRUCT,
    .gate = &ctx_gate,
    .system = "ftrace",
    .name = "context_switch",
    .fields = ctx_fields,
    .nr_fields = sizeof(ctx_fields) / sizeof(ctx_fields[0]),
    .fixed_size = 24,
    .print_fmt = "\"%u:%u:%u  ==> %u:%u:%u [%03u]\", " CTX_ARGS,
    .file = __FILE__,
    .line = __LINE__,
};
static struct uft_event wake_ev = {
    .magic = UFT_EVENT_MAGIC,
    .style = UFT_STYLE_STRUCT,
    .gate = &wake_gate,
    .system = "ftrace",
    .name = "wakeup",
    .fields = ctx_fields,
    .nr_fields = sizeof(ctx_fields) / sizeof(ctx_fields[0]),
    .fixed_size = 24,
    .print_fmt = "\"%u:%u:%u  ==+ %u:%u:%u [%03u]\", " CTX_ARGS,
    .file = __FILE__,
    .line = __LINE__,
};

void uft_wakeup_events_init(void)
{
	uft_registry_add_fixed(&ctx_ev, UFT_ID_CTX_SWITCH);
	uft_registry_add_fixed(&wake_ev, UFT_ID_WAKEUP);
}

static struct wslot *slot_of(uintptr_t obj)
{
	uint64_t h = (uint64_t)(obj >> 3) * 0x9e3779b97f4a7c15ull;
	return &slots[h >> (64 - 10)];
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The kernel's p->prio: -1 for SCHED_DEADLINE (255 in the records' unsigned
 * char, as the kernel's), 99 - rt_priority for SCHED_FIFO/RR, 120 + nice
 * else. *rt as the kernel's rt_task(): deadline threads too. */
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#define DL_PRIO 255u
static uint32_t own_prio(bool *rt)
{
	int pol = sched_getscheduler(0);
	struct sched_param sp;
	if (pol == SCHED_DEADLINE) {
		*rt = true;
		return DL_PRIO;
	}
	*rt = (pol == SCHED_FIFO || pol == SCHED_RR) && sched_getparam(0, &sp) == 0;
	if (*rt)
		return (uint32_t)(99 - sp.sched_priority);
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, 0);
	return (uint32_t)(120 + (errno ? 0 : nice));
}

static uint32_t own_cpu(void)
{
	int cpu = sched_getcpu();
	return cpu < 0 ? 0 : (uint32_t)cpu;
}

static int32_t own_tid(void)
{
	return uft_tls.tid ? uft_tls.tid : (int32_t)gettid();
}

static bool slot_lock(struct wslot *s, uint32_t *q)
{
	*q = READ_ONCE(s->seq);
	return !(*q & 1) && uft_try_cmpxchg_acquire(&s->seq, q, *q + 1);
}

static void slot_unlock(struct wslot *s, uint32_t q)
{
	smp_store_release(&s->seq, q + 2);
}

/* The calling thread takes `obj`'s slot (a collision drops the other's). */
static void slot_claim(struct wslot *s, uintptr_t obj)
{
	if (READ_ONCE(s->obj) == obj)
		return;
	WRITE_ONCE(s->obj, obj);
	WRITE_ONCE(s->waiters, 0);
	WRITE_ONCE(s->mono, 0);
	WRITE_ONCE(s->wait_mono, 0);
	WRITE_ONCE(s->waiter, 0);
}

void uft_wake_note(uintptr_t obj, bool all)
{
	struct uft_tls *t = &uft_tls;
	if (t->notrace)
		return;
	struct wslot *s = slot_of(obj);
	/* Nobody waits: a later wait begins after this wake, which is then
	 * nobody's. The waiter counts itself before it sleeps. */
	if (READ_ONCE(s->obj) != obj || READ_ONCE(s->waiters) <= 0)
		return;
	int saved = errno;
	uint32_t b = uft_csect_buffer();
	bool rt;
	struct uft_rec_ctx r;
	memset(&r, 0, sizeof(r));
	r.common.type = UFT_ID_WAKEUP;
	r.common.flags = (uint8_t)((t->in_signal ? UFT_FLAG_IN_SIGNAL : 0) |
				   (t->sigs_blocked ? UFT_FLAG_SIGS_BLOCKED : 0));
	r.common.pid = own_tid();
	r.prev_pid = (uint32_t)r.common.pid;
	r.prev_prio = (uint8_t)own_prio(&rt);
	uint32_t cpu = own_cpu();
	uint64_t mono = mono_ns();
	uint64_t ts = uft_clock_now((enum uft_clock)READ_ONCE(uft_buffers[b].clock));
	uint32_t q;
	if (!slot_lock(s, &q)) {
		errno = saved;
		return;
	}
	slot_claim(s, obj);
	bool waiting = READ_ONCE(s->waiters) > 0;
	r.next_pid = (uint32_t)READ_ONCE(s->waiter);
	r.next_prio = (uint8_t)READ_ONCE(s->wprio);
	r.next_cpu = READ_ONCE(s->wcpu);
	uint64_t pend = READ_ONCE(s->mono);
	/* An earlier wake not yet taken by a thread now waiting comes first. */
	if (!pend || !waiting || pend < READ_ONCE(s->wait_mono) || all) {
		uint64_t w[3];
		memcpy(w, &r, sizeof(w));
		for (int i = 0; i < 3; i++)
			WRITE_ONCE(s->rec[i], w[i]);
		WRITE_ONCE(s->cpu, cpu);
		WRITE_ONCE(s->ts, ts);
		WRITE_ONCE(s->all, all);
		WRITE_ONCE(s->mono, mono);
	}
	slot_unlock(s, q);
	/* The kernel writes it when a task is woken: here when one waits. */
	uint32_t type = READ_ONCE(uft_csect_type);
	bool rt_only = type & UFT_CSECT_WAKE_RT, dl_only = type & UFT_CSECT_WAKE_DL;
	bool next_dl = r.next_prio == DL_PRIO, next_rt = r.next_prio < 100 || next_dl;
	if (waiting && r.next_pid && (!rt_only || next_rt) && (!dl_only || next_dl))
		uft_write_to_buffer(b, &wake_ev, &r, sizeof(r), NULL, 0);
	errno = saved;
}

void uft_wait_begin(struct uft_wait *w, uintptr_t obj, uintptr_t ra)
{
	struct uft_tls *t = &uft_tls;
	w->on = !t->notrace;
	if (!w->on)
		return;
	int saved = errno;
	w->obj = obj;
	w->ra = ra;
	w->gen = uft_csect_gen();
	w->t0 = mono_ns();
	bool rt;
	uint32_t prio = own_prio(&rt);
	uint32_t cpu = own_cpu();
	struct wslot *s = slot_of(obj);
	uint32_t q;
	if (slot_lock(s, &q)) {
		slot_claim(s, obj);
		WRITE_ONCE(s->wait_mono, w->t0);
		WRITE_ONCE(s->waiter, own_tid());
		WRITE_ONCE(s->wprio, prio);
		WRITE_ONCE(s->wcpu, cpu);
		uft_add_return_relaxed(&s->waiters, 1);
		slot_unlock(s, q);
	}
	errno = saved;
}

/* The slot's pending wake, read whole (false: busy all along, or another
 * object's). */
static bool slot_read(struct wslot *s, uintptr_t obj, uint64_t *mono, uint64_t *ts, uint32_t *cpu,
		      bool *all, struct uft_rec_ctx *r)
{
	for (int tries = 0; tries < 64; tries++) {
		uint32_t q = smp_load_acquire(&s->seq);
		if (q & 1)
			continue;
		uintptr_t o = READ_ONCE(s->obj);
		*mono = READ_ONCE(s->mono);
		*ts = READ_ONCE(s->ts);
		*cpu = READ_ONCE(s->cpu);
		*all = READ_ONCE(s->all);
		uint64_t w[3];
		for (int i = 0; i < 3; i++)
			w[i] = READ_ONCE(s->rec[i]);
		uft_fence_acquire();
		if (READ_ONCE(s->seq) != q)
			continue;
		memcpy(r, w, sizeof(*r));
		return o == obj;
	}
	return false;
}

static struct uft_csect_rec rec_copy(uint64_t ts, uint32_t cpu, const void *r, uint32_t len)
{
	char *d = malloc(len);
	if (d)
		memcpy(d, r, len);
	return (struct uft_csect_rec){ts, cpu, d ? len : 0, d};
}

void uft_wait_end(struct uft_wait *w, bool woken)
{
	if (!w->on)
		return;
	struct uft_tls *t = &uft_tls;
	int saved = errno;
	uint32_t b = uft_csect_buffer();
	uint64_t t1 = mono_ns();
	uint64_t ts1 = uft_clock_now((enum uft_clock)READ_ONCE(uft_buffers[b].clock));
	struct wslot *s = slot_of(w->obj);
	uint64_t mono = 0, ts0 = 0;
	uint32_t wcpu = 0;
	struct uft_rec_ctx wr;
	bool all = false;
	bool have = slot_read(s, w->obj, &mono, &ts0, &wcpu, &all, &wr);
	if (have && READ_ONCE(s->waiters) > 0)
		uft_sub_return_relaxed(&s->waiters, 1);
	/* A wake before this wait began let some other thread go. */
	if (!woken || !have || !mono || mono < w->t0)
		goto out;
	uint32_t q;
	if (!all && slot_lock(s, &q)) { /* taken: the next wake is another's */
		if (READ_ONCE(s->obj) == w->obj && READ_ONCE(s->mono) == mono)
			WRITE_ONCE(s->mono, 0);
		slot_unlock(s, q);
	}
	if (uft_csect_gen() != w->gen || !uft_wake_on())
		goto out;
	bool rt;
	uint32_t prio = own_prio(&rt);
	uint32_t type = READ_ONCE(uft_csect_type);
	if (((type & UFT_CSECT_WAKE_RT) && !rt) || ((type & UFT_CSECT_WAKE_DL) && prio != DL_PRIO))
		goto out;
	uint64_t delta = t1 - mono;
	uint32_t cpu = own_cpu();
	int32_t tid = own_tid();
	/* The thread's own switch in: from waiting (S) to running (R); what ran
	 * on the CPU before it is not known to user space. */
	struct uft_rec_ctx sw;
	memset(&sw, 0, sizeof(sw));
	sw.common.type = UFT_ID_CTX_SWITCH;
	sw.common.flags = (uint8_t)((t->in_signal ? UFT_FLAG_IN_SIGNAL : 0) |
				    (t->sigs_blocked ? UFT_FLAG_SIGS_BLOCKED : 0));
	sw.common.pid = tid;
	sw.prev_pid = sw.next_pid = (uint32_t)tid;
	sw.prev_prio = sw.next_prio = (uint8_t)prio;
	sw.prev_state = 1;
	sw.next_cpu = cpu;
	uft_write_to_buffer(b, &ctx_ev, &sw, sizeof(sw), NULL, 0);
	/* Not from a signal handler: the max trace allocates. */
	if (READ_ONCE(t->in_signal) || !uft_csect_wants(b, delta))
		goto out;
	wr.next_pid = (uint32_t)tid;
	wr.next_prio = (uint8_t)prio;
	wr.next_cpu = cpu;
	/* The kernel's closing <stack trace> (probe_wakeup_sched_switch's
	 * __trace_stack): the woken thread's, from the function it returns to. */
	uint64_t ts2 = uft_clock_now((enum uft_clock)READ_ONCE(uft_buffers[b].clock));
	char stack[UFT_STACK_REC_SIZE];
	uft_stack_fill(stack, w->ra);
	memcpy(stack, &sw.common, sizeof(sw.common));
	((struct uft_common_entry *)(void *)stack)->type = UFT_ID_KERNEL_STACK;
	uft_stack_write(b, stack);
	struct uft_csect_trace *tr = calloc(1, sizeof(*tr));
	if (tr)
		tr->v = calloc(3, sizeof(*tr->v));
	if (!tr || !tr->v) {
		uft_csect_trace_free(tr);
		goto out;
	}
	ts1 = ts1 > ts0 ? ts1 : ts0;
	tr->v[0] = rec_copy(ts0, wcpu, &wr, sizeof(wr));
	tr->v[1] = rec_copy(ts1, cpu, &sw, sizeof(sw));
	tr->v[2] = rec_copy(ts2 > ts1 ? ts2 : ts1, cpu, stack, sizeof(stack));
	tr->n = 3;
	uft_csect_describe(&tr->info);
	tr->info.lat_ns = delta;
	comm_save(tid, tr->info.comm);
	uft_csect_offer(b, w->gen, delta, tr);
out:
	errno = saved;
}

/* ---- text ---- */

static char state_char(uint8_t i)
{
	static const char c[] = "RSDTtXZPI";
	return i < sizeof(c) - 1 ? c[i] : '?';
}

/* The woken thread's name: kept when its wake was, or read while it lives. */
static void comm_of(uint32_t tid, char comm[17])
{
	if (comm_saved((int32_t)tid, comm))
		return;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%u/comm", tid);
	strcpy(comm, "<...>");
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(comm, 17, f))
		comm[strcspn(comm, "\n")] = 0;
	fclose(f);
}

bool uft_wake_render(FILE *f, const void *data, uint32_t len)
{
	struct uft_rec_ctx r;
	if (len < sizeof(r))
		return false;
	memcpy(&r, data, sizeof(r));
	if (r.common.type != UFT_ID_CTX_SWITCH && r.common.type != UFT_ID_WAKEUP)
		return false;
	char comm[17];
	comm_of(r.next_pid, comm);
	fprintf(f, " %7d:%3d:%c %s [%03d] %7d:%3d:%c %s", (int)r.prev_pid, r.prev_prio,
		state_char(r.prev_state), r.common.type == UFT_ID_CTX_SWITCH ? "==>" : "  +",
		(int)r.next_cpu, (int)r.next_pid, r.next_prio, state_char(r.next_state), comm);
	return true;
}
