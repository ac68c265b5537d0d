/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printf-style events: layouts, refusals, serialization, and libtraceevent
 * printing records exactly as printf prints the same arguments. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>
#include <event-parse.h>

#include "engine/format/format.h"
#include "engine/format/printf_event.h"
#include "tep_body.h"

#define P(x) ((uint64_t)(uintptr_t)(x))
#define S(x) ((uint64_t)(int64_t)(x))

static void parse_ok(const char *fmt, struct uft_printf_layout *l)
{
	char err[256];
	int ret = uft_printf_layout_parse(fmt, l, err, sizeof(err));
	if (ret)
		fail_msg("'%s': %s", fmt, err);
}

static void expect_field(const struct uft_printf_layout *l, uint32_t i, const char *type,
			 const char *name, uint32_t off, uint32_t size, int sgn, int kind)
{
	assert_true(i < l->nr_args);
	assert_string_equal(l->fields[i].type, type);
	assert_string_equal(l->fields[i].name, name);
	assert_int_equal(l->fields[i].offset, off);
	assert_int_equal(l->offsets[i], off);
	assert_int_equal(l->fields[i].size, size);
	assert_int_equal(l->fields[i].is_signed, sgn);
	assert_int_equal(l->kinds[i], kind);
}

static void test_layout_basic(void **state)
{
	struct uft_printf_layout l;

	parse_ok("req=%d path=%s lat=%llu ptr=%p c=%c x=%lx", &l);
	assert_int_equal(l.nr_args, 6);
	expect_field(&l, 0, "int", "req", 8, 4, 1, UFT_PARG_U32);
	expect_field(&l, 1, "__data_loc char[]", "path", 12, 4, 0, UFT_PARG_STR);
	expect_field(&l, 2, "unsigned long long", "lat", 16, 8, 0, UFT_PARG_U64);
	expect_field(&l, 3, "unsigned long", "ptr", 24, 8, 0, UFT_PARG_U64);
	expect_field(&l, 4, "char", "c[2]", 32, 2, 0, UFT_PARG_CHAR);
	expect_field(&l, 5, "unsigned long", "x", 40, 8, 0, UFT_PARG_U64);
	assert_int_equal(l.fields[1].kind, UFT_FIELD_DYN);
	assert_int_equal(l.fields[4].kind, UFT_FIELD_ARRAY);
	assert_int_equal(l.fixed_size, 48);
	assert_int_equal(l.nr_strings, 1);
	assert_string_equal(l.print_fmt, "\"req=%d path=%s lat=%llu ptr=%p c=%s x=%lx\", REC->req, "
					 "__get_str(path), REC->lat, REC->ptr, REC->c, REC->x");
	uft_printf_layout_free(&l);
	assert_null(l.fields);
}

