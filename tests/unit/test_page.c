/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sub-buffer encoding and decoding (src/wire/page.c), cross-checked against
 * libtraceevent's kbuffer, the decoder trace-cmd uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <kbuffer.h>

#include "wire/page.h"

#define PS 4096u
#define DATA_SIZE (PS - UFT_PAGE_HDR_SIZE)

struct rec {
	uint64_t ts;
	uint32_t len;
	uint8_t fill;
};

static void payload(uint8_t *buf, const struct rec *r)
{
	for (uint32_t i = 0; i < r->len; i++)
		buf[i] = (uint8_t)(r->fill + i);
}

/* Builds one page of `n` records; all must fit. */
static void build(uint8_t *page, const struct rec *recs, size_t n, uint64_t missed)
{
	struct uft_page_builder b;
	uint8_t buf[PS];
	memset(page, 0xa5, PS); /* finish() must clear what is unused */
	uft_page_builder_init(&b, page, PS);
	for (size_t i = 0; i < n; i++) {
		payload(buf, &recs[i]);
		assert_int_equal(uft_page_builder_add(&b, recs[i].ts, buf, recs[i].len), 0);
	}
	uft_page_builder_finish(&b, missed);
	assert_int_equal(b.nr_records, n);
}

/* Decodes with our iterator and checks against `recs` (timestamps clamped to
 * never go backwards, as the builder stores them). */
static void check_iter(const uint8_t *page, const struct rec *recs, size_t n)
{
	struct uft_page_iter it;
	struct uft_page_rec r;
	uint8_t buf[PS];
	uint64_t last = 0;
	uft_page_iter_init(&it, page, PS);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(uft_page_iter_next(&it, &r), 1);
		uint64_t want = i && recs[i].ts < last ? last : recs[i].ts;
		last = want;
		assert_int_equal(r.ts, want);
		uint32_t stored = recs[i].len ? (recs[i].len + 3) & ~3u : 4;
		assert_int_equal(r.len, stored);
		payload(buf, &recs[i]);
		assert_memory_equal(r.data, buf, recs[i].len);
	}
	assert_int_equal(uft_page_iter_next(&it, &r), 0);
	assert_false(it.corrupt);
}

/* The same page through kbuffer must give the same timestamps and payloads. */
static void check_kbuffer(uint8_t *page, size_t n)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	struct uft_page_iter it;
	struct uft_page_rec r;
	unsigned long long ts;
	assert_non_null(kb);
	assert_int_equal(kbuffer_load_subbuffer(kb, page), 0);
	uft_page_iter_init(&it, page, PS);
	void *ev = kbuffer_read_event(kb, &ts);
	size_t count = 0;
	while (ev) {
		assert_int_equal(uft_page_iter_next(&it, &r), 1);
		assert_int_equal(ts, r.ts);
		assert_ptr_equal(ev, r.data);
		assert_int_equal(kbuffer_event_size(kb), r.len);
		count++;
		ev = kbuffer_next_event(kb, &ts);
	}
	assert_int_equal(uft_page_iter_next(&it, &r), 0);
	assert_int_equal(count, n);
	kbuffer_free(kb);
}

static void test_small_records(void **state)
{
	struct rec recs[] = {
	    {1000, 8, 1}, {1001, 1, 2}, {1001, 0, 3}, {5000, 13, 4}, {5010, 112, 5}, {5011, 24, 6},
	};
	uint8_t page[PS];
	build(page, recs, 6, 0);
	uint64_t base;
	memcpy(&base, page, 8);
	assert_int_equal(base, 1000);
	check_iter(page, recs, 6);
	check_kbuffer(page, 6);
}

static void test_time_extend(void **state)
{
	struct rec recs[] = {
	    {10, 8, 1},
	    {10 + UFT_RB_DELTA_MAX, 8, 2},	  /* largest inline delta */
	    {11 + 2ull * UFT_RB_DELTA_MAX, 8, 3}, /* needs an extend */
	    {(1ull << 40) + 7, 16, 4},		  /* large extend */
	    {(1ull << 62) + 3, 4, 5},		  /* beyond one extend's 59 bits */
	    {(1ull << 62) + 4, 4, 6},
	};
	uint8_t page[PS];
	build(page, recs, 6, 0);
	check_iter(page, recs, 6);
	check_kbuffer(page, 6);

	/* The record after an extend carries no delta of its own when the
	 * extend covers it all: header of record 2 follows an 8-byte extend. */
	uint32_t w;
	memcpy(&w, page + UFT_PAGE_HDR_SIZE + 24, 4);
	assert_int_equal(w & 0x1f, UFT_RB_TYPE_TIME_EXTEND);
}

