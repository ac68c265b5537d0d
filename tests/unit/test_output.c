/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trace text output: header, event lines, lost-events lines, list text. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event-parse.h>

#include "report/output.h"

#define COMMON_FIELDS                                                                              \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char hello_format[] = "name: hello\nID: 100\nformat:\n" COMMON_FIELDS
				   "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
				   "\nprint fmt: \"x=%d\", REC->x\n";
static const char msg_format[] = "name: msg\nID: 101\nformat:\n" COMMON_FIELDS
				 "\tfield:__data_loc char[] s;\toffset:8;\tsize:4;\tsigned:0;\n"
				 "\nprint fmt: \"msg=%s\\n\", __get_str(s)\n";
static const char marker_format[] =
    "name: marker\nID: 5\nformat:\n" COMMON_FIELDS "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\nprint fmt: \"marked %d\", REC->x\n";

/* Captures what a function writes to a FILE. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static const char *cap_text(struct capture *c)
{
	fflush(c->f);
	return c->buf;
}

static void cap_close(struct capture *c)
{
	fclose(c->f);
	free(c->buf);
}

static struct tep_handle *tep;

static int setup(void **state)
{
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, hello_format, strlen(hello_format), "uft") ||
	    tep_parse_event(tep, msg_format, strlen(msg_format), "uft") ||
	    tep_parse_event(tep, marker_format, strlen(marker_format), "ftrace"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	tep_free(tep);
	return 0;
}

static const char *comm_of(void *ctx, int pid)
{
	if (pid == 1234)
		return "bash";
	if (pid == 77)
		return "a-very-long-thread-name";
	return NULL;
}

static void hello_rec(uint8_t rec[12], uint8_t flags, uint8_t pc, int32_t pid, int32_t x)
{
	uint16_t type = 100;
	memcpy(rec, &type, 2);
	rec[2] = flags;
	rec[3] = pc;
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &x, 4);
}

static void test_header(void **state)
{
	struct capture c;

	cap_open(&c);
	uft_out_header(c.f, "nop", 12, 15, 4, 0);
	assert_string_equal(cap_text(&c),
			    "# tracer: nop\n"
			    "#\n"
			    "# entries-in-buffer/entries-written: 12/15   #P:4\n"
			    "#\n"
			    "#                                _-----=> signals-off\n"
			    "#                               / _----=> need-resched\n"
			    "#                              | / _---=> signal-handler\n"
			    "#                              || / _--=> nesting-depth\n"
			    "#                              ||| / _-=> reserved\n"
			    "#                              |||| /     delay\n"
			    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
			    "#              | |         |   |||||     |         |\n");
	cap_close(&c);

	cap_open(&c);
	uft_out_header(c.f, NULL, 0, 0, 1, UFT_OUT_NO_IRQ_INFO);
	assert_string_equal(cap_text(&c), "# tracer: nop\n"
					  "#\n"
					  "# entries-in-buffer/entries-written: 0/0   #P:1\n"
					  "#\n"
					  "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
					  "#              | |         |         |         |\n");
	cap_close(&c);
}

static void test_header_columns_match_kernel(void **state)
{
	/* Each legend arrow must sit over its flag column, as in the kernel's. */
	static const char *const kernel[] = {
	    "#                                _-----=> irqs-off/BH-disabled",
	    "#                               / _----=> need-resched",
	    "#                              | / _---=> hardirq/softirq",
	    "#                              || / _--=> preempt-depth",
	    "#                              ||| / _-=> migrate-disable",
	    "#                              |||| /     delay",
	};
	struct capture c;
	cap_open(&c);
	uft_out_header(c.f, "nop", 0, 0, 1, 0);
	const char *p = cap_text(&c);
	for (int i = 0; i < 4; i++)
		p = strchr(p, '\n') + 1;
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
		const char *gt = strchr(kernel[i], '>');
		/* Through "=>"; the "delay" line is identical. */
		size_t n = gt ? (size_t)(gt - kernel[i]) + 1 : strlen(kernel[i]);
		assert_memory_equal(p, kernel[i], n);
		p = strchr(p, '\n') + 1;
	}
	cap_close(&c);
}

