/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Synthetic events through synthetic_events and dynamic_events: definitions,
 * listings, formats byte for byte (and as libtraceevent reads them), the
 * kernel's errors, deletion rules, and records made by the emit call reaching
 * `trace` through each buffer's enable, filter and triggers. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event-parse.h>

#include "runtime/core/runtime.h"
#include "runtime/core/synth_live.h"
#include "runtime/tracefs/tracefs.h"
#include "tep_body.h"
#include "tfs_cmocka.h"
#include "tfs_helpers.h"
#include "util/atomics.h"
#include <uft/uft.h>

static char *error_log(void)
{
	return tfs_strip_stamps(rd("error_log"));
}

static void expect_error(const char *file, const char *cmd, int err, const char *log)
{
	assert_int_equal(tfs_echo("error_log", "", W), 0);
	assert_int_equal(tfs_echo(file, cmd, A), err);
	char *got = error_log();
	if (strcmp(got, log) != 0)
		fail_msg("%s <- '%s':\n--- got\n%s--- expected\n%s---", file, cmd, got, log);
	free(got);
}

static uint16_t id_of(const char *name)
{
	struct uft_event *ev = uft_find_event("synthetic", name);
	assert_non_null(ev);
	return uft_event_id(ev);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("synthetic_events", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	return 0;
}

static void test_define_list_delete(void **state)
{
	(void)state;
	check("synthetic_events", "");
	assert_int_equal(
	    tfs_echo("synthetic_events", "wakeup_latency u64 lat; pid_t pid; int prio", A), 0);
	assert_int_equal(
	    tfs_echo("dynamic_events", "s:synthetic/other char name[16]; char path[]", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "s:third unsigned int a", A), 0);
	check("synthetic_events", "wakeup_latency\tu64 lat; pid_t pid; int prio\n"
				  "other\tchar[16] name; char[] path\n"
				  "third\tunsigned int a\n");
	check("dynamic_events", "s:synthetic/wakeup_latency\tu64 lat; pid_t pid; int prio\n"
				"s:synthetic/other\tchar[16] name; char[] path\n"
				"s:synthetic/third\tunsigned int a\n");
	/* The events/ directories and available_events have them. */
	struct uft_tfs_stat st;
	assert_int_equal(uft_tracefs_stat("events/synthetic/other/format", &st), 0);
	char *av = rd("available_events");
	assert_non_null(strstr(av, "synthetic:wakeup_latency\n"));
	free(av);
	uint16_t old = id_of("third");

	/* Deletion in every form. */
	assert_int_equal(tfs_echo("synthetic_events", "!third", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:synthetic/other", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:other", A), -ENOENT);
	assert_int_equal(tfs_echo("synthetic_events", "!third", A), -ENOENT);
	assert_int_equal(tfs_echo("dynamic_events", "-:kprobes/wakeup_latency", A), -ENOENT);
	assert_int_equal(uft_tracefs_stat("events/synthetic/other", &st), -ENOENT);
	av = rd("available_events");
	assert_null(strstr(av, "synthetic:other\n"));
	free(av);
	/* A name defined again gets a new id. */
	assert_int_equal(tfs_echo("synthetic_events", "third u8 x", A), 0);
	assert_true(id_of("third") > old);
	assert_int_equal(tfs_echo("dynamic_events", "-:third", A), 0);
	check("synthetic_events", "wakeup_latency\tu64 lat; pid_t pid; int prio\n");

	/* Several lines in one write, a comment, blank lines. */
	assert_int_equal(tfs_echo("synthetic_events", "a1 u64 x # comment\n\n  a2 s8 y", A), 0);
	check("synthetic_events", "wakeup_latency\tu64 lat; pid_t pid; int prio\n"
				  "a1\tu64 x\n"
				  "a2\ts8 y\n");
	/* O_TRUNC deletes all; top only. */
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	check("synthetic_events", "");
	assert_int_equal(uft_tracefs_mkdir("instances/si"), 0);
	assert_int_equal(uft_tracefs_stat("instances/si/synthetic_events", &st), -ENOENT);
	assert_int_equal(uft_tracefs_rmdir("instances/si"), 0);
	/* Probe lines go to the probes (test_tracefs_probe.c): no such function. */
	assert_int_equal(tfs_echo("dynamic_events", "p:kprobes/myprobe do_sys_open", A), -ENOENT);
	assert_int_equal(tfs_echo("dynamic_events", "x", A), -EINVAL);
}

static const char all_format[] =
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:s64 a;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield:u64 b;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:s32 c;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:u32 d;\toffset:32;\tsize:4;\tsigned:0;\n"
    "\tfield:s16 e;\toffset:40;\tsize:2;\tsigned:1;\n"
    "\tfield:u16 f;\toffset:48;\tsize:2;\tsigned:0;\n"
    "\tfield:s8 g;\toffset:56;\tsize:1;\tsigned:1;\n"
    "\tfield:u8 h;\toffset:64;\tsize:1;\tsigned:0;\n"
    "\tfield:char i;\toffset:72;\tsize:1;\tsigned:1;\n"
    "\tfield:unsigned char j;\toffset:80;\tsize:1;\tsigned:0;\n"
    "\tfield:int k;\toffset:88;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int l;\toffset:96;\tsize:4;\tsigned:0;\n"
    "\tfield:long m;\toffset:104;\tsize:8;\tsigned:1;\n"
    "\tfield:unsigned long n;\toffset:112;\tsize:8;\tsigned:0;\n"
    "\tfield:bool o;\toffset:120;\tsize:1;\tsigned:1;\n"
    "\tfield:pid_t p;\toffset:128;\tsize:4;\tsigned:1;\n"
    "\tfield:gfp_t q;\toffset:136;\tsize:4;\tsigned:0;\n"
    "\tfield:char r[16];\toffset:144;\tsize:16;\tsigned:1;\n"
    "\tfield:__data_loc char[] s;\toffset:400;\tsize:8;\tsigned:1;\n"
    "\tfield:u64 t;\toffset:408;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"a=%lld b=%llu c=%d d=%u e=%d f=%u g=%d h=%u i=%d j=%u k=%d l=%u m=%ld n=%lu "
    "o=%d p=%d q=%x r=%s s=%s t=%llu\", REC->a, REC->b, REC->c, REC->d, REC->e, REC->f, "
    "REC->g, REC->h, REC->i, REC->j, REC->k, REC->l, REC->m, REC->n, REC->o, REC->p, REC->q, "
    "REC->r, __get_str(s), REC->t\n";

static const char all_def[] = "alltypes s64 a; u64 b; s32 c; u32 d; s16 e; u16 f; s8 g; u8 h; "
			      "char i; unsigned char j; int k; unsigned int l; long m; "
			      "unsigned long n; bool o; pid_t p; gfp_t q; char r[16]; char s[]; "
			      "u64 t";

static void test_types_and_format(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("synthetic_events", all_def, A), 0);
	char want[4096];
	snprintf(want, sizeof(want), "name: alltypes\nID: %u\n%s", id_of("alltypes"), all_format);
	check("events/synthetic/alltypes/format", want);
	check("synthetic_events",
	      "alltypes\ts64 a; u64 b; s32 c; u32 d; s16 e; u16 f; s8 g; u8 h; char i; "
	      "unsigned char j; int k; unsigned int l; long m; unsigned long n; bool o; "
	      "pid_t p; gfp_t q; char[16] r; char[] s; u64 t\n");

	/* The spec's example, byte for byte, and libtraceevent takes both. */
	assert_int_equal(
	    tfs_echo("synthetic_events", "wakeup_latency u64 lat; pid_t pid; int prio", A), 0);
	snprintf(want, sizeof(want),
		 "name: wakeup_latency\nID: %u\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:u64 lat;\toffset:8;\tsize:8;\tsigned:0;\n"
		 "\tfield:pid_t pid;\toffset:16;\tsize:4;\tsigned:1;\n"
		 "\tfield:int prio;\toffset:24;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "print fmt: \"lat=%%llu pid=%%d prio=%%d\", REC->lat, REC->pid, REC->prio\n",
		 id_of("wakeup_latency"));
	check("events/synthetic/wakeup_latency/format", want);

	const char *names[] = {"alltypes", "wakeup_latency"};
	for (int i = 0; i < 2; i++) {
		char path[128];
		snprintf(path, sizeof(path), "events/synthetic/%s/format", names[i]);
		char *text = rd(path);
		struct tep_handle *tep = tep_alloc();
		tep_set_long_size(tep, 8);
		assert_int_equal(tep_parse_event(tep, text, strlen(text), "synthetic"), 0);
		struct tep_event *ev = tep_find_event_by_name(tep, "synthetic", names[i]);
		assert_non_null(ev);
		if (i == 0) {
			struct tep_format_field *f = tep_find_field(ev, "s");
			assert_non_null(f);
			assert_true(f->flags & TEP_FIELD_IS_DYNAMIC);
			f = tep_find_field(ev, "r");
			assert_true(f->flags & TEP_FIELD_IS_ARRAY);
			assert_int_equal(f->offset, 144);
		}
		tep_free(tep);
		free(text);
	}
	/* "unsigned" goes with char, int and long only. */
	assert_int_equal(tfs_echo("synthetic_events", "u1 unsigned u64 x", A), -EINVAL);
	assert_int_equal(tfs_echo("synthetic_events", "u2 char x[256]; char y[0x10]", A), -EINVAL);
	assert_int_equal(tfs_echo("synthetic_events", "u3 char x[256]", A), 0);
	/* Without semicolons, pair after pair. */
	assert_int_equal(tfs_echo("synthetic_events", "u4 u64 a u32 b unsigned long c", A), 0);
	check("synthetic_events", "alltypes\ts64 a; u64 b; s32 c; u32 d; s16 e; u16 f; s8 g; "
				  "u8 h; char i; unsigned char j; int k; unsigned int l; "
				  "long m; unsigned long n; bool o; pid_t p; gfp_t q; "
				  "char[16] r; char[] s; u64 t\n"
				  "wakeup_latency\tu64 lat; pid_t pid; int prio\n"
				  "u3\tchar[256] x\n"
				  "u4\tu64 a; u32 b; unsigned long c\n");
	/* Stack fields: a __data_loc of longs (filled in test_tracefs_hist). */
	assert_int_equal(tfs_echo("synthetic_events", "st long[] stack", A), 0);
	char *f = rd("events/synthetic/st/format");
	assert_non_null(strstr(f,
			       "\tfield:__data_loc long[] stack;\toffset:8;\tsize:8;\tsigned:1;\n"
			       "\n"
			       "print fmt: \"stack=%s\", __get_stacktrace(stack)\n"));
	free(f);
	assert_int_equal(tfs_echo("synthetic_events", "!st", A), 0);
}

