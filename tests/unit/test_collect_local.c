/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The collector's pseudo-source (src/recorder/collect_local.c): formats get
 * global ids as a process's do, records land on their CPUs in time order in
 * a trace.dat that libtracecmd reads, comms reach the cmdlines, what cannot
 * be stored is counted lost, and with a sink each record goes there with its
 * global id. */
#define _GNU_SOURCE
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
#include <trace-cmd.h>

#include "recorder/collect_local.h"
#include <uft/event.h>

struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle, int *rec_cpu);

#include "lsan_pause.h"

static const char tick_format[] =
    "name: tick\n"
    "ID: 7\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:unsigned int n;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\n"
    "print fmt: \"n=%u\", REC->n\n";

struct tick {
	struct uft_common_entry e;
	uint32_t n;
};

static int put(struct collect_local *l, uint16_t id, uint32_t cpu, uint64_t ts, uint32_t n)
{
	struct tick t = {{.type = id, .pid = 4242}, n};
	return collect_local_put(l, cpu, ts, &t, sizeof(t));
}

static void file_holds_records_in_order(void **state)
{
	(void)state;
	char path[] = "/tmp/uft-collect-local-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct collect c;
	collect_init(&c);
	c.spool_path = path;
	struct collect_local a, b;
	assert_int_equal(collect_local_init(&a, &c), 0);
	assert_int_equal(collect_local_init(&b, &c), 0);
	assert_int_equal(collect_local_format(&a, 7, "local", tick_format, strlen(tick_format)), 0);
	/* The same event from another source shares its global id. */
	assert_int_equal(collect_local_format(&b, 7, "local", tick_format, strlen(tick_format)), 0);
	assert_int_equal(c.nr_formats, 1);
	uint16_t gid = c.formats[0].id;
	assert_true(gid != 0); /* its own id when free */
	assert_int_equal(a.id_map[7], gid);
	collect_local_comm(&a, 4242, "ticker");
	assert_int_equal(put(&a, 7, 0, 1000, 1), 0);
	assert_int_equal(put(&a, 7, 1, 1500, 2), 0);
	assert_int_equal(put(&a, 7, 0, 2000, 3), 0);
	assert_int_equal(put(&b, 7, 0, 1700, 4), 0);
	/* An id without a format and a CPU that cannot exist: lost, counted. */
	assert_int_equal(put(&a, 8, 0, 2100, 5), 1);
	assert_int_equal(put(&a, 7, c.max_cpus, 2200, 6), 1);
	assert_int_equal(c.totals.recorded, 4);
	assert_int_equal(c.totals.lost, 2);
	assert_int_equal(c.totals.written, 6);
	assert_int_equal(c.cpus[0].total, 3);
	assert_int_equal(c.cpus[1].total, 1);
	collect_local_close(&a);
	collect_local_close(&b);
	assert_int_equal(collect_write(&c, path, NULL), 0);
	collect_local_free(&a);
	collect_local_free(&b);
	collect_free(&c);

	__lsan_disable();
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	__lsan_enable();
	assert_non_null(h);
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_name(tep, "local", "tick");
	assert_non_null(ev);
	assert_int_equal(ev->id, gid);
	static const uint32_t want_n[] = {1, 2, 4, 3};
	static const int want_cpu[] = {0, 1, 0, 0};
	static const unsigned long long want_ts[] = {1000, 1500, 1700, 2000};
	struct tep_record *rec;
	int cpu, i = 0;
	while ((rec = tracecmd_read_next_data(h, &cpu))) {
		assert_true(i < 4);
		assert_int_equal(tep_data_type(tep, rec), gid);
		assert_int_equal(cpu, want_cpu[i]);
		assert_int_equal(rec->ts, want_ts[i]);
		uint32_t n;
		memcpy(&n, (char *)rec->data + 8, 4);
		assert_int_equal(n, want_n[i]);
		assert_string_equal(tep_data_comm_from_pid(tep, tep_data_pid(tep, rec)), "ticker");
		tracecmd_free_record(rec);
		i++;
	}
	assert_int_equal(i, 4);
	tracecmd_close(h);
	unlink(path);
}

static int sunk;
static uint16_t sunk_id;

static int sink(void *ctx, uint32_t cpu, uint64_t ts, uint16_t id, const void *data, uint32_t len,
		uint64_t missed)
{
	(void)ctx, (void)cpu, (void)ts, (void)missed;
	const struct uft_common_entry *e = data;
	assert_int_equal(len, sizeof(struct tick));
	assert_int_equal(e->type, id);
	sunk_id = id;
	sunk++;
	return 0;
}

static void sink_gets_global_ids(void **state)
{
	(void)state;
	struct collect c;
	collect_init(&c);
	c.sink = sink;
	struct collect_local l;
	assert_int_equal(collect_local_init(&l, &c), 0);
	assert_int_equal(collect_local_format(&l, 7, "local", tick_format, strlen(tick_format)), 0);
	assert_int_equal(put(&l, 7, 0, 10, 1), 0);
	assert_int_equal(sunk, 1);
	assert_int_equal(sunk_id, c.formats[0].id);
	assert_int_equal(c.totals.recorded, 1);
	collect_local_close(&l);
	collect_local_free(&l);
	collect_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(file_holds_records_in_order),
	    cmocka_unit_test(sink_gets_global_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