static void test_flags(void **state)
{
	uint8_t rec[12];
	char fl[6];

	hello_rec(rec, 0, 0, 1, 0);
	uft_out_flags(rec, fl);
	assert_string_equal(fl, ".....");
	hello_rec(rec, 0x01, 0, 1, 0);
	uft_out_flags(rec, fl);
	assert_string_equal(fl, "d....");
	hello_rec(rec, 0x08, 0x03, 1, 0);
	uft_out_flags(rec, fl);
	assert_string_equal(fl, "..h3.");
	/* Kernel-only bits and the reserved high nibble never show. */
	hello_rec(rec, 0xff, 0xaf, 1, 0);
	uft_out_flags(rec, fl);
	assert_string_equal(fl, "d.hf.");
}

static void test_event_lines(void **state)
{
	uint8_t rec[12];
	struct uft_out_record r = {.cpu = 3, .ts = 17284993652123ull, .data = rec, .size = 12};
	struct capture c;

	hello_rec(rec, 0x09, 0x02, 1234, 42);
	cap_open(&c);
	assert_int_equal(uft_out_event(c.f, tep, comm_of, NULL, &r, 0), 0);
	assert_string_equal(cap_text(&c),
			    "            bash-1234    [003] d.h2. 17284.993652: hello: x=42\n");
	cap_close(&c);

	/* Unknown pid, idle, long comm, microsecond rounding, small stamps. */
	cap_open(&c);
	hello_rec(rec, 0, 0, 4242, -1);
	r.ts = 1999999500;
	uft_out_event(c.f, tep, comm_of, NULL, &r, 0);
	hello_rec(rec, 0, 0, 0, 0);
	r.cpu = 0;
	r.ts = 1999999499;
	uft_out_event(c.f, tep, comm_of, NULL, &r, 0);
	hello_rec(rec, 0, 1, 77, 5);
	r.cpu = 12;
	r.ts = 123456789123456789ull;
	uft_out_event(c.f, tep, NULL, NULL, &r, 0);
	uft_out_event(c.f, tep, comm_of, NULL, &r, 0);
	assert_string_equal(cap_text(&c),
			    "           <...>-4242    [003] .....     2.000000: hello: x=-1\n"
			    "          <idle>-0       [000] .....     1.999999: hello: x=0\n"
			    "           <...>-77      [012] ...1. 123456789.123457: hello: x=5\n"
			    "a-very-long-thread-name-77      [012] ...1. 123456789.123457: hello: "
			    "x=5\n");
	cap_close(&c);
}

static void test_event_options(void **state)
{
	uint8_t rec[12];
	struct uft_out_record r = {.cpu = 1, .ts = 123456789012ull, .data = rec, .size = 12};
	struct capture c;

	hello_rec(rec, 0x01, 0, 1234, 7);
	cap_open(&c);
	uft_out_event(c.f, tep, comm_of, NULL, &r, UFT_OUT_RAW_CLOCK);
	r.ts = 42;
	uft_out_event(c.f, tep, comm_of, NULL, &r, UFT_OUT_RAW_CLOCK);
	r.ts = 17284993652000ull;
	uft_out_event(c.f, tep, comm_of, NULL, &r, UFT_OUT_NO_IRQ_INFO);
	uft_out_event(c.f, tep, comm_of, NULL, &r, UFT_OUT_NO_IRQ_INFO | UFT_OUT_RAW_CLOCK);
	assert_string_equal(cap_text(&c),
			    "            bash-1234    [001] d.... 123456789012: hello: x=7\n"
			    "            bash-1234    [001] d....           42: hello: x=7\n"
			    "            bash-1234    [001]  17284.993652: hello: x=7\n"
			    "            bash-1234    [001]  17284993652000: hello: x=7\n");
	cap_close(&c);
}

