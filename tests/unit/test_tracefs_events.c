/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracefs events/ files, set_event, available_events and set_event_pid,
 * driven through the tree's path calls only: texts byte for byte, errno, the
 * error_log entries of bad filters, and which records reach a buffer. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "engine/format/format.h"
#include "wire/page_headers.h"
#include "wire/ring_reader.h"
#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_helpers.h"
#include "util/atomics.h"

#define W (UFT_TFS_WRITE | UFT_TFS_TRUNC)  /* echo > */
#define A (UFT_TFS_WRITE | UFT_TFS_APPEND) /* echo >> */

/* ---- helpers ---- */

/* The whole text of a file, or NULL with *err set. */
static char *rd_err(const char *path, int *err)
{
	struct uft_tfs_handle *h;
	*err = uft_tracefs_open(path, UFT_TFS_READ, &h);
	if (*err)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (cap - len < 1024)
			buf = realloc(buf, cap *= 2);
		ssize_t n = uft_tracefs_read(h, buf + len, cap - len - 1, len);
		assert_true(n >= 0);
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = 0;
	uft_tracefs_release(h);
	return buf;
}

static char *rd(const char *path)
{
	int err;
	char *s = rd_err(path, &err);
	if (!s)
		fail_msg("read %s: %d", path, err);
	return s;
}

static void check(const char *path, const char *expect)
{
	char *got = rd(path);
	if (strcmp(got, expect) != 0)
		fail_msg("%s:\n--- got\n%s--- expected\n%s---", path, got, expect);
	free(got);
}

/* One open, one write (if s), one release: the write's result or the open's
 * error. */
static int wr(const char *path, unsigned flags, const char *s)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, flags, &h);
	if (rc)
		return rc;
	if (s) {
		ssize_t n = uft_tracefs_write(h, s, strlen(s), 0);
		rc = n < 0 ? (int)n : (n == (ssize_t)strlen(s) ? 0 : -EIO);
	}
	uft_tracefs_release(h);
	return rc;
}

/* error_log without the timestamps: "LOC: error: MSG\n  Command: ...\n ^\n". */
static char *error_log(const char *inst)
{
	char path[128];
	snprintf(path, sizeof(path), "%serror_log", inst);
	return tfs_strip_stamps(rd(path));
}

static int tid(void)
{
	return (int)gettid();
}

static uint16_t id_of(const char *sys, const char *name)
{
	struct uft_event *ev = uft_find_event(sys, name);
	assert_non_null(ev);
	return uft_event_id(ev);
}

static void emit_other(int b)
{
	trace_other(b);
}

static void emit_two(int a)
{
	UFT_TRACE(tfsev2, num, "a=%d", a);
}

/* The eight records the filter tests select from. */
static const char *const names[8] = {"alpha",	 "beta", "gamma", "delta",
				     "alphabet", "zeta", "eta",	  "theta"};
static const char *const paths[8] = {"/usr/bin", "/usr/lib", "/etc/x",	 "/usr/bin/x",
				     "/tmp",	 "/etc",     "/var/log", "/usr"};

static void emit_eight(void)
{
	for (int i = 0; i < 8; i++)
		trace_num(i, (unsigned)i * 10, names[i], paths[i]);
}

/* Reading back this process's rings of one buffer: which values of the first
 * int field of event `id` were recorded since the last call. */
#define MAX_RINGS 1024
static struct uft_ring_cursor cursors[MAX_RINGS];
static uint32_t cursor_gen[MAX_RINGS];
static bool cursor_set[MAX_RINGS];

struct seen {
	uint16_t id;
	uint32_t mask;
	int count;
	int pid_mask_tid; /* records of this tid */
	int by_tid;
};

static int seen_cb(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		   uint64_t missed)
{
	struct seen *s = ctx;
	const struct uft_common_entry *e = data;
	if (e->type != s->id || len < 12)
		return 0;
	int a;
	memcpy(&a, (const char *)data + 8, 4);
	if (a >= 0 && a < 32)
		s->mask |= 1u << a;
	s->count++;
	if (e->pid == s->pid_mask_tid)
		s->by_tid++;
	return 0;
}

static struct seen drain(uint32_t buffer, uint16_t id, int tid_of_interest)
{
	struct seen s = {.id = id, .pid_mask_tid = tid_of_interest};
	struct uft_shm_header *h = uft_sess.hdr;
	for (uint32_t i = 0; h && i < h->nr_rings && i < MAX_RINGS; i++) {
		struct uft_ring *r = (struct uft_ring *)((char *)h + h->ring_off[i]);
		if (!cursor_set[i] || cursor_gen[i] != r->generation) {
			uft_ring_cursor_init(&cursors[i], r);
			cursor_gen[i] = r->generation;
			cursor_set[i] = true;
		}
		if (r->buffer != buffer)
			continue;
		uft_ring_drain(r, &cursors[i], true, seen_cb, &s);
	}
	return s;
}

