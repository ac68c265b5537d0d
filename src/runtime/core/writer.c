/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The event writer: per-thread rings, one per nesting level, written with
 * plain loads and stores. A signal handler that traces while its thread is in
 * the middle of a write uses the next level's ring, so the interrupted write
 * is never disturbed; each level restores the nesting counter before it
 * returns, which makes the counter's own read-modify-write safe too.
 *
 * Readers in other processes follow the ordering contract written at the head
 * of wire/shm_layout.h; the writer's side of it, here: a record's bytes, then
 * the page's commit word (release); at a page switch the finished page's
 * padding and entries, then `produced` (release) and a release fence before
 * the recycled slot changes, its meta last (meta.seq_lo, release); in
 * overwrite mode the oldest page is retired by cmpxchg on `consumed`, and a
 * slot is reused only after `consumed` is read with acquire. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/rseq.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <time.h>
#include <unistd.h>

#include "engine/filter/filter.h"
#include "engine/filter/filter_run.h"
#include "wire/page.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/core/grace.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/trigger_run.h"
#include "runtime/tracefs/tfs_inject.h"
#include "util/atomics.h"
#include "util/util.h"
#include <uft/fastpath.h>
#include <uft/uft.h>

__thread struct uft_tls uft_tls __attribute__((tls_model("initial-exec")));
/* The same storage under its public, ABI-stable name (uft/fastpath.h). */
extern __thread struct uft_fast_tls uft_fast
    __attribute__((alias("uft_tls"), tls_model("initial-exec")));
volatile uint32_t uft_fast_epoch;

_Static_assert(
    offsetof(struct uft_tls, nest) == offsetof(struct uft_fast_tls, nest) &&
	offsetof(struct uft_tls, in_signal) == offsetof(struct uft_fast_tls, in_signal) &&
	offsetof(struct uft_tls, sigs_blocked) == offsetof(struct uft_fast_tls, sigs_blocked) &&
	offsetof(struct uft_tls, tid) == offsetof(struct uft_fast_tls, tid) &&
	offsetof(struct uft_tls, epoch) == offsetof(struct uft_fast_tls, epoch) &&
	offsetof(struct uft_tls, common) == offsetof(struct uft_fast_tls, common) &&
	offsetof(struct uft_tls, tsc_hint) == offsetof(struct uft_fast_tls, tsc_hint) &&
	offsetof(struct uft_tls, lv[0].page) == offsetof(struct uft_fast_tls, lv0.page) &&
	offsetof(struct uft_tls, lv[0].tail) == offsetof(struct uft_fast_tls, lv0.tail) &&
	offsetof(struct uft_tls, lv[0].cpu) == offsetof(struct uft_fast_tls, lv0.cpu) &&
	offsetof(struct uft_tls, lv[0].last_ts) == offsetof(struct uft_fast_tls, lv0.last_ts) &&
	offsetof(struct uft_tls, lv[0].entries) == offsetof(struct uft_fast_tls, lv0.entries),
    "uft/fastpath.h must describe the start of struct uft_tls");
/* Generated writers read an event's state at these offsets. */
_Static_assert(offsetof(struct uft_event_state, fast_type) == 0 &&
		   offsetof(struct uft_event_state, fast_filter) == 8 &&
		   offsetof(struct uft_event_state, priv) == 16 &&
		   offsetof(struct uft_event_state, targets) == 24 &&
		   offsetof(struct uft_event_state, id) == 32 &&
		   offsetof(struct uft_event_state, enabled) == 34 &&
		   sizeof(struct uft_event_state) == 40,
	       "struct uft_event_state is fast-path ABI: change it with UFT_FAST_ABI");

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
/* Decided by the first thread that asks; others may race to the same answer. */
static int rseq_usable = -1;

#define signal_fence() barrier()

static inline uint32_t rseq_cpu(void)
{
	return uft_arch_rseq_cpu(__rseq_offset);
}

static uint32_t current_cpu_slow(void)
{
	int usable = READ_ONCE(rseq_usable);
	if (usable < 0) {
		usable = __rseq_size >= 8 && (int32_t)rseq_cpu() >= 0;
		WRITE_ONCE(rseq_usable, usable);
	}
	if (usable)
		return rseq_cpu();
	int c = sched_getcpu();
	return c < 0 ? 0 : (uint32_t)c;
}

static inline uint32_t current_cpu(void)
{
	if (likely(READ_ONCE(rseq_usable) > 0))
		return rseq_cpu();
	return current_cpu_slow();
}

uint32_t uft_writer_cpu(void)
{
	return current_cpu();
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
	smp_store_release((uint64_t *)(w->page + 8), w->tail);
}

/* Counts in the region an event that found no ring (the region full) or no
 * ring to be counted on (`lost`). Atomic adds: a signal may nest here. */
static void count_region(uint32_t buffer, bool lost)
{
	struct uft_shm_header *h = uft_sess.hdr;
	if (!h || buffer >= UFT_SHM_MAX_BUFFERS)
		return;
	uft_fetch_add_relaxed(lost ? &h->ring_lost[buffer] : &h->ring_dropped[buffer], 1);
}

