/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's tables and records: the generated syscall table and
 * its lookups, syscall sets and classes, the seccomp filter (run in a child
 * without a tracer: a selected call fails with ENOSYS, others run), and the
 * records read back by libtraceevent through the engine's format texts. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <event-parse.h>

#include "proctrace/proc_events.h"
#include "proctrace/proctrace.h"
#include "proctrace/seccomp_filter.h"

static void test_table(void **state)
{
	for (unsigned i = 1; i < pt_nr_syscalls; i++)
		assert_true(pt_syscalls[i - 1].nr < pt_syscalls[i].nr);
	for (unsigned i = 0; i < pt_nr_syscalls; i++)
		assert_ptr_equal(pt_syscall_by_nr(pt_syscalls[i].nr), &pt_syscalls[i]);
	assert_string_equal(pt_syscall_by_nr(0)->name, "read");
	assert_string_equal(pt_syscall_by_nr(SYS_stat)->event, "newstat");
	assert_ptr_equal(pt_syscall_by_name("stat"), pt_syscall_by_name("newstat"));
	assert_int_equal(pt_syscall_by_name("openat")->nr, SYS_openat);
	assert_int_equal(pt_syscall_by_name("openat")->nargs, 4);
	assert_string_equal(pt_syscall_by_name("openat")->arg_name[1], "filename");
	assert_null(pt_syscall_by_nr(-1));
	assert_null(pt_syscall_by_nr(100000));
	assert_null(pt_syscall_by_name("nosuchcall"));
	assert_true(pt_syscalls[pt_nr_syscalls - 1].nr < PT_MAX_SYSCALL);
}

static void test_classes(void **state)
{
	static const char *const names[] = {"file", "net", "process", "signal", "memory"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *const *c = pt_syscall_class(names[i]);
		assert_non_null(c);
		for (; *c; c++) {
			if (!pt_syscall_by_name(*c))
				fail_msg("%%%s names %s, not in the table", names[i], *c);
		}
	}
	assert_null(pt_syscall_class("nosuch"));
}

static void test_sysset(void **state)
{
	struct pt_sysset set;
	char bad[64];
	assert_int_equal(pt_sysset_parse("openat,read", &set, bad, sizeof(bad)), 0);
	assert_true(pt_sysset_has(&set, SYS_openat));
	assert_true(pt_sysset_has(&set, SYS_read));
	assert_false(pt_sysset_has(&set, SYS_write));
	assert_int_equal(pt_sysset_parse("%file,!openat,newstat", &set, bad, sizeof(bad)), 0);
	assert_true(pt_sysset_has(&set, SYS_open));
	assert_true(pt_sysset_has(&set, SYS_execve));
	assert_true(pt_sysset_has(&set, SYS_stat));
	assert_false(pt_sysset_has(&set, SYS_openat));
	assert_false(pt_sysset_has(&set, SYS_read));
	assert_int_equal(pt_sysset_parse("read,nosuch", &set, bad, sizeof(bad)), -1);
	assert_string_equal(bad, "nosuch");
	assert_int_equal(pt_sysset_parse("%nosuch", &set, bad, sizeof(bad)), -1);
	assert_int_equal(pt_sysset_parse("read,,write", &set, bad, sizeof(bad)), -1);
	assert_int_equal(pt_sysset_parse("", &set, bad, sizeof(bad)), 0);
	assert_false(pt_sysset_has(&set, SYS_read));
}

/* Without a tracer, SECCOMP_RET_TRACE fails the call with ENOSYS: the
 * selected call is caught and the others run untouched. */