#define LOG(msg, cmd, caret) "synthetic_events: error: " msg "\n  Command: " cmd "\n" caret "^\n"
#define SP11 "           "

static void test_errors(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("synthetic_events", "ev u64 a", A), 0);
	const char *form = "Command must be of the form: <name> field[;field] ...";
	char want[512];
	snprintf(want, sizeof(want), "synthetic_events: error: %s\n  Command: ev2 u64\n" SP11 "^\n",
		 form);
	expect_error("synthetic_events", "ev2 u64", -EINVAL, want);
	expect_error("synthetic_events", "ev u64 b", -EEXIST,
		     LOG("Event already exists", "ev u64 b", SP11));
	expect_error("synthetic_events", "9ev u64 b", -EINVAL,
		     LOG("Illegal name", "9ev u64 b", SP11));
	expect_error("synthetic_events", "ev3 u64 b; x-y z", -EINVAL,
		     LOG("Invalid type", "ev3 u64 b; x-y z", SP11 "           "));
	expect_error("synthetic_events", "ev3 u64 b; u32 1z", -EINVAL,
		     LOG("Illegal name", "ev3 u64 b; u32 1z", SP11 "               "));
	expect_error("synthetic_events", "ev3 u64 b; unsigned int", -EINVAL,
		     LOG("Incomplete type", "ev3 u64 b; unsigned int", SP11 "           "));
	expect_error("synthetic_events", "ev3 u64 b; u32", -EINVAL,
		     LOG("Invalid field", "ev3 u64 b; u32", SP11 "           "));
	expect_error(
	    "synthetic_events", "ev3 u64 b; char s[300]", -EINVAL,
	    LOG("Invalid array specification", "ev3 u64 b; char s[300]", SP11 "                "));
	expect_error("synthetic_events", "ev3 u64 b; int s[4]", -EINVAL,
		     LOG("Invalid type", "ev3 u64 b; int s[4]", SP11 "           "));
	/* The 64th field. */
	char big[1024] = "many";
	for (int i = 0; i < 64; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), " u8 f%d;", i);
	assert_int_equal(tfs_echo("error_log", "", W), 0);
	assert_int_equal(tfs_echo("synthetic_events", big, A), -EINVAL);
	char *log = error_log();
	assert_non_null(strstr(log, "synthetic_events: error: Too many fields\n"));
	free(log);
	/* dynamic_events: the whole line is the command. */
	snprintf(want, sizeof(want),
		 "synthetic_events: error: Command must be of the form: s or -:[synthetic/]<name> "
		 "field[;field] ...\n  Command: s:kprobes/x u64 a\n" SP11 "^\n");
	expect_error("dynamic_events", "s:kprobes/x u64 a", -EINVAL, want);
	expect_error("dynamic_events", "s:synthetic/ev u64 a", -EEXIST,
		     LOG("Event already exists", "s:synthetic/ev u64 a", SP11 "            "));
	expect_error("dynamic_events", "  s:9x u64 a", -EINVAL,
		     LOG("Illegal name", "s:9x u64 a", SP11 "  "));
	snprintf(want, sizeof(want), "synthetic_events: error: %s\n  Command: s:\n" SP11 "^\n",
		 form);
	expect_error("dynamic_events", "s:", -EINVAL, want);
	snprintf(want, sizeof(want), "synthetic_events: error: %s\n  Command: s:ev4\n" SP11 "^\n",
		 form);
	expect_error("dynamic_events", "s:ev4", -EINVAL, want);
	/* Refusals the kernel writes no line for: deleting what is not there,
	 * a malformed deletion, a kind of dynamic event uft has not. */
	expect_error("synthetic_events", "!nosuch", -ENOENT, "");
	expect_error("dynamic_events", "-:nosuch", -ENOENT, "");
	expect_error("dynamic_events", "-:synthetic/nosuch", -ENOENT, "");
	expect_error("dynamic_events", "-:other/ev", -ENOENT, "");
	expect_error("dynamic_events", "!ev", -EINVAL, "");
	expect_error("dynamic_events", "-ev", -EINVAL, "");
	expect_error("dynamic_events", "p:kprobes/myprobe do_sys_open", -ENOENT,
		     "trace_kprobe: error: Invalid probed address or symbol\n"
		     "  Command: p:kprobes/myprobe do_sys_open\n" SP11 "                  ^\n");
	/* Eprobes go to the probes: no such event here. */
	expect_error("dynamic_events", "e:myeprobe tfsev.num", -EINVAL,
		     "event_probe: error: Attached event does not exist\n"
		     "  Command: e:myeprobe tfsev.num\n" SP11 "           ^\n");
	/* Nothing changed by the refused lines; a failing line stops the write. */
	check("synthetic_events", "ev\tu64 a\n");
	assert_int_equal(tfs_echo("synthetic_events", "ok1 u8 a\nbad\nok2 u8 b", A), -EINVAL);
	check("synthetic_events", "ev\tu64 a\nok1\tu8 a\n");
}