/* The mask as "01234567" positions: '1' where record i was kept. */
static const char *bits(uint32_t m)
{
	static char b[9];
	for (int i = 0; i < 8; i++)
		b[i] = m >> i & 1 ? '1' : '0';
	b[8] = 0;
	return b;
}

/* Lines of available_events kept by `keep`, in its order. */
static char *events_where(bool (*keep)(const char *line))
{
	char *all = rd("available_events");
	char *out = calloc(1, strlen(all) + 1);
	char *save = NULL;
	for (char *l = strtok_r(all, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (keep(l)) {
			strcat(out, l);
			strcat(out, "\n");
		}
	free(all);
	return out;
}

static bool is_any_num(const char *l)
{
	return strcmp(l, "tfsev:num") == 0 || strcmp(l, "tfsev2:num") == 0;
}

static bool is_tfsev(const char *l)
{
	return strncmp(l, "tfsev:", 6) == 0;
}

static bool is_all(const char *l)
{
	(void)l;
	return true;
}

static void check_set_event(const char *path, bool (*keep)(const char *))
{
	char *want = events_where(keep);
	check(path, want);
	free(want);
}

/* The functions the event macros generate in the program (field tables,
 * writers, registration) are never offered to the function tracers. */
static void test_generated_code_not_traceable(void **state)
{
	(void)state;
	int err;
	char *all = tfs_cat("available_filter_functions", &err);
	assert_non_null(all);
	assert_null(strstr(all, "uft__"));
	free(all);
}

static int setup(void **state)
{
	(void)state;
	emit_two(-1); /* registers nothing new; keeps the call site used */
	return 0;
}

/* ---- tests ---- */

static void test_tree_and_static_files(void **state)
{
	(void)state;
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat("events/tfsev/num/filter", &st), 0);
	assert_int_equal(st.type, UFT_TFS_FILE);
	assert_int_equal(st.mode, 0644);
	assert_int_equal(uft_tracefs_stat("events/tfsev/num/format", &st), 0);
	assert_int_equal(st.mode, 0444);
	assert_int_equal(uft_tracefs_stat("events/header_page", &st), 0);
	assert_int_equal(uft_tracefs_stat("events/tfsev/filter", &st), 0);
	assert_int_equal(uft_tracefs_stat("set_event_pid", &st), 0);
	assert_int_equal(uft_tracefs_stat("events/tfsev/nosuch/enable", &st), -ENOENT);

	check("events/header_page", uft_header_page_text());
	check("events/header_event", uft_header_event_text());

	struct uft_event *ev = uft_find_event("tfsev", "num");
	assert_non_null(ev);
	int n = uft_format_text(ev, uft_event_id(ev), NULL, 0);
	char *fmt = malloc((size_t)n + 1);
	uft_format_text(ev, uft_event_id(ev), fmt, (size_t)n + 1);
	check("events/tfsev/num/format", fmt);
	free(fmt);
	char id[16];
	snprintf(id, sizeof(id), "%d\n", uft_event_id(ev));
	check("events/tfsev/num/id", id);

	/* Read-only files refuse writes. */
	assert_int_equal(wr("events/tfsev/num/id", W, "1"), -EACCES);
	assert_int_equal(wr("available_events", W, "x"), -EACCES);

	char *all = rd("available_events");
	assert_non_null(strstr(all, "tfsev:num\n"));
	assert_non_null(strstr(all, "tfsev:other\n"));
	assert_non_null(strstr(all, "tfsev2:num\n"));
	free(all);

	/* available_events is at the top only. */
	assert_int_equal(uft_tracefs_mkdir("instances/tree"), 0);
	assert_int_equal(uft_tracefs_stat("instances/tree/available_events", &st), -ENOENT);
	assert_int_equal(uft_tracefs_stat("instances/tree/set_event", &st), 0);
	char *top_fmt = rd("events/tfsev/num/format");
	check("instances/tree/events/tfsev/num/format", top_fmt);
	free(top_fmt);
	assert_int_equal(uft_tracefs_rmdir("instances/tree"), 0);
}

static void test_enable_levels(void **state)
{
	(void)state;
	assert_int_equal(uft_tracefs_mkdir("instances/en"), 0);
	const char *ev = "instances/en/events/tfsev/num/enable";
	const char *sys = "instances/en/events/tfsev/enable";
	const char *all = "instances/en/events/enable";
	check(ev, "0\n");
	check(sys, "0\n");
	check(all, "0\n");

	assert_int_equal(wr(ev, W, "1\n"), 0);
	check(ev, "1\n");
	check("instances/en/events/tfsev/other/enable", "0\n");
	check(sys, "X\n");
	check(all, "X\n");
	check("instances/en/set_event", "tfsev:num\n");
	/* The top is another buffer. */
	check("events/tfsev/num/enable", "0\n");

	assert_int_equal(wr(sys, W, "1"), 0);
	check(sys, "1\n");
	check("instances/en/events/tfsev/other/enable", "1\n");
	check(all, "X\n");
	check("instances/en/events/tfsev2/enable", "0\n");

	assert_int_equal(wr(all, W, "1 \n"), 0);
	check(all, "1\n");
	check("instances/en/events/tfsev2/num/enable", "1\n");
	check_set_event("instances/en/set_event", is_all);

	assert_int_equal(wr(sys, W, "0"), 0);
	check(sys, "0\n");
	check(all, "X\n");
	assert_int_equal(wr(all, W, "0\n"), 0);
	check(all, "0\n");
	check(ev, "0\n");

	/* Anything but 0 or 1 is refused and changes nothing. */
	const char *bad[] = {"2", "x", "", "\n", "-1", "0x1", "1 1", "on"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(wr(ev, W, bad[i]), -EINVAL);
		assert_int_equal(wr(sys, W, bad[i]), -EINVAL);
		assert_int_equal(wr(all, W, bad[i]), -EINVAL);
	}
	check(all, "0\n");

	/* Records go to the buffers the event is enabled in, and only there. */
	uint16_t id = id_of("tfsev", "num");
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
		drain(b, id, 0); /* whatever is old */
	assert_int_equal(wr(ev, W, "1"), 0);
	emit_eight();
	/* The instance is the first created after "tree": find its buffer by
	 * the records themselves. */
	int found = 0;
	for (uint32_t buf = 1; buf < UFT_MAX_BUFFERS; buf++) {
		struct seen x = drain(buf, id, 0);
		if (x.count) {
			assert_int_equal(x.count, 8);
			assert_string_equal(bits(x.mask), "11111111");
			found++;
		}
	}
	assert_int_equal(found, 1);
	assert_int_equal(drain(0, id, 0).count, 0);
	assert_int_equal(wr(ev, W, "0"), 0);
	emit_eight();
	for (uint32_t buf = 0; buf < UFT_MAX_BUFFERS; buf++)
		assert_int_equal(drain(buf, id, 0).count, 0);
	assert_int_equal(uft_tracefs_rmdir("instances/en"), 0);
}

struct ftest {
	const char *expr;
	const char *kept; /* records 0..7 */
};

static void test_filter_operators(void **state)
{
	(void)state;
	uint16_t id = id_of("tfsev", "num");
	char comm[17] = {0}, f_comm[64], f_pid[64], f_npid[64];
	prctl(PR_GET_NAME, comm);
	snprintf(f_comm, sizeof(f_comm), "COMM == \"%s\"", comm);
	snprintf(f_pid, sizeof(f_pid), "common_pid == %d", tid());
	snprintf(f_npid, sizeof(f_npid), "common_pid != %d", tid());
	const struct ftest tests[] = {
	    {"a == 3", "00010000"},
	    {"a != 3", "11101111"},
	    {"a < 2", "11000000"},
	    {"a <= 2", "11100000"},
	    {"a > 5", "00000011"},
	    {"a >= 5", "00000111"},
	    {"a & 1", "01010101"},
	    {"u == 20", "00100000"},
	    {"u > 0x1e", "00001111"},
	    {"u <= 010", "10000000"},
	    {"a == -1", "00000000"},
	    {"name == \"beta\"", "01000000"},
	    {"name != \"beta\"", "10111111"},
	    {"name == 'gamma'", "00100000"},
	    {"name ~ \"alpha*\"", "10001000"},
	    {"name ~ \"*eta\"", "01000111"},
	    {"name ~ \"*ph*\"", "10001000"},
	    {"name ~ \"?eta\"", "01000100"},
	    {"name ~ \"[bz]eta\"", "01000100"},
	    {"name ~ \"gamma\"", "00100000"},
	    {"path == \"/usr/bin\"", "10000000"},
	    {"path ~ \"/usr/*\"", "11010000"},
	    {"path != \"/usr\"", "11111110"},
	    {"a == 1 || a == 6", "01000010"},
	    {"a > 1 && a < 4", "00110000"},
	    {"!(a > 1 && a < 4)", "11001111"},
	    {"!a == 3", "11101111"},
	    {"(a == 1 || a == 2) && u >= 20", "00100000"},
	    {"a == 0 || (a > 3 && !(a == 5))", "10001011"},
	    {"a == 0 || a == 1 && u == 20", "10000000"},
	    {"(a == 0 || a == 1) && (name ~ \"b*\" || path ~ \"*bin\")", "11000000"},
	    {f_pid, "11111111"},
	    {f_npid, "00000000"},
	    {f_comm, "11111111"},
	    {"COMM ~ \"nomatch*\"", "00000000"},
	    {"CPU >= 0", "11111111"},
	    {"common_cpu == 99999", "00000000"},
	};
	assert_int_equal(wr("events/tfsev/num/enable", W, "1"), 0);
	drain(0, id, 0);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		char line[256];
		assert_int_equal(wr("events/tfsev/num/filter", W, tests[i].expr), 0);
		snprintf(line, sizeof(line), "%s\n", tests[i].expr);
		check("events/tfsev/num/filter", line);
		emit_eight();
		struct seen s = drain(0, id, 0);
		if (strcmp(bits(s.mask), tests[i].kept) != 0)
			fail_msg("filter %s kept %s, expected %s", tests[i].expr, bits(s.mask),
				 tests[i].kept);
	}
	/* A newline (echo) is stripped; "0" clears. */
	assert_int_equal(wr("events/tfsev/num/filter", W, "a == 7\n"), 0);
	check("events/tfsev/num/filter", "a == 7\n");
	emit_eight();
	assert_string_equal(bits(drain(0, id, 0).mask), "00000001");
	assert_int_equal(wr("events/tfsev/num/filter", W, "0\n"), 0);
	check("events/tfsev/num/filter", "none\n");
	emit_eight();
	assert_string_equal(bits(drain(0, id, 0).mask), "11111111");
	assert_int_equal(wr("events/tfsev/num/enable", W, "0"), 0);
}