static void test_layout_types(void **state)
{
	struct uft_printf_layout l;

	parse_ok("%d %i %c %hd %hhd %u %x %X %o %hu %hhu %ld %li %lu %lx %lX %lo %lld %lli %jd "
		 "%zd %td %llu %llx %zu %zx %ju %p %s",
		 &l);
	static const struct {
		const char *type;
		uint32_t size;
		int sgn;
	} want[] = {
	    {"int", 4, 1},
	    {"int", 4, 1},
	    {"char", 2, 0},
	    {"int", 4, 1},
	    {"int", 4, 1},
	    {"unsigned int", 4, 0},
	    {"unsigned int", 4, 0},
	    {"unsigned int", 4, 0},
	    {"unsigned int", 4, 0},
	    {"unsigned int", 4, 0},
	    {"unsigned int", 4, 0},
	    {"long", 8, 1},
	    {"long", 8, 1},
	    {"unsigned long", 8, 0},
	    {"unsigned long", 8, 0},
	    {"unsigned long", 8, 0},
	    {"unsigned long", 8, 0},
	    {"long long", 8, 1},
	    {"long long", 8, 1},
	    {"long", 8, 1},
	    {"long", 8, 1},
	    {"long", 8, 1},
	    {"unsigned long long", 8, 0},
	    {"unsigned long long", 8, 0},
	    {"unsigned long", 8, 0},
	    {"unsigned long", 8, 0},
	    {"unsigned long", 8, 0},
	    {"unsigned long", 8, 0},
	    {"__data_loc char[]", 4, 0},
	};
	assert_int_equal(l.nr_args, sizeof(want) / sizeof(want[0]));
	uint32_t off = 8;
	for (uint32_t i = 0; i < l.nr_args; i++) {
		uint32_t align = l.kinds[i] == UFT_PARG_CHAR ? 1 : want[i].size;
		char name[16];
		off = (off + align - 1) / align * align;
		snprintf(name, sizeof(name), i == 2 ? "arg%u[2]" : "arg%u", i + 1);
		expect_field(&l, i, want[i].type, name, off, want[i].size, want[i].sgn, l.kinds[i]);
		off += want[i].size;
	}
	assert_int_equal(l.fixed_size, (off + 7) / 8 * 8);
	/* j and t become l, %c becomes %s: the only rewrites. */
	assert_non_null(strstr(l.print_fmt, "\"%d %i %s %hd %hhd %u %x %X %o %hu %hhu %ld %li %lu "
					    "%lx %lX %lo %lld %lli %ld %zd %ld %llu %llx %zu %zx "
					    "%lu %p %s\", REC->arg1,"));
	uft_printf_layout_free(&l);
}

static void test_layout_names(void **state)
{
	struct uft_printf_layout l;

	parse_ok("%d %d a=%d a=%u b= %d x.y=%d 9z=%d 12=%d common_pid=%d arg1=%d c=%c c=%d", &l);
	const char *want[] = {"arg1", "arg2",	      "a",	"a_2",	"arg5", "y", "z",
			      "arg8", "common_pid_2", "arg1_2", "c[2]", "c_2"};
	assert_int_equal(l.nr_args, 12);
	for (uint32_t i = 0; i < l.nr_args; i++)
		assert_string_equal(l.fields[i].name, want[i]);
	assert_non_null(strstr(l.print_fmt, ", REC->c, REC->c_2"));
	uft_printf_layout_free(&l);
}

static void test_layout_flags_kept(void **state)
{
	struct uft_printf_layout l;

	parse_ok("%-5d|%05d|%.3d|%#x|%#lo|%08.3lx|%-10s|%.2s|%-3c|%.d", &l);
	assert_string_equal(l.print_fmt,
			    "\"%-5d|%05d|%.3d|%#x|%#lo|%08.3lx|%-10s|%.2s|%-3s|%.d\", REC->arg1, "
			    "REC->arg2, REC->arg3, REC->arg4, REC->arg5, REC->arg6, "
			    "__get_str(arg7), __get_str(arg8), REC->arg9, REC->arg10");
	uft_printf_layout_free(&l);
}

static void test_layout_escapes(void **state)
{
	struct uft_printf_layout l;

	parse_ok("q=\"%s\" b=\\ n=\n t=\t r=\r a=\a o=\001 del=\177 9 100%% \xc3\xa9", &l);
	assert_string_equal(l.print_fmt, "\"q=\\\"%s\\\" b=\\\\ n=\\n t=\\t r=\\r a=\\a o=\\001 "
					 "del=\\177 9 100%% \\303\\251\", __get_str(arg1)");
	uft_printf_layout_free(&l);

	/* libtraceevent would read \\" as an escaped quote. */
	parse_ok("x=%d\\", &l);
	assert_string_equal(l.print_fmt, "\"x=%d\\\\%.0s\", REC->x, \"\"");
	uft_printf_layout_free(&l);

	parse_ok("", &l);
	assert_int_equal(l.nr_args, 0);
	assert_int_equal(l.fixed_size, 8);
	assert_string_equal(l.print_fmt, "\"\"");
	uft_printf_layout_free(&l);
}

