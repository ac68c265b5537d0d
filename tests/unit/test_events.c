/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event definitions: formats generated from UFT_EVENT and UFT_TRACE,
 * registration from ELF sections (dlopen and dlclose included), refusal of a
 * conflicting definition, enable state and the record bytes written. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <event-parse.h>

#define UFT_CREATE_EVENTS
#include "demo_events.h"
#include "tev_types_events.h"

#define TEV_CALLS tev_calls_create
#include "tev_calls.h"
void tev_calls_inline(int k);
void tev_calls_outline(int k);

#include "engine/format/format.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "own_rings.h"

struct format_query {
	const char *sys, *name;
	char *text;
};

static int find_format(void *ctx, const struct uft_reg_view *v)
{
	struct format_query *q = ctx;
	if (strcmp(v->system, q->sys) || strcmp(v->name, q->name))
		return 0;
	q->text = strndup(v->format, v->format_len);
	return 1;
}

/* The format text the registry publishes (the tree's events/SYS/EV/format). */
static char *format_of(const char *sys, const char *name)
{
	struct format_query q = {sys, name, NULL};
	uft_registry_visit(find_format, &q);
	return q.text;
}

static const char common_fields[] =
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

static void test_struct_event_format(void **state)
{
	(void)state;
	struct uft_event *ev = uft_find_event("demo", "request");
	assert_non_null(ev);
	char expect[2048];
	snprintf(expect, sizeof(expect),
		 "name: request\nID: %u\n%s"
		 "\tfield:__data_loc char[] path;\toffset:8;\tsize:4;\tsigned:1;\n"
		 "\tfield:int status;\toffset:12;\tsize:4;\tsigned:1;\n"
		 "\tfield:uint64_t latency;\toffset:16;\tsize:8;\tsigned:0;\n\n"
		 "print fmt: \"path=%%s status=%%d latency=%%llu\", __get_str(path), REC->status, "
		 "(unsigned long long)REC->latency\n",
		 uft_event_id(ev), common_fields);
	char *got = format_of("demo", "request");
	assert_string_equal(got, expect);
	free(got);

	got = format_of("demo", "worker_state");
	assert_non_null(strstr(got, "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
				    "\tfield:int worker;\toffset:24;\tsize:4;\tsigned:1;\n"
				    "\tfield:int state;\toffset:28;\tsize:4;\tsigned:1;\n"
				    "\tfield:unsigned char prio;\toffset:32;\tsize:1;\tsigned:0;\n"
				    "\tfield:bool busy;\toffset:33;\tsize:1;\tsigned:0;\n\n"));
	free(got);

	got = format_of("demo", "batch");
	assert_non_null(strstr(got,
			       "\tfield:__data_loc int[] values;\toffset:8;\tsize:4;\tsigned:1;\n"
			       "\tfield:unsigned int count;\toffset:12;\tsize:4;\tsigned:0;\n"
			       "\tfield:long sum;\toffset:16;\tsize:8;\tsigned:1;\n"));
	free(got);
}

static void test_formats_parse_in_libtraceevent(void **state)
{
	(void)state;
	const char *names[] = {"request", "worker_state", "batch"};
	struct tep_handle *tep = tep_alloc();
	for (size_t i = 0; i < 3; i++) {
		char *text = format_of("demo", names[i]);
		assert_int_equal(tep_parse_event(tep, text, strlen(text), "demo"), 0);
		struct tep_event *e = tep_find_event_by_name(tep, "demo", names[i]);
		assert_non_null(e);
		assert_int_equal(e->id, uft_event_id(uft_find_event("demo", names[i])));
		free(text);
	}
	struct tep_event *e = tep_find_event_by_name(tep, "demo", "request");
	struct tep_format_field *f = tep_find_field(e, "path");
	assert_non_null(f);
	assert_true(f->flags & TEP_FIELD_IS_DYNAMIC);
	f = tep_find_field(e, "latency");
	assert_int_equal(f->offset, 16);
	assert_int_equal(f->size, 8);
	tep_free(tep);
}

static void demo_oneliner(int n)
{
	UFT_TRACE(tev, oneliner, "n=%d name=%s big=%llu", n, "x", 1ull << 40);
}

