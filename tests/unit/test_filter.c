/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event filters: operators per field class, strings and globs, precedence and
 * short-circuit, pseudo fields, CPUS{}, error messages with their caret
 * positions, and records that lie about their sizes. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/filter/filter.h"
#include "engine/filter/filter_impl.h"
#include "util/util.h"

struct trec {
	struct uft_common_entry common;
	int8_t s8v;
	uint8_t u8v;
	int16_t s16v;
	uint16_t u16v;
	uint16_t pad;
	int32_t s32v;
	uint32_t u32v;
	int64_t s64v;
	uint64_t u64v;
	char prev_comm[16];
	uint32_t name; /* __data_loc char[] */
	int32_t prev_pid;
	const char *str;
	void *ptr;
	unsigned long call_site;
	uint32_t target_cpu;
	uint32_t mask;	/* __data_loc cpumask_t[] */
	uint32_t rname; /* __rel_loc char[] */
	char full[4];	/* no room for a NUL */
	int32_t arr[2];
	char data[64];
};

#define F(type, name, member, kind, elem)                                                          \
	{                                                                                          \
		type, name, offsetof(struct trec, member), sizeof(((struct trec *)0)->member),     \
		    (type)[0] == 's' || !strcmp(type, "int") || !strcmp(type, "short"), kind, elem \
	}

static const struct uft_field fields[] = {
    F("s8", "s8v", s8v, UFT_FIELD_SCALAR, 1),
    F("u8", "u8v", u8v, UFT_FIELD_SCALAR, 1),
    F("short", "s16v", s16v, UFT_FIELD_SCALAR, 2),
    F("unsigned short", "u16v", u16v, UFT_FIELD_SCALAR, 2),
    F("int", "s32v", s32v, UFT_FIELD_SCALAR, 4),
    F("unsigned int", "u32v", u32v, UFT_FIELD_SCALAR, 4),
    F("s64", "s64v", s64v, UFT_FIELD_SCALAR, 8),
    F("u64", "u64v", u64v, UFT_FIELD_SCALAR, 8),
    F("char", "prev_comm[16]", prev_comm, UFT_FIELD_ARRAY, 1),
    F("__data_loc char[]", "name", name, UFT_FIELD_DYN, 1),
    F("int", "prev_pid", prev_pid, UFT_FIELD_SCALAR, 4),
    F("const char *", "str", str, UFT_FIELD_SCALAR, 8),
    F("void *", "ptr", ptr, UFT_FIELD_SCALAR, 8),
    F("unsigned long", "call_site", call_site, UFT_FIELD_SCALAR, 8),
    F("unsigned int", "target_cpu", target_cpu, UFT_FIELD_SCALAR, 4),
    F("__data_loc cpumask_t[]", "mask", mask, UFT_FIELD_DYN, 1),
    F("__rel_loc char[]", "rname", rname, UFT_FIELD_DYN, 1),
    F("char", "full[4]", full, UFT_FIELD_ARRAY, 1),
    F("int", "arr[2]", arr, UFT_FIELD_ARRAY, 4),
};
#define NR_FIELDS ((uint32_t)(sizeof(fields) / sizeof(fields[0])))

static struct trec R;
static uint32_t R_CPU;
static const char *R_COMM;

#define DATA(off) ((uint32_t)(offsetof(struct trec, data) + (off)))

static void set_loc(uint32_t *word, uint32_t off, uint32_t len)
{
	*word = off | len << 16;
}

static void reset_record(void)
{
	memset(&R, 0, sizeof(R));
	R.common.type = 7;
	R.common.flags = UFT_FLAG_IN_SIGNAL;
	R.common.preempt_count = 2;
	R.common.pid = 1234;
	R.s8v = INT8_MIN;
	R.u8v = UINT8_MAX;
	R.s16v = INT16_MIN;
	R.u16v = UINT16_MAX;
	R.s32v = -1;
	R.u32v = UINT32_MAX;
	R.s64v = INT64_MIN;
	R.u64v = UINT64_MAX;
	strcpy(R.prev_comm, "bash");
	strcpy(R.data, "hello");
	set_loc(&R.name, DATA(0), 6);
	R.prev_pid = 42;
	R.str = "pointed";
	R.ptr = (void *)"voidstr";
	R.call_site = 0x1050;
	R.target_cpu = 8;
	R.data[8] = 0x0a; /* CPUs 1 and 3 */
	set_loc(&R.mask, DATA(8), 1);
	strcpy(R.data + 16, "relative");
	set_loc(&R.rname, DATA(16) - (uint32_t)(offsetof(struct trec, rname) + 4), 9);
	memcpy(R.full, "abcd", 4);
	R.arr[0] = 1;
	R_CPU = 3;
	R_COMM = "myprog";
}

static int setup(void **state)
{
	reset_record();
	return 0;
}

static struct uft_filter *compile_ok(const char *expr)
{
	struct uft_filter *f = NULL;
	struct uft_filter_error err;
	int rc = uft_filter_compile(expr, fields, NR_FIELDS, &f, &err);
	if (rc != 0)
		fail_msg("'%s' did not compile: rc %d code %d (%s) pos %d", expr, rc, err.code,
			 uft_filter_strerror(err.code), err.pos);
	assert_non_null(f);
	return f;
}

static bool match_rec(const char *expr, const void *rec, uint32_t len)
{
	struct uft_filter *f = compile_ok(expr);
	bool m = uft_filter_match(f, rec, len, R_CPU, R_COMM);
	uft_filter_free(f);
	return m;
}

static bool match(const char *expr)
{
	return match_rec(expr, &R, sizeof(R));
}

#define YES(expr)                                                                                  \
	do {                                                                                       \
		if (!match(expr))                                                                  \
			fail_msg("expected a match: %s", expr);                                    \
	} while (0)
#define NO(expr)                                                                                   \
	do {                                                                                       \
		if (match(expr))                                                                   \
			fail_msg("expected no match: %s", expr);                                   \
	} while (0)

static void expect_err(const char *expr, int code, int pos)
{
	struct uft_filter *f = (struct uft_filter *)1;
	struct uft_filter_error err = {-99, -99};
	int rc = uft_filter_compile(expr, fields, NR_FIELDS, &f, &err);
	if (rc != -EINVAL || err.code != code || err.pos != pos)
		fail_msg("'%s': rc %d code %d pos %d, expected code %d (%s) pos %d", expr, rc,
			 err.code, err.pos, code, uft_filter_strerror(code), pos);
	assert_null(f);
}

