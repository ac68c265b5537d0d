/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqlhist (src/engine/sqlhist/sqlhist_*.c): the exact commands for the spec's
 * examples over kernel formats (the read_lat JOIN, kmalloc histograms), CAST
 * forms, WHERE re-serialisation, the onmax/onchange actions, and errors with
 * their messages and positions. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/format/format_parse.h"
#include "engine/sqlhist/sqlhist.h"
#include "syscall_formats.h"

static const struct {
	const char *system;
	const char *text;
} formats[] = {
    {"sched", kf_sched_switch}, {"sched", kf_sched_waking},	 {"raw_syscalls", kf_sys_enter},
    {"kmem", kf_kmalloc},	{"syscalls", kf_sys_enter_read}, {"syscalls", kf_sys_exit_read},
    {"other", kf_sched_waking}, /* a name in two systems */
};
#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))

static struct uft_format_parsed parsed[NR_FORMATS];
static struct uft_sql_event events[NR_FORMATS];

static int setup(void **state)
{
	for (size_t i = 0; i < NR_FORMATS; i++) {
		if (uft_format_parse(formats[i].text, strlen(formats[i].text), &parsed[i]))
			return -1;
		events[i] = (struct uft_sql_event){formats[i].system, parsed[i].name,
						   parsed[i].fields, parsed[i].nr_fields};
	}
	return 0;
}

static int teardown(void **state)
{
	for (size_t i = 0; i < NR_FORMATS; i++)
		uft_format_parsed_free(&parsed[i]);
	return 0;
}

static int lookup(void *ctx, const char *system, const char *event, const struct uft_sql_event **ev)
{
	int n = 0;

	for (size_t i = 0; i < NR_FORMATS; i++)
		if ((!system || !strcmp(system, events[i].system)) &&
		    !strcmp(event, events[i].name)) {
			*ev = &events[i];
			n++;
		}
	return n == 1 ? 0 : n ? -EEXIST : -ENOENT;
}

/* Translates sql; returns the commands as "file|text\n" lines, or the
 * error as "ERR pos: msg". */
static char *run(const char *sql, const struct uft_sql_opts *o)
{
	struct uft_sql_error err = {0};
	struct uft_sql_out out;
	struct uft_sql *q;
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	int rc = uft_sql_parse(sql, &q, &err);

	if (!rc) {
		rc = uft_sql_translate(q, o, lookup, NULL, &out, &err);
		uft_sql_free(q);
	}
	if (rc) {
		assert_int_equal(rc, -EINVAL);
		fprintf(m, "ERR %d: %s", err.pos, err.msg);
	} else {
		for (int i = 0; i < out.nr; i++)
			fprintf(m, "%s|%s\n", out.cmd[i].file, out.cmd[i].text);
		uft_sql_out_free(&out);
	}
	fclose(m);
	return s;
}

#define EXPECT(sql, opts, want)                                                                    \
	do {                                                                                       \
		char *got_ = run(sql, opts);                                                       \
		assert_string_equal(got_, want);                                                   \
		free(got_);                                                                        \
	} while (0)

static void test_read_lat(void **state)
{
	struct uft_sql_opts o = {.name = "read_lat", .rand = 21065};
	EXPECT(
	    "select start.common_pid as pid, (end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) as "
	    "lat\n  from sys_enter_read as start join sys_exit_read as end on start.common_pid = "
	    "end.common_pid\n  where start.fd == 3",
	    &o,
	    "dynamic_events|s:read_lat s32 pid; u64 lat;\n"
	    "events/syscalls/sys_enter_read/trigger|hist:keys=common_pid:__arg_21065_1=common_"
	    "pid,__arg_21065_2=common_timestamp.usecs if fd == 3\n"
	    "events/syscalls/sys_exit_read/trigger|hist:keys=common_pid:__pid_21065_3=$__arg_"
	    "21065_1,__lat_21065_4=common_timestamp.usecs-$__arg_21065_2:onmatch(syscalls.sys_"
	    "enter_read).trace(read_lat,$__pid_21065_3,$__lat_21065_4)\n");
	/* Default name, system-qualified events, the rand masked to 15 bits. */
	o = (struct uft_sql_opts){.rand = 32768 + 5};
	EXPECT(
	    "SELECT end.ret FROM syscalls.sys_enter_read AS start JOIN syscalls.sys_exit_read AS "
	    "end ON start.common_pid = end.common_pid",
	    &o,
	    "dynamic_events|s:Anonymous s64 ret;\n"
	    "events/syscalls/sys_enter_read/trigger|hist:keys=common_pid\n"
	    "events/syscalls/sys_exit_read/trigger|hist:keys=common_pid:__ret_5_1=ret:onmatch("
	    "syscalls.sys_enter_read).trace(Anonymous,$__ret_5_1)\n");
}

