/* The event writer: per-thread rings, one per nesting level, written with
 * plain loads and stores. A signal handler that traces while its thread is in
 * the middle of a write uses the next level's ring, so the interrupted write
 * is never disturbed; each level restores the nesting counter before it
 * returns, which makes the counter's own read-modify-write safe too. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/rseq.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/filter.h"
#include "common/page.h"
#include "lib/runtime.h"
#include <uft/fastpath.h>
#include <uft/uft.h>

__thread struct uft_tls uft_tls __attribute__((tls_model("initial-exec")));
/* The same storage under its public, ABI-stable name (uft/fastpath.h). */
extern __thread struct uft_fast_tls uft_fast
    __attribute__((alias("uft_tls"), tls_model("initial-exec")));
volatile int uft_tracing_on = 1;
struct uft_fast_clock uft_fast_clock;

_Static_assert(
    offsetof(struct uft_tls, nest) == offsetof(struct uft_fast_tls, nest) &&
	offsetof(struct uft_tls, in_signal) == offsetof(struct uft_fast_tls, in_signal) &&
	offsetof(struct uft_tls, sigs_blocked) == offsetof(struct uft_fast_tls, sigs_blocked) &&
	offsetof(struct uft_tls, tid) == offsetof(struct uft_fast_tls, tid) &&
	offsetof(struct uft_tls, lv[0].page) == offsetof(struct uft_fast_tls, lv0.page) &&
	offsetof(struct uft_tls, lv[0].tail) == offsetof(struct uft_fast_tls, lv0.tail) &&
	offsetof(struct uft_tls, lv[0].cpu) == offsetof(struct uft_fast_tls, lv0.cpu) &&
	offsetof(struct uft_tls, lv[0].last_ts) == offsetof(struct uft_fast_tls, lv0.last_ts) &&
	offsetof(struct uft_tls, lv[0].entries) == offsetof(struct uft_fast_tls, lv0.entries),
    "uft/fastpath.h must describe the start of struct uft_tls");

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
/* Decided by the first thread that asks; others may race to the same answer. */
static _Atomic int rseq_usable = -1;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define signal_fence() atomic_signal_fence(memory_order_seq_cst)

static inline uint32_t rseq_cpu(void)
{
	uint32_t cpu;
	__asm__ volatile("movl %%fs:(%1), %0" : "=r"(cpu) : "r"(__rseq_offset + 4));
	return cpu;
}

static uint32_t current_cpu_slow(void)
{
	int usable = atomic_load_explicit(&rseq_usable, memory_order_relaxed);
	if (usable < 0) {
		usable = __rseq_size >= 8 && (int32_t)rseq_cpu() >= 0;
		atomic_store_explicit(&rseq_usable, usable, memory_order_relaxed);
	}
	if (usable)
		return rseq_cpu();
	int c = sched_getcpu();
	return c < 0 ? 0 : (uint32_t)c;
}

static inline uint32_t current_cpu(void)
{
	if (likely(atomic_load_explicit(&rseq_usable, memory_order_relaxed) > 0))
		return rseq_cpu();
	return current_cpu_slow();
}

static void thread_exit(void *arg)
{
	(void)arg;
	uft_writer_thread_exit();
}

static void make_exit_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

static inline void publish_commit(struct uft_wring *w)
{
	atomic_store_explicit((_Atomic uint64_t *)(w->page + 8), w->tail, memory_order_release);
}

/* Counts an event that could not be written. A write nested too deep counts
 * on the deepest level, possibly interrupting that level's own count: atomic
 * adds, not a read-modify-write a signal could split (failure paths only). */
static void count_lost(struct uft_wring *w)
{
	__atomic_add_fetch(&w->lost, 1, __ATOMIC_RELAXED);
	if (w->r)
		atomic_fetch_add_explicit(&w->r->lost, 1, memory_order_relaxed);
}

static void maybe_wake(struct uft_ring *r, uint64_t produced)
{
	uint64_t c = atomic_load_explicit(&r->consumed, memory_order_relaxed);
	if ((produced - c) * 2 < r->nr_pages)
		return;
	if (atomic_load_explicit(&r->wake_pending, memory_order_relaxed))
		return;
	atomic_store_explicit(&r->wake_pending, 1, memory_order_relaxed);
	uft_session_wake();
}