static void expect_text(const char *expr, const char *text)
{
	struct uft_filter *f = NULL;
	struct uft_filter_error err;
	char buf[1024];

	assert_int_equal(uft_filter_compile(expr, fields, NR_FIELDS, &f, &err), -EINVAL);
	int n = uft_filter_error_text(expr, &err, buf, sizeof(buf));
	assert_string_equal(buf, text);
	assert_int_equal(n, (int)strlen(text));
}

/* ---- integers ---- */

static void test_signed_unsigned_edges(void **state)
{
	YES("s8v == -128");
	YES("s8v < 0");
	YES("s8v <= -128");
	NO("s8v < -128");
	NO("s8v >= -127");
	NO("s8v > 127");
	YES("s8v != 0");
	NO("s8v != -128");
	YES("s8v & 0x80");
	NO("s8v & 0x7f");
	YES("s8v == 128"); /* the value is cut to the field's 8 bits */
	YES("s8v == 0x80");

	YES("u8v == 255");
	YES("u8v > 254");
	YES("u8v >= 255");
	NO("u8v < 0");
	NO("u8v > 255");
	YES("u8v == 0377");
	YES("u8v == 0XfF");
	YES("u8v == 511");
	YES("u8v & 1");

	YES("s16v == -32768");
	YES("s16v < -32767");
	NO("s16v > 0");
	YES("s16v & 0x8000");
	YES("u16v == 65535");
	YES("u16v > 32768");
	NO("u16v < 65535");
	YES("u16v <= 65535");

	/* same bits, different order */
	YES("s32v < 0");
	NO("s32v > 0");
	YES("s32v == -1");
	YES("s32v == 0xffffffff");
	YES("u32v > 0");
	NO("u32v < 0");
	YES("u32v == 4294967295");
	YES("u32v > 0x7fffffff");
	YES("u32v & 0x80000000");

	YES("s64v == -9223372036854775808");
	YES("s64v < -9223372036854775807");
	NO("s64v < -9223372036854775808");
	YES("s64v <= -9223372036854775808");
	NO("s64v > 0");
	YES("s64v & -0x8000000000000000");
	expect_err("s64v & 0x8000000000000000", UFT_FILTER_ERR_ILLEGAL_INTVAL, 8);
	YES("u64v == 0xffffffffffffffff");
	YES("u64v == 18446744073709551615");
	YES("u64v > 18446744073709551614");
	NO("u64v > 18446744073709551615");
	YES("u64v >= 18446744073709551615");
	YES("u64v != 0");
	YES("u64v & 1");
	YES("s64v == -0x8000000000000000");
	YES("prev_pid == 42");
	YES("prev_pid != 41");
	YES("prev_pid > -1");
	YES("prev_pid==42");
	YES("prev_pid\t==\n42");
	YES("prev_pid == 052");
	YES("prev_pid == 0x2a");

	R.s8v = 127;
	R.u8v = 0;
	R.s64v = INT64_MAX;
	R.u64v = 0;
	YES("s8v == 127");
	YES("s8v > 126");
	NO("s8v < 0");
	YES("u8v == 0");
	NO("u8v & 0xff");
	YES("u8v <= 0");
	NO("u8v > 0");
	YES("s64v == 9223372036854775807");
	YES("s64v > 0");
	YES("u64v < 1");
}

static void test_int_ops_every_size(void **state)
{
	/* Each size with each operator around a mid value. */
	R.s8v = -5;
	R.u8v = 200;
	R.s16v = -300;
	R.u16v = 40000;
	R.s32v = -70000;
	R.u32v = 3000000000u;
	R.s64v = -5000000000ll;
	R.u64v = 10000000000000000000ull;
	const char *names[] = {"s8v", "u8v", "s16v", "u16v", "s32v", "u32v", "s64v", "u64v"};
	const char *vals[] = {"-5",	"200",	      "-300",	     "40000",
			      "-70000", "3000000000", "-5000000000", "10000000000000000000"};
	const char *below[] = {"-6",	 "199",	       "-301",	      "39999",
			       "-70001", "2999999999", "-5000000001", "9999999999999999999"};
	const char *above[] = {"-4",	 "201",	       "-299",	      "40001",
			       "-69999", "3000000001", "-4999999999", "10000000000000000001"};
	char e[128];
	for (int i = 0; i < 8; i++) {
#define CHECK(want, fmt, v)                                                                        \
	do {                                                                                       \
		snprintf(e, sizeof(e), "%s " fmt " %s", names[i], v);                              \
		if (match(e) != (want))                                                            \
			fail_msg("%s should be %d", e, want);                                      \
	} while (0)
		CHECK(1, "==", vals[i]);
		CHECK(0, "==", below[i]);
		CHECK(0, "!=", vals[i]);
		CHECK(1, "!=", above[i]);
		CHECK(1, "<", above[i]);
		CHECK(0, "<", vals[i]);
		CHECK(1, "<=", vals[i]);
		CHECK(0, "<=", below[i]);
		CHECK(1, ">", below[i]);
		CHECK(0, ">", vals[i]);
		CHECK(1, ">=", vals[i]);
		CHECK(0, ">=", above[i]);
		CHECK(1, "&", vals[i]);
#undef CHECK
	}
	/* A non-char array compares as one 8-byte integer. */
	YES("arr != 0");
}

/* ---- strings ---- */

static void test_string_exact(void **state)
{
	YES("prev_comm == \"bash\"");
	YES("prev_comm == 'bash'");
	NO("prev_comm == \"bas\"");
	NO("prev_comm == \"bashx\"");
	YES("prev_comm != \"zsh\"");
	NO("prev_comm != \"bash\"");
	NO("prev_comm == \"ba*\""); /* == has no wildcards */
	YES("name == \"hello\"");
	NO("name == \"hell\"");
	YES("name != \"help\"");
	YES("rname == \"relative\"");
	YES("rname ~ \"rel*\"");
	/* a full array without a NUL is bounded by its size */
	YES("full == \"abcd\"");
	NO("full == \"abc\"");
	NO("full == \"abcde\"");
	YES("full ~ \"*cd\"");
	strcpy(R.prev_comm, "");
	YES("prev_comm == \"\"");
	set_loc(&R.name, DATA(0), 0);
	YES("name == \"\"");
	NO("name ~ \"?*\"");
}