UFT_TRACEPOINT(named, tev, named, "n=%d who=%s");

struct named_seen {
	uint16_t id;
	int n;
	char who[16];
	int count;
};

static int grab_named(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		      uint64_t missed)
{
	(void)ts;
	(void)cpu;
	(void)missed;
	struct named_seen *s = ctx;
	const struct uft_common_entry *e = data;
	uint32_t loc;
	if (e->type != s->id || len < 16)
		return 0;
	memcpy(&s->n, (const char *)data + 8, 4);
	memcpy(&loc, (const char *)data + 12, 4);
	if ((loc & 0xffff) + (loc >> 16) <= len && (loc >> 16) <= sizeof(s->who))
		memcpy(s->who, (const char *)data + (loc & 0xffff), loc >> 16);
	s->count++;
	return 0;
}

static int costly_calls;

static int costly(void)
{
	return ++costly_calls;
}

static void test_named_tracepoint(void **state)
{
	(void)state;
	struct uft_event *ev = uft_find_event("tev", "named");
	assert_non_null(ev);
	/* Disabled: the caller's test is false and no argument is computed. */
	assert_false(uft_tracepoint_enabled(named));
	uft_tracepoint(named, costly(), "no");
	assert_int_equal(costly_calls, 0);

	assert_int_equal(uft_set_event("tev:named", 1), 1);
	assert_true(uft_tracepoint_enabled(named));
	uft_tracepoint(named, 42, "yes");
	uft_set_event("tev:named", 0);
	struct named_seen s = {.id = uft_event_id(ev)};
	drain_own_rings(NULL, 0, grab_named, &s);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.n, 42);
	assert_string_equal(s.who, "yes");
}

static void test_printf_event_format(void **state)
{
	(void)state;
	demo_oneliner(0);
	char *got = format_of("tev", "oneliner");
	assert_non_null(got);
	assert_non_null(
	    strstr(got, "\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
			"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
			"\tfield:unsigned long long big;\toffset:16;\tsize:8;\tsigned:0;\n"));
	assert_non_null(strstr(got, "print fmt: \"n=%d name=%s big=%llu\", REC->n, "
				    "__get_str(name), REC->big\n"));
	free(got);
}

static void test_enable_gate(void **state)
{
	(void)state;
	assert_false(trace_request_enabled());
	assert_int_equal(uft_set_event("demo:request", 1), 1);
	assert_true(trace_request_enabled());
	assert_false(trace_batch_enabled());
	assert_int_equal(uft_set_event("demo:*", 1), 2); /* request was on already */
	assert_true(trace_batch_enabled());
	assert_int_equal(uft_set_event("demo:*", 0), 3);
	assert_false(trace_request_enabled());
	assert_int_equal(uft_set_event("", 1), -EINVAL);
}

static void test_ids_unique(void **state)
{
	(void)state;
	const char *names[] = {"request", "worker_state", "batch", "oneliner"};
	uint16_t ids[4];
	demo_oneliner(0);
	for (int i = 0; i < 4; i++) {
		struct uft_event *ev = uft_find_event(i < 3 ? "demo" : "tev", names[i]);
		assert_non_null(ev);
		ids[i] = uft_event_id(ev);
		assert_true(ids[i] >= UFT_ID_FIRST_DYNAMIC);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(ids[i], ids[j]);
	}
}

static char *fixture(const char *name)
{
	static char path[4096];
	const char *build = getenv("UFT_BUILD");
	snprintf(path, sizeof(path), "%s/tests/lib%s.so", build ? build : "build", name);
	return path;
}

static void test_dlopen_registers_and_dlclose_removes(void **state)
{
	(void)state;
	assert_null(uft_find_event("tplug", "hello"));
	void *h = dlopen(fixture("tev_plugin"), RTLD_NOW);
	assert_non_null(h);
	struct uft_event *ev = uft_find_event("tplug", "hello");
	assert_non_null(ev);
	assert_non_null(uft_find_event("tplug", "said"));
	int (*hello)(int) = (int (*)(int))dlsym(h, "tev_plugin_hello");
	assert_int_equal(hello(1), 0);
	assert_int_equal(uft_set_event("tplug:*", 1), 2);
	assert_int_equal(hello(2), 1);
	uint16_t id = uft_event_id(ev);
	dlclose(h);
	assert_null(uft_find_event("tplug", "hello"));

	/* Loaded again: the same format takes its id back (a recorded id
	 * still means one format), so load/unload cycles cost no new id. */
	h = dlopen(fixture("tev_plugin"), RTLD_NOW);
	assert_non_null(h);
	ev = uft_find_event("tplug", "hello");
	assert_non_null(ev);
	assert_int_equal(uft_event_id(ev), id);
	/* The enable spec given earlier applies to events that arrive later. */
	hello = (int (*)(int))dlsym(h, "tev_plugin_hello");
	assert_int_equal(hello(3), 1);
	dlclose(h);
}