/* The format record the shared region holds for an id (uft record copies
 * these into trace.dat), NUL terminated, or NULL. */
static char *region_format(uint16_t id)
{
	const struct uft_shm_header *h = uft_sess.hdr;
	assert_non_null(h);
	const char *base = (const char *)h + h->formats_off;
	uint64_t len = uft_load_seq_cst(&h->formats_len);
	for (uint64_t off = 0; off < len;) {
		const struct uft_format_rec *r = (const void *)(base + off);
		if (r->id == id && strcmp(r->system, "synthetic") == 0)
			return strndup(r->text, r->len);
		off += (sizeof(*r) + r->len + 7) & ~(uint64_t)7;
	}
	return NULL;
}

static void test_emit_enable_filter(void **state)
{
	(void)state;
	assert_int_equal(
	    tfs_echo("synthetic_events", "wakeup_latency u64 lat; pid_t pid; int prio", A), 0);
	assert_int_equal(tfs_echo("synthetic_events", "strs char name[8]; char path[]; s8 v", A),
			 0);
	struct uft_synth *wl = uft_synth_find("wakeup_latency"), *st = uft_synth_find("strs");
	assert_non_null(wl);
	assert_non_null(st);
	uint64_t v[3] = {17, 2255, 9};
	/* Not enabled: nothing. */
	assert_int_equal(uft_synth_emit(0, wl, v, NULL), 0);
	assert_int_equal(tfs_echo("events/synthetic/enable", "1", W), 0);
	assert_int_equal(uft_synth_emit(0, wl, v, NULL), 1);
	char *rf = region_format(id_of("wakeup_latency"));
	char *ff = rd("events/synthetic/wakeup_latency/format");
	assert_non_null(rf);
	assert_string_equal(rf, ff);
	free(rf);
	free(ff);
	/* The kernel prints a small number from its slot unsigned: s8 -3 is 253. */
	const char *s[3] = {"abcdefghij", "/usr/bin/env", NULL};
	uint64_t sv[3] = {0, 0, (uint64_t)-3};
	assert_int_equal(uft_synth_emit(0, st, sv, s), 1);
	char *t = rd("trace");
	assert_non_null(strstr(t, " wakeup_latency: lat=17 pid=2255 prio=9\n"));
	if (!strstr(t, " strs: name=abcdefg path=/usr/bin/env v=253\n"))
		fail_msg("%s", t);
	free(t);

	/* Filter on the synthetic event's fields. */
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(tfs_echo("events/synthetic/wakeup_latency/filter", "lat > 100", W), 0);
	assert_int_equal(tfs_echo("events/synthetic/strs/filter", "path ~ \"*env\"", W), 0);
	for (uint64_t lat = 50; lat <= 200; lat += 50) {
		v[0] = lat;
		uft_synth_emit(0, wl, v, NULL);
	}
	uft_synth_emit(0, st, sv, s);
	s[1] = "/bin/sh";
	uft_synth_emit(0, st, sv, s);
	t = rd("trace");
	assert_int_equal(tfs_count(t, "wakeup_latency: "), 2);
	assert_non_null(strstr(t, "lat=150 "));
	assert_non_null(strstr(t, "lat=200 "));
	assert_int_equal(tfs_count(t, "strs: "), 1);
	free(t);

	/* Busy while enabled or with triggers. */
	assert_int_equal(tfs_echo("synthetic_events", "!wakeup_latency", A), -EBUSY);
	assert_int_equal(tfs_echo("synthetic_events", "", W), -EBUSY);
	assert_int_equal(tfs_echo("events/synthetic/enable", "0", W), 0);
	assert_int_equal(tfs_echo("events/synthetic/wakeup_latency/trigger", "hist:keys=pid", W),
			 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:wakeup_latency", A), -EBUSY);
	/* A hist trigger counts records in soft mode, which do not reach the buffer. */
	assert_int_equal(tfs_echo("trace", "", W), 0);
	v[0] = 1;
	uft_synth_emit(0, wl, v, NULL);
	char *h = rd("events/synthetic/wakeup_latency/hist");
	assert_non_null(strstr(h, "{ pid:       2255 } hitcount:          1\n"));
	free(h);
	t = rd("trace");
	assert_int_equal(tfs_count(t, "wakeup_latency: "), 0);
	free(t);
	assert_int_equal(tfs_echo("events/synthetic/wakeup_latency/trigger", "!hist:keys=pid", A),
			 0);
	/* A referenced event is busy too. */
	uft_synth_get(wl);
	assert_int_equal(tfs_echo("synthetic_events", "!wakeup_latency", A), -EBUSY);
	uft_synth_put(wl);
	uint16_t old_id = id_of("wakeup_latency");
	assert_int_equal(tfs_echo("synthetic_events", "!wakeup_latency", A), 0);
	assert_null(uft_synth_find("wakeup_latency"));
	/* Defined again the same, it takes its id back (its records mean the
	 * same); with another format, a new one. */
	assert_int_equal(
	    tfs_echo("synthetic_events", "wakeup_latency u64 lat; pid_t pid; int prio", A), 0);
	assert_int_equal(id_of("wakeup_latency"), old_id);
	assert_int_equal(tfs_echo("synthetic_events", "!wakeup_latency", A), 0);
	assert_int_equal(tfs_echo("synthetic_events", "wakeup_latency u64 lat; pid_t pid", A), 0);
	assert_int_not_equal(id_of("wakeup_latency"), old_id);
	assert_int_equal(tfs_echo("synthetic_events", "", W), 0);
}

/* libtraceevent reads the records the emit builds as the format says. */
static void test_record_as_libtraceevent_reads(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("synthetic_events", all_def, A), 0);
	struct uft_synth *s = uft_synth_find("alltypes");
	uint64_t v[20] = {(uint64_t)-5,
			  6,
			  (uint64_t)-7,
			  8,
			  (uint64_t)-9,
			  10,
			  (uint64_t)-11,
			  12,
			  13,
			  14,
			  (uint64_t)-15,
			  16,
			  (uint64_t)-17,
			  18,
			  1,
			  20,
			  0x21,
			  0,
			  0,
			  22};
	const char *strs[20] = {[17] = "a static string longer than 16", [18] = "dyn"};
	uint32_t len = uft_synth_size(s, v, strs);
	assert_int_equal(len, 416 + 4);
	char rec[1024];
	memset(rec, 0x5a, sizeof(rec));
	memset(rec, 0, 8);
	rec[0] = (char)200; /* the id tep_body() gives the format */
	uft_synth_fill(s, v, strs, rec, len);
	char out[1024];
	tep_body(s->ev.print_fmt, s->fields, s->def.nr, (const uint8_t *)rec, len, out,
		 sizeof(out));
	/* 1- and 2-byte signed values print unsigned, as the kernel's printer. */
	assert_string_equal(out, "a=-5 b=6 c=-7 d=8 e=65527 f=10 g=245 h=12 i=13 j=14 k=-15 l=16 "
				 "m=-17 n=18 o=1 p=20 q=21 r=a static string s=dyn t=22");
	/* The dynamic string's __data_loc: offset after the slots, length with
	 * the NUL; the slot's high half is zero. */
	uint64_t loc;
	memcpy(&loc, rec + 400, 8);
	assert_int_equal(loc, 416u | 4u << 16);

	/* trace prints the emitted record as libtraceevent does. */
	assert_int_equal(tfs_echo("events/synthetic/alltypes/enable", "1", W), 0);
	assert_int_equal(uft_synth_emit(0, s, v, strs), 1);
	char line[1200];
	snprintf(line, sizeof(line), " alltypes: %s\n", out);
	char *t = rd("trace");
	if (!strstr(t, line))
		fail_msg("no '%s' in\n%s", line, t);
	free(t);
	assert_int_equal(tfs_echo("events/synthetic/alltypes/enable", "0", W), 0);
}