static void test_string_glob(void **state)
{
	YES("prev_comm ~ \"bash\"");
	NO("prev_comm ~ \"bas\"");
	YES("prev_comm ~ \"ba*\"");
	NO("prev_comm ~ \"as*\"");
	YES("prev_comm ~ \"*sh\"");
	NO("prev_comm ~ \"*ba\"");
	YES("prev_comm ~ \"*as*\"");
	NO("prev_comm ~ \"*sa*\"");
	YES("prev_comm ~ \"*\"");
	YES("prev_comm ~ \"**\"");
	YES("prev_comm ~ \"b?sh\"");
	NO("prev_comm ~ \"b?h\"");
	YES("prev_comm ~ \"b*h\"");
	YES("prev_comm ~ \"b[a-c]sh\"");
	NO("prev_comm ~ \"b[!a]sh\"");
	YES("prev_comm ~ \"b[!x]sh\"");
	YES("prev_comm ~ \"[]ab]ash\"");
	YES("prev_comm ~ \"\\bash\"");	/* \b is a literal b */
	NO("prev_comm ~ \"\\\\bash\""); /* \\ is a literal backslash */
	YES("prev_comm ~ \"*a*h\"");
	YES("prev_comm ~ \"b*\\h\"");
	NO("prev_comm ~ \"b[ash\""); /* an unclosed class is a literal '[' */
	NO("prev_comm ~ \"\"");
	/* a leading '!' inverts */
	NO("prev_comm ~ \"!bash\"");
	YES("prev_comm ~ \"!zsh\"");
	NO("prev_comm ~ \"!ba*\"");
	NO("prev_comm ~ \"!*sh\"");
	NO("prev_comm ~ \"!*as*\"");
	NO("prev_comm ~ \"!b?sh\"");
	YES("prev_comm ~ \"!z?sh\"");
	YES("prev_comm == \"!bash\""
	    " || prev_comm != \"!bash\""); /* '!' is literal for == */
	NO("prev_comm == \"!bash\"");
	/* the same classes on a __data_loc string */
	YES("name ~ \"hel*\"");
	YES("name ~ \"*llo\"");
	YES("name ~ \"*ell*\"");
	YES("name ~ \"h?l[a-z]o\"");
	NO("name ~ \"!h*\"");
	YES("comm ~ \"my*\"");
	YES("COMM ~ \"*prog\"");
	/* the kernel reads a pattern starting with a digit as an exact string */
	strcpy(R.data, "1abc");
	set_loc(&R.name, DATA(0), 5);
	NO("name ~ \"1*\"");
	strcpy(R.data, "1*");
	set_loc(&R.name, DATA(0), 3);
	YES("name ~ \"1*\"");
}

static void test_string_quotes_and_escapes(void **state)
{
	/* A backslash keeps a quote inside the value; the value stays verbatim. */
	strcpy(R.data, "a\"b");
	set_loc(&R.name, DATA(0), 4);
	YES("name ~ \"a\\\"b\"");
	NO("name == \"a\\\"b\"");
	strcpy(R.data, "a\\\"b");
	set_loc(&R.name, DATA(0), 5);
	YES("name == \"a\\\"b\"");
	YES("name == 'a\\\"b'");
	/* the other quote needs no escape */
	strcpy(R.prev_comm, "it's");
	YES("prev_comm == \"it's\"");

	/* 255 bytes is the longest value */
	char expr[400], val[300];
	memset(val, 'x', 255);
	val[255] = '\0';
	snprintf(expr, sizeof(expr), "name != \"%s\"", val);
	assert_true(match(expr));
}

/* ---- precedence, NOT and short-circuit ---- */

static const struct uft_field abc[] = {
    {"u8", "a", 8, 1, 0, UFT_FIELD_SCALAR, 1},	{"u8", "b", 9, 1, 0, UFT_FIELD_SCALAR, 1},
    {"u8", "c", 10, 1, 0, UFT_FIELD_SCALAR, 1}, {"u8", "d", 11, 1, 0, UFT_FIELD_SCALAR, 1},
    {"u8", "e", 12, 1, 0, UFT_FIELD_SCALAR, 1}, {"u8", "f", 13, 1, 0, UFT_FIELD_SCALAR, 1},
    {"u8", "g", 14, 1, 0, UFT_FIELD_SCALAR, 1}, {"u8", "h", 15, 1, 0, UFT_FIELD_SCALAR, 1},
};

/* Runs the program step by step, evaluating each predicate alone through a
 * one-step copy, and collects the fields it looked at. */
static bool run_visited(const struct uft_filter *f, const uint8_t *rec, char *visited)
{
	struct uft_filter *one = malloc(sizeof(*one) + sizeof(struct uft_fpred));
	struct uft_fins ins;
	uint32_t i = 0;
	size_t nv = 0;

	assert_non_null(one);
	one->n = 1;
	one->needs = 0;
	while (i < f->n) {
		const struct uft_fpred *p = &f->prog[i];
		one->prog[0] = *p;
		one->prog[0].jt = 1;
		one->prog[0].jf = 2;
		uft_filter_lower(one, &ins);
		bool r = uft_filter_match(one, rec, 16, 0, NULL);
		visited[nv++] = (char)('a' + p->offset - 8);
		assert_true(p->jt > i && p->jf > i && p->jt <= f->n + 1 && p->jf <= f->n + 1);
		i = r ? p->jt : p->jf;
	}
	visited[nv] = '\0';
	free(one);
	return i == f->n;
}

