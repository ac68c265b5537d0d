/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UFT_TRACE call sites: a site whose arguments are integers and strings
 * that the format's fields match writes its record inline; every other site
 * (a %c, a %s whose NULL prints "", a char pointer for %p, a filter on the
 * event) goes through
 * uft__trace_printf(). Either way the record holds the bytes the format's
 * layout serializer writes for the same arguments. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <uft/uft.h>

#include "engine/format/printf_event.h"
#include "own_rings.h"

struct seen {
	uint16_t id;
	int n;
	uint32_t len;
	_Alignas(8) uint8_t rec[4096];
};

static int grab(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		uint64_t missed)
{
	(void)ts;
	(void)cpu;
	(void)missed;
	struct seen *s = ctx;
	const struct uft_common_entry *e = data;
	if (e->type == s->id && len <= sizeof(s->rec)) {
		memcpy(s->rec, data, len);
		s->len = len;
		s->n++;
	}
	return 0;
}

static struct uft_ring_cursor cursors[64];

/* Enables SYS:NAME, says whether its call site writes inline, and sets
 * s up to catch its records. */
static bool begin(const char *spec, struct seen *s)
{
	char sys[32], name[64];
	assert_int_equal(sscanf(spec, "%31[^:]:%63s", sys, name), 2);
	struct uft_event *ev = uft_find_event(sys, name);
	assert_non_null(ev);
	/* Skip whatever earlier tests left in the rings. */
	struct seen skip = {.id = 0};
	drain_own_rings(cursors, 64, grab, &skip);
	assert_int_equal(uft_set_event(spec, 1), 1);
	memset(s, 0, sizeof(*s));
	s->id = uft_event_id(ev);
	return ev->state->fast_type != 0;
}

/* Disables the event and checks its one record against the serializer's
 * bytes for the same format and arguments. */
static void end(const char *spec, struct seen *s, const char *fmt, const uint64_t *args,
		uint32_t nr)
{
	uft_set_event(spec, 0);
	drain_own_rings(cursors, 64, grab, s);
	assert_int_equal(s->n, 1);
	struct uft_printf_layout l;
	char err[256];
	assert_int_equal(uft_printf_layout_parse(fmt, &l, err, sizeof(err)), 0);
	assert_int_equal(l.nr_args, nr);
	uint32_t size = uft_printf_record_size(&l, args);
	static _Alignas(8) uint8_t want[4096];
	memset(want, 0, sizeof(want));
	assert_int_equal(uft_printf_record_fill(&l, args, want, size), size);
	/* The record, rounded up in the ring, the rounding zeroed. */
	assert_in_range(s->len, size, size + 7);
	const struct uft_common_entry *e = (const void *)s->rec;
	assert_int_equal(e->type, s->id);
	assert_memory_equal(s->rec + 8, want + 8, s->len - 8);
	uft_printf_layout_free(&l);
}

/* One call site per use, named NAME, with its arguments evaluated once for
 * the site and once for the comparison. */
