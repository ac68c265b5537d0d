/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Decoding and re-encoding of kernel ring-buffer sub-buffers (the kernel's
 * Documentation/trace/ring-buffer-design.txt; docs/design/ring-buffer.md).
 * The iterator sees untrusted input (files, other processes' memory): every
 * header is bounds-checked against the commit size before it is read. */
#include "wire/page.h"

#define TS_MSB (~0ull << 59)	      /* bits an absolute TIME_STAMP record cannot hold */
#define EXTEND_MAX ((1ull << 59) - 1) /* largest delta one TIME_EXTEND carries */

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

void uft_page_iter_init(struct uft_page_iter *it, const void *page, uint32_t page_size)
{
	memset(it, 0, sizeof(*it));
	if (!page || page_size < UFT_PAGE_HDR_SIZE) {
		it->corrupt = true;
		return;
	}
	const uint8_t *p = page;
	uint32_t data_size = page_size - UFT_PAGE_HDR_SIZE;
	uint64_t commit = rd64(p + 8);

	it->data = p + UFT_PAGE_HDR_SIZE;
	it->ts = rd64(p);
	it->commit = (uint32_t)(commit & UFT_RB_COMMIT_MASK);
	it->missed = (commit & UFT_RB_MISSED_EVENTS) != 0;
	if (it->commit > data_size) {
		it->corrupt = true;
		it->commit = 0;
		return;
	}
	/* A count is only meaningful with the missed flag (kbuffer agrees). */
	if (it->missed && (commit & UFT_RB_MISSED_STORED) && data_size - it->commit >= 8) {
		it->missed_stored = true;
		it->missed_count = rd64(it->data + it->commit);
	}
}

void uft_page_iter_seek(struct uft_page_iter *it, uint32_t off, uint64_t ts)
{
	it->off = off;
	it->ts = ts;
}

static int corrupt(struct uft_page_iter *it)
{
	it->corrupt = true;
	return -1;
}

int uft_page_iter_next(struct uft_page_iter *it, struct uft_page_rec *rec)
{
	if (it->corrupt)
		return -1;
	while (it->off < it->commit) {
		uint32_t off = it->off, left = it->commit - off;
		if (left < 4)
			return corrupt(it);
		uint32_t w = rd32(it->data + off);
		uint32_t type = w & 0x1f, delta = w >> 5;
		uint32_t arr = left >= 8 ? rd32(it->data + off + 4) : 0;

		switch (type) {
		case UFT_RB_TYPE_PADDING:
			if (delta == 0) /* end-of-page filler */
				return 0;
			if (left < 8)
				return corrupt(it);
			/* A discarded record still counts its delta, as kbuffer does. */
			it->ts += delta;
			if (arr > left - 4)
				return corrupt(it);
			it->off = off + 4 + arr;
			continue;
		case UFT_RB_TYPE_TIME_EXTEND:
			if (left < 8)
				return corrupt(it);
			it->ts += ((uint64_t)arr << UFT_RB_DELTA_BITS) + delta;
			it->off = off + 8;
			continue;
		case UFT_RB_TYPE_TIME_STAMP: {
			if (left < 8)
				return corrupt(it);
			uint64_t ts = ((uint64_t)arr << UFT_RB_DELTA_BITS) | delta;
			/* The record holds 59 bits; the rest comes from the clock so far. */
			if (it->ts & TS_MSB) {
				ts |= it->ts & TS_MSB;
				if (ts < it->ts)
					ts += 1ull << 59;
			}
			it->ts = ts;
			it->off = off + 8;
			continue;
		}
		case 0:
			/* array[0] = payload + 4, covering itself. */
			if (left < 8 || arr < 4 || arr > left - 4)
				return corrupt(it);
			it->ts += delta;
			rec->ts = it->ts;
			rec->data = it->data + off + 8;
			rec->len = arr - 4;
			rec->offset = off;
			it->off = off + 4 + arr;
			return 1;
		default:
			if (type * 4u > left - 4)
				return corrupt(it);
			it->ts += delta;
			rec->ts = it->ts;
			rec->data = it->data + off + 4;
			rec->len = type * 4u;
			rec->offset = off;
			it->off = off + 4 + type * 4u;
			return 1;
		}
	}
	return 0;
}

void uft_page_builder_init(struct uft_page_builder *b, void *page, uint32_t page_size)
{
	b->page = page;
	b->page_size = page_size;
	b->tail = 0;
	b->last_ts = 0;
	b->nr_records = 0;
	memset(page, 0, UFT_PAGE_HDR_SIZE);
}

int uft_page_builder_add(struct uft_page_builder *b, uint64_t ts, const void *payload, uint32_t len)
{
	if (b->page_size <= UFT_PAGE_HDR_SIZE)
		return -2;
	uint32_t data_size = b->page_size - UFT_PAGE_HDR_SIZE;
	/* Checked before uft_rb_record_size(), whose rounding would wrap. */
	if (len > data_size)
		return -2;
	uint32_t need = uft_rb_record_size(len);
	if (need > data_size)
		return -2;

	uint8_t *data = b->page + UFT_PAGE_HDR_SIZE;
	uint64_t delta = 0;
	if (b->nr_records == 0) {
		/* The page base is the first record's time. */
		if (need > data_size - b->tail)
			return -1;
		memcpy(b->page, &ts, 8);
		b->last_ts = ts;
	} else {
		delta = ts > b->last_ts ? ts - b->last_ts : 0; /* clamp: no going back */
		/* One extend holds 59 bits; deltas beyond that (clock jumps) take more. */
		uint64_t nr_ext = 0;
		for (uint64_t d = delta; d > UFT_RB_DELTA_MAX; nr_ext++)
			d -= d < EXTEND_MAX ? d : EXTEND_MAX;
		if (nr_ext * 8 + need > data_size - b->tail)
			return -1;
		while (delta > UFT_RB_DELTA_MAX) {
			uint64_t d = delta < EXTEND_MAX ? delta : EXTEND_MAX;
			uft_rb_put_time_extend(data + b->tail, d);
			b->tail += 8;
			delta -= d;
		}
		/* The remainder, if any, rides in the record's own delta. */
		if (ts > b->last_ts)
			b->last_ts = ts;
	}

	uint8_t *rec = data + b->tail;
	uint8_t *pl = uft_rb_put_data_header(rec, len, (uint32_t)delta);
	uint32_t room = need - (uint32_t)(pl - rec);
	if (len)
		memcpy(pl, payload, len);
	memset(pl + len, 0, room - len); /* alignment bytes */
	b->tail += need;
	b->nr_records++;
	return 0;
}

void uft_page_builder_finish(struct uft_page_builder *b, uint64_t missed)
{
	if (b->page_size < UFT_PAGE_HDR_SIZE)
		return;
	uint32_t data_size = b->page_size - UFT_PAGE_HDR_SIZE;
	uint8_t *data = b->page + UFT_PAGE_HDR_SIZE;
	uint64_t commit = b->tail;
	uint32_t end = b->tail;

	if (missed) {
		commit |= UFT_RB_MISSED_EVENTS;
		if (missed != (uint64_t)-1 && data_size - b->tail >= 8) {
			memcpy(data + b->tail, &missed, 8);
			commit |= UFT_RB_MISSED_STORED;
			end += 8;
		}
	}
	memcpy(b->page + 8, &commit, 8);
	memset(data + end, 0, data_size - end);
}