static void test_kmalloc(void **state)
{
	EXPECT("SELECT CAST(call_site as SYM-OFFSET), bytes_req, CAST(bytes_alloc AS _COUNTER_) "
	       "FROM kmalloc",
	       NULL,
	       "events/kmem/kmalloc/trigger|hist:keys=call_site.sym-offset,bytes_req:vals=bytes_"
	       "alloc\n");
	EXPECT("select common_pid, cast(bytes_req as __counter__), cast(bytes_alloc as _COUNTER_) "
	       "from kmem.kmalloc k where k.bytes_req > 100",
	       NULL,
	       "events/kmem/kmalloc/trigger|hist:keys=common_pid:vals=bytes_req,bytes_alloc if "
	       "bytes_req > 100\n");
}

static void test_casts(void **state)
{
	EXPECT("SELECT CAST(ptr AS HEX), CAST(call_site AS SYM), CAST(common_pid AS EXECNAME) FROM "
	       "kmalloc",
	       NULL,
	       "events/kmem/kmalloc/trigger|hist:keys=ptr.hex,call_site.sym,common_pid.execname\n");
	EXPECT(
	    "SELECT CAST(common_pid AS comm), CAST(bytes_req AS log), CAST(node AS LOG2) FROM "
	    "kmalloc",
	    NULL,
	    "events/kmem/kmalloc/trigger|hist:keys=common_pid.execname,bytes_req.log2,node.log2\n");
	EXPECT("SELECT CAST(id AS SYSCALL), CPU, STACKTRACE FROM sys_enter", NULL,
	       "events/raw_syscalls/sys_enter/trigger|hist:keys=id.syscall,common_cpu,common_"
	       "stacktrace\n");
	EXPECT(
	    "SELECT next_comm, COMM, TIMESTAMP_USECS FROM sched_switch", NULL,
	    "events/sched/sched_switch/trigger|hist:keys=next_comm,COMM,common_timestamp.usecs\n");
	/* A keyword as a field name through a backslash. */
	EXPECT("SELECT \\from FROM kmalloc", NULL, "ERR 7: kmem.kmalloc has no field 'from'");
}

static void test_where(void **state)
{
	EXPECT("SELECT node FROM kmalloc WHERE bytes_req>100&&(node=0||node!=1), !(gfp_flags&0x10)",
	       NULL,
	       "events/kmem/kmalloc/trigger|hist:keys=node if bytes_req > 100&&(node == 0||node != "
	       "1)&&!(gfp_flags & 0x10)\n");
	EXPECT("SELECT node FROM kmalloc WHERE node < 1 || node >= 3, bytes_req <= -1", NULL,
	       "events/kmem/kmalloc/trigger|hist:keys=node if (node < 1||node >= 3)&&bytes_req <= "
	       "-1\n");
	EXPECT("SELECT prev_pid FROM sched_switch WHERE next_comm ~ \"bash*\" && COMM != \"x\" && "
	       "CPU == 2",
	       NULL,
	       "events/sched/sched_switch/trigger|hist:keys=prev_pid if next_comm ~ "
	       "\"bash*\"&&COMM != \"x\"&&CPU == 2\n");
	/* Terms split between the events of a JOIN. */
	struct uft_sql_opts o = {.name = "w", .rand = 9};
	EXPECT(
	    "SELECT end.next_pid AS pid FROM sched.sched_waking AS start JOIN sched_switch AS end "
	    "ON "
	    "start.pid = end.next_pid WHERE start.prio < 100 && end.prev_state == 2, "
	    "(start.comm == \"a\" || start.comm == \"b\")",
	    &o,
	    "dynamic_events|s:w pid_t pid;\n"
	    "events/sched/sched_waking/trigger|hist:keys=pid if prio < 100&&(comm == \"a\"||comm "
	    "== \"b\")\n"
	    "events/sched/sched_switch/trigger|hist:keys=next_pid:__pid_9_1=next_pid:onmatch("
	    "sched.sched_waking).trace(w,$__pid_9_1) if prev_state == 2\n");
}

