/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's ring-buffer sub-buffer ("page") format: event headers, time
 * extends, padding and the commit word (docs/design/ring-buffer.md). Writers in the runtime
 * use the inline encoders below; consumers and tools decode with the iterator
 * and re-encode with the builder. 64-bit little-endian layout only. */
#ifndef UFT_PAGE_H
#define UFT_PAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "wire/shm_layout.h"

/* Bytes a data record of `len` payload bytes takes, header included. */
static inline uint32_t uft_rb_record_size(uint32_t len)
{
	uint32_t alen = (len + 3u) & ~3u;
	if (alen == 0)
		alen = 4;
	return alen <= UFT_RB_TYPE_DATA_MAX * 4u ? alen + 4u : alen + 8u;
}

/* Writes a data record header at `p`; returns where the payload starts. */
static inline void *uft_rb_put_data_header(void *p, uint32_t len, uint32_t delta)
{
	uint32_t alen = (len + 3u) & ~3u;
	uint32_t *w = (uint32_t *)p;
	if (alen == 0)
		alen = 4;
	if (alen <= UFT_RB_TYPE_DATA_MAX * 4u) {
		w[0] = (alen / 4u) | (delta << 5);
		return w + 1;
	}
	w[0] = delta << 5; /* type_len 0 */
	w[1] = alen + 4u;
	return w + 2;
}

/* The runtime writes every record in the kernel's forced-8-byte-alignment form
 * (type_len 0, length word, payload rounded to 8): payloads then start 8-byte
 * aligned, so the generated code may store 64-bit fields through typed
 * pointers. Size of such a record, header included: */
static inline uint32_t uft_rb_aligned_record_size(uint32_t len)
{
	return 8u + ((len + 7u) & ~7u);
}

/* Writes the header of an aligned record at `p`; returns the payload. */
static inline void *uft_rb_put_aligned_header(void *p, uint32_t len, uint32_t delta)
{
	uint32_t *w = (uint32_t *)p;
	w[0] = delta << 5; /* type_len 0 */
	w[1] = ((len + 7u) & ~7u) + 4u;
	return w + 2;
}

/* Writes an 8-byte TIME_EXTEND record carrying `delta`. */
static inline void uft_rb_put_time_extend(void *p, uint64_t delta)
{
	uint32_t *w = (uint32_t *)p;
	w[0] = UFT_RB_TYPE_TIME_EXTEND | (uint32_t)((delta & UFT_RB_DELTA_MAX) << 5);
	w[1] = (uint32_t)(delta >> UFT_RB_DELTA_BITS);
}

/* Closes a page whose data ends at `tail`: padding record up to the end. */
static inline void uft_rb_put_padding(void *data, uint32_t tail, uint32_t data_size)
{
	uint32_t left = data_size - tail;
	uint32_t *w = (uint32_t *)((char *)data + tail);
	if (left >= 8) {
		w[0] = UFT_RB_TYPE_PADDING | (1u << 5);
		w[1] = left - 4;
	} else if (left >= 4) {
		w[0] = UFT_RB_TYPE_PADDING;
	}
}

/* ---- decoding ---- */

struct uft_page_rec {
	uint64_t ts;
	const void *data; /* payload */
	uint32_t len;	  /* payload bytes (rounded to 4 as stored) */
	uint32_t offset;  /* offset of the record header in the data area */
};

struct uft_page_iter {
	const uint8_t *data; /* page data area */
	uint32_t commit;     /* bytes of event data */
	uint32_t off;
	uint64_t ts;
	bool missed;	    /* RB_MISSED_EVENTS set */
	bool missed_stored; /* count stored after the data */
	uint64_t missed_count;
	bool corrupt;
};

/* Starts iterating a page of `page_size` bytes (header included). */
void uft_page_iter_init(struct uft_page_iter *it, const void *page, uint32_t page_size);
/* Resumes at data offset `off` whose preceding timestamp is `ts`. */
void uft_page_iter_seek(struct uft_page_iter *it, uint32_t off, uint64_t ts);
/* 1: a data record in *rec; 0: end of page; -1: malformed page (it->corrupt). */
int uft_page_iter_next(struct uft_page_iter *it, struct uft_page_rec *rec);

/* ---- encoding whole pages (consumers re-encoding per-CPU streams) ---- */

struct uft_page_builder {
	uint8_t *page;
	uint32_t page_size;
	uint32_t tail; /* bytes of data written */
	uint64_t last_ts;
	uint32_t nr_records;
};

void uft_page_builder_init(struct uft_page_builder *b, void *page, uint32_t page_size);
/* Appends a record; 0 on success, -1 if the page is full (finish it and start a
 * new one). A record larger than a page's data area can never fit: -2. */
int uft_page_builder_add(struct uft_page_builder *b, uint64_t ts, const void *payload,
			 uint32_t len);
/* Sets the commit word (with RB_MISSED_EVENTS / RB_MISSED_STORED when `missed`
 * is non-zero; (uint64_t)-1 means "some, count unknown") and zeroes the rest. */
void uft_page_builder_finish(struct uft_page_builder *b, uint64_t missed);

#endif