static void test_conflicting_definition_refused(void **state)
{
	(void)state;
	void *h = dlopen(fixture("tev_plugin"), RTLD_NOW);
	assert_non_null(h);
	uint16_t id = uft_event_id(uft_find_event("tplug", "hello"));
	void *c = dlopen(fixture("tev_conflict"), RTLD_NOW);
	assert_non_null(c);
	int (*cid)(void) = (int (*)(void))dlsym(c, "tev_conflict_id");
	assert_int_equal(cid(), 0); /* not registered */
	assert_int_equal(uft_event_id(uft_find_event("tplug", "hello")), id);
	dlclose(c);
	dlclose(h);
}

static void test_disabled_build_has_no_events(void **state)
{
	(void)state;
	void *h = dlopen(fixture("tev_disabled"), RTLD_NOW);
	assert_non_null(h);
	int (*run)(int) = (int (*)(int))dlsym(h, "tev_disabled_run");
	assert_int_equal(run(1), 0);
	assert_null(uft_find_event("tdis", "gone"));
	dlclose(h);
}

struct found {
	uint16_t id;
	_Alignas(8) uint8_t rec[256];
	uint32_t len;
	int n;
};

static int grab(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		uint64_t missed)
{
	(void)ts;
	(void)cpu;
	(void)missed;
	struct found *f = ctx;
	const struct uft_common_entry *e = data;
	if (e->type == f->id && len <= sizeof(f->rec)) {
		memcpy(f->rec, data, len);
		f->len = len;
		f->n++;
	}
	return 0;
}

static void test_record_bytes(void **state)
{
	(void)state;
	assert_int_equal(uft_set_event("demo:request", 1), 1);
	trace_request("/abc", -7, 123456789ull);
	uft_set_event("demo:request", 0);
	struct found f = {.id = uft_event_id(uft_find_event("demo", "request"))};
	assert_non_null(uft_sess.hdr);
	drain_own_rings(NULL, 0, grab, &f);
	assert_int_equal(f.n, 1);
	/* 24 bytes fixed + "/abc\0", rounded to 4 in the buffer. */
	assert_int_equal(f.len, 32);
	const struct uft_common_entry *e = (const void *)f.rec;
	assert_int_equal(e->pid, gettid());
	assert_int_equal(e->flags, 0);
	assert_int_equal(e->preempt_count, 0);
	uint32_t loc;
	memcpy(&loc, f.rec + 8, 4);
	assert_int_equal(loc & 0xffff, 24);
	assert_int_equal(loc >> 16, 5);
	assert_string_equal((const char *)f.rec + 24, "/abc");
	int status;
	memcpy(&status, f.rec + 12, 4);
	assert_int_equal(status, -7);
	uint64_t lat;
	memcpy(&lat, f.rec + 16, 8);
	assert_int_equal(lat, 123456789ull);
	assert_int_equal(f.rec[29] | f.rec[30] | f.rec[31], 0); /* rounding zeroed */
}

struct counter {
	uint16_t id;
	int statuses[16];
	int n;
};

static int count_requests(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
			  uint64_t missed)
{
	(void)ts;
	(void)cpu;
	(void)missed;
	(void)len;
	struct counter *c = ctx;
	const struct uft_common_entry *e = data;
	if (e->type == c->id && c->n < 16)
		memcpy(&c->statuses[c->n++], (const char *)data + 12, 4);
	return 0;
}

static void drain_requests(struct counter *c, struct uft_ring_cursor *cur, uint32_t nr)
{
	drain_own_rings(cur, nr, count_requests, c);
}

