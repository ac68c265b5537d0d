/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Events defined at run time (uft/user_events.h): the format, dynamic_events
 * and user_events_status texts byte for byte, the enable bit following the
 * event everywhere it can be enabled, records in `trace`, hostile payloads
 * refused and counted with nothing recorded, deletion rules, reuse, and
 * threads writing at once. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <cmocka.h>

#include "tfs_cmocka.h"
#include <uft/uft.h>
#include <uft/user_events.h>

#define DEF "test u32 count; char[8] tag; __data_loc char[] msg; s64 v"

struct payload {
	uint32_t count;
	char tag[8];
	uint32_t msg_loc;
	int64_t v;
	char msg[64];
} __attribute__((packed));

/* A payload with msg's data right after the fixed fields. */
static size_t build(struct payload *p, uint32_t count, const char *tag, const char *msg, int64_t v)
{
	memset(p, 0, sizeof(*p));
	p->count = count;
	memcpy(p->tag, tag, strnlen(tag, sizeof(p->tag)));
	size_t n = strlen(msg) + 1;
	p->msg_loc = (uint32_t)(8 + offsetof(struct payload, msg)) | (uint32_t)(n << 16);
	p->v = v;
	memcpy(p->msg, msg, n);
	return offsetof(struct payload, msg) + n;
}

/* The lines of `trace` from " test: " on (the event's name and body). */
static char *bodies(const char *ev)
{
	char *t = rd("trace");
	size_t cap = strlen(t) + 1, n = 0;
	char *out = calloc(1, cap);
	char pat[64];
	snprintf(pat, sizeof(pat), " %s: ", ev);
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
		char *b = line[0] == '#' ? NULL : strstr(line, pat);
		if (b)
			n += (size_t)snprintf(out + n, cap - n, "%s\n", b + 1);
	}
	free(t);
	return out;
}

static void expect_trace(const char *ev, const char *want)
{
	char *got = bodies(ev);
	if (strcmp(got, want) != 0)
		fail_msg("trace:\n--- got\n%s--- expected\n%s---", got, want);
	free(got);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

static uint32_t word;
static int idx = -1;

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("trace", "", W), 0);
	return 0;
}

static void test_register_format_listing(void **state)
{
	(void)state;
	assert_int_equal(uft_user_event_register(DEF, &word, 3, &idx), 0);
	assert_true(idx >= 0);
	assert_int_equal(word, 0);
	uint16_t id = uft_event_id(uft_find_event("user_events", "test"));
	assert_true(id > 0);
	char want[2048];
	snprintf(want, sizeof(want),
		 "name: test\n"
		 "ID: %u\n"
		 "format:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:u32 count;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\tfield:char tag[8];\toffset:12;\tsize:8;\tsigned:1;\n"
		 "\tfield:__data_loc char[] msg;\toffset:20;\tsize:4;\tsigned:1;\n"
		 "\tfield:s64 v;\toffset:24;\tsize:8;\tsigned:1;\n"
		 "\n"
		 "print fmt: \"count=%%u tag=%%s msg=%%s v=%%lld\", REC->count, REC->tag, "
		 "__get_str(msg), REC->v\n",
		 id);
	check("events/user_events/test/format", want);
	snprintf(want, sizeof(want), "%u\n", id);
	check("events/user_events/test/id", want);
	check("dynamic_events", "u:" DEF "\n");
	check("user_events_status", "test\n\nActive: 1\nBusy: 0\n");
	char *ls = rd("available_events");
	assert_non_null(strstr(ls, "user_events:test\n"));
	free(ls);

	/* The same definition joins the event; other fields are refused. */
	uint32_t w2 = 0;
	int i2 = -1;
	assert_int_equal(
	    uft_user_event_register("test  u32 count;char[8] tag; __data_loc char[] msg;s64 v;",
				    &w2, 0, &i2),
	    0);
	assert_int_equal(i2, idx);
	assert_int_equal(uft_user_event_register("test u32 count", &w2, 1, &i2), -EADDRINUSE);
	/* One word and bit once. */
	assert_int_equal(uft_user_event_register(DEF, &w2, 0, &i2), -EADDRINUSE);
	assert_int_equal(uft_user_event_unregister(&w2, 0), 0);
	assert_int_equal(uft_user_event_unregister(&w2, 0), -ENOENT);
}