/* Counts an event that could not be written. A write nested too deep counts
 * on the deepest level, possibly interrupting that level's own count: atomic
 * adds, not a read-modify-write a signal could split (failure paths only).
 * A level without a ring passes the count to the region, never drops it. */
static void count_lost(struct uft_wring *w)
{
	uft_add_return_relaxed(&w->lost, 1);
	if (w->r)
		uft_fetch_add_relaxed(&w->r->lost, 1);
	else
		count_region(w->buffer, true);
}

/* Page slot `idx` of the writer's ring, by the layout it allocated. */
static inline char *wring_page(const struct uft_wring *w, uint64_t idx)
{
	return (char *)w->r + w->geom.hdr_size +
	       (idx % w->geom.nr_pages) * (uint64_t)w->geom.subbuf_size;
}

static void maybe_wake(struct uft_wring *w, struct uft_ring *r, uint64_t produced)
{
	if ((produced - w->cons_seen) * 2 < w->geom.nr_pages)
		return;
	uint64_t c = READ_ONCE(r->consumed);
	w->cons_seen = c;
	if ((produced - c) * 2 < w->geom.nr_pages)
		return;
	if (READ_ONCE(r->wake_pending))
		return;
	WRITE_ONCE(r->wake_pending, 1);
	uft_session_wake();
}

/* The longest a writer waits for the recorder to free a page (block mode)
 * before it overwrites; a recorder that is gone is not waited for at all. */
#define BLOCK_WAIT_NS 1000000000ull
/* How long one sleep lasts at most: the writer then asks the recorder again
 * (it may have missed a wake-up; a failed send tells it is gone). */
#define BLOCK_REWAKE_NS 10000000ull

static uint64_t mono_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Block mode: the ring is full at `next`; waits for the recorder to read
 * every complete page (woken earlier, writer and recorder trade a few
 * pages at a time and switch far more often: measured slower on 2 CPUs),
 * asleep on the futex of `consumed`'s low word, which the recorder wakes
 * (ring_reader.c). True when a page is free; false when there is no
 * recorder, it is gone, or it freed nothing within BLOCK_WAIT_NS (then no
 * writer of this ring waits again until the recorder reads from it).
 * Signal-safe, errno kept: it may run in a function tracer's return hook
 * or a handler. */
static bool block_wait(struct uft_wring *w, struct uft_ring *r, uint64_t next, uint64_t c)
{
	/* After a wait ran out, the ring overwrites (moving `consumed` itself)
	 * until the recorder is seen reading it again: its count of events
	 * read moves. */
	if ((w->block_stuck && w->block_stuck == READ_ONCE(r->read_entries) + 1) ||
	    !uft_session_wake_wait())
		return false;
	w->block_stuck = 0;
	int saved = errno;
	uft_fetch_add_relaxed(&r->block_waits, 1);
	uint32_t nr = w->geom.nr_pages;
	uint64_t want = next - 1;
	uint64_t start = mono_now();
	bool freed = false;
	for (;;) {
		uft_store_seq_cst(&r->block_want, want);
		c = uft_load_seq_cst(&r->consumed);
		if (c >= want) {
			freed = true;
			break;
		}
		struct timespec ts = {0, BLOCK_REWAKE_NS};
		syscall(SYS_futex, (uint32_t *)&r->consumed, FUTEX_WAIT, (uint32_t)c, &ts, NULL, 0);
		c = smp_load_acquire(&r->consumed);
		if (c >= want) {
			freed = true;
			break;
		}
		uint64_t now = mono_now();
		if (now - start >= BLOCK_WAIT_NS) {
			/* Some room is better than none: take what was freed. */
			freed = next < c + nr;
			if (!freed) {
				uft_fetch_add_relaxed(&r->block_timeouts, 1);
				w->block_stuck = READ_ONCE(r->read_entries) + 1;
			}
			break;
		}
		if (!uft_session_wake_wait()) {
			freed = next < c + nr;
			break;
		}
	}
	WRITE_ONCE(r->block_want, 0);
	if (freed)
		w->cons_seen = c;
	errno = saved;
	return freed;
}