static void test_wakeup_onmax(void **state)
{
	const char *sql = "SELECT end.next_comm AS comm, (end.TIMESTAMP_USECS - "
			  "start.TIMESTAMP_USECS) AS lat FROM sched.sched_waking AS start JOIN "
			  "sched_switch AS end ON start.pid = end.next_pid WHERE end.next_prio < "
			  "100 && end.next_comm == \"cyclictest\"";
	struct uft_sql_opts o = {
	    .name = "wakeup_lat", .rand = 7, .onmax = "lat", .trace_snapshot = true};
	EXPECT(sql, &o,
	       "dynamic_events|s:wakeup_lat char comm[16]; u64 lat;\n"
	       "events/sched/sched_waking/trigger|hist:keys=pid:__arg_7_1=common_timestamp.usecs\n"
	       "events/sched/sched_switch/trigger|hist:keys=next_pid:__comm_7_2=next_comm,__lat_7_"
	       "3=common_timestamp.usecs-$__arg_7_1:onmax($__lat_7_3).trace(wakeup_lat,$__comm_7_2,"
	       "$__lat_7_3):onmax($__lat_7_3).snapshot() if next_prio < 100&&next_comm == "
	       "\"cyclictest\"\n");
	o = (struct uft_sql_opts){.name = "wl",
				  .rand = 7,
				  .onchange = "lat",
				  .save = "prev_pid,"
					  "next_prio"};
	EXPECT(sql, &o,
	       "dynamic_events|s:wl char comm[16]; u64 lat;\n"
	       "events/sched/sched_waking/trigger|hist:keys=pid:__arg_7_1=common_timestamp.usecs\n"
	       "events/sched/sched_switch/trigger|hist:keys=next_pid:__comm_7_2=next_comm,__lat_7_"
	       "3=common_timestamp.usecs-$__arg_7_1:onchange($__lat_7_3).save(prev_pid,next_prio) "
	       "if next_prio < 100&&next_comm == \"cyclictest\"\n");
	o = (struct uft_sql_opts){.rand = 7, .onmax = "lat", .snapshot = true};
	EXPECT(sql, &o,
	       "dynamic_events|s:Anonymous char comm[16]; u64 lat;\n"
	       "events/sched/sched_waking/trigger|hist:keys=pid:__arg_7_1=common_timestamp.usecs\n"
	       "events/sched/sched_switch/trigger|hist:keys=next_pid:__comm_7_2=next_comm,__lat_7_"
	       "3=common_timestamp.usecs-$__arg_7_1:onmax($__lat_7_3).snapshot() if next_prio < "
	       "100&&next_comm == \"cyclictest\"\n");
}

