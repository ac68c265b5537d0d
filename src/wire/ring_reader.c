/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading a thread ring while its writer runs (the writer's side: shm_layout.h
 * and runtime/core/writer.c). A reader:
 *
 *  1. acquires `produced` (p): pages before p are finished, page p is being
 *     written, and `entries` is at least what it was at the switch to p;
 *  2. for page idx, acquires its slot's seq_lo; a slot not naming idx yet is
 *     still being set up (or still holds an older page) and is skipped;
 *  3. acquires the page's commit word: the bytes it covers are written;
 *  4. copies the page with plain reads, which may race with the writer
 *     reusing the slot, then issues an acquire fence and acquires `produced`
 *     again: the copy is good only if p < idx + nr_pages (the writer's release
 *     fence after storing `produced` pairs with that acquire fence, so a copy
 *     that saw any rewritten byte also sees the new `produced`);
 *  5. hands the slot back by advancing `consumed` with cmpxchg, losing
 *     harmlessly to a writer that retired the page first.
 *
 * Nothing else in a page is trusted: a copy that fails step 4 is dropped. */
#include "wire/ring_reader.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wire/page.h"
#include "util/atomics.h"
#include <uft/event.h>

bool uft_ring_geom_read(const struct uft_ring *r, uint64_t room, struct uft_ring_geom *g)
{
	g->nr_pages = READ_ONCE(r->nr_pages);
	g->hdr_size = READ_ONCE(r->hdr_size);
	g->subbuf_size = READ_ONCE(r->subbuf_size);
	if (!g->subbuf_size)
		g->subbuf_size = UFT_SUBBUF_SIZE;
	uint64_t total = READ_ONCE(r->total_size);
	uint64_t need =
	    sizeof(struct uft_ring) + (uint64_t)g->nr_pages * sizeof(struct uft_slot_meta);
	uint64_t span = g->hdr_size + (uint64_t)g->nr_pages * g->subbuf_size;
	/* A reused ring may be laid out for fewer pages inside its space. */
	return g->nr_pages && uft_subbuf_valid(g->subbuf_size) && g->hdr_size >= need &&
	       g->hdr_size % 8 == 0 && total >= span && total <= room;
}

/* The cursor's geometry, or the ring's read once now (in-process readers,
 * whose ring the runtime bounded already). */
static bool geom_of(const struct uft_ring *r, const struct uft_ring_cursor *c,
		    struct uft_ring_geom *g)
{
	if (c && c->geom.nr_pages) {
		*g = c->geom;
		return true;
	}
	return uft_ring_geom_read(r, UINT64_MAX, g);
}

void uft_ring_cursor_init(struct uft_ring_cursor *c, const struct uft_ring *r)
{
	memset(c, 0, sizeof(*c));
	c->generation = smp_load_acquire(&r->generation);
}

/* A reused ring starts over; its geometry stays what it was. */
static void cursor_reset(struct uft_ring_cursor *c, const struct uft_ring *r)
{
	struct uft_ring_geom g = c->geom;
	uft_ring_cursor_init(c, r);
	c->geom = g;
}

static inline const char *page_at(const struct uft_ring *r, const struct uft_ring_geom *g,
				  uint64_t idx)
{
	return (const char *)r + g->hdr_size + (idx % g->nr_pages) * (uint64_t)g->subbuf_size;
}

/* A page copied out of a ring, into the thread's mapping of UFT_SUBBUF_MAX
 * for the entry point (`slot`, so a callback of one may use another), made
 * on first need (mmap, not malloc: snapshot triggers read rings from a
 * traced thread, maybe in a signal handler; reserved, not committed, beyond
 * the pages a copy touches) and unmapped when the thread exits. Not in
 * thread-local storage: libuft's is static (initial-exec), and a libuft
 * loaded late by dlopen (`uft attach`) must fit in the little room the C
 * library keeps for that. */
enum { PC_DRAIN, PC_PEEK, PC_TAKE, PC_WRITTEN, PC_NR };

struct page_copy {
	struct uft_slot_meta meta;
	uint8_t *page; /* the thread's mapping of this slot */
	uint32_t size; /* bytes of `page` in use: the ring's sub-buffer */
	uint32_t slot; /* PC_* */
	uint8_t *dest; /* the caller's room for the next copy, if any */
};

