/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading a thread ring from another process (or thread) without a lock: the
 * produced/consumed protocol. A complete page is copied and then released by
 * advancing `consumed` with compare-and-swap; the copy counts only if the
 * release succeeds (the writer did not retire the page meanwhile). The page
 * being written is read up to its commit word without releasing it.
 *
 * The ring lives in memory another process can rewrite: its geometry is read
 * once (a cursor's, or once per call), checked, and every index, offset and
 * length derived from shared fields is checked before it is followed. */
#ifndef UFT_RING_READER_H
#define UFT_RING_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "wire/shm_layout.h"

/* A ring's geometry as a reader uses it: read once, checked, and never taken
 * from shared memory again (whoever else maps the region may rewrite it). */
struct uft_ring_geom {
	uint32_t nr_pages;
	uint32_t hdr_size;
	uint32_t subbuf_size; /* bytes of a page slot */
};

struct uft_ring_cursor {
	struct uft_ring_geom geom; /* set by the owner; zero: read from the ring */
	uint32_t generation;	   /* ring generation the cursor belongs to */
	uint64_t page;		   /* page index to read next */
	uint32_t off;		   /* data bytes of `page` already delivered */
	uint64_t ts;		   /* timestamp at `off` */
	uint32_t cpu;		   /* CPU in effect at `off` */
	uint64_t next_entry;	   /* writer sequence number expected next */
	uint64_t delivered;	   /* events handed to the callback */
	uint64_t missed;	   /* events lost to overwrite before they were read */
	uint64_t missed_pending;   /* lost right before the next delivered event */
	uint64_t corrupt;	   /* pages that failed to decode */
	uint64_t bad_pages;	   /* pages dropped: commit length past the page */
	uint64_t bad_state;	   /* reads refused: produced/consumed out of range */
	bool raw_ts;		   /* deliver the ring's own units (no TSC to ns) */
};

/* A ring's time conversion as read from it: ns = zero + (ts * mult) >> shift
 * when `raw`, else ts is already in the clock's units. */
struct uft_ring_clock {
	uint32_t raw, shift;
	uint64_t mult, zero;
};

/* Reads `r`'s time conversion once (shift clamped to 63). */
void uft_ring_clock_read(const struct uft_ring *r, struct uft_ring_clock *k);
static inline uint64_t uft_ring_clock_time(const struct uft_ring_clock *k, uint64_t ts)
{
	if (!k->raw)
		return ts;
	return k->zero + (uint64_t)(((unsigned __int128)ts * k->mult) >> k->shift);
}

/* A whole page offered as it is: `page` is the reader's private copy (the
 * callee may rewrite it), `size` its slot size, `cpu` the CPU the page
 * started on, `missed` the events of this ring lost right before it, `k` the
 * ring's clock as read for it. Returns the events it took (the page is then
 * consumed as delivered), or -1 to have its records delivered one by one. */
typedef long (*uft_ring_page_fn)(void *ctx, uint8_t *page, uint32_t size, uint32_t cpu,
				 uint64_t missed, const struct uft_ring_clock *k);

struct uft_ring_page_ops {
	uft_ring_page_fn take;
	/* Optional: where to copy a page about to be offered (`size` bytes),
	 * so that a page taken needs no second copy; NULL for the reader's
	 * own room. A declined page is moved out of it before its records
	 * are delivered. */
	uint8_t *(*room)(void *ctx, uint32_t size);
};

/* One event: its timestamp, CPU, payload (common header first) and the number
 * of events of this ring lost right before it. Return non-zero to stop. */
typedef int (*uft_ring_record_fn)(void *ctx, uint64_t ts, uint32_t cpu, const void *data,
				  uint32_t len, uint64_t missed_before);

/* Reads the geometry of `r` once and checks it: at least one page, a header
 * that holds the slot metadata, a page size that is a power of two from
 * UFT_SUBBUF_SIZE to UFT_SUBBUF_MAX (0 reads as UFT_SUBBUF_SIZE), total_size
 * holding its pages (a reused ring may be laid out inside a larger space),
 * and all of it inside `room` bytes from the ring's start. False if anything
 * does not fit. */
bool uft_ring_geom_read(const struct uft_ring *r, uint64_t room, struct uft_ring_geom *g);
/* Starts a cursor at the ring's current generation, geometry unset (a drain
 * that finds the generation changed keeps the geometry). */
void uft_ring_cursor_init(struct uft_ring_cursor *c, const struct uft_ring *r);
/* Delivers what is readable now and consumes it; with `partial` also the
 * committed part of the page being written. When the callback stops in the
 * middle of a page, the rest of it is delivered by the next call. Returns the
 * number of events delivered. */
long uft_ring_drain(struct uft_ring *r, struct uft_ring_cursor *c, bool partial,
		    uft_ring_record_fn fn, void *ctx);
/* The same, offering each complete page read from its start, with nothing
 * of it cleared, to `ops->take` first. */
long uft_ring_drain_pages(struct uft_ring *r, struct uft_ring_cursor *c, bool partial,
			  uft_ring_record_fn fn, const struct uft_ring_page_ops *ops, void *ctx);
/* Delivers everything readable now without consuming it (the `trace` file's
 * view): from the oldest unread page to what is committed of the current one,
 * nothing before the ring's clear point. */
long uft_ring_peek(struct uft_ring *r, uft_ring_record_fn fn, void *ctx);
/* The same with a geometry checked by the caller (shm_check_ring), for a
 * reader mapping another process's region (uft top). */
long uft_ring_peek_geom(struct uft_ring *r, const struct uft_ring_geom *g, uft_ring_record_fn fn,
			void *ctx);
/* Hides everything committed so far from every reader and hands the complete
 * pages back to the writer (`echo > trace`). */
void uft_ring_clear(struct uft_ring *r);
/* Moves the ring's clear point up to a consuming cursor, so what it read is
 * gone for every reader, as a consuming read is in the kernel. */
void uft_ring_consumed_to(struct uft_ring *r, const struct uft_ring_cursor *c);
/* The snapshot of a time: delivers, as uft_ring_peek does, the records
 * committed with a timestamp up to `limit` (in the ring's own units), then
 * moves the clear point past them and hands their complete pages back to
 * the writer; later records stay. Returns the number delivered. */
long uft_ring_take_until(struct uft_ring *r, uint64_t limit, uft_ring_record_fn fn, void *ctx);
/* A time in the ring's own units as readers deliver it (ns for raw TSC). */
uint64_t uft_ring_time(const struct uft_ring *r, uint64_t ts);
/* Events the writer committed, counted from its page metadata and the page it
 * is on (exact once the writer is gone). */
uint64_t uft_ring_written(struct uft_ring *r, const struct uft_ring_geom *g);

#endif