static void test_seccomp_filter(void **state)
{
	static struct pt_bpf prog;
	struct pt_sysset set = {0};
	pt_sysset_add(&set, SYS_getppid);
	pt_sysset_add(&set, SYS_umask);
	pt_bpf_build(&set, &prog);
	assert_int_equal(prog.len, 6 + 2 * 2 + 1);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (pt_bpf_install(&prog) != 0)
			_exit(10);
		errno = 0;
		if (syscall(SYS_getppid) != -1 || errno != ENOSYS)
			_exit(11);
		if (syscall(SYS_getpid) != getpid() || syscall(SYS_gettid) <= 0)
			_exit(12);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static int add_format(void *ctx, unsigned id, const char *system, const char *text, size_t len)
{
	struct tep_event *ev = NULL;
	if (tep_parse_format(ctx, &ev, text, len, system) != 0)
		fail_msg("libtraceevent refused id %u:\n%s", id, text);
	assert_int_equal(ev->id, (int)id);
	return 0;
}

static unsigned long long field(struct tep_handle *tep, const struct pt_rec *r, const char *name)
{
	struct tep_record rec = {.data = (void *)r->b, .size = (int)r->len};
	struct tep_event *ev = tep_find_event(tep, *(const uint16_t *)r->b);
	assert_non_null(ev);
	unsigned long long v = 0;
	struct trace_seq s;
	trace_seq_init(&s);
	assert_int_equal(tep_get_field_val(&s, ev, name, &rec, &v, 1), 0);
	trace_seq_destroy(&s);
	return v;
}

static void body(struct tep_handle *tep, const struct pt_rec *r, const char *want)
{
	struct tep_record rec = {.data = (void *)r->b, .size = (int)r->len};
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	assert_string_equal(s.buffer, want);
	trace_seq_destroy(&s);
}

static void test_records(void **state)
{
	struct tep_handle *tep = tep_alloc();
	struct pt_options o = {.categories = PT_ALL, .all_syscalls = true};
	assert_int_equal(pt_for_each_format(&o, add_format, tep), 0);
	static struct pt_rec r;

	pt_rec_fork(&r, 10, "parent", 11, "child");
	assert_int_equal(*(const int32_t *)(r.b + 4), 10);
	body(tep, &r, "comm=parent pid=10 child_comm=child child_pid=11");
	pt_rec_exec(&r, 12, "/bin/true", 13);
	body(tep, &r, "filename=/bin/true pid=12 old_pid=13");
	pt_rec_exit(&r, 12, "true", 120, true);
	body(tep, &r, "comm=true pid=12 prio=120 group_dead=true");
	pt_rec_clone_flags(&r, 10, 11, 0x3d0f00, true);
	body(tep, &r, "pid=10 child_pid=11 flags=0x3d0f00 thread");
	pt_rec_exit_status(&r, 12, 0, 15, false);
	body(tep, &r, "pid=12 code=0 sig=15 core=0");

	uint64_t args[6] = {(uint64_t)-100, 0x1000, 0x80000, 0, 5, 6};
	pt_rec_raw_enter(&r, 12, SYS_openat, args);
	assert_int_equal(field(tep, &r, "id"), SYS_openat);
	body(tep, &r, "NR 257 openat (ffffffffffffff9c, 1000, 80000, 0, 5, 6)");
	assert_true(pt_rec_sys_enter(&r, 12, SYS_openat, args, true));
	/* the kernel's fields, then __filename_val: "" (no thread 12 to read) */
	assert_int_equal(r.len, 16 + 4 * 8 + 4 + 1);
	assert_int_equal(field(tep, &r, "__syscall_nr"), SYS_openat);
	assert_int_equal(field(tep, &r, "filename"), 0x1000);
	assert_int_equal(field(tep, &r, "flags"), 0x80000);
	assert_true(pt_rec_sys_exit(&r, 12, SYS_openat, -2));
	assert_int_equal((long long)field(tep, &r, "ret"), -2);
	pt_rec_raw_exit(&r, 12, SYS_openat, 3);
	body(tep, &r, "NR 257 openat = 3");
	assert_false(pt_rec_sys_enter(&r, 12, 100000, args, true));

	pt_rec_sig_generate(&r, 12, 10, 0, -6, "prog", 12, 0, 0);
	body(tep, &r, "sig=10 errno=0 code=-6 comm=prog pid=12 grp=0 res=0");
	pt_rec_sig_deliver(&r, 12, 10, 0, -6, 1, 0);
	body(tep, &r, "sig=10 errno=0 code=-6 sa_handler=1 sa_flags=0");
	tep_free(tep);
}

static void test_format_text(void **state)
{
	char buf[4096];
	const char *system;
	int n = pt_format_text(PT_ID_SYSCALL_BASE + 2 * SYS_getppid, &system, buf, sizeof(buf));
	assert_true(n > 0);
	assert_string_equal(system, "syscalls");
	assert_non_null(strstr(buf, "name: sys_enter_getppid\nID: "));
	assert_non_null(strstr(buf, "\nprint fmt: \"\"\n"));
	assert_int_equal(pt_format_text(0, &system, buf, sizeof(buf)), -1);
	assert_int_equal(pt_format_text(PT_ID_END, &system, buf, sizeof(buf)), -1);
	/* a short buffer: the length it needs, as snprintf */
	int full = pt_format_text(PT_ID_FORK, &system, buf, sizeof(buf));
	assert_int_equal(pt_format_text(PT_ID_FORK, &system, buf, 10), full);
	assert_string_equal(system, "sched");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),   cmocka_unit_test(test_classes),
	    cmocka_unit_test(test_sysset),  cmocka_unit_test(test_seccomp_filter),
	    cmocka_unit_test(test_records), cmocka_unit_test(test_format_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
