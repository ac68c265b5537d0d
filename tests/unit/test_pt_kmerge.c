/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel backend's merge (src/proctrace/kernel_merge.c): records of
 * several CPUs come out in time order with their local id, a record is held
 * back until a later flush has seen a newer time, and the records kept across
 * flushes keep their bytes (they are packed in the arena's order). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proctrace/kernel_backend.h"

struct seen {
	unsigned n;
	uint64_t ts[64];
	uint32_t cpu[64];
	uint32_t tag[64];
	uint16_t id[64];
};

static void collect(void *ctx, uint32_t cpu, uint64_t ts, uint8_t *rec, uint32_t len)
{
	struct seen *s = ctx;
	assert_true(s->n < 64);
	assert_int_equal(len, 24);
	memcpy(&s->id[s->n], rec, 2);
	memcpy(&s->tag[s->n], rec + 8, 4);
	/* the payload after the tag is its own bytes, unmoved by packing */
	for (unsigned i = 12; i < len; i++)
		assert_int_equal(rec[i], (uint8_t)(s->tag[s->n] + i));
	s->ts[s->n] = ts;
	s->cpu[s->n] = cpu;
	s->n++;
}

static void add(struct pt_kmerge *m, uint32_t cpu, uint64_t ts, uint32_t tag)
{
	uint8_t rec[24] = {0xff, 0xff};
	memcpy(rec + 8, &tag, 4);
	for (unsigned i = 12; i < sizeof(rec); i++)
		rec[i] = (uint8_t)(tag + i);
	assert_int_equal(pt_kmerge_add(m, cpu, ts, rec, sizeof(rec), 7), 0);
}

static void test_order_and_holdback(void **state)
{
	struct pt_kmerge m = {0};
	struct seen s = {0};
	/* first drain: CPU 0 read before CPU 1, times interleaved */
	add(&m, 0, 100, 1);
	add(&m, 0, 300, 3);
	add(&m, 1, 200, 2);
	add(&m, 1, 400, 4);
	pt_kmerge_flush(&m, false, collect, &s);
	assert_int_equal(s.n, 0); /* nothing seen before: all held */
	/* second drain: a record of CPU 0 older than what CPU 1 gave before */
	add(&m, 0, 350, 5);
	add(&m, 1, 500, 6);
	pt_kmerge_flush(&m, false, collect, &s);
	/* released up to 400, the newest of the first drain */
	assert_int_equal(s.n, 5);
	const uint64_t want[] = {100, 200, 300, 350, 400};
	const uint32_t tags[] = {1, 2, 3, 5, 4};
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(s.ts[i], want[i]);
		assert_int_equal(s.tag[i], tags[i]);
		assert_int_equal(s.id[i], 7);
	}
	assert_int_equal(s.cpu[1], 1);
	/* a third drain with nothing new releases up to 500; `all` the rest */
	add(&m, 0, 600, 7);
	pt_kmerge_flush(&m, false, collect, &s);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.tag[5], 6);
	pt_kmerge_flush(&m, true, collect, &s);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.tag[6], 7);
	pt_kmerge_free(&m);
}

/* Records kept across flushes out of arena order are packed without
 * overwriting each other. */
static void test_packing(void **state)
{
	struct pt_kmerge m = {0};
	struct seen s = {0};
	add(&m, 0, 500, 1);
	pt_kmerge_flush(&m, false, collect, &s);
	/* kept after the next flush: 900, 800, 700, whose arena order is the
	 * reverse of their time order */
	add(&m, 1, 900, 2);
	add(&m, 1, 400, 3);
	add(&m, 0, 800, 4);
	add(&m, 0, 300, 5);
	add(&m, 1, 700, 6);
	pt_kmerge_flush(&m, false, collect, &s);
	assert_int_equal(s.n, 3);
	pt_kmerge_flush(&m, true, collect, &s); /* collect() checks the bytes */
	assert_int_equal(s.n, 6);
	const uint32_t tags[] = {5, 3, 1, 6, 4, 2};
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(s.tag[i], tags[i]);
	pt_kmerge_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_order_and_holdback),
	    cmocka_unit_test(test_packing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