static void test_short_circuit(void **state)
{
	static const struct {
		const char *expr;
		uint8_t v[8];
		bool match;
		const char *not_visited;
	} cases[] = {
#define AND8 "a == 1 && b == 1 && c == 1 && d == 1 && e == 1 && f == 1 && g == 1 && h == 1"
#define OR8 "a == 1 || b == 1 || c == 1 || d == 1 || e == 1 || f == 1 || g == 1 || h == 1"
#define AOA "(a == 1 || b == 1) && (c == 1 || d == 1) && (e == 1 || f == 1) && (g == 1 || h == 1)"
#define OAO "(a == 1 && b == 1) || (c == 1 && d == 1) || (e == 1 && f == 1) || (g == 1 && h == 1)"
#define MIX "(a == 1 && b == 1) && (c == 1 && d == 1) && (e == 1 && f == 1) || (g == 1 && h == 1)"
#define NEST                                                                                       \
	"((a == 1 || b == 1) || (c == 1 || d == 1) || (e == 1 || f == 1)) && (g == 1 || h == 1)"
#define DEEP1                                                                                      \
	"((((((((a == 1) && (b == 1)) || (c == 1)) && (d == 1)) || (e == 1)) && (f == 1)) || "     \
	"(g == 1)) && (h == 1))"
#define DEEP2                                                                                      \
	"((((((((a == 1) || (b == 1)) && (c == 1)) || (d == 1)) && (e == 1)) || (f == 1)) && "     \
	"(g == 1)) || (h == 1))"
	    {AND8, {1, 1, 1, 1, 1, 1, 1, 1}, true, ""},
	    {AND8, {0, 1, 1, 1, 1, 1, 1, 1}, false, "bcdefgh"},
	    {AND8, {1, 1, 1, 1, 1, 1, 1, 0}, false, ""},
	    {OR8, {0, 0, 0, 0, 0, 0, 0, 0}, false, ""},
	    {OR8, {0, 0, 0, 0, 0, 0, 0, 1}, true, ""},
	    {OR8, {1, 0, 0, 0, 0, 0, 0, 0}, true, "bcdefgh"},
	    {AOA, {0, 0, 1, 1, 1, 1, 1, 1}, false, "cdefgh"},
	    {AOA, {0, 1, 0, 1, 0, 1, 0, 1}, true, ""},
	    {AOA, {1, 0, 1, 0, 0, 1, 0, 1}, true, "bd"},
	    {AOA, {1, 0, 1, 0, 0, 1, 0, 0}, false, "bd"},
	    {OAO, {1, 0, 1, 1, 1, 1, 1, 1}, true, "efgh"},
	    {OAO, {0, 0, 0, 0, 0, 0, 1, 1}, true, ""},
	    {OAO, {0, 0, 0, 0, 0, 0, 0, 1}, false, ""},
	    {MIX, {1, 1, 1, 1, 1, 1, 0, 0}, true, "gh"},
	    {MIX, {0, 0, 0, 0, 0, 0, 0, 1}, false, ""},
	    {MIX, {1, 1, 1, 1, 1, 0, 1, 1}, true, ""},
	    {NEST, {1, 1, 1, 1, 1, 1, 0, 1}, true, "bcdef"},
	    {NEST, {0, 0, 0, 0, 0, 0, 0, 0}, false, ""},
	    {NEST, {1, 1, 1, 1, 1, 0, 1, 1}, true, "bcdefh"},
	    {DEEP1, {1, 1, 1, 1, 1, 1, 1, 1}, true, "ceg"},
	    {DEEP1, {0, 1, 0, 1, 0, 1, 0, 1}, false, ""},
	    {DEEP1, {1, 0, 1, 0, 1, 0, 1, 0}, false, ""},
	    {DEEP2, {1, 1, 1, 1, 1, 1, 1, 1}, true, "bdfh"},
	    {DEEP2, {0, 1, 0, 1, 0, 1, 0, 1}, true, ""},
	    {DEEP2, {1, 0, 1, 0, 1, 0, 1, 0}, true, "bdfh"},
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint8_t rec[16] = {0};
		char visited[64];
		struct uft_filter *f = NULL;
		struct uft_filter_error err;

		memcpy(rec + 8, cases[k].v, 8);
		assert_int_equal(uft_filter_compile(cases[k].expr, abc, 8, &f, &err), 0);
		assert_int_equal(uft_filter_match(f, rec, sizeof(rec), 0, NULL), cases[k].match);
		assert_int_equal(run_visited(f, rec, visited), cases[k].match);
		for (const char *c = cases[k].not_visited; *c; c++)
			if (strchr(visited, *c))
				fail_msg("case %zu (%s): visited %c (%s)", k, cases[k].expr, *c,
					 visited);
		uft_filter_free(f);
	}
}

static void test_precedence_and_not(void **state)
{
	R.u8v = 1;
	R.s8v = 0;
	R.prev_pid = 0;
	/* && binds tighter than || */
	YES("u8v == 1 || s8v == 1 && prev_pid == 1");
	NO("(u8v == 1 || s8v == 1) && prev_pid == 1");
	YES("s8v == 1 && prev_pid == 1 || u8v == 1");
	NO("s8v == 1 && (prev_pid == 1 || u8v == 1)");
	/* ! applies to the next predicate or group; !! cancels */
	NO("!u8v == 1");
	YES("!!u8v == 1");
	YES("!s8v == 1 && u8v == 1");
	YES("! s8v == 1");
	YES("!(u8v == 1 && s8v == 1)");
	NO("!(u8v == 1 || s8v == 1)");
	YES("!(!u8v == 1 || s8v == 1) && u8v == 1");
	YES("!(!(u8v == 1))");
	YES("!(!(!(s8v == 1)))");
	YES("((u8v == 1))");
	YES("!(s8v == 1) && !(prev_pid == 1)");
	NO("!(s8v == 1) && !(u8v == 1)");
}

static void test_deep_nesting_and_limits(void **state)
{
	/* Nesting is not limited and costs no recursion. */
	size_t depth = 20000;
	char *e = malloc(2 * depth + 32);
	memset(e, '(', depth);
	strcpy(e + depth, "u8v == 255");
	memset(e + depth + 10, ')', depth);
	e[2 * depth + 10] = '\0';
	YES(e);
	e[0] = '!';
	e[2 * depth + 9] = '\0';
	NO(e);
	free(e);

	/* 16384 predicates compile; one more does not */
	const char *term = "u8v == 1 || ";
	size_t tl = strlen(term), n = UFT_FILTER_MAX_PREDS;
	e = malloc(tl * (n + 1) + 16);
	for (size_t i = 0; i < n; i++)
		memcpy(e + i * tl, term, tl);
	strcpy(e + (n - 1) * tl, "u8v == 255");
	YES(e);
	for (size_t i = 0; i < n; i++)
		memcpy(e + i * tl, term, tl);
	strcpy(e + n * tl, "u8v == 255");
	expect_err(e, UFT_FILTER_ERR_TOO_MANY_PREDS, (int)(n * tl));
	free(e);
}

/* ---- pseudo and common fields ---- */