struct etest {
	const char *expr;
	const char *msg;
	int pos;
};

static void test_filter_errors(void **state)
{
	(void)state;
	uint16_t id = id_of("tfsev", "num");
	const struct etest tests[] = {
	    {"a == 1 && nosuch == 1", "Field not found", 17},
	    {"name == 5", "Expecting string field", 9},
	    {"a == \"x\"", "Expecting numeric field", 6},
	    {"a ~ 5", "Illegal operation for field type", 5},
	    {"(a == 1", "Too many '('", 0},
	    {"a == 1)", "Too few '('", 6},
	    {"name == \"abc", "Missing matching quote", 8},
	    {"name == abc", "Invalid value (did you forget quotes)?", 9},
	};
	assert_int_equal(wr("error_log", W, NULL), 0);
	assert_int_equal(wr("events/tfsev/num/enable", W, "1"), 0);
	drain(0, id, 0);
	char *want_log = calloc(1, 8192);
	/* A good filter first: a failed write leaves it as it was. */
	assert_int_equal(wr("events/tfsev/num/filter", W, "a == 2"), 0);
	emit_eight();
	uint32_t kept = drain(0, id, 0).mask;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		const struct etest *t = &tests[i];
		assert_int_equal(wr("events/tfsev/num/filter", W, t->expr), -EINVAL);
		char *got = rd("events/tfsev/num/filter");
		if (strcmp(got, "a == 2\n") != 0)
			fail_msg("filter %s shows:\n%s---expected the old filter", t->expr, got);
		free(got);
		emit_eight();
		assert_int_equal(drain(0, id, 0).mask, kept);
		size_t l = strlen(want_log);
		snprintf(want_log + l, 8192 - l,
			 "event filter parse error: error: %s\n  Command: %s\n%*s^\n", t->msg,
			 t->expr, 11 + t->pos, "");
	}
	/* The log keeps the last 8. */
	char *log = error_log("");
	if (strcmp(log, want_log) != 0)
		fail_msg("error_log:\n%s---expected:\n%s---", log, want_log);
	free(log);
	free(want_log);
	assert_int_equal(wr("events/tfsev/num/filter", W, "0"), 0);
	check("events/tfsev/num/filter", "none\n");
	assert_int_equal(wr("events/tfsev/num/enable", W, "0"), 0);
	assert_int_equal(wr("error_log", W, NULL), 0);
	check("error_log", "");
}