static void test_join_forms(void **state)
{
	/* The same event at both ends, told apart by aliases; TIMESTAMP_DELTA. */
	struct uft_sql_opts o = {.name = "blocked", .rand = 3};
	EXPECT(
	    "SELECT end.next_pid AS pid, end.next_comm, TIMESTAMP_DELTA_USECS AS lat, "
	    "start.prev_prio, start.prev_state + end.next_prio AS x, start.prev_prio AS p2 "
	    "FROM sched_switch AS start JOIN sched_switch AS end ON start.prev_pid = "
	    "end.next_pid, start.CPU = end.CPU WHERE start.prev_state = 2",
	    &o,
	    "dynamic_events|s:blocked pid_t pid; char next_comm[16]; u64 lat; s32 prev_prio; "
	    "s64 x; s32 p2;\n"
	    "events/sched/sched_switch/trigger|hist:keys=prev_pid,common_cpu:__arg_3_1=common_"
	    "timestamp.usecs,__arg_3_2=prev_prio,__arg_3_3=prev_state if prev_state == 2\n"
	    "events/sched/sched_switch/trigger|hist:keys=next_pid,common_cpu:__pid_3_4=next_pid,"
	    "__next_comm_3_5=next_comm,__lat_3_6=common_timestamp.usecs-$__arg_3_1,__prev_prio_"
	    "3_7=$__arg_3_2,__x_3_8=$__arg_3_3+next_prio,__p2_3_9=$__arg_3_2:onmatch(sched.sched_"
	    "switch).trace(blocked,$__pid_3_4,$__next_comm_3_5,$__lat_3_6,$__prev_prio_3_7,$__x_"
	    "3_8,$__p2_3_9)\n");
	/* Types: size_t, pointers, the kept pid_t, TIMESTAMP in ns; ON reversed. */
	o = (struct uft_sql_opts){.name = "t", .rand = 1};
	EXPECT("SELECT s.bytes_req, s.ptr, (e.TIMESTAMP - s.TIMESTAMP) AS d FROM kmalloc s JOIN "
	       "sched_switch e ON e.next_pid = s.common_pid",
	       &o,
	       "dynamic_events|s:t u64 bytes_req; u64 ptr; u64 d;\n"
	       "events/kmem/kmalloc/trigger|hist:keys=common_pid:__arg_1_1=bytes_req,__arg_1_2=ptr,"
	       "__arg_1_3=common_timestamp\n"
	       "events/sched/sched_switch/trigger|hist:keys=next_pid:__bytes_req_1_4=$__arg_1_1,__"
	       "ptr_1_5=$__arg_1_2,__d_1_6=common_timestamp-$__arg_1_3:onmatch(kmem.kmalloc).trace("
	       "t,$__bytes_req_1_4,$__ptr_1_5,$__d_1_6)\n");
}