static void test_instances(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("synthetic_events", "inst_ev u32 n", A), 0);
	struct uft_synth *ev = uft_synth_find("inst_ev");
	assert_int_equal(uft_tracefs_mkdir("instances/sy"), 0);
	assert_int_equal(tfs_echo("instances/sy/events/synthetic/inst_ev/enable", "1", W), 0);
	uint64_t v = 7;
	assert_int_equal(uft_synth_emit(0, ev, &v, NULL), 0);
	/* The instance's buffer index comes from its files: enable there only. */
	int emitted = 0;
	for (uint32_t b = 1; b < 32; b++)
		emitted += uft_synth_emit(b, ev, &v, NULL);
	assert_int_equal(emitted, 1);
	char *t = rd("instances/sy/trace");
	assert_int_equal(tfs_count(t, "inst_ev: n=7\n"), 1);
	free(t);
	t = rd("trace");
	assert_int_equal(tfs_count(t, "inst_ev: "), 0);
	free(t);
	assert_int_equal(tfs_echo("synthetic_events", "!inst_ev", A), -EBUSY);
	assert_int_equal(uft_tracefs_rmdir("instances/sy"), 0);
	assert_int_equal(tfs_echo("synthetic_events", "!inst_ev", A), 0);
}

/* Functions whose addresses the .function filter below compares. */
__attribute__((noinline, used)) static int fn_target(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, used)) static int fn_other(int x)
{
	return x * 5 + 2;
}