static const char default_sys[] = "### global filter ###\n"
				  "# Use this to set filters for multiple events.\n"
				  "# Only events with the given fields will be affected.\n"
				  "# If no events are modified, an error message will be displayed "
				  "here\n";

static void test_system_filter(void **state)
{
	(void)state;
	assert_int_equal(uft_tracefs_mkdir("instances/sf"), 0);
	const char *sys = "instances/sf/events/tfsev/filter";
	const char *num = "instances/sf/events/tfsev/num/filter";
	const char *oth = "instances/sf/events/tfsev/other/filter";
	const char *subsys = "Couldn't find or set field in one of a subsystem's events";
	char want[512];
	check(sys, default_sys);

	/* Events with the field take it; the others keep theirs, with an error logged. */
	assert_int_equal(wr(oth, W, "b == 3"), 0);
	assert_int_equal(wr(sys, W, "a == 2\n"), 0);
	check(num, "a == 2\n");
	check(oth, "b == 3\n");
	check(sys, default_sys);
	snprintf(want, sizeof(want),
		 "event filter parse error: error: %s\n  Command: a == 2\n%11s^\n", subsys, "");
	char *log = error_log("instances/sf/");
	assert_string_equal(log, want);
	free(log);
	check("error_log", ""); /* the instance's own log */

	assert_int_equal(wr(sys, W, "b == 1"), 0);
	check(oth, "b == 1\n");
	check(num, "a == 2\n");

	/* Records follow: other keeps b == 1 only. */
	assert_int_equal(wr("instances/sf/events/tfsev/enable", W, "1"), 0);
	uint16_t oid = id_of("tfsev", "other");
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
		drain(b, oid, 0);
	for (int i = 0; i < 4; i++)
		emit_other(i);
	uint32_t mask = 0;
	for (uint32_t b = 1; b < UFT_MAX_BUFFERS; b++)
		mask |= drain(b, oid, 0).mask;
	assert_int_equal(mask, 1u << 1);

	/* No event takes it: EINVAL and nothing changes. */
	assert_int_equal(wr("instances/sf/error_log", W, NULL), 0);
	assert_int_equal(wr(sys, W, "nosuch == 1"), -EINVAL);
	check(num, "a == 2\n");
	check(oth, "b == 1\n");
	check(sys, default_sys);
	log = error_log("instances/sf/");
	snprintf(want, sizeof(want),
		 "event filter parse error: error: %s\n  Command: nosuch == 1\n%11s^\n"
		 "event filter parse error: error: %s\n  Command: nosuch == 1\n%11s^\n",
		 subsys, "", subsys, "");
	assert_string_equal(log, want);
	free(log);

	/* 0 clears every event. */
	assert_int_equal(wr(sys, W, "a == 1"), 0);
	assert_int_equal(wr(sys, W, "0"), 0);
	check(num, "none\n");
	check(oth, "none\n");
	check(sys, default_sys);
	assert_int_equal(uft_tracefs_rmdir("instances/sf"), 0);
}