static void test_cpu_comm_common(void **state)
{
	YES("cpu == 3");
	YES("CPU == 3");
	YES("common_cpu == 3");
	NO("cpu != 3");
	YES("cpu > 2 && cpu < 4");
	YES("cpu >= 3 && cpu <= 3");
	YES("cpu > -1"); /* compared as an int */
	NO("cpu & 1");	 /* accepted, never true, as in the kernel */
	YES("cpu == 0x100000003");
	R_CPU = 0;
	NO("cpu > 0");
	YES("cpu == 0");

	YES("comm == \"myprog\"");
	YES("COMM == \"myprog\"");
	NO("comm == \"myprog2\"");
	YES("comm != \"bash\"");
	R_COMM = "abcdefghijklmnopqrstuvwxyz"; /* bounded to 16 bytes */
	YES("comm == \"abcdefghijklmnop\"");
	R_COMM = NULL;
	YES("comm == \"\"");

	YES("common_pid == 1234");
	YES("common_pid > 0");
	YES("common_type == 7");
	YES("common_flags & 8");
	NO("common_flags & 1");
	YES("common_preempt_count == 2");

	struct uft_filter *f = compile_ok("comm == \"x\" && cpu == 1");
	assert_int_equal(uft_filter_needs(f), UFT_FILTER_NEEDS_CPU | UFT_FILTER_NEEDS_COMM);
	uft_filter_free(f);
	f = compile_ok("prev_pid == 1");
	assert_int_equal(uft_filter_needs(f), 0);
	uft_filter_free(f);
	assert_int_equal(uft_filter_needs(NULL), 0);

	/* A real field named comm hides the pseudo field. */
	static const struct uft_field own[] = {{"char", "comm[16]", 8, 16, 0, UFT_FIELD_ARRAY, 1}};
	uint8_t rec[24] = {0};
	strcpy((char *)rec + 8, "inrecord");
	assert_int_equal(uft_filter_compile("comm == \"inrecord\"", own, 1, &f, NULL), 0);
	assert_true(uft_filter_match(f, rec, sizeof(rec), 0, "other"));
	assert_int_equal(uft_filter_needs(f), 0);
	uft_filter_free(f);
}

static void test_cpus_lists(void **state)
{
	YES("cpu & CPUS{0-3}");
	YES("cpu & CPUS{1,3,5}");
	NO("cpu & CPUS{4-7}");
	/* a list of two or more CPUs never equals one CPU */
	NO("cpu == CPUS{0-3}");
	YES("cpu != CPUS{0-3}");
	/* a one-CPU list is a number */
	YES("cpu == CPUS{3}");
	YES("cpu & CPUS{3}");
	NO("cpu != CPUS{3}");
	YES("cpu == CPUS{ 3 }");
	NO("cpu & CPUS{0-15:2/4}"); /* 0,1,4,5,...: 3 is not in */
	R_CPU = 5;
	YES("cpu & CPUS{0-15:2/4}");
	R_CPU = UFT_FILTER_NR_CPUS - 1;
	YES("cpu & CPUS{N}");
	YES("cpu & CPUS{0,N}");

	/* an integer field holding a CPU */
	YES("target_cpu & CPUS{0,8}");
	YES("target_cpu == CPUS{8}");
	NO("target_cpu == CPUS{0,8}");
	YES("target_cpu != CPUS{0,8}");
	NO("target_cpu & CPUS{0-7}");
	R.target_cpu = 5000;
	NO("target_cpu != CPUS{0,8}"); /* beyond the CPUs: never true */

	/* a cpumask field (CPUs 1 and 3) */
	YES("mask == CPUS{1,3}");
	NO("mask == CPUS{1-3}");
	YES("mask != CPUS{1-3}");
	YES("mask & CPUS{3}");
	NO("mask == CPUS{3}");
	YES("mask != CPUS{3}");
	NO("mask & CPUS{0,2}");
	YES("mask & CPUS{2-3}");
	R.data[8] = 0x08;
	YES("mask == CPUS{3}");
	NO("mask != CPUS{3}");
}

/* ---- pointers and .function ---- */

static void test_pointer_strings(void **state)
{
	YES("str == \"pointed\"");
	YES("str ~ \"poi*\"");
	YES("str ~ \"*ted\"");
	NO("str == \"pointe\"");
	YES("str.ustring == \"pointed\"");
	YES("ptr.ustring == \"voidstr\"");
	YES("ptr.ustring ~ \"void*\"");
	expect_err("ptr == \"voidstr\"", UFT_FILTER_ERR_EXPECT_DIGIT, 8);
	YES("ptr != 0");
	YES("ptr.ustring != 0"); /* .ustring only matters for a quoted value */

	/* unreadable memory: the predicate is false, even for != */
	R.str = NULL;
	NO("str == \"x\"");
	NO("str != \"x\"");
	YES("!(str == \"x\")");
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + pg, pg, PROT_NONE), 0);
	R.str = m + pg;
	NO("str == \"x\"");
	NO("str ~ \"*\"");
	/* a string that ends right before the hole */
	strcpy(m + pg - 4, "abc");
	R.str = m + pg - 4;
	YES("str == \"abc\"");
	YES("str ~ \"*b*\"");
	YES("str ~ \"a?c\"");
	NO("str == \"abcd\"");
	/* no NUL before the hole */
	memcpy(m + pg - 4, "abcd", 4);
	NO("str ~ \"*\"");
	NO("str == \"abcd\"");
	YES("str ~ \"ab*\""); /* a prefix needs no more than its own bytes */
	munmap(m, 2 * pg);
}

static int lookup_sym(void *ctx, const char *name, uint64_t addr, uint64_t *start, uint64_t *end)
{
	*(int *)ctx += 1;
	if ((name && !strcmp(name, "foo")) || (!name && addr >= 0x1000 && addr < 0x1100)) {
		*start = 0x1000;
		*end = 0x1100;
		return 0;
	}
	return -1;
}

static void test_function_suffix(void **state)
{
	/* without symbols a number is one address */
	YES("call_site.function == 0x1050");
	NO("call_site.function == 0x1051");
	YES("call_site.function != 0x1051");
	expect_err("call_site.function == foo", UFT_FILTER_ERR_NO_FUNCTION, 26);

	int calls = 0;
	struct uft_filter_syms syms = {lookup_sym, &calls};
	struct uft_filter *f = NULL;
	struct uft_filter_error err;
	assert_int_equal(uft_filter_compile_syms("call_site.function == foo", fields, NR_FIELDS,
						 &syms, &f, &err),
			 0);
	assert_true(uft_filter_match(f, &R, sizeof(R), 0, NULL));
	R.call_site = 0x1100;
	assert_false(uft_filter_match(f, &R, sizeof(R), 0, NULL));
	uft_filter_free(f);
	assert_int_equal(uft_filter_compile_syms("call_site.function != 0x10ff", fields, NR_FIELDS,
						 &syms, &f, &err),
			 0);
	assert_true(uft_filter_match(f, &R, sizeof(R), 0, NULL));
	R.call_site = 0x1000;
	assert_false(uft_filter_match(f, &R, sizeof(R), 0, NULL));
	uft_filter_free(f);
	assert_int_equal(uft_filter_compile_syms("call_site.function == bar", fields, NR_FIELDS,
						 &syms, &f, &err),
			 -EINVAL);
	assert_int_equal(err.code, UFT_FILTER_ERR_NO_FUNCTION);
	assert_int_equal(calls, 3);
}