static __thread uint8_t *big_pages[PC_NR];
static pthread_key_t big_key;
static pthread_once_t big_once = PTHREAD_ONCE_INIT;

static void big_free(void *arg)
{
	uint8_t **v = arg;
	for (int i = 0; i < PC_NR; i++) {
		if (v[i])
			munmap(v[i], UFT_SUBBUF_MAX);
		v[i] = NULL;
	}
}

static void big_key_make(void)
{
	pthread_key_create(&big_key, big_free);
}

/* Points pc->page at room for a page of `size` bytes; false if none. */
static bool copy_room(struct page_copy *pc, uint32_t size)
{
	pc->size = size;
	if (size > UFT_SUBBUF_MAX)
		return false;
	if (pc->dest) {
		pc->page = pc->dest;
		return true;
	}
	uint8_t **big = &big_pages[pc->slot % PC_NR];
	if (!*big) {
		void *p = mmap(NULL, UFT_SUBBUF_MAX, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return false;
		*big = p;
		/* The thread's exit unmaps what it mapped. */
		pthread_once(&big_once, big_key_make);
		pthread_setspecific(big_key, big_pages);
	}
	pc->page = *big;
	return true;
}

/* The copy of a page another thread may be rewriting is a seqlock read:
 * validated afterwards, never trusted before. ThreadSanitizer is told so. */
#if defined(__SANITIZE_THREAD__)
#define UFT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UFT_TSAN 1
#endif
#endif
#ifdef UFT_TSAN
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define racy_reads_begin() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define racy_reads_end() AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#define racy_reads_begin() ((void)0)
#define racy_reads_end() ((void)0)
#endif

enum copy_result { COPY_OK, COPY_RACE, COPY_BAD };

/* Copies slot `idx` and its meta; COPY_RACE if the slot does not hold page
 * `idx` yet (the writer is switching to it), was reused before the copy was
 * complete, or the ring is being (or was) handed to another thread since the
 * reader took generation `gen` (a ring being set up is never copied, and a
 * writer bumps the generation before any byte of a reused ring changes);
 * COPY_BAD if its commit length does not fit a page. */
static enum copy_result copy_page(struct uft_ring *r, const struct uft_ring_geom *g, uint32_t gen,
				  uint64_t idx, struct page_copy *out, bool partial)
{
	if (smp_load_acquire(&r->state) == UFT_RING_INIT)
		return COPY_RACE;
	if (!copy_room(out, g->subbuf_size))
		return COPY_RACE;
	const char *src = page_at(r, g, idx);
	struct uft_slot_meta *m = &r->meta[idx % g->nr_pages];
	/* The writer names the page in its slot after the page header, so a
	 * commit word read after this is the page's own, not its predecessor's. */
	if (idx && smp_load_acquire(&m->seq_lo) != (uint32_t)idx)
		return COPY_RACE;
	uint64_t commit = smp_load_acquire((const uint64_t *)(src + 8));
	uint32_t len = (uint32_t)(commit & UFT_RB_COMMIT_MASK);
	uint32_t data_size = g->subbuf_size - UFT_PAGE_HDR_SIZE;
	if (len > data_size)
		return COPY_BAD;
	racy_reads_begin();
	out->meta.first_entry = m->first_entry;
	out->meta.cpu = m->cpu;
	out->meta.seq_lo = (uint32_t)idx;
	if (partial) {
		memcpy(out->page, src, UFT_PAGE_HDR_SIZE + len);
		memset(out->page + UFT_PAGE_HDR_SIZE + len, 0, data_size - len);
		uint64_t c = len;
		memcpy(out->page + 8, &c, 8);
	} else {
		memcpy(out->page, src, g->subbuf_size);
	}
	racy_reads_end();
	uft_fence_acquire();
	uint64_t p = smp_load_acquire(&r->produced);
	/* The copy's own commit word is checked again by the page iterator. */
	return p < idx + g->nr_pages && smp_load_acquire(&r->generation) == gen ? COPY_OK
										: COPY_RACE;
}

/* Ring units to the clock's units: raw TSC cycles become nanoseconds. */
static inline uint64_t ring_time(const struct uft_ring *r, uint64_t ts)
{
	if (!r->ts_raw)
		return ts;
	return r->ts_zero + (uint64_t)(((unsigned __int128)ts * r->ts_mult) >> (r->ts_shift & 63));
}

uint64_t uft_ring_time(const struct uft_ring *r, uint64_t ts)
{
	return ring_time(r, ts);
}

/* Records before (clear_page, clear_off) were cleared by a reader of the
 * buffer (`echo > trace`): skipped, and not counted as lost. */
static inline bool cleared(const struct uft_ring *r, uint64_t page, uint32_t off)
{
	uint64_t cp = smp_load_acquire(&r->clear_page);
	if (page != cp)
		return page < cp;
	return off < READ_ONCE(r->clear_off);
}

/* A ring's time conversion, read once per page: the header's cache lines
 * also hold counters the writer keeps changing (`entries`, `dropped`,
 * `overrun`), so reading them per record would miss in the cache each time. */
void uft_ring_clock_read(const struct uft_ring *r, struct uft_ring_clock *k)
{
	k->raw = READ_ONCE(r->ts_raw);
	k->shift = READ_ONCE(r->ts_shift) & 63;
	k->mult = READ_ONCE(r->ts_mult);
	k->zero = READ_ONCE(r->ts_zero);
}

/* Delivers the records of a page copy from the cursor's offset on. Returns
 * the events delivered; *stop is set when the callback asked to stop. The
 * clear point is read once for the page (a clear that comes while it is
 * delivered counts as coming after it). */
static long deliver(const struct uft_ring *r, struct uft_ring_cursor *c, struct page_copy *pc,
		    uft_ring_record_fn fn, void *ctx, bool *stop, bool *ended)
{
	struct uft_page_iter it;
	struct uft_page_rec rec;
	long n = 0;
	struct uft_ring_clock k;
	uft_ring_clock_read(r, &k);
	if (c->raw_ts)
		k.raw = 0;
	uint64_t cp = smp_load_acquire(&r->clear_page);
	uint32_t co = READ_ONCE(r->clear_off);
	/* Records of this page before this offset were cleared. */
	uint32_t clear_to = c->page < cp ? UINT32_MAX : c->page == cp ? co : 0;
	uft_page_iter_init(&it, pc->page, pc->size);
	if (c->off == 0) {
		c->cpu = pc->meta.cpu;
		if (pc->meta.first_entry > c->next_entry) {
			uint64_t gap = pc->meta.first_entry - c->next_entry;
			c->missed += gap;
			c->missed_pending += gap;
			c->next_entry = pc->meta.first_entry;
		}
	} else {
		uft_page_iter_seek(&it, c->off, c->ts);
	}
	*ended = false;
	for (;;) {
		uint32_t at = it.off;
		if (uft_page_iter_next(&it, &rec) <= 0) {
			*ended = true;
			break;
		}
		if (*stop) { /* one past the last delivered: the page goes on */
			it.off = at;
			break;
		}
		const struct uft_common_entry *e = rec.data;
		c->off = it.off;
		c->ts = it.ts;
		if (rec.len < sizeof(*e))
			continue;
		if (e->type == UFT_ID_CPU_MARK) {
			if (rec.len >= sizeof(*e) + 4)
				memcpy(&c->cpu, (const char *)rec.data + sizeof(*e), 4);
			continue;
		}
		c->next_entry++;
		/* the record's own offset: a discarded record before it is
		 * skipped by the iterator */
		if (rec.offset < clear_to) {
			c->missed_pending = 0;
			continue;
		}
		uint64_t lost = c->missed_pending;
		c->missed_pending = 0;
		c->delivered++;
		n++;
		if (fn(ctx, uft_ring_clock_time(&k, rec.ts), c->cpu, rec.data, rec.len, lost))
			*stop = true;
	}
	if (it.corrupt)
		c->corrupt++;
	if (*ended) {
		c->off = it.off;
		c->ts = it.ts;
	}
	return n;
}

/* A page offered whole: the cursor moves past it as if its records had been
 * delivered. -1 if page_fn declined it. */
static long take_page(const struct uft_ring *r, struct uft_ring_cursor *c, struct page_copy *pc,
		      uft_ring_page_fn page_fn, void *ctx)
{
	uint64_t gap =
	    pc->meta.first_entry > c->next_entry ? pc->meta.first_entry - c->next_entry : 0;
	struct uft_ring_clock k;
	uft_ring_clock_read(r, &k);
	long n = page_fn(ctx, pc->page, pc->size, pc->meta.cpu, c->missed_pending + gap, &k);
	if (n < 0)
		return -1;
	c->missed += gap;
	c->missed_pending = 0;
	c->next_entry += gap + (uint64_t)n;
	c->delivered += (uint64_t)n;
	c->cpu = pc->meta.cpu;
	return n;
}

/* Whether nothing of page `idx` was cleared (`echo > trace`). */
static inline bool page_uncleared(const struct uft_ring *r, uint64_t idx)
{
	uint64_t cp = smp_load_acquire(&r->clear_page);
	return idx > cp || (idx == cp && READ_ONCE(r->clear_off) == 0);
}

long uft_ring_drain(struct uft_ring *r, struct uft_ring_cursor *c, bool partial,
		    uft_ring_record_fn fn, void *ctx)
{
	return uft_ring_drain_pages(r, c, partial, fn, NULL, ctx);
}

/* A writer waiting in block mode for `consumed` to reach its want is woken
 * once it has (the futex on consumed's low word, shared between processes). */
static void wake_blocked(struct uft_ring *r, uint64_t consumed)
{
	uint64_t want = uft_load_seq_cst(&r->block_want);
	if (!want || consumed < want || !uft_try_cmpxchg(&r->block_want, &want, 0))
		return;
	syscall(SYS_futex, (uint32_t *)&r->consumed, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

long uft_ring_drain_pages(struct uft_ring *r, struct uft_ring_cursor *c, bool partial,
			  uft_ring_record_fn fn, const struct uft_ring_page_ops *ops, void *ctx)
{
	static __thread struct page_copy pc = {.slot = PC_DRAIN};
	long total = 0;
	bool stop = false;
	if (c->generation != smp_load_acquire(&r->generation))
		cursor_reset(c, r);
	struct uft_ring_geom g;
	if (!geom_of(r, c, &g))
		return 0;
	int retries = 0;
	while (!stop) {
		/* Handed to another thread: what is left of ours is gone (the
		 * writer that took it counted it), and its pages are not ours to
		 * release. The next call starts on the new generation. */
		if (smp_load_acquire(&r->generation) != c->generation)
			return total;
		uint64_t p = smp_load_acquire(&r->produced);
		uint64_t cons = smp_load_acquire(&r->consumed);
		/* `produced` read first never passes `consumed` by a ring's worth:
		 * the writer waits for (or retires) the oldest page. `consumed`
		 * past it means the writer moved on meanwhile: read again, a few
		 * times (a rewritten pair must not keep a reader here). */
		if (p - cons >= g.nr_pages && (cons <= p || ++retries > 8)) {
			c->bad_state++;
			break;
		}
		if (cons > p)
			continue;
		if (c->page < cons) {
			/* The writer retired pages we had not read (overwrite mode). */
			c->page = cons;
			c->off = 0;
			continue;
		}
		if (c->page < p) {
			/* A copy is good if the writer had not moved on to reuse its slot
			 * when the copy was done (copy_page checks `produced` after it). */
			bool ended = true;
			bool whole = ops && c->off == 0 && page_uncleared(r, c->page);
			pc.dest = whole && ops->room ? ops->room(ctx, g.subbuf_size) : NULL;
			enum copy_result cr = copy_page(r, &g, c->generation, c->page, &pc, false);
			long took = -1;
			if (cr == COPY_OK && whole)
				took = take_page(r, c, &pc, ops->take, ctx);
			if (took < 0 && pc.dest && cr == COPY_OK) {
				/* The caller's room is for pages it takes. */
				uint8_t *theirs = pc.dest;
				pc.dest = NULL;
				if (!copy_room(&pc, g.subbuf_size))
					cr = COPY_RACE;
				else
					memcpy(pc.page, theirs, g.subbuf_size);
			}
			pc.dest = NULL;
			if (took >= 0)
				total += took;
			else if (cr == COPY_OK)
				total += deliver(r, c, &pc, fn, ctx, &stop, &ended);
			c->bad_pages += cr == COPY_BAD;
			if (!ended)
				break; /* the rest of the page is for the next call */
			/* Release the slot; failing means the writer retired it first.
			 * A ring reused since the copy keeps its pages (the window left
			 * between this check and the cmpxchg is a few instructions). */
			if (smp_load_acquire(&r->generation) != c->generation)
				return total;
			uint64_t want = c->page;
			if (uft_try_cmpxchg(&r->consumed, &want, want + 1))
				wake_blocked(r, want + 1);
			c->page++;
			c->off = 0;
			continue;
		}
		if (partial && c->page == p) {
			bool ended;
			enum copy_result cr = copy_page(r, &g, c->generation, c->page, &pc, true);
			if (cr == COPY_OK)
				total += deliver(r, c, &pc, fn, ctx, &stop, &ended);
			c->bad_pages += cr == COPY_BAD;
		}
		break;
	}
	if (smp_load_acquire(&r->generation) == c->generation) {
		WRITE_ONCE(r->read_entries, c->delivered);
		WRITE_ONCE(r->wake_pending, 0);
	}
	return total;
}

/* The oldest page a non-consuming reader shows: after `consumed` and the
 * clear point, and never more than a ring's worth before `produced` (a
 * rewritten field must not send a reader through billions of pages). */
static uint64_t first_page(struct uft_ring *r, const struct uft_ring_geom *g, uint64_t p)
{
	uint64_t start = smp_load_acquire(&r->consumed);
	uint64_t cp = smp_load_acquire(&r->clear_page);
	if (cp > start)
		start = cp;
	if (start > p || p - start >= g->nr_pages)
		start = p >= g->nr_pages - 1 ? p - (g->nr_pages - 1) : 0;
	return start;
}

long uft_ring_peek(struct uft_ring *r, uft_ring_record_fn fn, void *ctx)
{
	struct uft_ring_geom g;
	if (!geom_of(r, NULL, &g))
		return 0;
	return uft_ring_peek_geom(r, &g, fn, ctx);
}

long uft_ring_peek_geom(struct uft_ring *r, const struct uft_ring_geom *geom, uft_ring_record_fn fn,
			void *ctx)
{
	static __thread struct page_copy pc = {.slot = PC_PEEK};
	struct uft_ring_cursor c = {0};
	long total = 0;
	bool stop = false;
	struct uft_ring_geom g = *geom;
	uft_ring_cursor_init(&c, r);
	uint64_t p = smp_load_acquire(&r->produced);
	uint64_t start = first_page(r, &g, p);
	for (uint64_t idx = start; idx <= p && !stop; idx++) {
		if (copy_page(r, &g, c.generation, idx, &pc, idx == p) != COPY_OK)
			continue; /* overwritten while we looked */
		c.page = idx;
		c.off = 0;
		c.next_entry = pc.meta.first_entry; /* a snapshot reports no losses */
		bool ended;
		total += deliver(r, &c, &pc, fn, ctx, &stop, &ended);
	}
	return total;
}

void uft_ring_consumed_to(struct uft_ring *r, const struct uft_ring_cursor *c)
{
	uint64_t cp = smp_load_acquire(&r->clear_page);
	uint32_t co = READ_ONCE(r->clear_off);
	if (c->page < cp || (c->page == cp && c->off <= co))
		return;
	WRITE_ONCE(r->clear_off, c->off);
	smp_store_release(&r->clear_page, c->page);
}

void uft_ring_clear(struct uft_ring *r)
{
	struct uft_ring_geom g;
	if (!geom_of(r, NULL, &g))
		return;
	uint64_t p = smp_load_acquire(&r->produced);
	const char *page = page_at(r, &g, p);
	/* A page whose slot does not name it yet is being set up by the writer:
	 * its header's commit word is still its predecessor's, and nothing of
	 * it is committed. */
	uint64_t commit = 0;
	if (!p || smp_load_acquire(&r->meta[p % g.nr_pages].seq_lo) == (uint32_t)p)
		commit = smp_load_acquire((const uint64_t *)(page + 8));
	WRITE_ONCE(r->clear_off, (uint32_t)(commit & UFT_RB_COMMIT_MASK));
	smp_store_release(&r->clear_page, p);
	r->overrun_base = READ_ONCE(r->overrun);
	/* Complete pages go back to the writer. */
	uint64_t c = smp_load_acquire(&r->consumed);
	while (c < p && !uft_try_cmpxchg(&r->consumed, &c, p))
		;
	wake_blocked(r, p);
}

long uft_ring_take_until(struct uft_ring *r, uint64_t limit, uft_ring_record_fn fn, void *ctx)
{
	static __thread struct page_copy pc = {.slot = PC_TAKE};
	long total = 0;
	bool past = false, any = false;
	uint64_t end_page = 0;
	uint32_t end_off = 0;
	uint32_t gen = smp_load_acquire(&r->generation);
	struct uft_ring_geom g;
	if (!geom_of(r, NULL, &g))
		return 0;
	uint64_t p = smp_load_acquire(&r->produced);
	uint64_t start = first_page(r, &g, p);
	for (uint64_t idx = start; idx <= p && !past; idx++) {
		if (copy_page(r, &g, gen, idx, &pc, idx == p) != COPY_OK)
			continue; /* overwritten while we looked */
		struct uft_page_iter it;
		struct uft_page_rec rec;
		uint32_t cpu = pc.meta.cpu;
		uft_page_iter_init(&it, pc.page, pc.size);
		for (;;) {
			if (uft_page_iter_next(&it, &rec) <= 0)
				break;
			/* A ring's times never go backwards: the rest is later. */
			if (rec.ts > limit) {
				past = true;
				break;
			}
			end_page = idx;
			end_off = it.off;
			any = true;
			const struct uft_common_entry *e = rec.data;
			if (rec.len < sizeof(*e))
				continue;
			if (e->type == UFT_ID_CPU_MARK) {
				if (rec.len >= sizeof(*e) + 4)
					memcpy(&cpu, (const char *)rec.data + sizeof(*e), 4);
				continue;
			}
			if (cleared(r, idx, rec.offset))
				continue;
			total++;
			if (fn(ctx, ring_time(r, rec.ts), cpu, rec.data, rec.len, 0)) {
				past = true;
				break;
			}
		}
	}
	if (!any)
		return total;
	struct uft_ring_cursor c = {.page = end_page, .off = end_off};
	uft_ring_consumed_to(r, &c);
	r->overrun_base = READ_ONCE(r->overrun);
	/* Complete pages before the new clear point go back to the writer. */
	uint64_t cons = smp_load_acquire(&r->consumed);
	while (cons < end_page && !uft_try_cmpxchg(&r->consumed, &cons, end_page))
		;
	wake_blocked(r, end_page);
	return total;
}

uint64_t uft_ring_written(struct uft_ring *r, const struct uft_ring_geom *geom)
{
	uint32_t gen = smp_load_acquire(&r->generation);
	struct uft_ring_geom g;
	if (geom)
		g = *geom;
	else if (!geom_of(r, NULL, &g))
		return 0;
	uint64_t p = smp_load_acquire(&r->produced);
	static __thread struct page_copy written_pc = {.slot = PC_WRITTEN};
	struct page_copy *pc = &written_pc;
	if (copy_page(r, &g, gen, p, pc, true) != COPY_OK)
		return uft_load_seq_cst(&r->entries);
	struct uft_page_iter it;
	struct uft_page_rec rec;
	uint64_t n = p ? pc->meta.first_entry : 0;
	uft_page_iter_init(&it, pc->page, pc->size);
	while (uft_page_iter_next(&it, &rec) > 0) {
		const struct uft_common_entry *e = rec.data;
		if (rec.len >= sizeof(*e) && e->type != UFT_ID_CPU_MARK)
			n++;
	}
	return n;
}