static void test_filters(void **state)
{
	(void)state;
	static struct uft_ring_cursor cur[64];
	struct counter c = {.id = uft_event_id(uft_find_event("demo", "request"))};
	assert_int_equal(uft_set_event("demo:request", 1), 1);
	drain_requests(&c, cur, 64); /* skip what earlier tests wrote */
	c.n = 0;

	char err[512];
	assert_int_equal(
	    uft_set_filter("demo:request", "status >= 400 && path ~ \"/api*\"", err, sizeof(err)),
	    1);
	trace_request("/api/x", 404, 1);
	trace_request("/index", 404, 1);
	trace_request("/api/y", 200, 1);
	trace_request("/api/z", 500, 1);
	drain_requests(&c, cur, 64);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.statuses[0], 404);
	assert_int_equal(c.statuses[1], 500);

	/* A bad filter is refused with the kernel's text and changes nothing. */
	assert_int_equal(
	    uft_set_filter("demo:request", "status > 1 && nosuch == 1", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "status > 1 && nosuch == 1\n"
				 "                     ^\n"
				 "parse_error: Field not found\n");
	c.n = 0;
	trace_request("/api/a", 404, 1);
	trace_request("/api/b", 200, 1);
	drain_requests(&c, cur, 64);
	assert_int_equal(c.n, 1);

	/* "0" clears it. */
	assert_int_equal(uft_set_filter("demo:request", "0", err, sizeof(err)), 0);
	c.n = 0;
	trace_request("/api/b", 200, 1);
	drain_requests(&c, cur, 64);
	assert_int_equal(c.n, 1);
	uft_set_event("demo:request", 0);
}

struct recs {
	uint16_t id;
	int n;
	uint32_t len[8];
	_Alignas(8) uint8_t rec[8][160];
};

static int grab_all(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		    uint64_t missed)
{
	(void)ts;
	(void)cpu;
	(void)missed;
	struct recs *r = ctx;
	const struct uft_common_entry *e = data;
	if (e->type == r->id && r->n < 8 && len <= sizeof(r->rec[0])) {
		memcpy(r->rec[r->n], data, len);
		r->len[r->n++] = len;
	}
	return 0;
}

/* The same call in the file that creates the events, in another file (inline
 * writer) and in a UFT_OUTLINE file, through each way a call site can go:
 * the inline fast path, the slow path (a filter), the out-of-line writer (an
 * SDT tracer's count on the gate). Every record has the same bytes. */
static void test_call_sites_in_other_files(void **state)
{
	(void)state;
	void (*const sites[])(int) = {tev_calls_create, tev_calls_inline, tev_calls_outline};
	struct uft_event *ev = uft_find_event("ttypes", "all");
	assert_non_null(ev);
	assert_int_equal(uft_set_event("ttypes:all", 1), 1);
	static struct uft_ring_cursor cur[64];
	struct recs old = {.id = uft_event_id(ev)};
	drain_own_rings(cur, 64, grab_all, &old);
	for (int way = 0; way < 3; way++) {
		char err[256];
		if (way == 1)
			assert_int_equal(uft_set_filter("ttypes:all", "e < 0", err, sizeof(err)),
					 1);
		if (way == 2)
			ttypes_all_semaphore++;
		for (int k = 0; k < 2; k++) {
			struct recs r = {.id = uft_event_id(ev)};
			for (int s = 0; s < 3; s++)
				sites[s](k);
			drain_own_rings(cur, 64, grab_all, &r);
			assert_int_equal(r.n, 3);
			/* 80 bytes fixed, the string and its NUL, the array, rounded to 8 */
			assert_int_equal(r.len[0], (80 + (k ? 6 : 7) + 4 + 7) & ~7u);
			const struct uft_raw_all *a = (const void *)r.rec[0];
			assert_int_equal(a->a, -k);
			assert_int_equal(a->e, -70000 - k);
			assert_int_equal(a->i, k & 1);
			assert_string_equal((const char *)a + (a->__data_loc_name & 0xffff),
					    k ? "named" : "(null)");
			for (int s = 1; s < 3; s++) {
				assert_int_equal(r.len[s], r.len[0]);
				assert_memory_equal(r.rec[s], r.rec[0], r.len[0]);
			}
		}
		if (way == 1)
			uft_set_filter("ttypes:all", "0", err, sizeof(err));
		if (way == 2)
			ttypes_all_semaphore--;
	}
	uft_set_event("ttypes:all", 0);
}