/* Moves to the next page. Returns -1 when the ring is full in discard mode. */
static int next_page(struct uft_wring *w, uint64_t ts)
{
	struct uft_ring *r = w->r;
	uint32_t nr = w->geom.nr_pages;
	uint64_t next = w->page_idx + 1;
	while (next >= w->cons_seen + nr) {
		uint64_t c = smp_load_acquire(&r->consumed);
		w->cons_seen = c;
		if (next < c + nr)
			break;
		if (w->geom.mode == UFT_MODE_DISCARD)
			return -1;
		if (w->geom.mode == UFT_MODE_BLOCK && c + nr >= next && block_wait(w, r, next, c))
			break;
		/* More than a ring behind never happens in the protocol: a
		 * consumer rewrote `consumed`. Catch up in one step, not one page
		 * at a time, and count nothing from slots that are not its. */
		if (c + nr < next) {
			if (uft_try_cmpxchg(&r->consumed, &c, next - nr))
				w->cons_seen = next - nr;
			continue;
		}
		/* Overwrite: retire the oldest page unless a reader claimed it first. */
		if (uft_try_cmpxchg(&r->consumed, &c, c + 1)) {
			uint64_t lost =
			    r->meta[(c + 1) % nr].first_entry - r->meta[c % nr].first_entry;
			uft_fetch_add_relaxed(&r->overrun, lost);
			w->cons_seen = c + 1;
		}
	}
	uft_rb_put_padding(w->page + UFT_PAGE_HDR_SIZE, w->tail,
			   w->geom.subbuf_size - UFT_PAGE_HDR_SIZE);
	WRITE_ONCE(r->entries, w->entries);
	smp_store_release(&r->produced, next);
	/* Readers validate a copied page by re-reading `produced` afterwards, so it
	 * must be visible before any byte of the recycled slot changes: a release
	 * fence orders it before the stores below (the readers' acquire fence
	 * pairs with it), and costs nothing on x86, where a full fence would wait
	 * for every store still in flight to the ring. */
	uft_fence_release();
	struct uft_slot_meta *m = &r->meta[next % nr];
	m->first_entry = w->entries;
	m->cpu = w->cpu;
	char *page = wring_page(w, next);
	*(uint64_t *)page = ts;
	w->page = page;
	w->page_idx = next;
	w->tail = 0;
	publish_commit(w);
	/* Naming the page in its slot comes last: until then the slot still holds
	 * the page it replaces, whose commit word a reader must not pair with it. */
	smp_store_release(&m->seq_lo, (uint32_t)next);
	w->last_ts = ts;
	maybe_wake(w, r, next);
	return 0;
}

/* Where a thread's ring of `buffer` at `lvl` is kept: the global buffer's in
 * the TLS block the fast path reads, the instances' in a block mapped on
 * first use (mmap is safe in a signal handler, malloc is not). */
