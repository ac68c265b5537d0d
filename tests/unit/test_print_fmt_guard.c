/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print fmts that make libtraceevent fault (a division by zero, hex and
 * array helpers told to read past their data, a field that is not
 * declared) are kept from it when a file is opened: the event then shows
 * its fields; field lines its parser faults on keep the whole format from
 * it. Formats the kernel writes stay as they are. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <event-parse.h>

#include "report/output.h"
#include "tracedat/print_fmt_guard.h"
#include "tracedat/trace_file.h"
#include "tracedat/tracedat.h"
#include "wire/page.h"

#define COMMON_FIELDS                                                                              \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* An event with an int, a 4-byte array and a dynamic array, and `fmt`. */
static char *format(const char *fmt)
{
	char *s;
	if (asprintf(&s,
		     "name: ev\nID: 100\nformat:\n" COMMON_FIELDS
		     "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
		     "\tfield:char b[4];\toffset:12;\tsize:4;\tsigned:0;\n"
		     "\tfield:__data_loc char[] s;\toffset:16;\tsize:4;\tsigned:0;\n"
		     "\nprint fmt: %s\n",
		     fmt) < 0)
		return NULL;
	return s;
}

static int check(const char *fmt)
{
	char *f = format(fmt), why[160];
	assert_non_null(f);
	int rc = print_fmt_check(f, strlen(f), why, sizeof(why));
	free(f);
	return rc;
}

static void test_hazards(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "\"%d\", REC->x / 0",
	    "\"%d\", REC->x % 0",
	    "\"%d\", REC->x / REC->x",
	    "\"%s\", __print_hex(REC->b, 100000)",
	    "\"%s\", __print_hex(REC->b, 5)",
	    "\"%s\", __print_hex(REC->x, -1)",
	    "\"%s\", __print_hex_str(__get_dynamic_array(s), 100000)",
	    "\"%s\", __print_array(__get_dynamic_array(s), 100000, 8)",
	    "\"%s\", __print_array(__get_dynamic_array(s), -1, 8)",
	    "\"%s\", __print_array(REC->b, 2, 4)",
	    "\"%s\", REC->y ? __print_flags(REC->y, \"|\", { 1, \"A\" }) : \"R\"",
	    "\"%d\", REC->x & REC->b_",
	    "\"%s\", __get_str(t)",
	};
	static const char *const good[] = {
	    "\"x=%d\", REC->x",
	    "\"x=%d.%03d\", REC->x / 1000, REC->x % 1000",
	    "\"x=%d\", REC->x / (1000)",
	    "\"a/b %% %s\", \"/ 0\"",
	    "\"%s\", __print_hex(REC->b, 4)",
	    "\"%s\", __print_hex(__get_dynamic_array(s), __get_dynamic_array_len(s))",
	    "\"%s\", __print_array(REC->b, 1, 4)",
	    "\"%s %d\", __get_str(s), REC->common_pid",
	    "\"%s\", __print_array(__get_dynamic_array(s), 2, 3)",
	    ("\"%s\", __print_array(__get_dynamic_array(s), __get_dynamic_array_len(s) / "
	     "sizeof(u64), sizeof(u64))"),
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (check(bad[i]) != -1)
			fail_msg("not refused: %s", bad[i]);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (check(good[i]) != 0)
			fail_msg("refused: %s", good[i]);
}

/* Field lines libtraceevent's parser faults on (found by fuzzing a
 * trace.dat): refused, and the kernel's own field lines accepted. */
static void test_field_lines(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "\tfield:unsigned long caller[\xc8\xc4;\toffset:16;\tsize:64;\tsigned:0;\n",
	    "\tfield:unsigned long caller[8;\toffset:16;\tsize:64;\tsigned:0;\n",
	    "\tfield:unsigned long caller]8[;\toffset:16;\tsize:64;\tsigned:0;\n",
	    "\tfield:int x;\toffset:8;\tsigned:1;\n",
	    "\tfield:int x;\toffset:8;\tsize:4\x01;\tsigned:1;\n",
	};
	static const char *const good[] = {
	    "\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n",
	    "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n",
	    "\tfield:__u8 saddr_v6[16];\toffset:30;\tsize:16;\tsigned:0;\n",
	};
	char *f, why[160];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(
		    asprintf(&f, "name: ev\nID: 1\nformat:\n" COMMON_FIELDS "%s\nprint fmt: \"\"\n",
			     bad[i]) > 0);
		if (format_fields_check(f, strlen(f), why, sizeof(why)) != -1)
			fail_msg("not refused: %s", bad[i]);
		free(f);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_true(
		    asprintf(&f, "name: ev\nID: 1\nformat:\n" COMMON_FIELDS "%s\nprint fmt: \"\"\n",
			     good[i]) > 0);
		if (format_fields_check(f, strlen(f), why, sizeof(why)) != 0)
			fail_msg("refused: %s (%s)", good[i], why);
		free(f);
	}
}

/* A file whose event divides by zero and reads past its array: opened
 * and printed, the fields shown instead of faulting. */
static void test_file_prints_fields(void **state)
{
	(void)state;
	char dir[] = "/tmp/uft-test-guard-XXXXXX", path[64];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/g.dat", dir);
	struct tracedat_writer *w = tracedat_writer_open(path, 1, 4096, "local");
	assert_non_null(w);
	static uint8_t page[4096];
	struct uft_page_builder b;
	uft_page_builder_init(&b, page, 4096);
	uint8_t r[24] = {100, 0,   0,	0, 7,  0, 0, 0, 5,   0,	  0, 0,
			 'a', 'b', 'c', 0, 20, 0, 3, 0, 'x', 'y', 0, 0};
	assert_int_equal(uft_page_builder_add(&b, 1000, r, sizeof(r)), 0);
	uft_page_builder_finish(&b, 0);
	assert_int_equal(tracedat_writer_add_page(w, 0, page), 0);
	char *f = format("\"x=%d %s\", REC->x / 0, __print_hex(REC->b, 100000)");
	assert_int_equal(tracedat_writer_add_format(w, "sys", f), 0);
	free(f);
	assert_int_equal(tracedat_writer_close(w), 0);

	struct trace_file tf;
	char why[256];
	assert_int_equal(trace_file_open(&tf, path, why, sizeof(why)), 0);
	char *out = NULL;
	size_t outlen = 0;
	FILE *m = open_memstream(&out, &outlen);
	struct uft_out_record rec = {0, 1000, r, sizeof(r)};
	uft_out_body(m, tf.tep, &rec);
	fclose(m);
	if (!strstr(out, "x=5"))
		fail_msg("%s", out);
	free(out);
	trace_file_close(&tf);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hazards),
	    cmocka_unit_test(test_field_lines),
	    cmocka_unit_test(test_file_prints_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
