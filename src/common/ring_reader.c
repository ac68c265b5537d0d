#include "common/ring_reader.h"

#include <stdatomic.h>
#include <string.h>

#include "common/page.h"
#include <uft/event.h>

void uft_ring_cursor_init(struct uft_ring_cursor *c, const struct uft_ring *r)
{
	memset(c, 0, sizeof(*c));
	c->generation = r->generation;
}

struct page_copy {
	struct uft_slot_meta meta;
	uint8_t page[UFT_SUBBUF_SIZE];
};

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

/* Copies slot `idx` and its meta; false if the slot does not hold page `idx`
 * yet (the writer is switching to it) or was reused before the copy was
 * complete. */
static bool copy_page(struct uft_ring *r, uint64_t idx, struct page_copy *out, bool partial)
{
	const char *src = uft_ring_page(r, idx);
	struct uft_slot_meta *m = &r->meta[idx % r->nr_pages];
	/* The writer names the page in its slot after the page header, so a
	 * commit word read after this is the page's own, not its predecessor's. */
	if (idx && __atomic_load_n(&m->seq_lo, __ATOMIC_ACQUIRE) != (uint32_t)idx)
		return false;
	uint64_t commit = atomic_load_explicit((_Atomic uint64_t *)(src + 8), memory_order_acquire);
	uint32_t len = (uint32_t)(commit & UFT_RB_COMMIT_MASK);
	if (len > UFT_PAGE_DATA_SIZE)
		len = UFT_PAGE_DATA_SIZE;
	racy_reads_begin();
	out->meta.first_entry = m->first_entry;
	out->meta.cpu = m->cpu;
	out->meta.seq_lo = (uint32_t)idx;
	if (partial) {
		memcpy(out->page, src, UFT_PAGE_HDR_SIZE + len);
		memset(out->page + UFT_PAGE_HDR_SIZE + len, 0, UFT_PAGE_DATA_SIZE - len);
		uint64_t c = len;
		memcpy(out->page + 8, &c, 8);
	} else {
		memcpy(out->page, src, UFT_SUBBUF_SIZE);
	}
	racy_reads_end();
	atomic_thread_fence(memory_order_acquire);
	uint64_t p = atomic_load_explicit(&r->produced, memory_order_acquire);
	return p < idx + r->nr_pages;
}

/* Ring units to the clock's units: raw TSC cycles become nanoseconds. */
static inline uint64_t ring_time(const struct uft_ring *r, uint64_t ts)
{
	if (!r->ts_raw)
		return ts;
	return r->ts_zero + (uint64_t)(((unsigned __int128)ts * r->ts_mult) >> (r->ts_shift & 63));
}

static long deliver(const struct uft_ring *r, struct uft_ring_cursor *c, struct page_copy *pc,
		    uft_ring_record_fn fn, void *ctx, bool *stop)
{
	struct uft_page_iter it;
	struct uft_page_rec rec;
	long n = 0;
	uft_page_iter_init(&it, pc->page, UFT_SUBBUF_SIZE);
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
	int rc;
	while (!*stop && (rc = uft_page_iter_next(&it, &rec)) > 0) {
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
		uint64_t lost = c->missed_pending;
		c->missed_pending = 0;
		c->next_entry++;
		c->delivered++;
		n++;
		if (fn(ctx, ring_time(r, rec.ts), c->cpu, rec.data, rec.len, lost))
			*stop = true;
	}
	if (it.corrupt)
		c->corrupt++;
	c->off = it.off;
	c->ts = it.ts;
	return n;
}

long uft_ring_drain(struct uft_ring *r, struct uft_ring_cursor *c, bool partial,
		    uft_ring_record_fn fn, void *ctx)
{
	static __thread struct page_copy pc;
	long total = 0;
	bool stop = false;
	if (c->generation != r->generation)
		uft_ring_cursor_init(c, r);
	while (!stop) {
		uint64_t p = atomic_load_explicit(&r->produced, memory_order_acquire);
		uint64_t cons = atomic_load_explicit(&r->consumed, memory_order_acquire);
		if (c->page < cons) {
			/* The writer retired pages we had not read (overwrite mode). */
			c->page = cons;
			c->off = 0;
			continue;
		}
		if (c->page < p) {
			/* Copy first, then release the slot: the writer reuses a slot only
			 * once `consumed` has passed it, so a successful release proves the
			 * copy was not overwritten. A failed one means the writer retired
			 * the page meanwhile (overwrite mode): the copy is dropped. */
			bool ok = copy_page(r, c->page, &pc, false);
			uint64_t want = c->page;
			if (!atomic_compare_exchange_strong(&r->consumed, &want, want + 1))
				continue;
			if (ok)
				total += deliver(r, c, &pc, fn, ctx, &stop);
			c->page++;
			c->off = 0;
			continue;
		}
		if (partial && c->page == p) {
			if (copy_page(r, c->page, &pc, true))
				total += deliver(r, c, &pc, fn, ctx, &stop);
		}
		break;
	}
	atomic_store_explicit(&r->read_entries, c->delivered, memory_order_relaxed);
	atomic_store_explicit(&r->wake_pending, 0, memory_order_relaxed);
	return total;
}

uint64_t uft_ring_written(struct uft_ring *r)
{
	uint64_t p = atomic_load_explicit(&r->produced, memory_order_acquire);
	struct page_copy *pc = &(struct page_copy){0};
	if (!copy_page(r, p, pc, true))
		return atomic_load(&r->entries);
	struct uft_page_iter it;
	struct uft_page_rec rec;
	uint64_t n = p ? pc->meta.first_entry : 0;
	uft_page_iter_init(&it, pc->page, UFT_SUBBUF_SIZE);
	while (uft_page_iter_next(&it, &rec) > 0) {
		const struct uft_common_entry *e = rec.data;
		if (rec.len >= sizeof(*e) && e->type != UFT_ID_CPU_MARK)
			n++;
	}
	return n;
}