static struct uft_wring *wring_of(struct uft_tls *t, uint32_t buffer, uint32_t lvl)
{
	if (likely(buffer == 0))
		return &t->lv[lvl];
	if (unlikely(!t->xb)) {
		void *p = mmap(NULL, sizeof(*t->xb) * (UFT_MAX_BUFFERS - 1), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		t->xb = p;
	}
	return &t->xb[buffer - 1][lvl];
}

/* The thread is done with a ring: its counters become final and a consumer
 * drains and frees it. */
static void wring_close(struct uft_wring *w)
{
	if (!w->r)
		return;
	smp_store_release(&w->r->entries, w->entries);
	smp_store_release(&w->r->state, UFT_RING_EXITED);
	w->r = NULL;
}

static int wring_open(struct uft_tls *t, struct uft_wring *w, uint32_t buffer, uint32_t lvl)
{
	if (!uft_sess.hdr) /* created at start-up or when an event is enabled */
		return -1;
	if (!t->tid) {
		t->tid = (int32_t)syscall(SYS_gettid);
		uft_tls_sync_common(t);
	}
	const struct uft_buffer *b = &uft_buffers[buffer];
	uint32_t gen = smp_load_acquire(&b->gen);
	/* A ring takes the size set for the CPU it is opened on
	 * (per_cpu/cpuN/buffer_size_kb) and keeps it when the thread moves. */
	uint32_t cpu = current_cpu_slow();
	uint32_t subbuf = uft_buffer_subbuf(b);
	struct uft_wring_geom g = {.nr_pages = uft_buffer_ring_slots(b, cpu, subbuf),
				   .mode = READ_ONCE(b->mode),
				   .subbuf_size = subbuf};
	struct uft_ring *r = uft_shm_ring_alloc(uft_sess.hdr, b, buffer, t->tid, lvl, &g);
	if (!r)
		return -1;
	wring_close(w); /* the ring of an older generation */
	uint64_t ts = uft_ring_now(r);
	memset(w, 0, sizeof(*w));
	w->r = r;
	w->geom = g;
	w->gen = gen;
	w->buffer = buffer;
	w->cpu = cpu;
	w->page_idx = g.first_page;
	w->cons_seen = g.first_page;
	w->page = wring_page(w, g.first_page);
	*(uint64_t *)w->page = ts;
	w->last_ts = ts;
	r->meta[g.first_page % g.nr_pages].cpu = w->cpu;
	publish_commit(w);
	if (buffer == 0 && lvl == 0)
		t->epoch = gen;
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
				   uint32_t *new_tail, uint32_t *ext_tail)
{
	uint32_t size = uft_rb_aligned_record_size(len);
	uint64_t delta = *ts - w->last_ts;
	if (unlikely(*ts < w->last_ts)) {
		*ts = w->last_ts; /* never run backwards within a ring */
		delta = 0;
	}
	uint32_t ext = delta > UFT_RB_DELTA_MAX ? 8 : 0;
	if (unlikely(w->tail + ext + size > w->geom.subbuf_size - UFT_PAGE_HDR_SIZE)) {
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
	*ext_tail = ext ? w->tail + ext : 0;
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
	uint32_t ext_tail;
	char *rec = reserve_record(w, &ts, sizeof(mark), &tail, &ext_tail);
	if (!rec)
		return -1;
	memcpy(rec, &mark, sizeof(mark));
	w->tail = tail;
	w->last_ts = ts;
	w->cpu = cpu;
	publish_commit(w);
	return 0;
}

/* The common fields of a record written at nesting level lvl. */
static inline void put_common(char *rec, const struct uft_event *ev, const struct uft_tls *t,
			      uint32_t lvl)
{
	struct uft_common_entry *c = (struct uft_common_entry *)rec;
	c->type = uft_event_id(ev);
	/* A nested write is a signal handler's, unless triggers wrote it. */
	c->flags = (t->in_signal || (lvl && lvl != t->trig_lvl) ? UFT_FLAG_IN_SIGNAL : 0) |
		   (t->sigs_blocked ? UFT_FLAG_SIGS_BLOCKED : 0);
	c->preempt_count = (uint8_t)lvl;
	c->pid = t->tid;
}

/* A write nested deeper than UFT_MAX_NEST: counted as lost on the deepest
 * level that has a ring of the buffer (the one it interrupts, normally),
 * else in the region. */
static void count_too_deep(struct uft_tls *t, uint32_t buffer)
{
	for (uint32_t l = UFT_MAX_NEST; l-- > 0;) {
		struct uft_wring *w = wring_of(t, buffer, l);
		if (!w)
			break;
		if (w->r) {
			count_lost(w);
			return;
		}
	}
	count_region(buffer, true);
}

/* Reserves a record in one buffer's ring at the thread's nesting level. */
static void *reserve_in(struct uft_rsv *rsv, uint32_t buffer)
{
	struct uft_tls *t = &uft_tls;
	uint32_t lvl = t->nest;
	t->nest = lvl + 1;
	signal_fence();
	uint64_t hint = t->tsc_hint;
	t->tsc_hint = 0;
	const struct uft_buffer *b = &uft_buffers[buffer];
	if (unlikely(lvl >= UFT_MAX_NEST || !READ_ONCE(b->on))) {
		/* No ring for it: counted beside the one it interrupts. */
		if (lvl >= UFT_MAX_NEST && !t->notrace)
			count_too_deep(t, buffer);
		goto fail;
	}
	/* A CPU left out of tracing_cpumask records nothing and counts
	 * nothing, as the kernel's disabled per-CPU buffer. */
	if (unlikely(READ_ONCE(b->masked)) && !uft_buffer_cpu_traced(b, current_cpu()))
		goto fail;
	struct uft_wring *w = wring_of(t, buffer, lvl);
	if (unlikely(!w)) {
		count_region(buffer, true); /* no memory for the ring table */
		goto fail;
	}
	if (unlikely(!w->r || w->gen != READ_ONCE(b->gen)) && wring_open(t, w, buffer, lvl) != 0) {
		count_region(buffer, false);
		goto fail;
	}
	uint32_t len = rsv->len;
	if (unlikely(len > UFT_RECORD_MAX(w->geom.subbuf_size))) {
		count_lost(w);
		goto fail;
	}
	/* The TSC the event's inline path read (uft_fast_rehint), if any: not
	 * read twice. reserve_record() keeps the ring monotonic either way. */
	uint64_t ts = hint && w->r->ts_raw ? hint : uft_ring_now(w->r);
	uint32_t cpu = current_cpu();
	if (unlikely(cpu != w->cpu) && write_cpu_mark(t, w, ts, cpu) != 0)
		goto full;
	uint32_t tail, ext_tail;
	char *rec = reserve_record(w, &ts, len, &tail, &ext_tail);
	if (unlikely(!rec))
		goto full;
	rsv->ext_tail = ext_tail;
	if (len & 7)
		*(uint64_t *)(rec + (len & ~7u)) = 0; /* no stale bytes in the rounding */
	put_common(rec, rsv->ev, t, lvl);
	rsv->w = w;
	rsv->rec = rec;
	rsv->ts = ts;
	rsv->tail = tail;
	rsv->lvl = lvl;
	return rec;
full:
	w->dropped++;
	WRITE_ONCE(w->r->dropped, w->dropped);
fail:
	signal_fence();
	t->nest = lvl;
	return NULL;
}

/* Bytes of one level's scratch record: any record of the largest
 * sub-buffer fits (mapped, touched only as far as records reach). */
#define SCRATCH_SIZE UFT_SUBBUF_MAX

/* Builds the record outside any buffer, for triggers that need its fields
 * while no buffer keeps it (soft-disabled, tracing off, full): the kernel's
 * temporary buffer. rsv->w stays NULL, which uft_commit() reads as "discard
 * after the triggers ran". */
static void *reserve_scratch(struct uft_rsv *rsv)
{
	struct uft_tls *t = &uft_tls;
	uint32_t lvl = t->nest;
	if (lvl >= UFT_MAX_NEST || rsv->len > SCRATCH_SIZE)
		return NULL;
	if (unlikely(!t->scratch)) {
		/* mmap, not malloc: this may run in a signal handler. */
		void *p = mmap(NULL, (size_t)SCRATCH_SIZE * UFT_MAX_NEST, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		t->scratch = p;
	}
	if (!t->tid) {
		t->tid = (int32_t)syscall(SYS_gettid);
		uft_tls_sync_common(t);
	}
	t->nest = lvl + 1;
	signal_fence();
	char *rec = t->scratch + (size_t)lvl * SCRATCH_SIZE;
	put_common(rec, rsv->ev, t, lvl);
	rsv->w = NULL;
	rsv->rec = rec;
	rsv->lvl = lvl;
	return rec;
}

/* A record built in scratch leaves the thread's level-0 ring alone, so its
 * last timestamp ages; once a record needs a time extend the inline path
 * (which writes none) refuses, and an event whose records are never kept
 * (soft-disabled, its triggers plain histograms: registry_triggers.c) would
 * never find it again. A time extend alone, committed as the kernel keeps
 * one before a discarded event, brings the ring's time up to now; only on
 * the page in use, so it never switches pages or counts a drop. */
static void keep_ring_time(struct uft_tls *t)
{
	struct uft_wring *w = &t->lv[0];
	if (t->nest || !t->epoch || t->epoch != READ_ONCE(uft_fast_epoch) || !w->r)
		return;
	t->nest = 1;
	signal_fence();
	uint64_t ts = t->tsc_hint ? t->tsc_hint : uft_ring_now(w->r);
	if (ts > w->last_ts && ts - w->last_ts > UFT_RB_DELTA_MAX && current_cpu() == w->cpu &&
	    w->tail + 8 <= w->geom.subbuf_size - UFT_PAGE_HDR_SIZE) {
		uft_rb_put_time_extend(w->page + UFT_PAGE_HDR_SIZE + w->tail, ts - w->last_ts);
		w->tail += 8;
		w->last_ts = ts;
		publish_commit(w);
	}
	signal_fence();
	t->nest = 0;
}

/* A target in soft mode or with triggers. Triggers that need no record run
 * first, as the kernel runs them before reserving; a soft-disabled event is
 * built only when its triggers need the record. */
static void *reserve_special(struct uft_rsv *rsv, const struct uft_target *tt, void *ra)
{
	if (uft_tls.notrace)
		return NULL;
	const struct uft_trig_list *tl = tt->trig;
	bool cond = tl && tl->cond;
	if (tl && !cond)
		uft_trig_run_early(tl, ra);
	if (!READ_ONCE(tt->st->soft_disabled)) {
		void *rec = reserve_in(rsv, tt->buffer);
		if (rec || !cond)
			return rec;
	} else if (!cond) {
		return NULL;
	} else if (tt->buffer == 0) {
		keep_ring_time(&uft_tls);
	}
	return reserve_scratch(rsv);
}

/* Reserves in one target, rsv->ti. */
static inline void *reserve_target(struct uft_rsv *rsv, const struct uft_target *tt, void *ra)
{
	rsv->filter = tt->filter;
	return unlikely(tt->st != NULL) ? reserve_special(rsv, tt, ra)
					: reserve_in(rsv, tt->buffer);
}

static void *reserve_next(struct uft_rsv *rsv, void *ra)
{
	const struct uft_targets *tg = rsv->targets;
	while (++rsv->ti < tg->nr) {
		void *rec = reserve_target(rsv, &tg->t[rsv->ti], ra);
		if (rec)
			return rec;
	}
	return NULL;
}

/* A read-side section (grace.h) from uft_reserve() to the reservation that
 * returns NULL: the target list and what it holds stay valid in between. */
void *uft_reserve_next(struct uft_rsv *rsv)
{
	void *rec = reserve_next(rsv, __builtin_return_address(0));
	if (!rec)
		uft_grace_exit();
	return rec;
}

void *uft_reserve(struct uft_rsv *rsv, const struct uft_event *ev, uint32_t len)
{
	uft_grace_enter();
	const struct uft_targets *tg = uft_event_targets(ev);
	void *rec = NULL;
	if (tg) {
		rsv->ev = ev;
		rsv->len = len;
		rsv->targets = tg;
		rsv->ti = (uint32_t)-1;
		rec = reserve_next(rsv, __builtin_return_address(0));
	}
	uft_tls.tsc_hint = 0; /* a hint reserve_in() did not take is stale now */
	if (!rec)
		uft_grace_exit();
	return rec;
}

void *uft_reserve_buffer(struct uft_rsv *rsv, const struct uft_event *ev, uint32_t len,
			 uint32_t buffer)
{
	const struct uft_targets *tg = uft_event_targets(ev);
	for (uint32_t i = 0; tg && i < tg->nr; i++) {
		const struct uft_target *tt = &tg->t[i];
		if (tt->buffer != buffer)
			continue;
		rsv->ev = ev;
		rsv->len = len;
		rsv->targets = tg;
		rsv->ti = i;
		return reserve_target(rsv, tt, __builtin_return_address(0));
	}
	return NULL;
}

/* Bytes after an exact record of `alen` (a multiple of 4) that bring the
 * ring back to 8-byte alignment: none, or a 12-byte discarded padding
 * record (the format has no 4-byte filler). */
static inline uint32_t exact_filler(uint32_t alen)
{
	return alen & 7u ? 12u : 0u;
}

/* The record's common_pid: the writing thread's, unless the caller's head
 * names another (trace_marker: the process, not the door thread). */
static inline void put_pid(char *rec, const void *head)
{
	int32_t pid = ((const struct uft_common_entry *)head)->pid;
	if (pid)
		((struct uft_common_entry *)rec)->pid = pid;
}

/* A record's bytes after its common part (filled by the writer): the rest
 * of head, then the payload. */
static void fill_record(char *rec, const void *head, uint32_t head_len, const void *payload,
			uint32_t payload_len)
{
	memcpy(rec + sizeof(struct uft_common_entry),
	       (const char *)head + sizeof(struct uft_common_entry),
	       head_len - sizeof(struct uft_common_entry));
	if (payload_len)
		memcpy(rec + head_len, payload, payload_len);
}

static int write_to_buffer(uint32_t buffer, const struct uft_event *ev, const void *head,
			   uint32_t head_len, const void *payload, uint32_t payload_len, bool exact)
{
	struct uft_tls *t = &uft_tls;
	uint32_t nest = t->nest, notrace = t->notrace;
	if (notrace) { /* a door thread writing trace_marker: on purpose */
		t->notrace = 0;
		t->nest = 0;
	}
	uint32_t len = head_len + payload_len, alen = (len + 3u) & ~3u;
	struct uft_rsv rsv = {.ev = ev, .len = exact ? alen + exact_filler(alen) : len};
	char *rec = reserve_in(&rsv, buffer);
	int rc = -EBUSY;
	if (rec) {
		put_pid(rec, head);
		fill_record(rec, head, head_len, payload, payload_len);
		if (exact) {
			memset(rec + len, 0, alen - len);
			if (exact_filler(alen)) {
				/* The record's length word says its own size; a
				 * discarded record fills the rest. Its delta (a
				 * discard's is never 0, which would end the page)
				 * moves the ring's time on by one tick of its clock. */
				((uint32_t *)rec)[-1] = alen + 4u;
				uft_rb_put_padding(rec, alen, alen + exact_filler(alen));
				rsv.ts++;
			}
		}
		uft_commit(&rsv);
		rc = 0;
	}
	t->nest = nest;
	t->notrace = notrace;
	return rc;
}

int uft_write_to_buffer(uint32_t buffer, const struct uft_event *ev, const void *head,
			uint32_t head_len, const void *payload, uint32_t payload_len)
{
	return write_to_buffer(buffer, ev, head, head_len, payload, payload_len, false);
}

int uft_write_exact_to_buffer(uint32_t buffer, const struct uft_event *ev, const void *head,
			      uint32_t head_len, const void *payload, uint32_t payload_len)
{
	return write_to_buffer(buffer, ev, head, head_len, payload, payload_len, true);
}

static unsigned special_run(struct uft_rsv *rsv, const struct uft_target *tt, void *ra,
			    struct uft_trig **post);
static void special_end(struct uft_rsv *rsv, const struct uft_target *tt, void *ra,
			struct uft_trig **post, unsigned npost);

int uft_write_to_buffer_trig(uint32_t buffer, const struct uft_event *ev, const void *head,
			     uint32_t head_len, const void *payload, uint32_t payload_len,
			     uint32_t hide_at)
{
	/* No triggers in any buffer: the plain write, at its old cost. */
	if (likely(!uft_event_targets(ev)))
		return write_to_buffer(buffer, ev, head, head_len, payload, payload_len, false);
	uft_grace_enter();
	const struct uft_targets *tg = uft_event_targets(ev);
	uint32_t i = 0;
	while (tg && i < tg->nr && tg->t[i].buffer != buffer)
		i++;
	/* As the kernel's: with the buffer off the write records nothing and
	 * runs no trigger. */
	if (!tg || i == tg->nr || !tg->t[i].st || !READ_ONCE(uft_buffers[buffer].on)) {
		uft_grace_exit();
		return write_to_buffer(buffer, ev, head, head_len, payload, payload_len, false);
	}
	struct uft_tls *t = &uft_tls;
	uint32_t nest = t->nest, notrace = t->notrace;
	if (notrace) { /* a door thread writing trace_marker: on purpose */
		t->notrace = 0;
		t->nest = 0;
	}
	const struct uft_target *tt = &tg->t[i];
	void *ra = __builtin_return_address(0);
	struct uft_rsv rsv = {.ev = ev, .len = head_len + payload_len, .targets = tg, .ti = i};
	char *rec = reserve_target(&rsv, tt, ra);
	int rc = -EBUSY;
	if (rec) {
		put_pid(rec, head);
		fill_record(rec, head, head_len, payload, payload_len);
		char *hidden = hide_at < payload_len ? rec + head_len + hide_at : NULL;
		struct uft_trig *post[UFT_TRIG_MAX_POST];
		if (hidden)
			*hidden = 0;
		unsigned npost = special_run(&rsv, tt, ra, post);
		if (hidden)
			*hidden = ((const char *)payload)[hide_at];
		special_end(&rsv, tt, ra, post, npost);
		rc = 0;
	}
	t->nest = nest;
	t->notrace = notrace;
	uft_grace_exit();
	return rc;
}

/* The writing thread's name for COMM in filters: its ring's copy, else the
 * kernel's (a system call, safe in a signal handler). */
static const char *thread_comm(const struct uft_wring *w, char comm[17])
{
	if (unlikely(uft_inject_comm != NULL)) /* another task's record */
		return uft_inject_comm;
	if (!w && uft_tls.lv[0].r)
		w = &uft_tls.lv[0];
	if (w && w->r) {
		memcpy(comm, w->r->comm, 16);
	} else {
		memset(comm, 0, 17);
		prctl(PR_GET_NAME, comm);
	}
	comm[16] = 0;
	return comm;
}

int uft__fast_filter_pass(const void *filter, const void *rec, uint32_t len)
{
	const struct uft_filter *f = filter;
	struct uft_wring *w = &uft_tls.lv[0];
	char comm[17];
	const char *name = NULL;
	/* The caller loaded the filter outside any section: it is used only if
	 * still the published one, checked inside (grace.h). */
	uft_grace_enter();
	uint16_t type = ((const struct uft_common_entry *)rec)->type;
	int pass = 0;
	if (smp_load_acquire(&uft_grace_fast_filter[type]) == filter) {
		pass = 1;
		/* Plain histograms (struct uft_trig_fast): updated on the record
		 * in place, then its own filter. */
		if ((uintptr_t)filter & UFT_TRIG_FAST_TAG) {
			const struct uft_trig_fast *tf =
			    (const void *)((uintptr_t)filter - UFT_TRIG_FAST_TAG);
			pass = uft_trig_fast_run(tf, rec, len);
			f = tf->filter;
		}
		/* The evaluator inline: this is every filtered event's path. */
		if (pass && f) {
			if (unlikely(uft_filter_needs_of(f) & UFT_FILTER_NEEDS_COMM))
				name = thread_comm(w, comm);
			pass = uft_filter_run(f, rec, len, w->cpu, name);
		}
	}
	uft_grace_exit();
	return pass;
}

static bool filtered_out(const struct uft_filter *f, struct uft_rsv *rsv)
{
	struct uft_wring *w = rsv->w;
	char comm[17];
	const char *name = NULL;
	if (uft_filter_needs(f) & UFT_FILTER_NEEDS_COMM)
		name = thread_comm(w, comm);
	return !uft_filter_match(f, rsv->rec, rsv->len, w->cpu, name);
}

static void commit_record(struct uft_rsv *rsv)
{
	struct uft_wring *w = rsv->w;
	w->tail = rsv->tail;
	w->last_ts = rsv->ts;
	w->entries++;
	publish_commit(w);
	signal_fence();
	uft_tls.nest = rsv->lvl;
}

/* options/stacktrace: a stack record after each event record kept in the
 * buffer, at the event's nesting level, as the kernel's
 * ftrace_trace_stack() after a trace event's commit. Records that
 * uft_write_to_buffer writes (function tracers, markers, stacks) are not
 * events: they come without targets. */
static inline void stack_after(const struct uft_rsv *rsv, void *ra)
{
	const struct uft_targets *tg = rsv->targets;
	uint32_t buffer = tg->t[rsv->ti].buffer;
	if (unlikely(READ_ONCE(uft_buffers[buffer].stacktrace)))
		uft_stack_record(buffer, ra);
}

/* The record of a soft-mode target: triggers that need it run on it, it is
 * kept unless soft-disabled, filtered out or built in scratch, and the
 * triggers that act after the record (traceoff, snapshot, stacktrace) run
 * last, at the writer's level again. In two steps, so a writer can change
 * the record between its triggers and its commit (the marker's newline). */
static unsigned special_run(struct uft_rsv *rsv, const struct uft_target *tt, void *ra,
			    struct uft_trig **post)
{
	const struct uft_trig_list *tl = tt->trig;
	struct uft_wring *w = rsv->w;
	if (!tl || !tl->cond)
		return 0;
	char comm[17];
	const char *name = tl->needs_comm ? thread_comm(w, comm) : NULL;
	/* Histograms read common_timestamp: the record's, or now. */
	uint64_t ts = 0;
	if (w)
		ts = rsv->ts;
	else if (tl->has_hist)
		ts = uft_buffer_now(&uft_buffers[tt->buffer]);
	uint32_t saved = uft_tls.trig_lvl;
	uft_tls.trig_lvl = rsv->lvl + 1;
	unsigned npost = uft_trig_run_cond(tl, rsv->rec, rsv->len, ts, w ? w->cpu : current_cpu(),
					   name, ra, post);
	uft_tls.trig_lvl = saved;
	return npost;
}

static void special_end(struct uft_rsv *rsv, const struct uft_target *tt, void *ra,
			struct uft_trig **post, unsigned npost)
{
	struct uft_wring *w = rsv->w;
	bool keep = w && !READ_ONCE(tt->st->soft_disabled) &&
		    !(rsv->filter && filtered_out(rsv->filter, rsv));
	if (keep) {
		commit_record(rsv);
		stack_after(rsv, ra);
	} else {
		uft_discard(rsv);
	}
	if (npost)
		uft_trig_run_post(post, npost, ra);
}

static void commit_special(struct uft_rsv *rsv, const struct uft_target *tt, void *ra)
{
	struct uft_trig *post[UFT_TRIG_MAX_POST];
	unsigned npost = special_run(rsv, tt, ra, post);
	special_end(rsv, tt, ra, post, npost);
}

void uft_commit(struct uft_rsv *rsv)
{
	const struct uft_targets *tg = rsv->targets;
	if (unlikely(tg && tg->t[rsv->ti].st)) {
		commit_special(rsv, &tg->t[rsv->ti], __builtin_return_address(0));
		return;
	}
	const struct uft_filter *f = rsv->filter;
	if (unlikely(f != NULL) && filtered_out(f, rsv)) {
		uft_discard(rsv);
		return;
	}
	commit_record(rsv);
	if (tg)
		stack_after(rsv, __builtin_return_address(0));
}

void uft_discard(struct uft_rsv *rsv)
{
	/* A time extend written ahead of the record stays, as the kernel keeps
	 * one before a discarded event: otherwise, while a filter rejects every
	 * event, each would need an extend again and take the slow path. */
	struct uft_wring *w = rsv->w;
	if (w && rsv->ext_tail) {
		w->tail = rsv->ext_tail;
		w->last_ts = rsv->ts;
		publish_commit(w);
	}
	signal_fence();
	uft_tls.nest = rsv->lvl;
}

/* Publishes the counters of the calling thread's rings. */
void uft_writer_flush_self(void)
{
	struct uft_tls *t = &uft_tls;
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
		if (b && !t->xb)
			break;
		for (uint32_t i = 0; i < UFT_MAX_NEST; i++) {
			struct uft_wring *w = wring_of(t, b, i);
			if (w->r)
				smp_store_release(&w->r->entries, w->entries);
		}
	}
}

/* The latest time the calling thread stamped on a record of `buffer` in its
 * current generation: a request "up to now" made right after covers those
 * records even when the thread moved to a CPU whose clock reads earlier. */
uint64_t uft_writer_last_ts(uint32_t buffer)
{
	struct uft_tls *t = &uft_tls;
	if (buffer >= UFT_MAX_BUFFERS || (buffer && !t->xb))
		return 0;
	uint32_t gen = READ_ONCE(uft_buffers[buffer].gen);
	uint64_t last = 0;
	for (uint32_t i = 0; i < UFT_MAX_NEST; i++) {
		const struct uft_wring *w = wring_of(t, buffer, i);
		if (w->r && w->gen == gen && w->last_ts > last)
			last = w->last_ts;
	}
	return last;
}

void uft_writer_thread_exit(void)
{
	struct uft_tls *t = &uft_tls;
	t->epoch = 0;
	uft_ftrace_thread_exit();
	uft_grace_thread_exit();
	for (uint32_t i = 0; i < UFT_MAX_NEST; i++)
		wring_close(&t->lv[i]);
	if (t->xb) {
		for (uint32_t b = 1; b < UFT_MAX_BUFFERS; b++)
			for (uint32_t i = 0; i < UFT_MAX_NEST; i++)
				wring_close(&t->xb[b - 1][i]);
	}
	/* The scratch records (room for the largest sub-buffer's) go with the
	 * thread; a signal handler tracing after this maps them again. */
	char *scratch = t->scratch;
	t->scratch = NULL;
	signal_fence();
	if (scratch)
		munmap(scratch, (size_t)SCRATCH_SIZE * UFT_MAX_NEST);
}

/* In a forked child: the parent's rings are not ours to write. */
void uft_writer_reset_after_fork(void)
{
	uint32_t in_signal = uft_tls.in_signal;
	uint32_t blocked = uft_tls.sigs_blocked; /* the mask survives fork */
	uint32_t notrace = uft_tls.notrace;
	struct uft_wring(*xb)[UFT_MAX_NEST] = uft_tls.xb;
	char *scratch = uft_tls.scratch;
	memset(&uft_tls, 0, sizeof(uft_tls));
	uft_tls.scratch = scratch;
	if (xb)
		memset(xb, 0, sizeof(*xb) * (UFT_MAX_BUFFERS - 1));
	uft_tls.xb = xb;
	uft_tls.in_signal = in_signal;
	uft_tls.sigs_blocked = blocked;
	uft_tls.notrace = notrace;
	uft_tls_sync_common(&uft_tls);
}

/* Enables the inline fast path once the clock and the CPU source are known:
 * rings holding raw TSC cycles (the local clock on a usable TSC), and rseq. */
void uft_writer_setup_fast_path(void)
{
	current_cpu_slow(); /* decides whether rseq is usable */
	uft_fast_cpu_ok = uft_load_seq_cst(&rseq_usable) > 0;
	uft_buffer_update_fast();
}

void uft_writer_set_notrace(void)
{
	uft_tls.notrace = 1;
	uft_tls.epoch = 0;
	/* The fast path's nest check keeps it off the inline path for good. */
	uft_tls.nest = UFT_MAX_NEST;
}