static void test_every_field_type(void **state)
{
	(void)state;
	char *got = format_of("ttypes", "all");
	assert_non_null(got);
	/* Natural alignment after the 8-byte common header, as the kernel lays out
	 * its records; signedness from the type. */
	const char *want = "\tfield:int8_t a;\toffset:8;\tsize:1;\tsigned:1;\n"
			   "\tfield:uint8_t b;\toffset:9;\tsize:1;\tsigned:0;\n"
			   "\tfield:int16_t c;\toffset:10;\tsize:2;\tsigned:1;\n"
			   "\tfield:uint16_t d;\toffset:12;\tsize:2;\tsigned:0;\n"
			   "\tfield:int32_t e;\toffset:16;\tsize:4;\tsigned:1;\n"
			   "\tfield:uint32_t f;\toffset:20;\tsize:4;\tsigned:0;\n"
			   "\tfield:int64_t g;\toffset:24;\tsize:8;\tsigned:1;\n"
			   "\tfield:uint64_t h;\toffset:32;\tsize:8;\tsigned:0;\n"
			   "\tfield:bool i;\toffset:40;\tsize:1;\tsigned:0;\n"
			   "\tfield:const void * j;\toffset:48;\tsize:8;\tsigned:0;\n"
			   "\tfield:char comm[16];\toffset:56;\tsize:16;\tsigned:1;\n"
			   "\tfield:__data_loc char[] name;\toffset:72;\tsize:4;\tsigned:1;\n"
			   "\tfield:__data_loc uint16_t[] arr;\toffset:76;\tsize:4;\tsigned:0;\n\n";
	assert_non_null(strstr(got, want));

	/* libtraceevent renders a record the way printf would. */
	struct tep_handle *tep = tep_alloc();
	tep_set_long_size(tep, 8);
	assert_int_equal(tep_parse_event(tep, got, strlen(got), "ttypes"), 0);
	free(got);
	struct uft_event *ev = uft_find_event("ttypes", "all");
	_Alignas(8) uint8_t rec[128] = {0};
	struct uft_raw_all *r = (struct uft_raw_all *)rec;
	r->uft__common.type = uft_event_id(ev);
	/* libtraceevent reads print arguments zero-extended, so negative 8- and
	 * 16-bit values would print as their unsigned values: keep them positive. */
	r->a = 5;
	r->b = 250;
	r->c = 300;
	r->d = 60000;
	r->e = -70000;
	r->f = 4000000000u;
	r->g = -5000000000ll;
	r->h = 18000000000000000000ull;
	r->i = true;
	r->j = (const void *)0x1234;
	memcpy(r->comm, "comm-field", 11);
	r->__data_loc_name = 80 | (4u << 16);
	memcpy(rec + 80, "abc", 4);
	r->__data_loc_arr = 84 | (4u << 16);
	struct tep_record tr = {.data = rec, .size = 88, .cpu = 0};
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &tr, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	assert_string_equal(s.buffer, "a=5 b=250 c=300 d=60000 e=-70000 f=4000000000 "
				      "g=-5000000000 h=18000000000000000000 i=1 j=0x1234 "
				      "comm=comm-field name=abc");
	trace_seq_destroy(&s);
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_struct_event_format),
	    cmocka_unit_test(test_formats_parse_in_libtraceevent),
	    cmocka_unit_test(test_printf_event_format),
	    cmocka_unit_test(test_named_tracepoint),
	    cmocka_unit_test(test_enable_gate),
	    cmocka_unit_test(test_ids_unique),
	    cmocka_unit_test(test_dlopen_registers_and_dlclose_removes),
	    cmocka_unit_test(test_conflicting_definition_refused),
	    cmocka_unit_test(test_disabled_build_has_no_events),
	    cmocka_unit_test(test_record_bytes),
	    cmocka_unit_test(test_filters),
	    cmocka_unit_test(test_call_sites_in_other_files),
	    cmocka_unit_test(test_every_field_type),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