static void test_event_bodies(void **state)
{
	uint8_t rec[32] = {0};
	struct uft_out_record r = {.cpu = 0, .ts = 1000, .data = rec, .size = 20};
	struct capture c;
	uint16_t type = 101;
	int32_t pid = 1234, x = 9;
	uint32_t loc = 12 | (6u << 16);

	cap_open(&c);
	/* A trailing newline in the message does not add an empty line. */
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &loc, 4);
	memcpy(rec + 12, "hello", 6);
	uft_out_event(c.f, tep, comm_of, NULL, &r, 0);
	/* ftrace entries print without the event name, as in the kernel. */
	type = 5;
	memcpy(rec, &type, 2);
	memcpy(rec + 8, &x, 4);
	uft_out_event(c.f, tep, comm_of, NULL, &r, 0);
	/* No format for the type. */
	type = 999;
	memcpy(rec, &type, 2);
	uft_out_event(c.f, tep, comm_of, NULL, &r, 0);
	uft_out_event(c.f, NULL, comm_of, NULL, &r, 0);
	assert_string_equal(cap_text(&c),
			    "            bash-1234    [000] .....     0.000001: msg: msg=hello\n"
			    "            bash-1234    [000] .....     0.000001: marked 9\n"
			    "            bash-1234    [000] .....     0.000001: type: 999\n"
			    "            bash-1234    [000] .....     0.000001: type: 999\n");

	/* Too short for the common header: nothing printed. */
	size_t before = strlen(cap_text(&c));
	r.size = 7;
	assert_int_equal(uft_out_event(c.f, tep, comm_of, NULL, &r, 0), -EINVAL);
	r.data = NULL;
	r.size = 12;
	assert_int_equal(uft_out_event(c.f, tep, comm_of, NULL, &r, 0), -EINVAL);
	assert_int_equal(strlen(cap_text(&c)), before);
	cap_close(&c);
}

static void test_comm(void **state)
{
	assert_string_equal(uft_out_comm(comm_of, NULL, 0), "<idle>");
	assert_string_equal(uft_out_comm(comm_of, NULL, 1234), "bash");
	assert_string_equal(uft_out_comm(comm_of, NULL, 5), "<...>");
	assert_string_equal(uft_out_comm(NULL, NULL, 1234), "<...>");
}

static void test_lost(void **state)
{
	struct capture c;

	cap_open(&c);
	uft_out_lost(c.f, 2, 17);
	uft_out_lost(c.f, 0, UINT64_MAX);
	assert_string_equal(cap_text(&c), "CPU:2 [LOST 17 EVENTS]\nCPU:0 [LOST EVENTS]\n");
	cap_close(&c);
}

static void test_list(void **state)
{
	struct capture c;
	size_t len = strlen(hello_format);

	cap_open(&c);
	uft_list_event(c.f, "uft", "hello", hello_format, len, 0);
	uft_list_event(c.f, "uft", "hello", NULL, 0, UFT_LIST_FORMAT);
	assert_string_equal(cap_text(&c), "uft:hello\nuft:hello\n");
	cap_close(&c);

	cap_open(&c);
	uft_list_event(c.f, "uft", "hello", hello_format, len, UFT_LIST_FORMAT);
	assert_string_equal(cap_text(&c),
			    "system: uft\nname: hello\nID: 100\nformat:\n" COMMON_FIELDS
			    "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\n");
	cap_close(&c);

	cap_open(&c);
	uft_list_event(c.f, "uft", "hello", hello_format, len, UFT_LIST_FORMAT | UFT_LIST_FULL);
	assert_string_equal(cap_text(&c), "system: uft\n"
					  "name: hello\nID: 100\nformat:\n" COMMON_FIELDS
					  "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
					  "\nprint fmt: \"x=%d\", REC->x\n");
	cap_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_header),
	    cmocka_unit_test(test_header_columns_match_kernel),
	    cmocka_unit_test(test_flags),
	    cmocka_unit_test(test_event_lines),
	    cmocka_unit_test(test_event_options),
	    cmocka_unit_test(test_event_bodies),
	    cmocka_unit_test(test_comm),
	    cmocka_unit_test(test_lost),
	    cmocka_unit_test(test_list),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