static void test_errors(void **state)
{
	struct uft_sql_opts join = {.rand = 1};
	EXPECT("SELECT x", NULL, "ERR 8: expected ',' or FROM, found 'the end'");
	EXPECT("SELEC x FROM kmalloc", NULL, "ERR 0: expected SELECT, found 'SELEC'");
	EXPECT("SELECT x FROM kmalloc WHERE", NULL, "ERR 27: expected a field, found 'the end'");
	EXPECT("SELECT x FROM kmalloc WHERE x = \"abc", NULL, "ERR 32: unterminated string");
	EXPECT("SELECT x FROM kmalloc WHERE x ~ 3", NULL, "ERR 32: '~' needs a \"string\"");
	EXPECT("SELECT x FROM kmalloc WHERE x # 3", NULL, "ERR 30: unexpected character '#'");
	EXPECT("SELECT CAST(x AS FOO) FROM kmalloc", NULL,
	       "ERR 17: unknown CAST type 'FOO' (HEX, SYM, SYM-OFFSET, SYSCALL, EXECNAME, COMM, "
	       "LOG, LOG2, _COUNTER_)");
	EXPECT("SELECT a + b + c FROM kmalloc", NULL,
	       "ERR 13: '+': only two fields can be added or subtracted");
	EXPECT("SELECT (a + CAST(b AS HEX)) AS c FROM kmalloc", NULL,
	       "ERR 10: '+' takes two plain fields (no CAST, no third operand)");
	EXPECT("SELECT x FROM nosuch", NULL, "ERR 14: no event 'nosuch'");
	EXPECT("SELECT x FROM sched_waking", NULL,
	       "ERR 14: event 'sched_waking' is in several systems: write SYSTEM.sched_waking");
	EXPECT("SELECT nosuch FROM kmalloc", NULL, "ERR 7: kmem.kmalloc has no field 'nosuch'");
	EXPECT("SELECT k.node FROM kmalloc AS m", NULL,
	       "ERR 7: 'k' is not an event or alias of the statement");
	EXPECT("SELECT CAST(node AS EXECNAME) FROM kmalloc", NULL,
	       "ERR 7: EXECNAME and COMM casts take common_pid only");
	EXPECT("SELECT CAST(next_comm AS HEX) FROM sched_switch", NULL,
	       "ERR 7: 'next_comm' is a string: strings cannot be cast");
	EXPECT("SELECT (node - bytes_req) AS d FROM kmalloc", NULL,
	       "ERR 7: an expression needs a JOIN");
	EXPECT("SELECT CAST(node AS _COUNTER_) FROM kmalloc", NULL,
	       "ERR 7: a histogram needs a key: select a field that is not a _COUNTER_");
	EXPECT("SELECT node FROM kmalloc WHERE next_comm == 1", NULL,
	       "ERR 31: kmem.kmalloc has no field 'next_comm'");
	EXPECT("SELECT next_pid FROM sched_switch WHERE next_comm == 1", NULL,
	       "ERR 40: 'next_comm' is a string: compare it with a \"string\"");
	EXPECT("SELECT next_pid FROM sched_switch WHERE next_pid == \"a\"", NULL,
	       "ERR 40: 'next_pid' is a number, not a string");
	EXPECT("SELECT next_pid FROM sched_switch WHERE TIMESTAMP > 1", NULL,
	       "ERR 40: cannot filter on 'TIMESTAMP'");
	struct uft_sql_opts m = {.onmax = "x"};
	EXPECT("SELECT node FROM kmalloc", &m,
	       "ERR 0: -m, -c, -s, -T and -S need a JOIN (a synthetic event)");
	const char *j = "SELECT end.ret AS r, (end.TIMESTAMP - start.TIMESTAMP) AS lat FROM "
			"sys_enter_read AS start JOIN sys_exit_read AS end ON start.common_pid = "
			"end.common_pid";
	EXPECT("SELECT end.ret FROM sys_enter_read AS start JOIN sys_exit_read AS end ON "
	       "start.common_pid = end.common_pid WHERE start.fd = 1 || end.ret = 0",
	       &join, "ERR 126: '||' joins conditions of both events");
	EXPECT("SELECT end.ret FROM sys_enter_read AS start JOIN sys_exit_read AS end ON "
	       "start.fd = start.count",
	       &join,
	       "ERR 73: 'start.fd' and 'start.count' must be a field of each event (sys_enter_read "
	       "and sys_exit_read)");
	EXPECT("SELECT common_pid FROM sys_enter_read AS start JOIN sys_exit_read AS end ON "
	       "start.common_pid = end.common_pid",
	       &join, "ERR 7: both events have 'common_pid': write ALIAS.common_pid");
	EXPECT("SELECT (end.ret - start.fd) FROM sys_enter_read AS start JOIN sys_exit_read AS end "
	       "ON start.common_pid = end.common_pid",
	       &join, "ERR 7: name the expression: (...) AS NAME");
	EXPECT("SELECT end.ret, start.ret FROM sys_enter_read AS start JOIN sys_exit_read AS end "
	       "ON start.common_pid = end.common_pid",
	       &join, "ERR 16: syscalls.sys_enter_read has no field 'ret'");
	EXPECT("SELECT end.ret, end.common_pid AS ret FROM sys_enter_read AS start JOIN "
	       "sys_exit_read AS end ON start.common_pid = end.common_pid",
	       &join, "ERR 16: two columns are named 'ret'");
	EXPECT("SELECT CAST(end.ret AS HEX) FROM sys_enter_read AS start JOIN sys_exit_read AS end "
	       "ON start.common_pid = end.common_pid",
	       &join, "ERR 7: CAST is for histograms without JOIN");
	struct uft_sql_opts bad = {.rand = 1, .onmax = "nosuch"};
	EXPECT(j, &bad, "ERR 0: -m nosuch: no column is named 'nosuch'");
	bad = (struct uft_sql_opts){.rand = 1, .snapshot = true};
	EXPECT(j, &bad, "ERR 0: -s, -T and -S need -m or -c");
	bad = (struct uft_sql_opts){.rand = 1, .onmax = "lat", .save = "fd"};
	EXPECT(j, &bad, "ERR 0: -S: syscalls.sys_exit_read has no field 'fd'");
	bad = (struct uft_sql_opts){.name = "a-b"};
	EXPECT(j, &bad, "ERR 0: 'a-b' cannot name a synthetic event");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read_lat),	 cmocka_unit_test(test_kmalloc),
	    cmocka_unit_test(test_casts),	 cmocka_unit_test(test_where),
	    cmocka_unit_test(test_wakeup_onmax), cmocka_unit_test(test_join_forms),
	    cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