/* ---- records that do not hold what they claim ---- */

static bool match_copy(const char *expr, uint32_t len)
{
	/* an exact-size heap copy, so a sanitizer sees any overread */
	void *rec = malloc(len ? len : 1);
	memcpy(rec, &R, len);
	bool m = match_rec(expr, rec, len);
	free(rec);
	return m;
}

static void test_corrupt_records(void **state)
{
	const char *exprs[] = {
	    "name == \"hello\"", "name != \"x\"",    "!(name == \"x\")",
	    "name ~ \"*\"",	 "name ~ \"h*\"",    "rname != \"x\"",
	    "mask != CPUS{1}",	 "mask & CPUS{0-3}", "u8v == 1 || name != \"x\"",
	};
	const uint32_t bad[][2] = {
	    {sizeof(R), 1},	  /* starts at the end */
	    {sizeof(R) - 2, 6},	  /* runs past the end */
	    {0xffff, 0xffff},	  /* far away */
	    {DATA(0), 0xffff},	  /* huge length */
	    {sizeof(R) + 100, 0}, /* empty, past the end */
	};
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		for (size_t k = 0; k < sizeof(exprs) / sizeof(exprs[0]); k++) {
			reset_record();
			R.u8v = 0;
			set_loc(&R.name, bad[b][0], bad[b][1]);
			set_loc(&R.mask, bad[b][0], bad[b][1]);
			set_loc(&R.rname, bad[b][0], bad[b][1]);
			if (match_copy(exprs[k], sizeof(R)))
				fail_msg("bad loc %zu matched %s", b, exprs[k]);
		}
	}

	/* a record shorter than the fields the filter reads */
	reset_record();
	uint32_t short_len = offsetof(struct trec, prev_comm);
	assert_false(match_copy("prev_comm != \"x\"", short_len));
	assert_false(match_copy("!(prev_pid == 1)", short_len));
	assert_false(match_copy("u64v != 0", offsetof(struct trec, u64v) + 7));
	assert_true(match_copy("u64v != 0", offsetof(struct trec, u64v) + 8));
	/* fields right at the end load only their own bytes */
	assert_true(match_copy("u8v == 255", offsetof(struct trec, u8v) + 1));
	assert_true(match_copy("s16v == -32768", offsetof(struct trec, s16v) + 2));
	assert_true(match_copy("common_pid == 1234", 8));
	assert_false(match_copy("common_pid == 1234", 7));
	assert_false(match_copy("common_type == 7", 0));
	/* fields the filter does not read may be missing */
	assert_true(match_copy("common_type == 7 || prev_pid == 1", 8));
}

/* ---- errors ---- */

static void test_error_example(void **state)
{
	expect_err("prev_pid > 10 && nosuch == 1", UFT_FILTER_ERR_FIELD_NOT_FOUND, 24);
	expect_text("prev_pid > 10 && nosuch == 1", "prev_pid > 10 && nosuch == 1\n"
						    "                        ^\n"
						    "parse_error: Field not found\n");
}