#define CHECK_SITE(name, inline_, fmt, ...)                                                        \
	do {                                                                                       \
		struct seen s_;                                                                    \
		bool in_ = begin("tpi:" #name, &s_);                                               \
		assert_int_equal(in_, inline_);                                                    \
		UFT_TRACE(tpi, name, fmt, ##__VA_ARGS__);                                          \
		/* Whichever way the site went, no TSC hint is left behind. */                     \
		assert_int_equal(uft_fast.tsc_hint, 0);                                            \
		const uint64_t a_[] = {UFT__MAP(UFT__ARG, ##__VA_ARGS__) 0};                       \
		end("tpi:" #name, &s_, fmt, a_, (uint32_t)(sizeof(a_) / sizeof(a_[0]) - 1));       \
	} while (0)

enum colour { RED = 1, GREEN = -2 };

static void test_integer_sites_inline(void **state)
{
	(void)state;
	volatile int i = -5;
	volatile uint64_t big = 0x8877665544332211ull;
	short sh = -3;
	unsigned char uc = 250;
	bool yes = true;
	enum colour c = GREEN;
	CHECK_SITE(three, true, "a=%d b=%u c=%llu", i, (unsigned)i, (unsigned long long)big);
	CHECK_SITE(longs, true, "x=%lx p=%p z=%zu", (long)big, (void *)&i, (size_t)big);
	CHECK_SITE(small, true, "h=%hd hh=%hhu b=%d c=%d", sh, uc, yes, c);
	/* A hole after the int, before the 8-byte field: zeroed. */
	CHECK_SITE(hole, true, "d=%d q=%lld", i, (long long)big);
	CHECK_SITE(tail, true, "q=%llu d=%x", (unsigned long long)big, (unsigned)i);
	CHECK_SITE(one, true, "n=%d", 42);
	CHECK_SITE(none, true, "no arguments at all");
	CHECK_SITE(sixteen, true, "%d %ld %u %lu %x %lx %o %lo %d %lld %u %llu %d %zu %i %jd", 1,
		   2L, 3u, 4UL, 5u, 6UL, 7u, 8UL, -9, -10LL, 11u, 12ULL, -13, (size_t)14, 15,
		   (intmax_t)-16);
}

static void test_other_sites_out_of_line(void **state)
{
	(void)state;
	const char *volatile nul = NULL;
	static char longest[5000];
	memset(longest, 'x', sizeof(longest) - 1);
	volatile int i = 7;
	/* %c is a char[2] field, not the int the compiler sees. */
	CHECK_SITE(chr, false, "c=%c n=%d", 'q', i);
	/* A NULL string stores "" under this precision, not "(null)". */
	CHECK_SITE(strnullprec, false, "s=%.3s", nul);
	CHECK_SITE(strprec, false, "s=%.3s n=%d", "abcdef", i);
	/* A char pointer printed as a pointer. */
	CHECK_SITE(charptr, false, "p=%p", (char *)longest);
}

static void test_string_sites_inline(void **state)
{
	(void)state;
	const char *volatile nul = NULL;
	static char longest[5000];
	memset(longest, 'x', sizeof(longest) - 1);
	volatile int i = 7;
	unsigned char uname[] = "unsigned";
	CHECK_SITE(str0, true, "s=%s", "");
	CHECK_SITE(str1, true, "s=%s", "a");
	CHECK_SITE(str12, true, "s=%s n=%d", "hello-world!", i);
	CHECK_SITE(strmix, true, "a=%s q=%llu b=%-8s n=%x", "first", 1ull << 40, uname, 5u);
	/* Truncated so that the record stays within its limit: the first
	 * string takes what it can, the next ones keep their NUL. */
	CHECK_SITE(strlong, true, "a=%s b=%s c=%s", longest, longest + 100, "tail");
	CHECK_SITE(strnull, true, "s=%s n=%d", nul, i);
	CHECK_SITE(strnullwide, true, "s=%8.6s", nul);
}

/* A filter on an inline-capable site: the site defers to the out-of-line
 * writer, which applies it. */
static void test_filtered_site(void **state)
{
	(void)state;
	struct uft_event *ev = uft_find_event("tpi", "filtered");
	assert_non_null(ev);
	char err[256];
	assert_int_equal(uft_set_filter("tpi:filtered", "a > 5", err, sizeof(err)), 1);
	struct seen s;
	assert_false(begin("tpi:filtered", &s));
	for (int a = 3; a <= 7; a += 4)
		UFT_TRACE(tpi, filtered, "a=%d b=%llu", a, 99ull);
	assert_int_equal(uft_fast.tsc_hint, 0);
	const uint64_t args[] = {7, 99};
	end("tpi:filtered", &s, "a=%d b=%llu", args, 2);
	assert_true(uft_set_filter("tpi:filtered", "0", err, sizeof(err)) >= 0);
	/* Without the filter the site writes inline again. */
	assert_true(begin("tpi:filtered", &s));
	uft_set_event("tpi:filtered", 0);
}

/* More strings than the out-of-line writer keeps lengths for: measured
 * again in the fill, the same bytes. */
UFT_TRACEPOINT(many, tpi, many, "%s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s n=%d");

static void test_many_strings(void **state)
{
	(void)state;
	struct seen s;
	assert_false(begin("tpi:many", &s));
	uint64_t args[18];
	static const char *const words[] = {"", "a", "bc", "def"};
	for (int k = 0; k < 17; k++)
		args[k] = (uint64_t)(uintptr_t)words[k % 4];
	args[17] = 77;
	uft__trace_printf(&uft__tp_many, args, 18);
	end("tpi:many", &s, uft__fmt_many, args, 18);
}

/* A fill with the lengths a measure kept writes what a fill that measures
 * again writes. */
static void test_measured_fill(void **state)
{
	(void)state;
	static char longest[5000];
	memset(longest, 'y', sizeof(longest) - 1);
	struct uft_printf_layout l;
	char err[256];
	assert_int_equal(uft_printf_layout_parse("a=%s n=%d b=%.2s c=%s", &l, err, sizeof(err)), 0);
	const uint64_t sets[][4] = {
	    {(uintptr_t) "", 1, 0, (uintptr_t) "x"},
	    {(uintptr_t) "hello-world!", 2, (uintptr_t) "zz", 0},
	    {(uintptr_t)longest, 3, (uintptr_t)longest, (uintptr_t)longest},
	};
	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		uint32_t lens[3];
		uint32_t size = uft_printf_record_measure(&l, sets[k], lens);
		assert_int_equal(size, uft_printf_record_size(&l, sets[k]));
		assert_true(size <= UFT_PRINTF_MAX_RECORD);
		static _Alignas(8) uint8_t a[4096], b[4096];
		memset(a, 0x5a, sizeof(a));
		memset(b, 0x5a, sizeof(b));
		assert_int_equal(uft_printf_record_fill(&l, sets[k], a, size), size);
		assert_int_equal(uft_printf_record_fill_measured(&l, sets[k], lens, b, size), size);
		assert_memory_equal(a, b, sizeof(a));
	}
	uft_printf_layout_free(&l);
}

/* The serializer writes every byte of a layout without holes and zeroes
 * those of one with holes, so a fill never leaves stale buffer bytes. */
static void test_fill_writes_every_byte(void **state)
{
	(void)state;
	static const char *const fmts[] = {
	    "a=%d b=%u c=%llu", "d=%d q=%lld", "q=%llu d=%x", "c=%c n=%d",
	    "c=%c q=%llu",	"s=%s n=%d",   "%d %c %c %d", "",
	};
	const uint64_t args[] = {0x11111111, 0x2222222222222222ull, 'c',
				 (uint64_t)(uintptr_t) "str"};
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		struct uft_printf_layout l;
		char err[256];
		assert_int_equal(uft_printf_layout_parse(fmts[f], &l, err, sizeof(err)), 0);
		uint64_t a[4];
		for (uint32_t k = 0; k < l.nr_args; k++)
			a[k] = l.kinds[k] == UFT_PARG_STR    ? args[3]
			       : l.kinds[k] == UFT_PARG_CHAR ? args[2]
							     : args[k % 2];
		uint32_t size = uft_printf_record_size(&l, a);
		_Alignas(8) uint8_t zero[64], stale[64];
		memset(zero, 0, sizeof(zero));
		memset(stale, 0xa5, sizeof(stale));
		assert_int_equal(uft_printf_record_fill(&l, a, zero, size), size);
		assert_int_equal(uft_printf_record_fill(&l, a, stale, size), size);
		assert_memory_equal(zero + 8, stale + 8, size - 8);
		uft_printf_layout_free(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_integer_sites_inline),
	    cmocka_unit_test(test_other_sites_out_of_line),
	    cmocka_unit_test(test_string_sites_inline),
	    cmocka_unit_test(test_filtered_site),
	    cmocka_unit_test(test_fill_writes_every_byte),
	    cmocka_unit_test(test_many_strings),
	    cmocka_unit_test(test_measured_fill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
