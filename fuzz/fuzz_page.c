/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the sub-buffer code two ways: the input as a page for the iterator
 * (which must stay inside it), and the input as a script of records for the
 * builder, whose pages must decode back to exactly those records. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/page.h"

#define PS 4096u

static void decode_raw(const uint8_t *data, size_t size)
{
	uint32_t ps = size > 65536 ? 65536 : (uint32_t)size;
	uint8_t *page = malloc(ps ? ps : 1);
	if (!page)
		return;
	memcpy(page, data, ps);
	struct uft_page_iter it;
	struct uft_page_rec r;
	uint64_t sum = 0;
	int rc;
	uft_page_iter_init(&it, page, ps);
	while ((rc = uft_page_iter_next(&it, &r)) == 1) {
		const uint8_t *p = r.data;
		if (p < page + UFT_PAGE_HDR_SIZE || r.len > (size_t)(page + ps - p))
			abort();
		sum += r.len ? p[r.len - 1] : 0;
	}
	if (rc == -1 && !it.corrupt)
		abort();
	if (it.missed_stored && !it.missed)
		abort();
	/* Resuming from any offset is just as safe. */
	if (ps >= 20) {
		uint32_t off;
		memcpy(&off, page + ps - 4, 4);
		uft_page_iter_init(&it, page, ps);
		uft_page_iter_seek(&it, off, sum);
		while (uft_page_iter_next(&it, &r) == 1)
			sum += r.len;
	}
	free(page);
}

struct op {
	uint64_t ts;
	uint32_t len;
	uint8_t fill;
};

static void check_page(const uint8_t *page, const struct op *ops, size_t n)
{
	struct uft_page_iter it;
	struct uft_page_rec r;
	uint64_t last = 0;
	uft_page_iter_init(&it, page, PS);
	for (size_t i = 0; i < n; i++) {
		if (uft_page_iter_next(&it, &r) != 1)
			abort();
		uint64_t want = i && ops[i].ts < last ? last : ops[i].ts;
		last = want;
		if (r.ts != want || r.len < ops[i].len || r.len > ops[i].len + 4)
			abort();
		const uint8_t *p = r.data;
		for (uint32_t k = 0; k < ops[i].len; k++)
			if (p[k] != (uint8_t)(ops[i].fill + k))
				abort();
	}
	if (uft_page_iter_next(&it, &r) != 0)
		abort();
}

/* Script: 6-byte steps of u32 time step (top bit: go back) + u16 length. */
static void build_script(const uint8_t *data, size_t size)
{
	static uint8_t page[PS];
	static uint8_t payload[PS + 8];
	static struct op ops[PS];
	struct uft_page_builder b;
	size_t n = 0;
	uint64_t ts = 1;
	uft_page_builder_init(&b, page, PS);
	for (size_t i = 0; i + 6 <= size; i += 6) {
		uint32_t step;
		uint16_t len;
		memcpy(&step, data + i, 4);
		memcpy(&len, data + i + 4, 2);
		/* Scale some steps up so extends (and multi-extends) show up. */
		uint64_t d = (uint64_t)(step & 0x0fffffff) << ((step >> 28 & 7) * 5);
		ts = step & 0x80000000u ? ts - (d < ts ? d : 0) : ts + d;
		/* Mostly small records (fast), sometimes up to just past a page. */
		uint32_t l = len & 0x8000 ? len % (PS + 8) : len % 160;
		struct op o = {ts, l, (uint8_t)step};
		for (uint32_t k = 0; k < o.len; k++)
			payload[k] = (uint8_t)(o.fill + k);
		int rc = uft_page_builder_add(&b, o.ts, payload, o.len);
		if (rc == -1) {
			uft_page_builder_finish(&b, len & 1 ? step : 0);
			check_page(page, ops, n);
			n = 0;
			uft_page_builder_init(&b, page, PS);
			rc = uft_page_builder_add(&b, o.ts, payload, o.len);
		}
		if (rc == -2 && o.len <= PS - UFT_PAGE_HDR_SIZE - 8)
			abort(); /* a record that fits an empty page was refused */
		if (rc == 0)
			ops[n++] = o;
		else if (rc != -2)
			abort();
	}
	uft_page_builder_finish(&b, 0);
	check_page(page, ops, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	decode_raw(data, size);
	build_script(data, size);
	return 0;
}