static void test_backwards_clamped(void **state)
{
	struct rec recs[] = {{500, 8, 1}, {400, 8, 2}, {600, 8, 3}, {100, 8, 4}};
	uint8_t page[PS];
	build(page, recs, 4, 0);
	check_iter(page, recs, 4); /* 500, 500, 600, 600 */
	check_kbuffer(page, 4);
}

static void test_large_records(void **state)
{
	struct rec recs[] = {
	    {1, 113, 1},
	    {2, 200, 2},
	    {3, 1000, 3},
	    {4, 115, 4},
	};
	uint8_t page[PS];
	build(page, recs, 4, 0);
	uint32_t w;
	memcpy(&w, page + UFT_PAGE_HDR_SIZE, 4);
	assert_int_equal(w & 0x1f, 0); /* type_len 0 */
	check_iter(page, recs, 4);
	check_kbuffer(page, 4);

	/* The biggest record fills a page alone; one byte more never fits. */
	struct uft_page_builder b;
	static uint8_t big[PS];
	uft_page_builder_init(&b, page, PS);
	assert_int_equal(uft_page_builder_add(&b, 1, big, DATA_SIZE - 8 + 1), -2);
	assert_int_equal(uft_page_builder_add(&b, 1, big, UINT32_MAX), -2);
	assert_int_equal(uft_page_builder_add(&b, 1, big, DATA_SIZE - 8), 0);
	assert_int_equal(b.tail, DATA_SIZE);
	assert_int_equal(uft_page_builder_add(&b, 2, big, 0), -1);
	uft_page_builder_finish(&b, 0);
	struct rec one = {1, DATA_SIZE - 8, 0};
	memset(big, 0, sizeof(big));
	struct uft_page_iter it;
	struct uft_page_rec r;
	uft_page_iter_init(&it, page, PS);
	assert_int_equal(uft_page_iter_next(&it, &r), 1);
	assert_int_equal(r.len, one.len);
	assert_int_equal(uft_page_iter_next(&it, &r), 0);
	check_kbuffer(page, 1);
}

static void test_fill_page(void **state)
{
	struct uft_page_builder b;
	uint8_t page[PS], buf[40] = {0};
	uft_page_builder_init(&b, page, PS);
	uint64_t ts = 100;
	int n = 0;
	while (uft_page_builder_add(&b, ts, buf, sizeof(buf)) == 0) {
		n++;
		ts += (n % 7 == 0) ? (1ull << 28) : 3; /* some extends */
	}
	assert_true(b.tail <= DATA_SIZE);
	assert_true(DATA_SIZE - b.tail < 44 + 8);
	uft_page_builder_finish(&b, 0);
	check_kbuffer(page, (size_t)n);
}

static void test_padding(void **state)
{
	/* rec A, a discarded record (padding with a delta), rec B, then the
	 * end-of-page padding counted in commit as the kernel does for full pages. */
	uint8_t page[PS];
	memset(page, 0, PS);
	uint8_t *d = page + UFT_PAGE_HDR_SIZE;
	uint64_t base = 1000, commit;
	memcpy(page, &base, 8);
	uint32_t off = 0, w[2];
	uint32_t *pl = uft_rb_put_data_header(d + off, 8, 5);
	memcpy(pl, "AAAAAAAA", 8);
	off += 12;
	w[0] = UFT_RB_TYPE_PADDING | (7u << 5);
	w[1] = 12; /* 12 bytes of dead payload after array[0] */
	memcpy(d + off, w, 8);
	off += 16;
	pl = uft_rb_put_data_header(d + off, 4, 3);
	memcpy(pl, "BBBB", 4);
	off += 8;
	uft_rb_put_padding(d, off, DATA_SIZE);
	commit = DATA_SIZE;
	memcpy(page + 8, &commit, 8);

	struct uft_page_iter it;
	struct uft_page_rec r;
	uft_page_iter_init(&it, page, PS);
	assert_int_equal(uft_page_iter_next(&it, &r), 1);
	assert_int_equal(r.ts, 1005);
	assert_int_equal(uft_page_iter_next(&it, &r), 1);
	assert_int_equal(r.ts, 1015); /* the discarded record's delta counts */
	assert_memory_equal(r.data, "BBBB", 4);
	assert_int_equal(r.offset, 28);
	assert_int_equal(uft_page_iter_next(&it, &r), 0);
	assert_false(it.corrupt);
	check_kbuffer(page, 2);

	/* Short padding (4 bytes, delta 0) also ends the page. */
	uft_rb_put_padding(d, DATA_SIZE - 4, DATA_SIZE);
	memcpy(&w[0], d + DATA_SIZE - 4, 4);
	assert_int_equal(w[0], UFT_RB_TYPE_PADDING);

	/* Seeking back to the second record resumes there. */
	uft_page_iter_seek(&it, 28, 1012);
	assert_int_equal(uft_page_iter_next(&it, &r), 1);
	assert_int_equal(r.ts, 1015);
}