static void expect_error(const char *fmt, const char *needle)
{
	struct uft_printf_layout l;
	char err[256] = "";

	assert_int_equal(uft_printf_layout_parse(fmt, &l, err, sizeof(err)), -EINVAL);
	if (!strstr(err, needle))
		fail_msg("'%s': error '%s' lacks '%s'", fmt, err, needle);
	assert_null(l.fields);
	assert_null(l.print_fmt);
	uft_printf_layout_free(&l);
}

static void test_errors(void **state)
{
	expect_error("v=%f", "floating point");
	expect_error("a=%d v=%.2e", "conversion 2 '%.2e': floating point");
	expect_error("%g", "floating point");
	expect_error("%a", "floating point");
	expect_error("%Lf", "floating point");
	expect_error("%*d", "'*' width or precision");
	expect_error("%.*s", "'*' width or precision");
	expect_error("%n", "%n is not supported");
	expect_error("%hhn", "%n is not supported");
	expect_error("%m", "%m");
	expect_error("%1$d", "positional");
	expect_error("%+d", "flag '+'");
	expect_error("% d", "flag ' '");
	expect_error("%'d", "flag '''");
	expect_error("%Ld", "length modifier 'L'");
	expect_error("%qd", "length modifier 'q'");
	expect_error("%lc", "wide");
	expect_error("%ls", "wide");
	expect_error("%05s", "only the '-' flag");
	expect_error("%.1c", "no precision");
	expect_error("%5p", "%p takes no");
	expect_error("%lp", "%p takes no");
	expect_error("at %pS", "kernel pointer extension");
	expect_error("50%", "ends inside");
	expect_error("%-", "ends inside");
	expect_error("%5%", "literal %");
	expect_error("%y", "unknown conversion 'y'");
	expect_error("%\x01", "unknown conversion byte 0x01");
	expect_error("%2000d", "width or precision above");
	expect_error("%.99999d", "width or precision above");
	expect_error("%-----------------------------d", "longer than");

	/* Fields alone may not fill a record. */
	char big[3000] = "";
	for (int i = 0; i < 1000; i++)
		strcat(big, "%d");
	expect_error(big, "too many conversions");

	struct uft_printf_layout l;
	assert_int_equal(uft_printf_layout_parse(NULL, &l, NULL, 0), -EINVAL);
}

static void test_serialize_exact(void **state)
{
	struct uft_printf_layout l;
	parse_ok("req=%d path=%s c=%c x=%lx", &l);
	assert_int_equal(l.fixed_size, 32);

	uint64_t args[] = {S(-5), P("abc"), 'Z', 0x1122334455667788ull};
	assert_int_equal(uft_printf_record_size(&l, args), 36);

	uint8_t rec[64];
	memset(rec, 0xee, sizeof(rec));
	assert_int_equal(uft_printf_record_fill(&l, args, rec, sizeof(rec)), 36);
	static const uint8_t want[36] = {
	    0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, /* header: caller's */
	    0xfb, 0xff, 0xff, 0xff,			    /* req = -5 */
	    32,	  0,	4,    0,			    /* path: offset 32, length 4 */
	    'Z',  0,	0,    0,    0,	  0,	0,    0,    /* c[2], padding zeroed */
	    0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* x */
	    'a',  'b',	'c',  0,
	};
	assert_memory_equal(rec, want, sizeof(want));
	assert_int_equal(rec[36], 0xee);
	uft_printf_layout_free(&l);
}