static void test_bad_definitions(void **state)
{
	(void)state;
	uint32_t w = 0;
	int i;
	const char *bad[] = {
	    "",			     /* no name */
	    "1abc u32 a",	     /* bad name */
	    "x long a",		     /* long is not a type */
	    "x u32",		     /* no field name */
	    "x u32 a 4",	     /* only a struct takes a size */
	    "x struct foo a",	     /* a struct needs its size */
	    "x struct foo a 0",	     /* ... not 0 */
	    "x __data_loc char msg", /* a dynamic type ends in [] */
	    "x u32 a; u8 a",	     /* duplicate field */
	    "x:BOGUS u32 a",	     /* no flag is known */
	    "x char[0] a",	     /* empty array */
	    "x u32 a-b",	     /* bad field name */
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		int rc = uft_user_event_register(bad[k], &w, 0, &i);
		if (rc != -EINVAL)
			fail_msg("'%s': %d", bad[k], rc);
	}
	assert_int_equal(uft_user_event_register("x struct big a 5000", &w, 0, &i), -EINVAL);
	assert_int_equal(uft_user_event_register("x char[3000] a; char[3000] b", &w, 0, &i),
			 -E2BIG);
	assert_int_equal(uft_user_event_register("x u32 a", (uint32_t *)((char *)&w + 1), 0, &i),
			 -EINVAL);
	assert_int_equal(uft_user_event_register("x u32 a", &w, 32, &i), -EINVAL);
	assert_int_equal(uft_user_event_register(NULL, &w, 0, &i), -EINVAL);
	/* Nothing was defined. */
	check("dynamic_events", "u:" DEF "\n");
	assert_int_equal(w, 0);
}

static void test_enable_bit_everywhere(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("events/user_events/test/enable", "1", W), 0);
	assert_int_equal(word, 1u << 3);
	check("user_events_status", "test # Used by ftrace\n\nActive: 1\nBusy: 1\n");
	assert_int_equal(tfs_echo("events/user_events/test/enable", "0", W), 0);
	assert_int_equal(word, 0);
	check("user_events_status", "test\n\nActive: 1\nBusy: 0\n");

	/* An instance's enable. */
	assert_int_equal(uft_tracefs_mkdir("instances/ue"), 0);
	assert_int_equal(tfs_echo("instances/ue/events/user_events/test/enable", "1", W), 0);
	assert_int_equal(word, 1u << 3);
	assert_int_equal(tfs_echo("instances/ue/events/user_events/test/enable", "0", W), 0);
	assert_int_equal(word, 0);
	assert_int_equal(uft_tracefs_rmdir("instances/ue"), 0);

	/* Soft mode: another event's enable_event trigger aimed at it. */
	uint32_t ow = 0;
	int oi;
	assert_int_equal(uft_user_event_register("other u8 x", &ow, 0, &oi), 0);
	assert_int_equal(
	    tfs_echo("events/user_events/other/trigger", "enable_event:user_events:test", W), 0);
	assert_int_equal(word, 1u << 3);
	assert_int_equal(ow, 1); /* a trigger puts its own event in soft mode */
	assert_int_equal(
	    tfs_echo("events/user_events/other/trigger", "!enable_event:user_events:test", W), 0);
	assert_int_equal(word, 0);
	assert_int_equal(ow, 0);
	assert_int_equal(uft_user_event_unregister(&ow, 0), 0);
	assert_int_equal(uft_user_event_delete("other"), 0);
}

