/* SPDX-License-Identifier: GPL-2.0-or-later */
/* In-process print fmt rendering: byte-for-byte equal to libtraceevent for
 * the demo events, printf-style layouts, casts, arithmetic and the
 * __print_* helpers; bounded on bad records; refusals. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event-parse.h>

#include "engine/format/format.h"
#include "engine/format/print_fmt.h"
#include "engine/format/printf_event.h"
#include "field_kinds.h"
#include "tep_body.h"

#define P(x) ((uint64_t)(uintptr_t)(x))
#define S(x) ((uint64_t)(int64_t)(x))

static void set_header(uint8_t *rec)
{
	uint16_t type = 200;
	int32_t pid = 4242;
	memcpy(rec, &type, 2);
	rec[2] = 1;
	rec[3] = 2;
	memcpy(rec + 4, &pid, 4);
}

/* Renders with uft_print_fmt and checks every buffer size gives a prefix. */
static void render(const char *print_fmt, const struct uft_field *fields, uint32_t nr,
		   const uint8_t *rec, uint32_t len, char *out, size_t outlen)
{
	struct uft_print_fmt *pf;
	char err[256];
	if (uft_print_fmt_compile(print_fmt, fields, nr, &pf, err, sizeof(err)))
		fail_msg("compile '%s': %s", print_fmt, err);
	int n = uft_print_fmt_render(pf, rec, len, out, outlen);
	assert_true(n >= 0 && (size_t)n < outlen);
	assert_int_equal(strlen(out), n);
	assert_int_equal(uft_print_fmt_render(pf, rec, len, NULL, 0), n);
	for (size_t cap = 1; cap <= (size_t)n + 1; cap += cap < 16 ? 1 : 7) {
		char small[4096];
		memset(small, 'Z', sizeof(small));
		assert_int_equal(uft_print_fmt_render(pf, rec, len, small, cap), n);
		assert_int_equal(strlen(small), cap - 1);
		assert_memory_equal(small, out, cap - 1);
		assert_int_equal(small[cap], 'Z');
	}
	uft_print_fmt_free(pf);
}

/* Both agree; want (when not NULL) pins the text too. */
static void same(const char *print_fmt, const struct uft_field *fields, uint32_t nr,
		 const uint8_t *rec, uint32_t len, const char *want)
{
	char a[4096], b[4096];
	tep_body(print_fmt, fields, nr, rec, len, a, sizeof(a));
	render(print_fmt, fields, nr, rec, len, b, sizeof(b));
	if (strcmp(a, b))
		fail_msg("print fmt %s\ntep: [%s]\nuft: [%s]", print_fmt, a, b);
	if (want && strcmp(b, want))
		fail_msg("print fmt %s\nwant: [%s]\ngot:  [%s]", print_fmt, want, b);
}

/* ---- the demo events, as define_events.h lays them out ---- */

static void put_loc(uint8_t *rec, uint32_t at, uint32_t off, uint32_t len)
{
	uint32_t loc = off | len << 16;
	memcpy(rec + at, &loc, 4);
}