static void test_set_event(void **state)
{
	(void)state;
	assert_int_equal(uft_tracefs_mkdir("instances/se"), 0);
	const char *se = "instances/se/set_event";
	check(se, "");
	assert_int_equal(wr(se, W, "tfsev:num\n"), 0);
	check(se, "tfsev:num\n");
	check("instances/se/events/tfsev/num/enable", "1\n");
	assert_int_equal(wr(se, A, "tfsev:other"), 0);
	check_set_event(se, is_tfsev);
	assert_int_equal(wr(se, A, "!tfsev:num"), 0);
	check(se, "tfsev:other\n");

	/* `>` clears first, even with nothing written. */
	assert_int_equal(wr(se, W, NULL), 0);
	check(se, "");
	assert_int_equal(wr(se, A, "tfsev:other"), 0);
	assert_int_equal(wr(se, W, "\n"), 0);
	check(se, "");

	assert_int_equal(wr(se, W, "tfsev:*"), 0);
	check_set_event(se, is_tfsev);
	assert_int_equal(wr(se, W, "tfsev:"), 0);
	check_set_event(se, is_tfsev);
	assert_int_equal(wr(se, W, "tfsev"), 0); /* a bare system name */
	check_set_event(se, is_tfsev);
	assert_int_equal(wr(se, W, "*:num"), 0);
	check_set_event(se, is_any_num);
	assert_int_equal(wr(se, W, ":num"), 0);
	check_set_event(se, is_any_num);
	assert_int_equal(wr(se, W, "num"), 0); /* a bare event name, any system */
	check_set_event(se, is_any_num);
	assert_int_equal(wr(se, W, "*:*"), 0);
	check_set_event(se, is_all);
	assert_int_equal(wr(se, W, "*:"), 0);
	check_set_event(se, is_all);
	assert_int_equal(wr(se, A, "!*:*"), 0);
	check(se, "");
	assert_int_equal(wr(se, W, "tfsev:num\ttfsev2:num other\n"), 0);
	char *want = events_where(is_all);
	/* Exactly the three named. */
	char *got = rd(se);
	assert_non_null(strstr(got, "tfsev:num\n"));
	assert_non_null(strstr(got, "tfsev2:num\n"));
	assert_non_null(strstr(got, "tfsev:other\n"));
	free(got);
	free(want);
	assert_int_equal(wr(se, A, "!tfsev:* !tfsev2:"), 0);
	check(se, "");

	/* A token naming no event: EINVAL, nothing changed (not even the good
	 * tokens before it); `>` had cleared at open as the kernel's does. */
	assert_int_equal(wr(se, A, "tfsev:other"), 0);
	assert_int_equal(wr(se, A, "tfsev:num nosuch"), -EINVAL);
	check(se, "tfsev:other\n");
	assert_int_equal(wr(se, A, "!tfsev:nosuch"), -EINVAL);
	assert_int_equal(wr(se, A, "nosys:*"), -EINVAL);
	assert_int_equal(wr(se, A, "tfsev2:other"), -EINVAL);
	assert_int_equal(wr(se, A, "!"), -EINVAL);
	check(se, "tfsev:other\n");
	/* The top did not move. */
	char *top = rd("set_event");
	assert_null(strstr(top, "tfsev:"));
	free(top);

	/* Records follow set_event. */
	uint16_t id = id_of("tfsev", "num");
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
		drain(b, id, 0);
	assert_int_equal(wr(se, A, "tfsev:num"), 0);
	emit_eight();
	int n = 0;
	for (uint32_t b = 1; b < UFT_MAX_BUFFERS; b++)
		n += drain(b, id, 0).count;
	assert_int_equal(n, 8);
	assert_int_equal(wr(se, W, NULL), 0);
	emit_eight();
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
		assert_int_equal(drain(b, id, 0).count, 0);
	assert_int_equal(uft_tracefs_rmdir("instances/se"), 0);
}

