/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Triggers and synthetic events over a recorded file (src/report/replay.c):
 * the bytes of a generated synthetic record (numbers in their slots' low
 * bytes, a static string cut to its size, a dynamic string after the slots,
 * the common header of the record that generated it), each kept with the
 * record that started its chain; a file's own synthetic event (recorded
 * live) takes triggers and cannot be defined again; names resolve across
 * the file and the defined events. */
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

#include "wire/page.h"
#include "kernel_formats.h"
#include "syscall_formats.h"
#include "report/replay.h"
#include "tracedat/tracedat.h"

/* A synthetic event as the kernel's tracefs shows it after
 * 'wakeup_lat char name[16]; pid_t pid; u64 lat'. */
#define KF_WAKEUP_LAT_ID 1901
static const char kf_wakeup_lat[] =
    "name: wakeup_lat\n"
    "ID: 1901\n"
    "format:\n" KF_COMMON "\tfield:char name[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:u64 lat;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"name=%s, pid=%d, lat=%llu\", REC->name, REC->pid, REC->lat\n";

static char tmpdir[64], path[128];

static void waking(uint8_t *r, int32_t by, const char *comm, int32_t pid, int32_t prio)
{
	memset(r, 0, 36);
	memcpy(r, &(uint16_t){318}, 2);
	r[2] = 1; /* irqs off */
	r[3] = 2; /* preempt count */
	memcpy(r + 4, &by, 4);
	memcpy(r + 8, comm, strlen(comm));
	memcpy(r + 24, &pid, 4);
	memcpy(r + 28, &prio, 4);
}

static void wakeup_lat(uint8_t *r, const char *name, int32_t pid, uint64_t lat)
{
	memset(r, 0, 40);
	memcpy(r, &(uint16_t){KF_WAKEUP_LAT_ID}, 2);
	memcpy(r + 8, name, strlen(name));
	memcpy(r + 24, &pid, 4);
	memcpy(r + 32, &lat, 8);
}

/* CPU 0: two wakings (one by pid 7 of "bash" at prio -3, one of a long
 * name) and, between them, a recorded wakeup_lat; CPU 1: another
 * wakeup_lat. */
static int write_file(void)
{
	struct tracedat_writer *w = tracedat_writer_open(path, 2, 4096, "local");
	static uint8_t pages[2][4096];
	struct uft_page_builder b[2];
	uint8_t r[64];
	int rc = 0;

	if (!w)
		return -errno;
	for (int c = 0; c < 2; c++)
		uft_page_builder_init(&b[c], pages[c], 4096);
	waking(r, 7, "bash", 1301, -3);
	rc |= uft_page_builder_add(&b[0], 1000, r, 36);
	wakeup_lat(r, "sshd", 1300, 5);
	rc |= uft_page_builder_add(&b[0], 2000, r, 40);
	wakeup_lat(r, "bash", 1301, 48);
	rc |= uft_page_builder_add(&b[1], 2500, r, 40);
	waking(r, 0, "kworker/u4:2", 3723, 120);
	rc |= uft_page_builder_add(&b[0], 3000, r, 36);
	for (int c = 0; c < 2; c++) {
		uft_page_builder_finish(&b[c], 0);
		rc |= tracedat_writer_add_page(w, c, pages[c]);
	}
	rc |= tracedat_writer_add_format(w, "sched", kf_sched_waking);
	rc |= tracedat_writer_add_format(w, "sched", kf_sched_switch);
	rc |= tracedat_writer_add_format(w, "synthetic", kf_wakeup_lat);
	if (rc) {
		tracedat_writer_abort(w);
		return -EINVAL;
	}
	return tracedat_writer_close(w);
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/uft-test-replay-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(path, sizeof(path), "%s/r.dat", tmpdir);
	return write_file() == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	unlink(path);
	return rmdir(tmpdir);
}

struct run {
	struct trace_file tf;
	struct replay *r;
	char *err;
	size_t errlen;
	FILE *errf;
};

static void open_run(struct run *x)
{
	char why[256];
	assert_int_equal(trace_file_open(&x->tf, path, why, sizeof(why)), 0);
	x->errf = open_memstream(&x->err, &x->errlen);
	x->r = replay_new(&x->tf, "test", x->errf);
	assert_non_null(x->r);
}