static void test_abs_timestamp(void **state)
{
	uint8_t page[PS];
	memset(page, 0, PS);
	uint8_t *d = page + UFT_PAGE_HDR_SIZE;
	uint64_t base = (3ull << 59) + (1ull << 40), abs = (2ull << 27) + 5, commit;
	memcpy(page, &base, 8);
	uint32_t w[2] = {UFT_RB_TYPE_TIME_STAMP | (uint32_t)((abs & UFT_RB_DELTA_MAX) << 5),
			 (uint32_t)(abs >> 27)};
	memcpy(d, w, 8);
	uint32_t *pl = uft_rb_put_data_header(d + 8, 4, 0);
	memset(pl, 1, 4);
	commit = 16;
	memcpy(page + 8, &commit, 8);

	struct uft_page_iter it;
	struct uft_page_rec r;
	uft_page_iter_init(&it, page, PS);
	assert_int_equal(uft_page_iter_next(&it, &r), 1);
	/* Below the previous time with its top bits: wrapped into the next epoch. */
	assert_int_equal(r.ts, (4ull << 59) + abs);

	base = 50;
	memcpy(page, &base, 8);
	uft_page_iter_init(&it, page, PS);
	assert_int_equal(uft_page_iter_next(&it, &r), 1);
	assert_int_equal(r.ts, abs);
}

static void test_missed(void **state)
{
	struct rec recs[] = {{1, 8, 1}, {2, 8, 2}};
	uint8_t page[PS];
	struct uft_page_iter it;
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);

	build(page, recs, 2, 0);
	uft_page_iter_init(&it, page, PS);
	assert_false(it.missed);
	assert_false(it.missed_stored);
	kbuffer_load_subbuffer(kb, page);
	assert_int_equal(kbuffer_missed_events(kb), 0);

	build(page, recs, 2, 42);
	uft_page_iter_init(&it, page, PS);
	assert_true(it.missed);
	assert_true(it.missed_stored);
	assert_int_equal(it.missed_count, 42);
	assert_int_equal(it.commit, 24);
	check_iter(page, recs, 2);
	kbuffer_load_subbuffer(kb, page);
	assert_int_equal(kbuffer_missed_events(kb), 42);

	build(page, recs, 2, (uint64_t)-1);
	uft_page_iter_init(&it, page, PS);
	assert_true(it.missed);
	assert_false(it.missed_stored);
	kbuffer_load_subbuffer(kb, page);
	assert_int_equal(kbuffer_missed_events(kb), -1);

	/* No room for the count on a full page: flagged but not stored. */
	struct uft_page_builder b;
	static uint8_t big[PS];
	uft_page_builder_init(&b, page, PS);
	assert_int_equal(uft_page_builder_add(&b, 1, big, DATA_SIZE - 8), 0);
	uft_page_builder_finish(&b, 9);
	uft_page_iter_init(&it, page, PS);
	assert_true(it.missed);
	assert_false(it.missed_stored);
	kbuffer_free(kb);
}

static void test_finish_zeroes_tail(void **state)
{
	struct rec recs[] = {{1, 5, 1}};
	uint8_t page[PS];
	build(page, recs, 1, 0);
	for (uint32_t i = UFT_PAGE_HDR_SIZE + 4 + 8; i < PS; i++)
		assert_int_equal(page[i], 0);
	/* Rounding bytes of the payload are zero too. */
	assert_int_equal(page[UFT_PAGE_HDR_SIZE + 4 + 5], 0);
}