static void test_set_event_pid_file(void **state)
{
	(void)state;
	const char *p = "set_event_pid";
	check(p, "");
	assert_int_equal(wr(p, W, "123 45\n"), 0);
	check(p, "45\n123\n");
	assert_int_equal(wr(p, A, "7\t123"), 0);
	check(p, "7\n45\n123\n");
	assert_int_equal(wr(p, A, "12 x"), -EINVAL);
	assert_int_equal(wr(p, A, "-1"), -EINVAL);
	assert_int_equal(wr(p, A, "99999999"), -EINVAL);
	check(p, "7\n45\n123\n");
	assert_int_equal(wr(p, A, "0x10"), 0);
	check(p, "7\n16\n45\n123\n");
	/* `>` replaces. */
	assert_int_equal(wr(p, W, "9"), 0);
	check(p, "9\n");
	/* An open with O_TRUNC clears without a write; so does an empty write. */
	assert_int_equal(wr(p, W, NULL), 0);
	check(p, "");
	assert_int_equal(wr(p, W, "5 6"), 0);
	assert_int_equal(wr(p, A, "\n"), 0);
	check(p, "");
	/* Several writes on one open add up. */
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open(p, W, &h), 0);
	assert_int_equal(uft_tracefs_write(h, "3\n", 2, 0), 2);
	assert_int_equal(uft_tracefs_write(h, "1\n", 2, 0), 2);
	uft_tracefs_release(h);
	check(p, "1\n3\n");
	assert_int_equal(wr(p, W, NULL), 0);
}

struct thr {
	int tid;
	int first;
};

static void *other_thread(void *arg)
{
	struct thr *t = arg;
	t->tid = tid();
	for (int i = 0; i < 4; i++)
		trace_num(t->first + i, 0, "thr", "/thr");
	return NULL;
}

/* Records of main (a = 0..3) and of a new thread (a = 4..7). */
static uint32_t run_two_threads(uint32_t buffer, int *thread_tid)
{
	uint16_t id = id_of("tfsev", "num");
	drain(buffer, id, 0);
	for (int i = 0; i < 4; i++)
		trace_num(i, 0, "main", "/main");
	struct thr t = {0, 4};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, other_thread, &t), 0);
	pthread_join(th, NULL);
	if (thread_tid)
		*thread_tid = t.tid;
	return drain(buffer, id, 0).mask;
}