/* Moves to the next page. Returns -1 when the ring is full in discard mode. */
static int next_page(struct uft_wring *w, uint64_t ts)
{
	struct uft_ring *r = w->r;
	uint64_t next = w->page_idx + 1;
	for (;;) {
		uint64_t c = atomic_load_explicit(&r->consumed, memory_order_acquire);
		if (next < c + r->nr_pages)
			break;
		if (r->mode == UFT_MODE_DISCARD)
			return -1;
		/* Overwrite: retire the oldest page unless a reader claimed it first. */
		atomic_compare_exchange_strong(&r->consumed, &c, c + 1);
	}
	uft_rb_put_padding(w->page + UFT_PAGE_HDR_SIZE, w->tail, UFT_PAGE_DATA_SIZE);
	atomic_store_explicit(&r->entries, w->entries, memory_order_relaxed);
	atomic_store_explicit(&r->produced, next, memory_order_release);
	/* Readers validate a copied page by re-reading `produced` afterwards, so it
	 * must be visible before any byte of the recycled slot changes. */
	atomic_thread_fence(memory_order_seq_cst);
	struct uft_slot_meta *m = &r->meta[next % r->nr_pages];
	m->first_entry = w->entries;
	m->cpu = w->cpu;
	char *page = uft_ring_page(r, next);
	*(uint64_t *)page = ts;
	w->page = page;
	w->page_idx = next;
	w->tail = 0;
	publish_commit(w);
	/* Naming the page in its slot comes last: until then the slot still holds
	 * the page it replaces, whose commit word a reader must not pair with it. */
	__atomic_store_n(&m->seq_lo, (uint32_t)next, __ATOMIC_RELEASE);
	w->last_ts = ts;
	maybe_wake(r, next);
	return 0;
}

static int wring_open(struct uft_tls *t, struct uft_wring *w, uint32_t lvl)
{
	if (!uft_sess.hdr) /* created at start-up or when an event is enabled */
		return -1;
	if (!t->tid)
		t->tid = (int32_t)syscall(SYS_gettid);
	struct uft_ring *r =
	    uft_shm_ring_alloc(uft_sess.hdr, uft_sess.ring_pages, t->tid, lvl, uft_sess.mode);
	if (!r)
		return -1;
	uint64_t ts = uft_clock_ring_now();
	memset(w, 0, sizeof(*w));
	w->r = r;
	w->cpu = current_cpu_slow();
	w->page = uft_ring_page(r, 0);
	*(uint64_t *)w->page = ts;
	w->last_ts = ts;
	r->meta[0].cpu = w->cpu;
	publish_commit(w);
	if (lvl == 0) {
		pthread_once(&exit_key_once, make_exit_key);
		pthread_setspecific(exit_key, t);
	}
	return 0;
}

/* Reserves an aligned record of `len` payload bytes, preceded by a time extend
 * when the delta needs one, and writes its header. Returns the payload, or
 * NULL when the ring is full (discard mode). */
static inline char *reserve_record(struct uft_wring *w, uint64_t *ts, uint32_t len,
				   uint32_t *new_tail)
{
	uint32_t size = uft_rb_aligned_record_size(len);
	uint64_t delta = *ts - w->last_ts;
	if (unlikely(*ts < w->last_ts)) {
		*ts = w->last_ts; /* never run backwards within a ring */
		delta = 0;
	}
	uint32_t ext = delta > UFT_RB_DELTA_MAX ? 8 : 0;
	if (unlikely(w->tail + ext + size > UFT_PAGE_DATA_SIZE)) {
		if (next_page(w, *ts) != 0)
			return NULL;
		delta = 0;
		ext = 0;
	}
	char *p = w->page + UFT_PAGE_HDR_SIZE + w->tail;
	if (ext) {
		uft_rb_put_time_extend(p, delta);
		p += 8;
		delta = 0;
	}
	*new_tail = w->tail + ext + size;
	return uft_rb_put_aligned_header(p, len, (uint32_t)delta);
}

static int write_cpu_mark(struct uft_tls *t, struct uft_wring *w, uint64_t ts, uint32_t cpu)
{
	struct {
		struct uft_common_entry c;
		uint32_t cpu;
		uint32_t pad;
	} mark = {{UFT_ID_CPU_MARK, 0, 0, t->tid}, cpu, 0};
	uint32_t tail;
	char *rec = reserve_record(w, &ts, sizeof(mark), &tail);
	if (!rec)
		return -1;
	memcpy(rec, &mark, sizeof(mark));
	w->tail = tail;
	w->last_ts = ts;
	w->cpu = cpu;
	publish_commit(w);
	return 0;
}