static void test_serialize_null_and_truncation(void **state)
{
	struct uft_printf_layout l;
	parse_ok("a=%s b=%s", &l);
	assert_int_equal(l.fixed_size, 16);

	uint64_t args[2] = {0, P("")};
	uint8_t rec[UFT_PRINTF_MAX_RECORD + 64];
	assert_int_equal(uft_printf_record_fill(&l, args, rec, sizeof(rec)), 16 + 7 + 1);
	assert_string_equal((char *)rec + 16, "(null)");
	uint32_t loc;
	memcpy(&loc, rec + 12, 4);
	assert_int_equal(loc, 23u | (1u << 16));

	/* A string that alone exceeds the record leaves one byte for the next. */
	char *longstr = malloc(5000);
	memset(longstr, 'x', 4999);
	longstr[4999] = '\0';
	args[0] = P(longstr);
	args[1] = P("tail");
	assert_int_equal(uft_printf_record_size(&l, args), UFT_PRINTF_MAX_RECORD);
	assert_int_equal(uft_printf_record_fill(&l, args, rec, sizeof(rec)), UFT_PRINTF_MAX_RECORD);
	memcpy(&loc, rec + 8, 4);
	assert_int_equal(loc & 0xffff, 16);
	assert_int_equal(loc >> 16, UFT_PRINTF_MAX_RECORD - 16 - 1);
	assert_int_equal(rec[UFT_PRINTF_MAX_RECORD - 2], '\0');
	assert_int_equal(strlen((char *)rec + 16), UFT_PRINTF_MAX_RECORD - 16 - 2);
	memcpy(&loc, rec + 12, 4);
	assert_int_equal(loc, (UFT_PRINTF_MAX_RECORD - 1) | (1u << 16));
	assert_int_equal(rec[UFT_PRINTF_MAX_RECORD - 1], '\0');

	/* A smaller cap truncates further; below fixed part + NULs nothing fits. */
	assert_int_equal(uft_printf_record_fill(&l, args, rec, 30), 30);
	assert_string_equal((char *)rec + 16, "xxxxxxxxxxxx");
	assert_string_equal((char *)rec + 29, "");
	assert_int_equal(uft_printf_record_fill(&l, args, rec, 17), 0);
	free(longstr);
	uft_printf_layout_free(&l);
}

/* ---- libtraceevent prints records as printf does ---- */

static void check_print(const char *fmt, const uint64_t *args, size_t nr, const char *want)
{
	struct uft_printf_layout l;
	parse_ok(fmt, &l);
	assert_int_equal(l.nr_args, nr);

	uint8_t rec[UFT_PRINTF_MAX_RECORD];
	uint32_t size = uft_printf_record_fill(&l, args, rec, sizeof(rec));
	assert_int_equal(size, uft_printf_record_size(&l, args));
	uint16_t type = 200;
	int32_t pid = 1;
	memcpy(rec, &type, 2);
	rec[2] = rec[3] = 0;
	memcpy(rec + 4, &pid, 4);

	char got[8192];
	tep_body(l.print_fmt, l.fields, l.nr_args, rec, size, got, sizeof(got));
	if (strcmp(got, want))
		fail_msg("format '%s'\nprint fmt %s\nprintf: [%s]\ntep:    [%s]", fmt, l.print_fmt,
			 want, got);
	uft_printf_layout_free(&l);
}

/* fmt stays a literal so the compiler checks the typed printf arguments;
 * arr holds the same values as the tracer receives them. */
#define CASE(fmt, arr, ...)                                                                        \
	do {                                                                                       \
		char want_[1024];                                                                  \
		snprintf(want_, sizeof(want_), fmt, __VA_ARGS__);                                  \
		check_print(fmt, arr, sizeof(arr) / sizeof(uint64_t), want_);                      \
	} while (0)

