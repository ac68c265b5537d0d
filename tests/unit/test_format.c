/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Format file text: byte-exact output and acceptance by libtraceevent. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event-parse.h>

#include "engine/format/format.h"

#define EV_ID 321

static const struct uft_field fields[] = {
    {"int", "a", 8, 4, 1, UFT_FIELD_SCALAR, 0},
    {"unsigned char", "b", 12, 1, 0, UFT_FIELD_SCALAR, 0},
    {"bool", "c", 13, 1, 0, UFT_FIELD_SCALAR, 0},
    {"s64", "d", 16, 8, 1, UFT_FIELD_SCALAR, 0},
    {"void *", "p", 24, 8, 0, UFT_FIELD_SCALAR, 0},
    {"char", "comm[16]", 32, 16, 0, UFT_FIELD_ARRAY, 1},
    {"__data_loc char[]", "name", 48, 4, 0, UFT_FIELD_DYN, 1},
};

static const struct uft_event event = {
    .magic = UFT_EVENT_MAGIC,
    .system = "demo",
    .name = "sample",
    .fields = fields,
    .nr_fields = sizeof(fields) / sizeof(fields[0]),
    .fixed_size = 56,
    .print_fmt = "\"a=%d b=%u c=%d d=%lld p=%p comm=%s name=%s\", REC->a, REC->b, REC->c, "
		 "REC->d, REC->p, REC->comm, __get_str(name)",
};

static const char expected[] =
    "name: sample\n"
    "ID: 321\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned char b;\toffset:12;\tsize:1;\tsigned:0;\n"
    "\tfield:bool c;\toffset:13;\tsize:1;\tsigned:0;\n"
    "\tfield:s64 d;\toffset:16;\tsize:8;\tsigned:1;\n"
    "\tfield:void * p;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:char comm[16];\toffset:32;\tsize:16;\tsigned:0;\n"
    "\tfield:__data_loc char[] name;\toffset:48;\tsize:4;\tsigned:0;\n"
    "\n"
    "print fmt: \"a=%d b=%u c=%d d=%lld p=%p comm=%s name=%s\", REC->a, REC->b, REC->c, "
    "REC->d, REC->p, REC->comm, __get_str(name)\n";

static void test_text_exact(void **state)
{
	char buf[2048];
	int n = uft_format_text(&event, EV_ID, buf, sizeof(buf));

	assert_int_equal(n, (int)strlen(expected));
	assert_string_equal(buf, expected);
}

static void test_size_query_and_truncation(void **state)
{
	int n = uft_format_text(&event, EV_ID, NULL, 0);
	char small[40];

	assert_int_equal(n, (int)strlen(expected));
	assert_int_equal(uft_format_text(&event, EV_ID, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, expected, sizeof(small) - 1);
}

static void test_no_fields_and_no_print_fmt(void **state)
{
	struct uft_event ev = {.name = "empty"};
	char buf[1024];

	assert_true(uft_format_text(&ev, 7, buf, sizeof(buf)) > 0);
	assert_string_equal(buf,
			    "name: empty\nID: 7\nformat:\n"
			    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\t"
			    "signed:0;\n"
			    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
			    "\n\n"
			    "print fmt: \"\"\n");
}

static const struct uft_field *lazy_fields(uint32_t *nr)
{
	*nr = 1;
	return fields;
}

static void test_fields_fn(void **state)
{
	struct uft_event ev = {.name = "lazy", .fields_fn = lazy_fields, .print_fmt = "\"\""};
	char buf[1024];

	assert_true(uft_format_text(&ev, 9, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\n\n\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n\nprint"));
}

static void test_invalid(void **state)
{
	struct uft_event ev = {.name = NULL};
	struct uft_field bad = {.type = "int", .name = NULL};
	char buf[64];

	assert_int_equal(uft_format_text(NULL, 1, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(uft_format_text(&ev, 1, buf, sizeof(buf)), -EINVAL);
	ev.name = "x";
	ev.fields = &bad;
	ev.nr_fields = 1;
	assert_int_equal(uft_format_text(&ev, 1, buf, sizeof(buf)), -EINVAL);
}

static struct tep_handle *new_tep(void)
{
	struct tep_handle *tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	return tep;
}

static void check_field(struct tep_event *ev, const char *name, int offset, int size, bool sgn,
			unsigned long want_flags)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	assert_non_null(f);
	assert_int_equal(f->offset, offset);
	assert_int_equal(f->size, size);
	assert_int_equal(!!(f->flags & TEP_FIELD_IS_SIGNED), sgn);
	assert_int_equal(f->flags & want_flags, want_flags);
}

static void test_libtraceevent_parses(void **state)
{
	struct tep_handle *tep = new_tep();
	char buf[2048];
	int n = uft_format_text(&event, EV_ID, buf, sizeof(buf));

	assert_int_equal(tep_parse_event(tep, buf, (unsigned long)n, "demo"), 0);
	struct tep_event *ev = tep_find_event(tep, EV_ID);
	assert_non_null(ev);
	assert_string_equal(ev->name, "sample");
	assert_string_equal(ev->system, "demo");
	assert_int_equal(ev->format.nr_common, 4);
	assert_int_equal(ev->format.nr_fields, 7);

	check_field(ev, "a", 8, 4, true, 0);
	check_field(ev, "b", 12, 1, false, 0);
	check_field(ev, "c", 13, 1, false, 0);
	check_field(ev, "d", 16, 8, true, 0);
	check_field(ev, "p", 24, 8, false, TEP_FIELD_IS_POINTER);
	check_field(ev, "comm", 32, 16, false, TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING);
	check_field(ev, "name", 48, 4, false,
		    TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING);
	assert_int_equal(tep_find_field(ev, "comm")->arraylen, 16);

	/* And a record decodes through the print fmt. */
	uint8_t rec[64] = {0};
	uint16_t type = EV_ID;
	int32_t a = -5;
	int64_t d = -9000000000LL;
	uint64_t p = 0x1234;
	uint32_t loc = 56 | (6u << 16);
	memcpy(rec, &type, 2);
	memcpy(rec + 8, &a, 4);
	rec[12] = 200;
	rec[13] = 1;
	memcpy(rec + 16, &d, 8);
	memcpy(rec + 24, &p, 8);
	strcpy((char *)rec + 32, "bash");
	memcpy(rec + 48, &loc, 4);
	memcpy(rec + 56, "hello", 6);

	struct tep_record r = {.data = rec, .size = 62};
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	assert_string_equal(s.buffer, "a=-5 b=200 c=1 d=-9000000000 p=0x1234 comm=bash name=hello");
	trace_seq_destroy(&s);
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text_exact),
	    cmocka_unit_test(test_size_query_and_truncation),
	    cmocka_unit_test(test_no_fields_and_no_print_fmt),
	    cmocka_unit_test(test_fields_fn),
	    cmocka_unit_test(test_invalid),
	    cmocka_unit_test(test_libtraceevent_parses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