/* FIELD.function == NAME: the process's symbol (static ones from the
 * .symtab) stands for its whole function, as kallsyms in the kernel. */
static void test_function_filter(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("synthetic_events", "fn_ev unsigned long call_site", A), 0);
	struct uft_synth *fe = uft_synth_find("fn_ev");
	assert_non_null(fe);
	assert_int_equal(tfs_echo("events/synthetic/fn_ev/enable", "1", W), 0);
	assert_int_equal(
	    tfs_echo("events/synthetic/fn_ev/filter", "call_site.function == fn_target", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	uint64_t in = (uintptr_t)&fn_target + 1, out = (uintptr_t)&fn_other + 1;
	uft_synth_emit(0, fe, &in, NULL);
	uft_synth_emit(0, fe, &out, NULL);
	char *t = rd("trace");
	assert_int_equal(tfs_count(t, " fn_ev: "), 1);
	free(t);
	/* An address stands for its function too; an unknown name is refused. */
	char expr[64];
	snprintf(expr, sizeof(expr), "call_site.function != 0x%" PRIx64, out);
	assert_int_equal(tfs_echo("events/synthetic/fn_ev/filter", expr, W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	uint64_t start = (uintptr_t)&fn_other;
	uft_synth_emit(0, fe, &start, NULL);
	uft_synth_emit(0, fe, &in, NULL);
	t = rd("trace");
	assert_int_equal(tfs_count(t, " fn_ev: "), 1);
	free(t);
	expect_error("events/synthetic/fn_ev/filter", "call_site.function == no_such_fn_xyz",
		     -EINVAL,
		     "event filter parse error: error: Function not found\n"
		     "  Command: call_site.function == no_such_fn_xyz\n"
		     "                                                ^\n");
	assert_int_equal(tfs_echo("events/synthetic/fn_ev/filter", "0", W), 0);
	assert_int_equal(tfs_echo("events/synthetic/fn_ev/enable", "0", W), 0);
	assert_int_equal(fn_target(1) + fn_other(1), 11);
	assert_int_equal(tfs_echo("synthetic_events", "!fn_ev", A), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_define_list_delete, setup),
	    cmocka_unit_test_setup(test_types_and_format, setup),
	    cmocka_unit_test_setup(test_errors, setup),
	    cmocka_unit_test_setup(test_emit_enable_filter, setup),
	    cmocka_unit_test_setup(test_record_as_libtraceevent_reads, setup),
	    cmocka_unit_test_setup(test_instances, setup),
	    cmocka_unit_test_setup(test_function_filter, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