static void close_run(struct run *x)
{
	replay_free(x->r);
	trace_file_close(&x->tf);
	fclose(x->errf);
	free(x->err);
}

static const struct uft_field *field(const struct replay_event *e, const char *name)
{
	for (uint32_t i = 0; i < e->nr_fields; i++)
		if (!strncmp(e->fields[i].name, name, strlen(name)) &&
		    (!e->fields[i].name[strlen(name)] || e->fields[i].name[strlen(name)] == '['))
			return &e->fields[i];
	fail_msg("no field %s", name);
	return NULL;
}

static void test_record_layout(void **state)
{
	struct run x;
	const struct replay_event *mix, *wk;
	size_t n;

	open_run(&x);
	assert_int_equal(replay_synth(x.r, "mix s8 a; char s[8]; char d[]; u64 b"), 0);
	assert_int_equal(replay_event(x.r, NULL, "mix", &mix), 0);
	assert_string_equal(mix->system, "synthetic");
	assert_int_equal(replay_event(x.r, "sched", "sched_waking", &wk), 0);
	/* The next id after the file's highest (1901). */
	assert_int_equal(mix->id, 1902);
	assert_int_equal(replay_hist(x.r, "sched:sched_waking:keys=pid:onmatch(sched.sched_waking)"
					  ".trace(mix,prio,comm,comm,pid)"),
			 0);
	assert_int_equal(replay_run(x.r, true), 0);
	const struct replay_rec *recs = replay_records(x.r, &n);
	assert_int_equal(n, 2);

	/* The first: generated at the first waking (CPU 0, time 1000). */
	const uint8_t *d = recs[0].data;
	assert_int_equal(recs[0].ts, 1000);
	assert_int_equal(recs[0].cpu, 0);
	uint16_t type;
	int32_t pid;
	memcpy(&type, d, 2);
	memcpy(&pid, d + 4, 4);
	assert_int_equal(type, 1902);
	assert_int_equal(d[2], 1);
	assert_int_equal(d[3], 2);
	assert_int_equal(pid, 7);
	const struct uft_field *a = field(mix, "a"), *s = field(mix, "s"), *dl = field(mix, "d"),
			       *b = field(mix, "b");
	/* -3 in an s8: its low byte, the rest of the slot zero. */
	assert_int_equal(d[a->offset], 0xfd);
	for (unsigned i = 1; i < 8; i++)
		assert_int_equal(d[a->offset + i], 0);
	assert_string_equal((const char *)d + s->offset, "bash");
	uint32_t loc;
	memcpy(&loc, d + dl->offset, 4);
	/* Right after the slots: the end of the furthest field. */
	uint32_t end = 0;
	for (uint32_t i = 0; i < mix->nr_fields; i++)
		if (mix->fields[i].offset + mix->fields[i].size > end)
			end = mix->fields[i].offset + mix->fields[i].size;
	assert_int_equal(loc & 0xffff, end);
	assert_int_equal(loc >> 16, 5);
	assert_string_equal((const char *)d + (loc & 0xffff), "bash");
	assert_int_equal(recs[0].len, (loc & 0xffff) + 5);
	uint64_t bv;
	memcpy(&bv, d + b->offset, 8);
	assert_int_equal(bv, 1301);

	/* The second: a name longer than the static string keeps 7 bytes. */
	d = recs[1].data;
	assert_int_equal(recs[1].ts, 3000);
	assert_string_equal((const char *)d + s->offset, "kworker");
	memcpy(&loc, d + dl->offset, 4);
	assert_string_equal((const char *)d + (loc & 0xffff), "kworker/u4:2");
	/* Each kept with the file's record that generated it, in order. */
	assert_ptr_not_equal(recs[0].cause, recs[1].cause);
	close_run(&x);
}

/* onmatch().trace() with 4-byte fields: one of the matching event
 * (SYS.EVENT.field, through a hidden histogram there) and one of this
 * event, into int and pid_t fields. */