static void test_error_positions(void **state)
{
	char big[400];

	expect_err("s8v = 1", UFT_FILTER_ERR_INVALID_OP, 5);
	expect_err("s8v !~ \"x\"", UFT_FILTER_ERR_INVALID_OP, 5);
	expect_err("s8v", UFT_FILTER_ERR_INVALID_OP, 4);
	expect_err("s8v.foo == 1", UFT_FILTER_ERR_INVALID_OP, 4);
	expect_err("(s8v == 1", UFT_FILTER_ERR_TOO_MANY_OPEN, 0);
	expect_err("s8v == 1 || (u8v == 1 || (s16v == 2)", UFT_FILTER_ERR_TOO_MANY_OPEN, 12);
	expect_err("s8v == 1 || ((u8v == 1) || s16v == \")\"", UFT_FILTER_ERR_TOO_MANY_OPEN, 12);
	expect_err("s8v == 1)", UFT_FILTER_ERR_TOO_MANY_CLOSE, 8);
	expect_err("(s8v == 1))", UFT_FILTER_ERR_TOO_MANY_CLOSE, 10);
	expect_err(") s8v == 1 (", UFT_FILTER_ERR_TOO_MANY_CLOSE, 0);
	expect_err("prev_comm == \"bash", UFT_FILTER_ERR_MISSING_QUOTE, 13);
	expect_err("prev_comm == \"ab\\\"c", UFT_FILTER_ERR_MISSING_QUOTE, 13);
	expect_err("prev_comm == 'x\" || s8v == 1", UFT_FILTER_ERR_MISSING_QUOTE, 13);
	expect_err("cpu == CPUS0-3}", UFT_FILTER_ERR_MISSING_BRACE_OPEN, 13);
	expect_err("cpu == CPUS", UFT_FILTER_ERR_MISSING_BRACE_OPEN, 13);
	expect_err("cpu == CPUS{0-3", UFT_FILTER_ERR_MISSING_BRACE_CLOSE, 16);
	expect_err("cpu == CPUS{}", UFT_FILTER_ERR_INVALID_CPULIST, 13);
	expect_err("cpu == CPUS{0-x}", UFT_FILTER_ERR_INVALID_CPULIST, 16);
	expect_err("cpu == CPUS{3-1}", UFT_FILTER_ERR_INVALID_CPULIST, 16);
	expect_err("cpu == CPUS{4096}", UFT_FILTER_ERR_INVALID_CPULIST, 17);
	expect_err("prev_comm == CPUS{1}", UFT_FILTER_ERR_ILLEGAL_FIELD_OP, 14);
	expect_err("cpu < CPUS{1}", UFT_FILTER_ERR_ILLEGAL_FIELD_OP, 7);
	expect_err("u64v == 0x0000000000000000000001", UFT_FILTER_ERR_OPERAND_TOO_LONG, 33);
	YES("u64v != 0x000000000000000000001"); /* 23 bytes */
	memset(big, 0, sizeof(big));
	strcpy(big, "prev_comm == \"");
	memset(big + 14, 'a', 256);
	strcat(big, "\"");
	expect_err(big, UFT_FILTER_ERR_OPERAND_TOO_LONG, 271);
	expect_err("prev_comm == 1", UFT_FILTER_ERR_EXPECT_STRING, 14);
	expect_err("comm == -1", UFT_FILTER_ERR_EXPECT_STRING, 9);
	expect_err("prev_pid == \"1\"", UFT_FILTER_ERR_EXPECT_DIGIT, 13);
	expect_err("mask == \"1\"", UFT_FILTER_ERR_EXPECT_DIGIT, 9);
	expect_err("prev_comm < \"a\"", UFT_FILTER_ERR_ILLEGAL_FIELD_OP, 13);
	expect_err("prev_comm & \"a\"", UFT_FILTER_ERR_ILLEGAL_FIELD_OP, 13);
	expect_err("prev_pid ~ 1", UFT_FILTER_ERR_ILLEGAL_FIELD_OP, 12);
	expect_err("nosuch == 1", UFT_FILTER_ERR_FIELD_NOT_FOUND, 7);
	expect_err("  s8v == 1 && prev_comm[16] == \"x\"", UFT_FILTER_ERR_INVALID_OP, 24);
	expect_err("u8v == -1", UFT_FILTER_ERR_ILLEGAL_INTVAL, 8);
	expect_err("prev_pid == 12ab", UFT_FILTER_ERR_ILLEGAL_INTVAL, 13);
	expect_err("prev_pid == 08", UFT_FILTER_ERR_ILLEGAL_INTVAL, 13);
	expect_err("prev_pid == 0x", UFT_FILTER_ERR_ILLEGAL_INTVAL, 13);
	expect_err("prev_pid == -", UFT_FILTER_ERR_ILLEGAL_INTVAL, 13);
	expect_err("prev_pid == --1", UFT_FILTER_ERR_ILLEGAL_INTVAL, 13);
	expect_err("s64v == 9223372036854775808", UFT_FILTER_ERR_ILLEGAL_INTVAL, 9);
	expect_err("s64v == -9223372036854775809", UFT_FILTER_ERR_ILLEGAL_INTVAL, 9);
	expect_err("u64v == 18446744073709551616", UFT_FILTER_ERR_ILLEGAL_INTVAL, 9);
	expect_err("prev_pid == 1 x", UFT_FILTER_ERR_TOO_MANY_PREDS, 14);
	expect_err("prev_pid == 1 & u8v == 1", UFT_FILTER_ERR_TOO_MANY_PREDS, 14);
	expect_err("prev_pid == 1-2", UFT_FILTER_ERR_TOO_MANY_PREDS, 13);
	expect_err("(prev_pid == 1) (u8v == 1)", UFT_FILTER_ERR_TOO_MANY_PREDS, 16);
	expect_err("prev_comm == bash", UFT_FILTER_ERR_INVALID_VALUE, 14);
	expect_err("prev_pid ==", UFT_FILTER_ERR_INVALID_VALUE, 12);
	expect_err("prev_pid == = 1", UFT_FILTER_ERR_INVALID_VALUE, 13);
	expect_err("prev_pid && 1", UFT_FILTER_ERR_INVALID_VALUE, 11);
	expect_err("prev_pid.function == 1", UFT_FILTER_ERR_ILLEGAL_FIELD_OP, 22);
	expect_err("cpu.function == 1", UFT_FILTER_ERR_ILLEGAL_FIELD_OP, 17);
	expect_err("call_site.function < 1", UFT_FILTER_ERR_INVALID_OP, 22);
	expect_err("call_site.function == 12z", UFT_FILTER_ERR_INVALID_VALUE, 26);
	expect_err("call_site.function == 0x0000000000000000000001",
		   UFT_FILTER_ERR_OPERAND_TOO_LONG, 47);
	expect_err("(call_site.function == foo)", UFT_FILTER_ERR_NO_FUNCTION, 28);
	expect_err("!", UFT_FILTER_ERR_NO_FILTER, 1);
	expect_err("!!", UFT_FILTER_ERR_NO_FILTER, 2);
	expect_err(" ! ", UFT_FILTER_ERR_NO_FILTER, 3);
	/* failures the kernel reports without a message */
	expect_err("", UFT_FILTER_ERR_NONE, 0);
	expect_err("   ", UFT_FILTER_ERR_NONE, 0);
	expect_err("()", UFT_FILTER_ERR_NONE, 0);
	expect_err("== 1", UFT_FILTER_ERR_NONE, 0);
	expect_err("\"x\" == prev_comm", UFT_FILTER_ERR_NONE, 0);
	expect_err("s8v == 1 && && u8v == 1", UFT_FILTER_ERR_NONE, 0);
	expect_err("(s8v == 1 ||) && u8v == 1", UFT_FILTER_ERR_NONE, 0);
	expect_err("s8v == 1 || u8v == 1 &&", UFT_FILTER_ERR_NONE, 0);
	/* an incomplete expression (ftracetest's event-filter-incomplete) */
	static const char *const bases[] = {"u8v == 1", "u8v == 1 || s8v == 2",
					    "u8v == 1 && s8v == 2", "!(u8v == 1 || s8v == 2)"};
	static const char *const tails[] = {"&&", "||", "&& !", "|| !", "&& !! ", "|| !! "};
	for (size_t i = 0; i < ARRAY_SIZE(bases); i++)
		for (size_t k = 0; k < ARRAY_SIZE(tails); k++) {
			char expr[64];
			snprintf(expr, sizeof(expr), "%s %s", bases[i], tails[k]);
			expect_err(expr, UFT_FILTER_ERR_NONE, 0);
		}
	expect_err("00", UFT_FILTER_ERR_FIELD_NOT_FOUND, 3);
	/* Latin-1 letters and NBSP count as the kernel's ctype says */
	expect_err("s8v\xa0== 1 && x\xe9y == 1", UFT_FILTER_ERR_FIELD_NOT_FOUND, 16);
	YES("s8v\xa0==\xa0-128");
}