static void test_write_records(void **state)
{
	(void)state;
	struct payload p;
	size_t n = build(&p, 7, "abc", "hello", -5);
	/* Disabled: accepted, nothing recorded. */
	assert_int_equal(uft_user_event_write_buf(idx, &p, n), (ssize_t)n);
	expect_trace("test", "");
	assert_int_equal(tfs_echo("events/user_events/test/enable", "1", W), 0);
	assert_int_equal(uft_user_event_write_buf(idx, &p, n), (ssize_t)n);
	/* The same as vectors. */
	struct iovec v[3] = {{&p, 12}, {(char *)&p + 12, 8}, {(char *)&p + 20, n - 20}};
	build(&p, 8, "abcdefgh", "", 1LL << 40);
	n = offsetof(struct payload, msg) + 1;
	v[2].iov_len = n - 20;
	assert_int_equal(uft_user_event_write(idx, v, 3), (ssize_t)n);
	expect_trace("test", "test: count=7 tag=abc msg=hello v=-5\n"
			     "test: count=8 tag=abcdefgh msg= v=1099511627776\n");

	/* A filter on its fields. */
	assert_int_equal(
	    tfs_echo("events/user_events/test/filter", "count > 10 && msg ~ \"h*\"", W), 0);
	n = build(&p, 5, "a", "hi", 0);
	uft_user_event_write_buf(idx, &p, n);
	n = build(&p, 50, "a", "hi", 0);
	uft_user_event_write_buf(idx, &p, n);
	n = build(&p, 51, "a", "no", 0);
	uft_user_event_write_buf(idx, &p, n);
	expect_trace("test", "test: count=50 tag=a msg=hi v=0\n");
	assert_int_equal(tfs_echo("events/user_events/test/filter", "0", W), 0);

	/* A hist trigger. */
	assert_int_equal(tfs_echo("events/user_events/test/trigger", "hist:keys=count", W), 0);
	for (int k = 0; k < 3; k++) {
		n = build(&p, 9, "a", "x", 0);
		uft_user_event_write_buf(idx, &p, n);
	}
	char *h = rd("events/user_events/test/hist");
	if (!strstr(h, "{ count:          9 } hitcount:          3\n"))
		fail_msg("%s", h);
	free(h);
	assert_int_equal(tfs_echo("events/user_events/test/trigger", "!hist:keys=count", W), 0);
	assert_int_equal(tfs_echo("events/user_events/test/enable", "0", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

static void test_hostile_payloads(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("events/user_events/test/enable", "1", W), 0);
	uint64_t r0 = uft_user_event_refused(idx), all0 = uft_user_event_refused(-1);
	struct payload p;
	size_t n = build(&p, 1, "t", "hello", 0);
	/* Shorter than the fixed fields. */
	assert_int_equal(uft_user_event_write_buf(idx, &p, 23), -EINVAL);
	assert_int_equal(uft_user_event_write_buf(idx, &p, 0), -EINVAL);
	/* Larger than a record may be. */
	static char big[8192];
	memcpy(big, &p, n);
	assert_int_equal(uft_user_event_write_buf(idx, big, sizeof(big)), -E2BIG);
	assert_int_equal(uft_user_event_write_buf(idx, big, 3993), -E2BIG);
	/* msg's data past the end, inside the fixed part, without its NUL,
	 * empty, and a size that wraps. */
	uint32_t good = p.msg_loc;
	uint32_t locs[] = {
	    good + 1,	 (good & 0xffff0000u) | 8u,   (good & 0xffff) | (5u << 16), (good & 0xffff),
	    0xffffffffu, (good & 0xffff) | (7u << 16)};
	for (size_t k = 0; k < sizeof(locs) / sizeof(locs[0]); k++) {
		p.msg_loc = locs[k];
		if (uft_user_event_write_buf(idx, &p, n) != -EFAULT)
			fail_msg("loc %#x accepted", locs[k]);
	}
	p.msg_loc = good;
	/* A NULL vector, a bad index, a bad count. */
	struct iovec v[2] = {{&p, 8}, {NULL, 40}};
	assert_int_equal(uft_user_event_write(idx, v, 2), -EFAULT);
	assert_int_equal(uft_user_event_write(idx, v, -1), -EINVAL);
	assert_int_equal(uft_user_event_write_buf(999, &p, n), -ENOENT);
	assert_int_equal(uft_user_event_write_buf(-1, &p, n), -ENOENT);
	assert_int_equal(uft_user_event_write_buf(5000, &p, n), -ENOENT);
	assert_int_equal(uft_user_event_refused(idx) - r0, 10);
	assert_int_equal(uft_user_event_refused(-1) - all0, 15);
	expect_trace("test", "");
	/* The largest record that fits. */
	size_t max = 4000 - 8;
	memset(big, 0, sizeof(big));
	memcpy(big, &p, offsetof(struct payload, msg));
	size_t sl = max - offsetof(struct payload, msg);
	uint32_t loc = (uint32_t)(8 + offsetof(struct payload, msg)) | (uint32_t)(sl << 16);
	memcpy(big + offsetof(struct payload, msg_loc), &loc, 4);
	memset(big + offsetof(struct payload, msg), 'z', sl - 1);
	assert_int_equal(uft_user_event_write_buf(idx, big, max), (ssize_t)max);
	char *got = bodies("test");
	assert_int_equal(strlen(got), strlen("test: count=1 tag=t msg= v=0\n") + sl - 1);
	free(got);
	assert_int_equal(tfs_echo("events/user_events/test/enable", "0", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

struct wargs {
	int k;
};

static void *writer(void *arg)
{
	int k = ((struct wargs *)arg)->k;
	struct payload p;
	for (int i = 0; i < 2000; i++) {
		size_t n = build(&p, (uint32_t)i, "thr", k & 1 ? "odd" : "even", k);
		if (__atomic_load_n(&word, __ATOMIC_ACQUIRE) & (1u << 3))
			uft_user_event_write_buf(idx, &p, n);
	}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("buffer_size_kb", "4096", W), 0);
	assert_int_equal(tfs_echo("events/user_events/test/enable", "1", W), 0);
	pthread_t t[4];
	struct wargs a[4];
	for (int k = 0; k < 4; k++) {
		a[k].k = k;
		assert_int_equal(pthread_create(&t[k], NULL, writer, &a[k]), 0);
	}
	for (int k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	char *got = bodies("test");
	assert_int_equal(tfs_count(got, "test: "), 8000);
	assert_int_equal(tfs_count(got, "tag=thr msg=odd v=1\n"), 2000);
	assert_int_equal(tfs_count(got, "tag=thr msg=even v=2\n"), 2000);
	assert_int_equal(tfs_count(got, "count=1999 "), 4);
	free(got);
	assert_int_equal(tfs_echo("events/user_events/test/enable", "0", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

static void test_delete_and_reuse(void **state)
{
	(void)state;
	uint16_t id = uft_event_id(uft_find_event("user_events", "test"));
	/* Registered: busy; enabled: busy. */
	assert_int_equal(tfs_echo("dynamic_events", "-:test", A), -EBUSY);
	assert_int_equal(uft_user_event_unregister(&word, 3), 0);
	assert_int_equal(tfs_echo("events/user_events/test/enable", "1", W), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:user_events/test", A), -EBUSY);
	assert_int_equal(tfs_echo("events/user_events/test/enable", "0", W), 0);
	assert_int_equal(word, 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:user_events/test", A), 0);
	check("dynamic_events", "");
	check("user_events_status", "\nActive: 0\nBusy: 0\n");
	int err;
	assert_null(tfs_cat("events/user_events/test/format", &err));
	struct payload p;
	size_t n = build(&p, 1, "t", "x", 0);
	assert_int_equal(uft_user_event_write_buf(idx, &p, n), -ENOENT);

	/* Defined again: the same id; many cycles leak nothing (ASan). */
	for (int k = 0; k < 50; k++) {
		assert_int_equal(uft_user_event_register(DEF, &word, 3, &idx), 0);
		assert_int_equal(uft_event_id(uft_find_event("user_events", "test")), id);
		assert_int_equal(uft_user_event_unregister(&word, 3), 0);
		assert_int_equal(uft_user_event_delete("test"), 0);
	}
	assert_int_equal(uft_user_event_delete("test"), -ENOENT);

	/* A `u:` line defines one without an enable bit; registering joins it;
	 * truncating dynamic_events deletes what is unused. */
	assert_int_equal(tfs_echo("dynamic_events", "u:made u8 a; struct pt p 16", A), 0);
	check("dynamic_events", "u:made u8 a; struct pt p 16\n");
	assert_int_equal(tfs_echo("dynamic_events", "u:made u8 b", A), -EADDRINUSE);
	assert_int_equal(tfs_echo("dynamic_events", "u:bad long x", A), -EINVAL);
	uint32_t w = 0;
	int i;
	assert_int_equal(uft_user_event_register("made u8 a;struct pt p 16", &w, 0, &i), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), -EBUSY);
	assert_int_equal(uft_user_event_unregister(&w, 0), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	check("dynamic_events", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_register_format_listing, setup),
	    cmocka_unit_test_setup(test_bad_definitions, setup),
	    cmocka_unit_test_setup(test_enable_bit_everywhere, setup),
	    cmocka_unit_test_setup(test_write_records, setup),
	    cmocka_unit_test_setup(test_hostile_payloads, setup),
	    cmocka_unit_test_setup(test_threads, setup),
	    cmocka_unit_test_setup(test_delete_and_reuse, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