static void test_set_event_pid_filters(void **state)
{
	(void)state;
	char me[32];
	snprintf(me, sizeof(me), "%d\n", tid());

	/* Top buffer: only the listed thread's records. */
	assert_int_equal(wr("set_event", W, "tfsev:num"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0xffu);
	assert_int_equal(wr("set_event_pid", W, me), 0);
	assert_int_equal(run_two_threads(0, NULL), 0x0fu);
	/* With a filter: both apply; the file shows the expression written. */
	assert_int_equal(wr("events/tfsev/num/filter", W, "a & 1"), 0);
	check("events/tfsev/num/filter", "a & 1\n");
	assert_int_equal(run_two_threads(0, NULL), 0x0au);
	/* A failed filter changes nothing. */
	assert_int_equal(wr("events/tfsev/num/filter", W, "nosuch == 1"), -EINVAL);
	assert_int_equal(run_two_threads(0, NULL), 0x0au);
	assert_int_equal(wr("events/tfsev/num/filter", W, "a > 1"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0x0cu);
	/* Another pid: nothing of ours. */
	assert_int_equal(wr("set_event_pid", W, "1"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0u);
	/* Cleared: every thread again, the filter stays. */
	assert_int_equal(wr("set_event_pid", W, NULL), 0);
	check("events/tfsev/num/filter", "a > 1\n");
	assert_int_equal(run_two_threads(0, NULL), 0xfcu);
	assert_int_equal(wr("events/tfsev/num/filter", W, "0"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0xffu);
	assert_int_equal(wr("set_event", W, NULL), 0);
	assert_int_equal(run_two_threads(0, NULL), 0u);

	/* An instance has its own list; events enabled after it was set follow it. */
	assert_int_equal(uft_tracefs_mkdir("instances/pid"), 0);
	assert_int_equal(wr("instances/pid/set_event_pid", W, me), 0);
	check("set_event_pid", "");
	assert_int_equal(wr("instances/pid/events/tfsev/num/enable", W, "1"), 0);
	uint32_t mask = 0;
	int other = 0;
	for (uint32_t b = 1; b < UFT_MAX_BUFFERS; b++)
		drain(b, id_of("tfsev", "num"), 0);
	for (int i = 0; i < 4; i++)
		trace_num(i, 0, "main", "/main");
	struct thr t = {0, 4};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, other_thread, &t), 0);
	pthread_join(th, NULL);
	for (uint32_t b = 1; b < UFT_MAX_BUFFERS; b++) {
		struct seen s = drain(b, id_of("tfsev", "num"), t.tid);
		mask |= s.mask;
		other += s.by_tid;
	}
	assert_int_equal(mask, 0x0fu);
	assert_int_equal(other, 0);
	/* The thread's own tid lets it in. */
	char both[64];
	snprintf(both, sizeof(both), "%d", t.tid);
	assert_int_equal(wr("instances/pid/set_event_pid", A, both), 0);
	assert_int_equal(uft_tracefs_rmdir("instances/pid"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0u);
}

/* set_event_notrace_pid: the same file rules; its threads are never
 * recorded, even when set_event_pid lists them. */
static void test_set_event_notrace_pid(void **state)
{
	(void)state;
	const char *p = "set_event_notrace_pid";
	check(p, "");
	assert_int_equal(wr(p, W, "123 45\n"), 0);
	check(p, "45\n123\n");
	assert_int_equal(wr(p, A, "12 x"), -EINVAL);
	check(p, "45\n123\n");
	assert_int_equal(wr(p, W, NULL), 0);
	check(p, "");
	check("set_event_pid", "");

	char me[32];
	snprintf(me, sizeof(me), "%d\n", tid());
	assert_int_equal(wr("set_event", W, "tfsev:num"), 0);
	assert_int_equal(wr(p, W, me), 0);
	assert_int_equal(run_two_threads(0, NULL), 0xf0u);
	/* With a filter, both apply. */
	assert_int_equal(wr("events/tfsev/num/filter", W, "a & 1"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0xa0u);
	assert_int_equal(wr("events/tfsev/num/filter", W, "0"), 0);
	/* Listed in both: not recorded. */
	assert_int_equal(wr("set_event_pid", W, me), 0);
	assert_int_equal(run_two_threads(0, NULL), 0u);
	assert_int_equal(wr(p, W, NULL), 0);
	assert_int_equal(run_two_threads(0, NULL), 0x0fu);
	assert_int_equal(wr("set_event_pid", W, NULL), 0);
	assert_int_equal(run_two_threads(0, NULL), 0xffu);
	assert_int_equal(wr("set_event", W, NULL), 0);
}

/* A thread that gives its tid (listed when pthread_create returns) and
 * waits for the go word. */
struct gate {
	int *go, *tid;
};

static void *gated_thread(void *arg)
{
	struct gate *g = arg;
	smp_store_release(g->tid, tid());
	while (!smp_load_acquire(g->go))
		usleep(100);
	return NULL;
}

/* The same, then records a = 4..7. */
static void *gated_tracer(void *arg)
{
	gated_thread(arg);
	for (int i = 4; i < 8; i++)
		trace_num(i, 0, "thr", "/thr");
	return NULL;
}

/* event-fork: a listed parent's child process is listed too, in
 * set_event_pid and set_event_notrace_pid alike. */
static void test_event_fork(void **state)
{
	(void)state;
	char me[32];
	snprintf(me, sizeof(me), "%d", (int)getpid());
	for (int opt = 0; opt < 2; opt++) {
		assert_int_equal(wr("options/event-fork", W, opt ? "1" : "0"), 0);
		assert_int_equal(wr("set_event_pid", W, me), 0);
		assert_int_equal(wr("set_event_notrace_pid", W, me), 0);
		pid_t child = fork();
		assert_true(child >= 0);
		if (child == 0) {
			char want[64];
			tfs_child_pids(want, sizeof(want), opt);
			int err;
			char *a = tfs_cat("set_event_pid", &err);
			char *b = tfs_cat("set_event_notrace_pid", &err);
			bool ok = a && b && strcmp(a, want) == 0 && strcmp(b, want) == 0;
			if (!ok)
				fprintf(stderr,
					"child: want\n%sset_event_pid\n%sset_event_notrace_pid\n%s",
					want, a ? a : "?\n", b ? b : "?\n");
			_exit(ok ? 0 : 1);
		}
		assert_int_equal(tfs_child_status(child), 0);
	}
	/* Threads too: one made by a listed thread is listed while it runs. */
	char tid_line[32];
	snprintf(tid_line, sizeof(tid_line), "%d\n", tid());
	assert_int_equal(wr("set_event_notrace_pid", W, NULL), 0);
	assert_int_equal(wr("set_event", W, "tfsev:num"), 0);
	assert_int_equal(wr("set_event_pid", W, tid_line), 0);
	assert_int_equal(wr("options/event-fork", W, "0"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0x0fu);
	assert_int_equal(wr("options/event-fork", W, "1"), 0);
	assert_int_equal(run_two_threads(0, NULL), 0xffu);
	check("set_event_pid", tid_line);
	assert_int_equal(wr("set_event_notrace_pid", W, tid_line), 0);
	assert_int_equal(run_two_threads(0, NULL), 0u);
	/* The last listed thread gone, the list is one of none: nothing is
	 * recorded (not everything), until the file is written. */
	assert_int_equal(wr("set_event_notrace_pid", W, NULL), 0);
	int go = 0, other = 0;
	struct gate g = {&go, &other};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, gated_thread, &g), 0);
	while (!smp_load_acquire(&other))
		usleep(100);
	char only[32];
	snprintf(only, sizeof(only), "%d", other);
	assert_int_equal(wr("set_event_pid", W, only), 0);
	smp_store_release(&go, 1);
	pthread_join(th, NULL);
	check("set_event_pid", "");
	assert_int_equal(run_two_threads(0, NULL), 0u);
	assert_int_equal(wr("set_event_pid", W, NULL), 0);
	assert_int_equal(run_two_threads(0, NULL), 0xffu);
	/* A thread joins while the event is off; enabled after, the event
	 * takes it in. */
	assert_int_equal(wr("set_event", W, NULL), 0);
	assert_int_equal(wr("set_event_pid", W, tid_line), 0);
	go = other = 0;
	assert_int_equal(pthread_create(&th, NULL, gated_tracer, &g), 0);
	while (!smp_load_acquire(&other))
		usleep(100);
	assert_int_equal(wr("set_event", W, "tfsev:num"), 0);
	uint16_t id = id_of("tfsev", "num");
	drain(0, id, 0);
	smp_store_release(&go, 1);
	pthread_join(th, NULL);
	assert_int_equal(drain(0, id, 0).mask, 0xf0u);
	assert_int_equal(wr("set_event_pid", W, NULL), 0);
	assert_int_equal(wr("set_event", W, NULL), 0);
	assert_int_equal(wr("options/event-fork", W, "0"), 0);
	assert_int_equal(wr("set_event_pid", W, NULL), 0);
	assert_int_equal(wr("set_event_notrace_pid", W, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tree_and_static_files),
	    cmocka_unit_test(test_generated_code_not_traceable),
	    cmocka_unit_test(test_enable_levels),
	    cmocka_unit_test(test_filter_operators),
	    cmocka_unit_test(test_filter_errors),
	    cmocka_unit_test(test_system_filter),
	    cmocka_unit_test(test_set_event),
	    cmocka_unit_test(test_set_event_pid_file),
	    cmocka_unit_test(test_set_event_pid_filters),
	    cmocka_unit_test(test_set_event_notrace_pid),
	    cmocka_unit_test(test_event_fork),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