static void test_field_of_matching_event(void **state)
{
	struct run x;
	const struct replay_event *s4;
	size_t n;

	open_run(&x);
	assert_int_equal(replay_synth(x.r, "s4 int prio; pid_t pid"), 0);
	assert_int_equal(replay_event(x.r, NULL, "s4", &s4), 0);
	assert_int_equal(replay_hist(x.r, "sched:sched_waking:keys=pid:ts0=common_timestamp"), 0);
	if (replay_hist(x.r, "synthetic:wakeup_lat:keys=pid:"
			     "onmatch(sched.sched_waking).trace(s4,sched.sched_waking.prio,pid)")) {
		fflush(x.errf);
		fail_msg("%s", x.err);
	}
	assert_int_equal(replay_run(x.r, true), 0);
	const struct replay_rec *recs = replay_records(x.r, &n);
	assert_int_equal(n, 1);
	int32_t prio, pid;
	memcpy(&prio, recs[0].data + field(s4, "prio")->offset, 4);
	memcpy(&pid, recs[0].data + field(s4, "pid")->offset, 4);
	assert_int_equal(prio, -3);
	assert_int_equal(pid, 1301);
	close_run(&x);
}

static void test_file_synthetic_event(void **state)
{
	struct run x;
	const struct replay_event *e;

	open_run(&x);
	/* The file's own synthetic event: found by name, not defined again. */
	assert_int_equal(replay_event(x.r, NULL, "wakeup_lat", &e), 0);
	assert_int_equal(e->id, KF_WAKEUP_LAT_ID);
	assert_int_equal(replay_synth(x.r, "wakeup_lat u64 lat"), -EEXIST);
	fflush(x.errf);
	assert_string_equal(x.err, "test: synthetic_events: error: Event already exists\n"
				   "  Command: wakeup_lat u64 lat\n"
				   "           ^\n");
	/* Its records take triggers like any event's. */
	assert_int_equal(replay_hist(x.r, "synthetic:wakeup_lat:keys=name:vals=lat:sort=lat"), 0);
	assert_int_equal(replay_run(x.r, false), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	assert_int_equal(replay_print_hists(x.r, o), 0);
	fclose(o);
	assert_string_equal(
	    out,
	    "# event histogram\n#\n"
	    "# trigger info: hist:keys=name:vals=hitcount,lat:sort=lat:size=2048 [active]\n"
	    "#\n\n"
	    "{ name: sshd                                               } hitcount:          1  "
	    "lat:          5\n"
	    "{ name: bash                                               } hitcount:          1  "
	    "lat:         48\n"
	    "\nTotals:\n    Hits: 2\n    Entries: 2\n    Dropped: 0\n");
	free(out);
	close_run(&x);
}

static void test_names(void **state)
{
	struct run x;
	const struct replay_event *e;

	open_run(&x);
	assert_int_equal(replay_event(x.r, NULL, "nosuch", &e), -ENOENT);
	assert_int_equal(replay_event(x.r, "sched", "wakeup_lat", &e), -ENOENT);
	assert_int_equal(replay_synth(x.r, "sched_switch u64 x"), 0);
	/* In two systems now: the name alone is ambiguous. */
	assert_int_equal(replay_event(x.r, NULL, "sched_switch", &e), -EEXIST);
	assert_int_equal(replay_event(x.r, "synthetic", "sched_switch", &e), 0);
	assert_int_equal(replay_event(x.r, "sched", "sched_switch", &e), 0);
	assert_int_equal(e->id, KF_SCHED_SWITCH_ID);
	/* A reference resolves to a trigger added before, not after. */
	assert_int_equal(replay_hist(x.r, "sched:sched_switch:keys=next_pid:d=$ts0"), -EINVAL);
	assert_int_equal(replay_hist(x.r, "sched:sched_waking:keys=pid:ts0=common_timestamp"), 0);
	assert_int_equal(replay_hist(x.r, "sched:sched_switch:keys=next_pid:d=$ts0"), 0);
	assert_int_equal(replay_nr_hists(x.r), 2);
	close_run(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_record_layout),
	    cmocka_unit_test(test_field_of_matching_event),
	    cmocka_unit_test(test_file_synthetic_event),
	    cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