static void test_demo_events(void **state)
{
	static const struct uft_field request[] = {
	    {"__data_loc char[]", "path", 8, 4, 0, UFT_FIELD_DYN, 1},
	    {"int", "status", 12, 4, 1, UFT_FIELD_SCALAR, 4},
	    {"uint64_t", "latency", 16, 8, 0, UFT_FIELD_SCALAR, 8},
	};
	const char *req_fmt = "\"path=%s status=%d latency=%llu\", __get_str(path), REC->status, "
			      "(unsigned long long)REC->latency";
	uint8_t rec[256] = {0};
	set_header(rec);
	put_loc(rec, 8, 24, 8);
	memcpy(rec + 24, "/tmp/ab", 8);
	int32_t st = -404;
	uint64_t lat = 123456789012345ull;
	memcpy(rec + 12, &st, 4);
	memcpy(rec + 16, &lat, 8);
	same(req_fmt, request, 3, rec, 32, "path=/tmp/ab status=-404 latency=123456789012345");
	put_loc(rec, 8, 24, 1);
	rec[24] = '\0';
	same(req_fmt, request, 3, rec, 25, "path= status=-404 latency=123456789012345");

	static const struct uft_field worker[] = {
	    {"char", "comm[16]", 8, 16, 1, UFT_FIELD_ARRAY, 1},
	    {"int", "worker", 24, 4, 1, UFT_FIELD_SCALAR, 4},
	    {"int", "state", 28, 4, 1, UFT_FIELD_SCALAR, 4},
	    {"unsigned char", "prio", 32, 1, 0, UFT_FIELD_SCALAR, 1},
	    {"bool", "busy", 33, 1, 0, UFT_FIELD_SCALAR, 1},
	};
	const char *worker_fmt = "\"comm=%s worker=%d state=%d prio=%u busy=%d\", REC->comm, "
				 "REC->worker, REC->state, REC->prio, REC->busy";
	memset(rec, 0, sizeof(rec));
	set_header(rec);
	strcpy((char *)rec + 8, "worker-7");
	int32_t w = 7, s = 2;
	memcpy(rec + 24, &w, 4);
	memcpy(rec + 28, &s, 4);
	rec[32] = 250;
	rec[33] = 1;
	same(worker_fmt, worker, 5, rec, 40, "comm=worker-7 worker=7 state=2 prio=250 busy=1");
	/* A full array without NUL stops at the field's end. */
	memcpy(rec + 8, "0123456789abcdef", 16);
	same(worker_fmt, worker, 5, rec, 40,
	     "comm=0123456789abcdef worker=7 state=2 prio=250 busy=1");

	static const struct uft_field batch[] = {
	    {"__data_loc int[]", "values", 8, 4, 1, UFT_FIELD_DYN, 4},
	    {"unsigned int", "count", 12, 4, 0, UFT_FIELD_SCALAR, 4},
	    {"long", "sum", 16, 8, 1, UFT_FIELD_SCALAR, 8},
	};
	memset(rec, 0, sizeof(rec));
	set_header(rec);
	put_loc(rec, 8, 24, 12);
	int32_t vals[3] = {1, -2, 3};
	memcpy(rec + 24, vals, 12);
	uint32_t cnt = 3;
	int64_t sum = -9000000000ll;
	memcpy(rec + 12, &cnt, 4);
	memcpy(rec + 16, &sum, 8);
	same("\"count=%u sum=%ld\", REC->count, REC->sum", batch, 3, rec, 36,
	     "count=3 sum=-9000000000");
	same("\"n=%u bytes=%d hex=%s\", REC->count, __get_dynamic_array_len(values), "
	     "__print_hex(__get_dynamic_array(values), __get_dynamic_array_len(values))",
	     batch, 3, rec, 36, "n=3 bytes=12 hex=01 00 00 00 fe ff ff ff 03 00 00 00");
}

/* ---- printf-style layouts ---- */

static void printf_case(const char *fmt, const uint64_t *args, size_t nr)
{
	struct uft_printf_layout l;
	char err[256];
	if (uft_printf_layout_parse(fmt, &l, err, sizeof(err)))
		fail_msg("'%s': %s", fmt, err);
	assert_int_equal(l.nr_args, nr);
	uint8_t rec[UFT_PRINTF_MAX_RECORD];
	uint32_t size = uft_printf_record_fill(&l, args, rec, sizeof(rec));
	if (!size)
		fail_msg("'%s': no record", fmt);
	set_header(rec);
	same(l.print_fmt, l.fields, l.nr_args, rec, size, NULL);
	uft_printf_layout_free(&l);
}