static int next_rc(const uint8_t *page, uint32_t size, struct uft_page_iter *it)
{
	struct uft_page_rec r;
	int rc;
	uft_page_iter_init(it, page, size);
	while ((rc = uft_page_iter_next(it, &r)) == 1)
		;
	return rc;
}

static void set_commit(uint8_t *page, uint64_t commit)
{
	memcpy(page + 8, &commit, 8);
}

static void test_corrupt(void **state)
{
	uint8_t page[PS];
	struct uft_page_iter it;
	uint32_t w[2];
	memset(page, 0, PS);

	assert_int_equal(next_rc(page, 8, &it), -1); /* smaller than a header */
	assert_true(it.corrupt);

	set_commit(page, DATA_SIZE + 4); /* commit beyond the page */
	assert_int_equal(next_rc(page, PS, &it), -1);

	set_commit(page, 2); /* not even a header word */
	assert_int_equal(next_rc(page, PS, &it), -1);

	w[0] = 5; /* 20-byte payload, but commit says 12 */
	memcpy(page + 16, w, 4);
	set_commit(page, 12);
	assert_int_equal(next_rc(page, PS, &it), -1);

	w[0] = 0; /* type_len 0 with array[0] < 4 */
	w[1] = 2;
	memcpy(page + 16, w, 8);
	set_commit(page, 64);
	assert_int_equal(next_rc(page, PS, &it), -1);

	w[1] = 4000; /* type_len 0 running past commit */
	memcpy(page + 16, w, 8);
	assert_int_equal(next_rc(page, PS, &it), -1);

	w[0] = UFT_RB_TYPE_TIME_EXTEND; /* extend cut by commit */
	memcpy(page + 16, w, 8);
	set_commit(page, 4);
	assert_int_equal(next_rc(page, PS, &it), -1);

	w[0] = UFT_RB_TYPE_PADDING | (1u << 5); /* discard past commit */
	w[1] = 100;
	memcpy(page + 16, w, 8);
	set_commit(page, 32);
	assert_int_equal(next_rc(page, PS, &it), -1);
	assert_true(it.corrupt);
	/* Once corrupt, stays corrupt. */
	struct uft_page_rec r;
	assert_int_equal(uft_page_iter_next(&it, &r), -1);

	/* Missed-count flag on a page with no room for it: ignored, no read. */
	set_commit(page, DATA_SIZE | UFT_RB_MISSED_EVENTS | UFT_RB_MISSED_STORED);
	uft_page_iter_init(&it, page, PS);
	assert_true(it.missed);
	assert_false(it.missed_stored);
}

/* Random pages on exactly sized heap buffers: sanitizer builds catch any
 * out-of-bounds read. */
static void test_random_pages(void **state)
{
	srand(1234);
	for (int round = 0; round < 3000; round++) {
		uint32_t size = 16 + (uint32_t)(rand() % 300);
		uint8_t *page = malloc(size);
		for (uint32_t i = 0; i < size; i++)
			page[i] = (uint8_t)rand();
		/* Plausible commits and type bytes to get past the first checks. */
		uint64_t commit = (uint64_t)(rand() % (int)(size - 15));
		if (rand() & 1)
			commit |= UFT_RB_MISSED_EVENTS | UFT_RB_MISSED_STORED;
		memcpy(page + 8, &commit, 8);
		for (uint32_t i = 16; i + 4 <= size; i += 4)
			if (rand() % 3 == 0)
				page[i] = (uint8_t)((page[i] & ~0x1f) |
						    (rand() % 4 ? rand() % 8 : 29 + rand() % 3));
		struct uft_page_iter it;
		int rc = next_rc(page, size, &it);
		assert_true(rc == 0 || rc == -1);
		assert_true(rc == 0 || it.corrupt);
		free(page);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_small_records),      cmocka_unit_test(test_time_extend),
	    cmocka_unit_test(test_backwards_clamped),  cmocka_unit_test(test_large_records),
	    cmocka_unit_test(test_fill_page),	       cmocka_unit_test(test_padding),
	    cmocka_unit_test(test_abs_timestamp),      cmocka_unit_test(test_missed),
	    cmocka_unit_test(test_finish_zeroes_tail), cmocka_unit_test(test_corrupt),
	    cmocka_unit_test(test_random_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
