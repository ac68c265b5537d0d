/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UFT_CUSTOM_EVENT: a second and a third event on one tracepoint, each with
 * its own id, format, enable, filter and hist, independent of the
 * tracepoint's own event; formats and trace lines byte for byte. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "cev_events.h"
#include "cev_custom.h"

#include "tfs_cmocka.h"
#include <uft/uft.h>

void cev_call_outline(int status, const char *path, long bytes);

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of `trace` after the header, each from its event name on, in
 * sorted order: the custom events of one call run in the order their
 * constructors linked them. */
static char *bodies(void)
{
	char *t = rd("trace");
	size_t cap = strlen(t) + 1, n = 0, nl = 0;
	char *out = calloc(1, cap);
	char **lines = calloc(cap, sizeof(*lines));
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
		char *ev = line[0] == '#' ? NULL : strstr(line, ": cev_");
		if (ev)
			lines[nl++] = ev + 2;
	}
	qsort(lines, nl, sizeof(*lines), cmp_str);
	for (size_t i = 0; i < nl; i++)
		n += (size_t)snprintf(out + n, cap - n, "%s\n", lines[i]);
	free(lines);
	free(t);
	return out;
}

static void expect_trace(const char *want)
{
	char *got = bodies();
	if (strcmp(got, want) != 0)
		fail_msg("trace:\n--- got\n%s--- expected\n%s---", got, want);
	free(got);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("set_event", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	return 0;
}

static void test_format_and_id(void **state)
{
	(void)state;
	char want[1024];
	snprintf(want, sizeof(want),
		 "name: cev_req_slim\n"
		 "ID: %u\n"
		 "format:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:long kb;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield:short st;\toffset:16;\tsize:2;\tsigned:1;\n"
		 "\n"
		 "print fmt: \"kb=%%ld st=%%d\", REC->kb, REC->st\n",
		 uft_event_id(&uft_event_cev_req_slim));
	check("events/custom/cev_req_slim/format", want);
	snprintf(want, sizeof(want),
		 "name: cev_req_path\n"
		 "ID: %u\n"
		 "format:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:__data_loc char[] p;\toffset:8;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "print fmt: \"p=%%s\", __get_str(p)\n",
		 uft_event_id(&uft_event_cev_req_path));
	check("events/custom/cev_req_path/format", want);
	uint16_t a = uft_event_id(&uft_event_cev_req), b = uft_event_id(&uft_event_cev_req_slim),
		 c = uft_event_id(&uft_event_cev_req_path);
	assert_true(a && b && c && a != b && b != c && a != c);
	snprintf(want, sizeof(want), "%u\n", b);
	check("events/custom/cev_req_slim/id", want);
	char *ls = rd("available_events");
	assert_non_null(strstr(ls, "custom:cev_req_slim\n"));
	assert_non_null(strstr(ls, "custom:cev_req_path\n"));
	assert_non_null(strstr(ls, "cevo:cev_req\n"));
	free(ls);
}

static void test_enable_independently(void **state)
{
	(void)state;
	/* Nothing enabled: the one gate is down. */
	assert_int_equal(cevo_cev_req_semaphore, 0);
	trace_cev_req(200, "/index.html", 4096);
	expect_trace("");

	/* The custom event alone. */
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/enable", "1", W), 0);
	assert_int_equal(cevo_cev_req_semaphore, 1);
	assert_true(trace_cev_req_enabled());
	trace_cev_req(200, "/index.html", 4096);
	check("events/cevo/cev_req/enable", "0\n");
	expect_trace("cev_req_slim: kb=4 st=200\n");

	/* Both, then the tracepoint's own event alone. */
	assert_int_equal(tfs_echo("events/cevo/cev_req/enable", "1", W), 0);
	assert_int_equal(cevo_cev_req_semaphore, 2);
	trace_cev_req(404, "/x", 10240);
	expect_trace("cev_req: status=404 path=/x bytes=10240\n"
		     "cev_req_slim: kb=10 st=404\n");
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/enable", "0", W), 0);
	assert_int_equal(cevo_cev_req_semaphore, 1);
	trace_cev_req(500, "/y", 1);
	expect_trace("cev_req: status=500 path=/y bytes=1\n");

	/* Two custom events and the tracepoint's, through the system's enable. */
	assert_int_equal(tfs_echo("events/custom/enable", "1", W), 0);
	trace_cev_req(201, "/z", 2048);
	expect_trace("cev_req: status=201 path=/z bytes=2048\n"
		     "cev_req_path: p=/z\n"
		     "cev_req_slim: kb=2 st=201\n");
	/* An outline call site: the tracepoint's whole writer runs them too. */
	cev_call_outline(202, "/o", 4096);
	expect_trace("cev_req: status=202 path=/o bytes=4096\n"
		     "cev_req_path: p=/o\n"
		     "cev_req_slim: kb=4 st=202\n");
	assert_int_equal(tfs_echo("events/cevo/cev_req/enable", "0", W), 0);
	cev_call_outline(203, "/p", 0);
	expect_trace("cev_req_path: p=/p\n"
		     "cev_req_slim: kb=0 st=203\n");
	assert_int_equal(tfs_echo("events/custom/enable", "0", W), 0);
	assert_int_equal(cevo_cev_req_semaphore, 0);
	trace_cev_req(201, "/z", 2048);
	expect_trace("");
}

static void test_filter_trigger_hist(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/filter", "kb > 3", W), 0);
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/enable", "1", W), 0);
	assert_int_equal(tfs_echo("events/cevo/cev_req/enable", "1", W), 0);
	trace_cev_req(200, "/small", 1024);
	trace_cev_req(200, "/big", 8192);
	/* The tracepoint's event has no filter: both calls. */
	expect_trace("cev_req: status=200 path=/big bytes=8192\n"
		     "cev_req: status=200 path=/small bytes=1024\n"
		     "cev_req_slim: kb=8 st=200\n");
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/filter", "0", W), 0);
	assert_int_equal(tfs_echo("events/cevo/cev_req/enable", "0", W), 0);

	/* A hist trigger on the custom event counts its own keys. */
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/trigger", "hist:keys=st", W), 0);
	for (int i = 0; i < 3; i++)
		trace_cev_req(200, "/a", 0);
	trace_cev_req(503, "/b", 0);
	char *h = rd("events/custom/cev_req_slim/hist");
	assert_non_null(strstr(h, "{ st:        200 } hitcount:          3\n"));
	assert_non_null(strstr(h, "{ st:        503 } hitcount:          1\n"));
	free(h);
	/* The tracepoint's own event has no histogram. */
	h = rd("events/cevo/cev_req/hist");
	assert_null(strstr(h, "hitcount"));
	free(h);
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/trigger", "!hist:keys=st", W), 0);
	assert_int_equal(tfs_echo("events/custom/cev_req_slim/enable", "0", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_format_and_id, setup),
	    cmocka_unit_test_setup(test_enable_independently, setup),
	    cmocka_unit_test_setup(test_filter_trigger_hist, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