static void test_print_matches_printf(void **state)
{
	void *ptr = (void *)0x7fff12345678;

	CASE("req=%d path=%s lat=%llu ptr=%p c=%c x=%lx",
	     ((uint64_t[]){S(-5), P("/tmp/x"), 123456789012ull, P(ptr), 'Q', 0xdeadbeefcafeul}), -5,
	     "/tmp/x", 123456789012ull, ptr, 'Q', 0xdeadbeefcafeul);
	/* h and hh values reach the tracer promoted to int, possibly out of
	 * range; printf converts them back, as the casts do here. */
	int big = 70000, b200 = 200, b300 = 300, m1 = -1;
	CASE("%hd %hhd %hu %hhu %hhx", ((uint64_t[]){70000, 200, 70000, 300, S(-1)}), (short)big,
	     (signed char)b200, (unsigned short)big, (unsigned char)b300, (unsigned char)m1);
	CASE("%5d|%-5d|%05d|%.3d|%#x|%#o|%X|%08lx|%#lx|%.d",
	     ((uint64_t[]){42, 42, 42, 7, 255, 8, 0xabc, 0x1234, 0x10, 0}), 42, 42, 42, 7, 255, 8,
	     0xabc, 0x1234ul, 0x10ul, 0);
	CASE("%zd %zu %jd %ju %td %zx", ((uint64_t[]){S(-5), 5, S(-7), 7, S(-9), 0xff}),
	     (ssize_t)-5, (size_t)5, (intmax_t)-7, (uintmax_t)7, (ptrdiff_t)-9, (size_t)0xff);
	CASE("%d %u %i %o %lu %lld %llx %li %ld",
	     ((uint64_t[]){S(INT_MIN), UINT_MAX, S(INT_MAX), UINT_MAX, ULONG_MAX, S(LLONG_MIN),
			   ULLONG_MAX, S(LONG_MIN), S(LONG_MAX)}),
	     INT_MIN, UINT_MAX, INT_MAX, UINT_MAX, ULONG_MAX, LLONG_MIN, ULLONG_MAX, LONG_MIN,
	     LONG_MAX);
	CASE("%s|%10s|%-10s|%.2s|%5.1s|%s|",
	     ((uint64_t[]){P("abc"), P("abc"), P("abc"), P("abc"), P("abc"), P("")}), "abc", "abc",
	     "abc", "abc", "abc", "");
	CASE("%c|%3c|%-3c|%c", ((uint64_t[]){'a', 'b', 'c', '%'}), 'a', 'b', 'c', '%');
	CASE("100%% done: %d%%", ((uint64_t[]){99}), 99);
	CASE("q=\"%s\" back=\\ tab=\t cr=\r nl=%d\n", ((uint64_t[]){P("x y"), 3}), "x y", 3);
	CASE("%p %p x=%px", ((uint64_t[]){0, P(ptr), P(ptr)}), NULL, ptr, ptr);
	const char *volatile null_str = NULL;
	CASE("%s|%.3s|%.6s|%8s|%.s", ((uint64_t[]){0, 0, 0, 0, 0}), null_str, null_str, null_str,
	     null_str, null_str);
	/* UTF-8 arguments pass through; UTF-8 in the format is escaped. */
	CASE("euro=%s", ((uint64_t[]){P("\xe2\x82\xac")}), "\xe2\x82\xac");
	check_print("caf\xc3\xa9 %s", (uint64_t[]){P("x")}, 1, "caf303251 x");
	CASE("sizeof=%d REC=%d common_pid=%d STA_PR_FMT=%d", ((uint64_t[]){1, 2, 3, 4}), 1, 2, 3,
	     4);
	/* A final backslash must not escape the closing quote. */
	CASE("dir=%s\\", ((uint64_t[]){P("a")}), "a");
	check_print("\\\\", NULL, 0, "\\\\");
	check_print("no args", NULL, 0, "no args");
	check_print("", NULL, 0, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout_basic),
	    cmocka_unit_test(test_layout_types),
	    cmocka_unit_test(test_layout_names),
	    cmocka_unit_test(test_layout_flags_kept),
	    cmocka_unit_test(test_layout_escapes),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_serialize_exact),
	    cmocka_unit_test(test_serialize_null_and_truncation),
	    cmocka_unit_test(test_print_matches_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