#define PCASE(fmt, ...)                                                                            \
	printf_case(fmt, (uint64_t[]){__VA_ARGS__},                                                \
		    sizeof((uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))

static void test_printf_layouts(void **state)
{
	void *ptr = (void *)0x7fff12345678;

	PCASE("req=%d path=%s lat=%llu ptr=%p c=%c x=%lx", S(-5), P("/tmp/x"), 123456789012ull,
	      P(ptr), 'Q', 0xdeadbeefcafeul);
	PCASE("%hd %hhd %hu %hhu %hhx", 70000, 200, 70000, 300, S(-1));
	PCASE("%5d|%-5d|%05d|%.3d|%#x|%#o|%X|%08lx|%#lx|%.d", 42, 42, 42, 7, 255, 8, 0xabc, 0x1234,
	      0x10, 0);
	PCASE("%zd %zu %jd %ju %td %zx", S(-5), 5, S(-7), 7, S(-9), 0xff);
	PCASE("%d %u %i %o %lu %lld %llx %li %ld", S(INT_MIN), UINT_MAX, S(INT_MAX), UINT_MAX,
	      ULONG_MAX, S(LLONG_MIN), ULLONG_MAX, S(LONG_MIN), S(LONG_MAX));
	PCASE("%s|%10s|%-10s|%.2s|%5.1s|%s|", P("abc"), P("abc"), P("abc"), P("abc"), P("abc"),
	      P(""));
	PCASE("%c|%3c|%-3c|%c", 'a', 'b', 'c', '%');
	PCASE("100%% done: %d%%", 99);
	PCASE("q=\"%s\" back=\\ tab=\t cr=\r nl=%d\n", P("x y"), 3);
	PCASE("%p %p", 0, P(ptr));
	PCASE("%s|%.3s|%.6s|%8s|%.s", 0, 0, 0, 0, 0);
	PCASE("euro=%s", P("\xe2\x82\xac"));
	PCASE("caf\xc3\xa9 %s", P("x"));
	PCASE("sizeof=%d REC=%d common_pid=%d STA_PR_FMT=%d", 1, 2, 3, 4);
	PCASE("dir=%s\\", P("a"));
	printf_case("\\\\", NULL, 0);
	PCASE("%-8x|%8o|%#-10lx", 0xbeef, 511, 0xfeed);
	PCASE("%%s %s", P("only"));
	PCASE("%#.0o %#.0x %.0d %010.4d %-010d|", 0, 0, 0, S(-12), S(-12));
	PCASE("bell=\a ff=\f vt=\v esc=\033 q=\' %d", 1);
	printf_case("no args", NULL, 0);
	printf_case("", NULL, 0);
}

/* ---- expressions and helpers on a table of every integer kind ---- */

#define NKINDS (uint32_t)(sizeof(field_kinds) / sizeof(field_kinds[0]))

static uint32_t kinds_record(uint8_t *rec, int variant)
{
	memset(rec, 0, 128);
	set_header(rec);
	int8_t c8 = variant ? -3 : 100;
	uint8_t b = variant ? 0xf0 : 7;
	int16_t s16 = variant ? -30000 : 1234;
	uint16_t u16 = variant ? 65535 : 40000;
	int32_t i32 = variant ? -100 : 77;
	uint32_t u32 = variant ? 0x80000001u : 12;
	int64_t l64 = variant ? -5 : 1ll << 40;
	uint64_t u64 = variant ? ~0ull : 3;
	uint64_t ptr = variant ? 0 : 0x7f0012345678ull;
	memcpy(rec + 8, &c8, 1);
	memcpy(rec + 9, &b, 1);
	memcpy(rec + 10, &s16, 2);
	memcpy(rec + 12, &u16, 2);
	rec[14] = (uint8_t)!variant;
	memcpy(rec + 16, &i32, 4);
	memcpy(rec + 20, &u32, 4);
	memcpy(rec + 24, &l64, 8);
	memcpy(rec + 32, &u64, 8);
	strcpy((char *)rec + 40, variant ? "abcdefg" : "nm");
	memcpy(rec + 56, &ptr, 8);
	put_loc(rec, 48, 64, 6);
	memcpy(rec + 64, "hello", 6);
	put_loc(rec, 52, 70, 5);
	memcpy(rec + 70, "\x01\x02\xfe\xff\x10", 5);
	return 80;
}

static void expr_case(const char *print_fmt)
{
	uint8_t rec[128];
	for (int v = 0; v < 2; v++) {
		uint32_t len = kinds_record(rec, v);
		same(print_fmt, field_kinds, NKINDS, rec, len, NULL);
	}
}

static void test_fields_and_casts(void **state)
{
	expr_case("\"%d %ld %ld %d %d %d %d %d %d %u %ld %lu %ld %ld %d\", (int)REC->u32, "
		  "(long)REC->i32, (long)(int)REC->i32, REC->c8, REC->b, REC->s16, REC->u16, "
		  "REC->flag, REC->i32, REC->u32, REC->l64, REC->u64, REC->i32, (long)REC->c8, "
		  "(char)REC->u32");
	expr_case("\"%x %x %hx %hhx %lx %llx %o %X\", REC->c8, REC->b, REC->s16, REC->i32, "
		  "REC->u32, REC->u64, REC->u16, REC->i32");
	expr_case("\"%d %u %d %lu %d %d\", (int)REC->b, (unsigned char)REC->i32, "
		  "(signed char)REC->u16, (unsigned long)REC->i32, (short)REC->u32, (u8)REC->s16");
	expr_case("\"%llu %lld %d %d %u\", (unsigned long long)REC->u32, (long long)REC->i32, "
		  "(int)REC->l64, (s8)REC->b, (u16)REC->c8");
	expr_case("\"%llx %llx %llx %llx %llx\", (uint8_t)REC->u64, (signed char)REC->u64, "
		  "(unsigned long)REC->i32, (__u16)REC->u64, (unsigned char *)REC->u64");
	expr_case("\"%d %d %lx %lx\", (bool)REC->u32, (bool)REC->flag, (unsigned long)REC->ptr, "
		  "(long)(void *)REC->u64");
	expr_case("\"[%s] [%-6s] [%.3s] %p\", REC->name, REC->name, "
		  "__get_str(str), REC->ptr");
	expr_case("\"%s %s %d\", __get_str(str), REC->name, __get_dynamic_array_len(arr)");
	/* one element of a fixed array, as raw_syscalls' REC->args[0] */
	expr_case("\"%x %d %x\", REC->name[0], REC->name[7] + 1, REC->name[ 3 ] & 0xf");
}

static void test_arithmetic(void **state)
{
	expr_case("\"%d %d %d %d %d\", REC->i32 + 1, REC->i32 - 200, REC->i32 * 3, REC->i32 / 7, "
		  "REC->i32 % 7");
	expr_case("\"%x %x %x %x %x\", REC->u32 & 0xff, REC->u32 | 0x10, REC->u32 & 0, "
		  "REC->u32 << 4, REC->u32 >> 3");
	expr_case("\"%d %d %d %d\", -REC->i32, ~REC->i32, !REC->i32, !REC->flag");
	expr_case("\"%d %d %d %d %d %d\", REC->i32 < 0, REC->i32 > 10, REC->i32 <= 77, "
		  "REC->i32 >= 78, REC->i32 == 77, REC->i32 != 77");
	expr_case("\"%lu %ld %lx\", REC->u64 / 2, REC->l64 * 2 + 1, (REC->u64 >> 4) & 0xfff");
	expr_case("\"%d %d\", (REC->i32 + 3) * REC->b, ((REC->s16 >> 2) + 1) % 100");
	expr_case("\"%d %d\", REC->i32 && REC->flag, REC->i32 || REC->flag");
	expr_case("\"%zu|%zx|%hhu|%lld\", REC->u64, REC->l64, REC->u32, REC->l64");
	expr_case("\"%d %u\", REC->flag ? REC->i32 : 5, REC->i32 > 0 ? REC->b : REC->u16");
	expr_case("\"%px %p%d\", REC->ptr, REC->ptr, REC->b");
}

static void test_print_helpers(void **state)
{
	expr_case("\"state=%s\", __print_symbolic(REC->i32, { 77, \"RUNNING\" }, "
		  "{ -100, \"DEAD\" }, { 0, \"NONE\" })");
	expr_case("\"state=%s|%-10s|\", __print_symbolic(REC->b, { 1, \"one\" }), "
		  "__print_symbolic(REC->u16 & 3, { 0, \"zero\" }, { 3, \"three\" })");
	expr_case("\"flags=%s\", __print_flags(REC->u32, \"|\", { 0x1, \"A\" }, { 0x4, \"B\" }, "
		  "{ 0x8, \"C\" }, { 0x80000000, \"HI\" })");
	expr_case("\"flags=%s\", __print_flags(REC->b, \",\", { 1, \"x\" }, { 2, \"y\" }, "
		  "{ 4, \"z\" }, { 0xf0, \"HIGH\" })");
	expr_case(
	    "\"flags=%s\", __print_flags(REC->u32 & 0, \" \", { 0, \"NONE\" }, { 1, \"A\" })");
	expr_case("\"hex=%s\", __print_hex(REC->name, (REC->b & 7) + 3)");
	expr_case("\"hex=%s arr=%s\", __print_hex(REC->name, 4), "
		  "__print_hex(__get_dynamic_array(arr), __get_dynamic_array_len(arr))");
}

/* ---- bad records never make it read outside ---- */

static void test_bad_records(void **state)
{
	struct uft_print_fmt *pf;
	char err[256], out[256];
	assert_int_equal(
	    uft_print_fmt_compile("\"%s|%s|%d|%s\", __get_str(str), REC->name, "
				  "REC->i32, __print_hex(__get_dynamic_array(arr), 100)",
				  field_kinds, NKINDS, &pf, err, sizeof(err)),
	    0);
	uint8_t rec[128];
	uint32_t len = kinds_record(rec, 0);
	/* Offset past the end. */
	put_loc(rec, 48, 200, 6);
	uft_print_fmt_render(pf, rec, len, out, sizeof(out));
	assert_string_equal(out, "(bad)|nm|77|01 02 fe ff 10 00 00 00 00 00");
	/* String without NUL stops at the record's end. */
	put_loc(rec, 48, 75, 5);
	memcpy(rec + 75, "xyzzy", 5);
	uft_print_fmt_render(pf, rec, len, out, sizeof(out));
	assert_string_equal(out, "xyzzy|nm|77|01 02 fe ff 10 78 79 7a 7a 79");
	/* Truncated records: every prefix renders without reading past it. */
	for (uint32_t n = 0; n <= len; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		memcpy(copy, rec, n);
		assert_true(uft_print_fmt_render(pf, copy, n, out, sizeof(out)) > 0);
		free(copy);
	}
	uft_print_fmt_free(pf);
}

static void expect_refusal(const char *print_fmt, const char *needle)
{
	struct uft_print_fmt *pf = (void *)1;
	char err[256] = "";
	assert_int_equal(
	    uft_print_fmt_compile(print_fmt, field_kinds, NKINDS, &pf, err, sizeof(err)), -EINVAL);
	assert_null(pf);
	if (!strstr(err, needle))
		fail_msg("'%s': error '%s' lacks '%s'", print_fmt, err, needle);
}

static void test_refusals(void **state)
{
	expect_refusal("REC->i32", "quoted string");
	expect_refusal("\"%d", "unterminated");
	expect_refusal("\"%f\", REC->i32", "unsupported conversion '%f'");
	expect_refusal("\"%d %d\", REC->i32", "2 conversions but 1 arguments");
	expect_refusal("\"%d\", REC->nope", "unknown field 'nope'");
	expect_refusal("\"%d\", __get_str(str)", "a number is needed");
	expect_refusal("\"%s\", REC->i32", "%s needs a string");
	expect_refusal("\"%c\", REC->b", "'%c'");
	expect_refusal("\"%+d\", REC->b", "'%+d'");
	expect_refusal("\"%s\", __get_dynamic_array(arr)", "__get_dynamic_array");
	expect_refusal("\"% d\", REC->b", "'% d'");
	expect_refusal("\"%jd\", REC->b", "'%j'");
	expect_refusal("\"%td\", REC->b", "'%t'");
	expect_refusal("\"%d\", REC->b ^ 1", "'^'");
	expect_refusal("\"%d\", REC->str", "__data_loc");
	expect_refusal("\"%d\", REC->name[8]", "index 8 out of 'name'");
	expect_refusal("\"%d\", REC->name[REC->b]", "constant index");
	expect_refusal("\"%d\", foo(REC->i32)", "unsupported 'foo'");
	expect_refusal("\"%d\", REC->i32 +", "unexpected");
	expect_refusal("\"%d\", (REC->i32", "expected ')'");
	expect_refusal("\"%s\", __print_flags(REC->i32, { 1, \"a\" })", "delimiter");
	expect_refusal("\"%s\", __print_symbolic(REC->i32, { REC->u32, \"a\" })", "constants");
	expect_refusal("\"%d\", ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
		       "((((((REC->i32))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"
		       "))))))))",
		       "too deeply");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_demo_events),	     cmocka_unit_test(test_printf_layouts),
	    cmocka_unit_test(test_fields_and_casts), cmocka_unit_test(test_arithmetic),
	    cmocka_unit_test(test_print_helpers),    cmocka_unit_test(test_bad_records),
	    cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