static void test_error_texts(void **state)
{
	char buf[256];

	expect_text("s8v = 1", "s8v = 1\n     ^\nparse_error: Invalid operator\n");
	expect_text("(s8v == 1", "(s8v == 1\n^\nparse_error: Too many '('\n");
	expect_text("s8v == 1)", "s8v == 1)\n        ^\nparse_error: Too few '('\n");
	expect_text("prev_comm == \"x",
		    "prev_comm == \"x\n             ^\nparse_error: Missing matching quote\n");
	/* a position past the end puts the caret under the last byte + 1 */
	expect_text("cpu == CPUS{0-3",
		    "cpu == CPUS{0-3\n               ^\nparse_error: Missing '}'\n");
	expect_text("s8v", "s8v\n   ^\nparse_error: Invalid operator\n");
	expect_text("!", "!\n ^\nparse_error: No filter found\n");
	expect_text("()", "()\nError: (0)\n");
	expect_text("prev_comm == bash", "prev_comm == bash\n              ^\n"
					 "parse_error: Invalid value (did you forget quotes)?\n");
	expect_text("cpu == CPUS{x}",
		    "cpu == CPUS{x}\n              ^\nparse_error: Invalid cpulist\n");
	expect_text("u8v == -1", "u8v == -1\n        ^\nparse_error: Illegal integer value\n");
	expect_text("prev_comm == 1", "prev_comm == 1\n              ^\n"
				      "parse_error: Expecting string field\n");
	expect_text("s8v == \"1\"",
		    "s8v == \"1\"\n        ^\nparse_error: Expecting numeric field\n");
	expect_text("s8v ~ 1",
		    "s8v ~ 1\n       ^\nparse_error: Illegal operation for field type\n");
	expect_text("s8v == 1 2", "s8v == 1 2\n         ^\n"
				  "parse_error: Too many terms in predicate expression\n");
	expect_text("call_site.function == nope",
		    "call_site.function == nope\n                          ^\n"
		    "parse_error: Function not found\n");
	expect_text("cpu == CPUS(1)", "cpu == CPUS(1)\n             ^\nparse_error: Missing '{'\n");

	/* the file with and without a filter, and a subsystem failure */
	assert_int_equal(uft_filter_error_text(NULL, NULL, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "none\n");
	assert_int_equal(uft_filter_error_text("s8v == 1", NULL, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "s8v == 1\n");
	struct uft_filter_error sub = {UFT_FILTER_ERR_BAD_SUBSYS_FILTER, 0};
	uft_filter_error_text("x == 1", &sub, buf, sizeof(buf));
	assert_string_equal(
	    buf,
	    "x == 1\n^\nparse_error: Couldn't find or set field in one of a subsystem's events\n");
	struct uft_filter_error oom = {-ENOMEM, 0};
	uft_filter_error_text("x == 1", &oom, buf, sizeof(buf));
	assert_string_equal(buf, "x == 1\nError: (-12)\n");

	/* snprintf-like truncation */
	struct uft_filter_error e = {UFT_FILTER_ERR_INVALID_OP, 5};
	int full = uft_filter_error_text("s8v = 1", &e, NULL, 0);
	assert_int_equal(full, (int)strlen("s8v = 1\n     ^\nparse_error: Invalid operator\n"));
	assert_int_equal(uft_filter_error_text("s8v = 1", &e, buf, 12), full);
	assert_string_equal(buf, "s8v = 1\n   ");

	/* every message, for error_log */
	assert_string_equal(uft_filter_strerror(UFT_FILTER_ERR_TOO_MANY_OPEN), "Too many '('");
	assert_string_equal(uft_filter_strerror(UFT_FILTER_ERR_TOO_MANY_CLOSE), "Too few '('");
	assert_string_equal(uft_filter_strerror(UFT_FILTER_ERR_MISSING_BRACE_OPEN), "Missing '{'");
	assert_string_equal(uft_filter_strerror(UFT_FILTER_ERR_INVALID_FILTER),
			    "Meaningless filter expression");
	assert_string_equal(uft_filter_strerror(UFT_FILTER_ERR_IP_FIELD_ONLY),
			    "Only 'ip' field is supported for function trace");
	assert_string_equal(uft_filter_strerror(UFT_FILTER_ERR_NO_FILTER), "No filter found");
	assert_string_equal(uft_filter_strerror(0), "Error");
	assert_string_equal(uft_filter_strerror(-12), "Error");
	assert_string_equal(uft_filter_strerror(999), "Error");
}

static void test_clear_and_null(void **state)
{
	struct uft_filter *f = (struct uft_filter *)1;
	struct uft_filter_error err;

	assert_int_equal(uft_filter_compile("0", fields, NR_FIELDS, &f, &err), UFT_FILTER_CLEAR);
	assert_null(f);
	assert_int_equal(uft_filter_compile("  0 \n", fields, NR_FIELDS, &f, &err),
			 UFT_FILTER_CLEAR);
	assert_int_equal(uft_filter_compile("\t0", NULL, 0, &f, NULL), UFT_FILTER_CLEAR);
	/* no filter matches everything */
	assert_true(uft_filter_match(NULL, NULL, 0, 0, NULL));
	uft_filter_free(NULL);
	/* without event fields, the common and pseudo ones remain */
	assert_int_equal(uft_filter_compile("common_pid == 1234 && cpu == 3", NULL, 0, &f, NULL),
			 0);
	assert_true(uft_filter_match(f, &R, 8, 3, NULL));
	uft_filter_free(f);
	assert_int_equal(uft_filter_compile("nosuch == 1", NULL, 0, &f, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_signed_unsigned_edges, setup),
	    cmocka_unit_test_setup(test_int_ops_every_size, setup),
	    cmocka_unit_test_setup(test_string_exact, setup),
	    cmocka_unit_test_setup(test_string_glob, setup),
	    cmocka_unit_test_setup(test_string_quotes_and_escapes, setup),
	    cmocka_unit_test_setup(test_short_circuit, setup),
	    cmocka_unit_test_setup(test_precedence_and_not, setup),
	    cmocka_unit_test_setup(test_deep_nesting_and_limits, setup),
	    cmocka_unit_test_setup(test_cpu_comm_common, setup),
	    cmocka_unit_test_setup(test_cpus_lists, setup),
	    cmocka_unit_test_setup(test_pointer_strings, setup),
	    cmocka_unit_test_setup(test_function_suffix, setup),
	    cmocka_unit_test_setup(test_corrupt_records, setup),
	    cmocka_unit_test_setup(test_error_example, setup),
	    cmocka_unit_test_setup(test_error_positions, setup),
	    cmocka_unit_test_setup(test_error_texts, setup),
	    cmocka_unit_test_setup(test_clear_and_null, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