void *uft_reserve(struct uft_rsv *rsv, const struct uft_event *ev, uint32_t len)
{
	struct uft_tls *t = &uft_tls;
	uint32_t lvl = t->nest;
	t->nest = lvl + 1;
	signal_fence();
	if (unlikely(lvl >= UFT_MAX_NEST || !uft_tracing_on)) {
		if (lvl >= UFT_MAX_NEST) /* no ring for it: counted beside the one it interrupts */
			count_lost(&t->lv[UFT_MAX_NEST - 1]);
		goto fail;
	}
	struct uft_wring *w = &t->lv[lvl];
	if (unlikely(!w->r) && wring_open(t, w, lvl) != 0)
		goto fail;
	if (unlikely(len > UFT_PAGE_DATA_SIZE - 24)) {
		count_lost(w);
		goto fail;
	}
	uint64_t ts = uft_clock_ring_now();
	uint32_t cpu = current_cpu();
	if (unlikely(cpu != w->cpu) && write_cpu_mark(t, w, ts, cpu) != 0)
		goto full;
	uint32_t tail;
	char *rec = reserve_record(w, &ts, len, &tail);
	if (unlikely(!rec))
		goto full;
	if (len & 7)
		*(uint64_t *)(rec + (len & ~7u)) = 0; /* no stale bytes in the rounding */
	struct uft_common_entry *c = (struct uft_common_entry *)rec;
	c->type = ev->id;
	c->flags = (lvl || t->in_signal ? UFT_FLAG_IN_SIGNAL : 0) |
		   (t->sigs_blocked ? UFT_FLAG_SIGS_BLOCKED : 0);
	c->preempt_count = (uint8_t)lvl;
	c->pid = t->tid;
	rsv->w = w;
	rsv->rec = rec;
	rsv->ev = ev;
	rsv->len = len;
	rsv->ts = ts;
	rsv->tail = tail;
	rsv->lvl = lvl;
	return rec;
full:
	w->dropped++;
	atomic_store_explicit(&w->r->dropped, w->dropped, memory_order_relaxed);
fail:
	signal_fence();
	t->nest = lvl;
	return NULL;
}

static bool filtered_out(const struct uft_filter *f, struct uft_rsv *rsv)
{
	struct uft_wring *w = rsv->w;
	char comm[17];
	const char *name = NULL;
	if (uft_filter_needs(f) & UFT_FILTER_NEEDS_COMM) {
		memcpy(comm, w->r->comm, 16);
		comm[16] = 0;
		name = comm;
	}
	return !uft_filter_match(f, rsv->rec, rsv->len, w->cpu, name);
}

void uft_commit(struct uft_rsv *rsv)
{
	const struct uft_filter *f = rsv->ev->filter;
	if (unlikely(f != NULL) && filtered_out(f, rsv)) {
		uft_discard(rsv);
		return;
	}
	struct uft_wring *w = rsv->w;
	w->tail = rsv->tail;
	w->last_ts = rsv->ts;
	w->entries++;
	publish_commit(w);
	signal_fence();
	uft_tls.nest = rsv->lvl;
}

void uft_discard(struct uft_rsv *rsv)
{
	signal_fence();
	uft_tls.nest = rsv->lvl;
}

/* Publishes the counters of the calling thread's rings. */
void uft_writer_flush_self(void)
{
	struct uft_tls *t = &uft_tls;
	for (int i = 0; i < UFT_MAX_NEST; i++) {
		struct uft_wring *w = &t->lv[i];
		if (!w->r)
			continue;
		atomic_store_explicit(&w->r->entries, w->entries, memory_order_release);
	}
}

void uft_writer_thread_exit(void)
{
	struct uft_tls *t = &uft_tls;
	uft_writer_flush_self();
	for (int i = 0; i < UFT_MAX_NEST; i++) {
		struct uft_wring *w = &t->lv[i];
		if (!w->r)
			continue;
		atomic_store_explicit(&w->r->state, UFT_RING_EXITED, memory_order_release);
		w->r = NULL;
	}
}

/* In a forked child: the parent's rings are not ours to write. */
void uft_writer_reset_after_fork(void)
{
	uint32_t in_signal = uft_tls.in_signal;
	uint32_t blocked = uft_tls.sigs_blocked; /* the mask survives fork */
	memset(&uft_tls, 0, sizeof(uft_tls));
	uft_tls.in_signal = in_signal;
	uft_tls.sigs_blocked = blocked;
}

/* Enables the inline fast path once the clock and the CPU source are known:
 * rings holding raw TSC cycles (the local clock on a usable TSC), and rseq. */
void uft_writer_setup_fast_path(void)
{
	current_cpu_slow(); /* decides whether rseq is usable */
	uft_fast_clock.ok = uft_clock_raw_tsc() && atomic_load(&rseq_usable) > 0;
}
