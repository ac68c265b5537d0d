/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dynamic probes through the tree, end to end: a definition written to
 * dynamic_events or kprobe_events becomes events/kprobes/NAME/, enabling it
 * patches the function's sled, calls with known arguments reach `trace`
 * with their fetched values, through filters and hist; deletion, the
 * kernel's errnos and error_log lines, the profile files, and the code bytes
 * restored exactly (also with the function and graph tracers on the same
 * sled). */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"
#include "tfs_helpers.h"
#include "util/atomics.h"
#include <uft/uft.h>
#include "file_offset.h"
#include "probe_tree.h"

/* The probed functions: built with patchable entries, as every test is. */
__attribute__((noinline, used)) unsigned parse_request(const char *path, unsigned len)
{
	__asm__ volatile("" ::"r"(path) : "memory");
	return len + 1;
}

__attribute__((noinline, used)) long add3(long a, long b, long c)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c;
}

/* Calls through a volatile pointer: the compiler neither inlines nor
 * drops them. */
static unsigned (*volatile call_parse)(const char *, unsigned) = parse_request;
static long (*volatile call_add3)(long, long, long) = add3;

static int setup(void **state)
{
	(void)state;
	tfs_echo("events/enable", "0", W);
	tfs_echo("current_tracer", "nop", W);
	tfs_echo("set_ftrace_filter", "", W);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", W), 0);
	return 0;
}

static const char PROBE[] = "p:myprobe parse_request path=+0(%di):string len=%si:u32";
static const char LISTING[] = "p:kprobes/myprobe parse_request path=+0(%di):string len=%si:u32\n";

static void test_define_enable_trace(void **state)
{
	(void)state;
	uint8_t before[5], on[5], after[5];
	memcpy(before, (const void *)parse_request, 5);
	assert_int_equal(tfs_echo("dynamic_events", PROBE, A), 0);
	check("dynamic_events", LISTING);
	check("kprobe_events", LISTING);
	check("uprobe_events", "");
	char *fmt = rd("events/kprobes/myprobe/format");
	assert_non_null(strstr(fmt, "name: myprobe\n"));
	assert_non_null(
	    strstr(fmt, "\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"));
	assert_non_null(
	    strstr(fmt, "\tfield:__data_loc char[] path;\toffset:16;\tsize:4;\tsigned:1;\n"));
	assert_non_null(strstr(fmt, "\tfield:u32 len;\toffset:20;\tsize:4;\tsigned:0;\n"));
	assert_non_null(strstr(fmt, "print fmt: \"(%lx) path=\\\"%s\\\" len=%u\", REC->__probe_ip, "
				    "__get_str(path), REC->len\n"));
	free(fmt);
	/* Defined but not enabled: the sled is untouched and nothing traced. */
	call_parse("/none", 5);
	assert_memory_equal(before, (const void *)parse_request, 5);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "1", W), 0);
	memcpy(on, (const void *)parse_request, 5);
	assert_memory_not_equal(before, on, 5);
	assert_int_equal(call_parse("/index.html", 11), 12);
	assert_int_equal(call_parse("/a", 2), 3);
	expect_in("trace", "myprobe: (parse_request+0x0/0x", 2);
	expect_in("trace", ") path=\"/index.html\" len=11\n", 1);
	expect_in("trace", ") path=\"/a\" len=2\n", 1);
	expect_in("trace", "/none", 0);
	check("kprobe_profile",
	      "  myprobe                                                    2               0\n");
	/* Deleting an enabled probe is refused, as the kernel's. */
	assert_int_equal(tfs_echo("dynamic_events", "-:myprobe", A), -EBUSY);
	assert_int_equal(tfs_echo("kprobe_events", "", W), -EBUSY);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "0", W), 0);
	memcpy(after, (const void *)parse_request, 5);
	assert_memory_equal(before, after, 5);
	assert_int_equal(tfs_echo("dynamic_events", "-:kprobes/myprobe", A), 0);
	check("dynamic_events", "");
	int err = 0;
	assert_null(tfs_cat("events/kprobes/myprobe/format", &err));
	assert_int_equal(tfs_echo("dynamic_events", "-:myprobe", A), -ENOENT);
}

static void test_filter_hist(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("kprobe_events", PROBE, A), 0);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/filter", "len > 5", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/trigger", "hist:keys=len", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "1", W), 0);
	call_parse("/short", 3);
	call_parse("/longer/path", 12);
	call_parse("/longer/path", 12);
	expect_in("trace", "myprobe: ", 2);
	expect_in("trace", "len=3", 0);
	expect_in("events/kprobes/myprobe/hist", "{ len:         12 } hitcount:          2\n", 1);
	/* Triggers see every hit, the filter only decides the record (the
	 * kernel's order). */
	expect_in("events/kprobes/myprobe/hist", "{ len:          3 } hitcount:          1\n", 1);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "0", W), 0);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/trigger", "!hist:keys=len", A), 0);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/filter", "0", W), 0);
	/* Truncating kprobe_events removes its probes once none is busy. */
	assert_int_equal(tfs_echo("kprobe_events", "", W), 0);
	check("kprobe_events", "");
}

static void test_regs_and_function_tracer(void **state)
{
	(void)state;
	uint8_t before[5];
	memcpy(before, (const void *)add3, 5);
	assert_int_equal(tfs_echo("dynamic_events",
				  "p:grp/sum add3 a=%di:s64 b=$arg2:s64 c=%dx:x8 "
				  "ret=$stack0:x64",
				  A),
			 0);
	/* The function tracer on the same sled, before and after the probe. */
	assert_int_equal(tfs_echo("set_ftrace_filter", "add3", W), 0);
	assert_int_equal(tfs_echo("current_tracer", "function", W), 0);
	assert_int_equal(tfs_echo("events/grp/sum/enable", "1", W), 0);
	assert_int_equal(call_add3(-4, 9, 0x1ff), 0x1ff + 5);
	expect_in("trace", "sum: (add3+0x0/0x", 1);
	expect_in("trace", ") a=-4 b=9 c=0xff ret=0x", 1);
	expect_in("trace", "add3 <-", 1);
	assert_int_equal(tfs_echo("current_tracer", "nop", W), 0);
	call_add3(1, 2, 3);
	expect_in("trace", ") a=1 b=2 c=0x3 ret=0x", 1);
	assert_int_equal(tfs_echo("events/grp/sum/enable", "0", W), 0);
	assert_memory_equal(before, (const void *)add3, 5);
	/* Probe first, function tracer second, probe gone first. */
	assert_int_equal(tfs_echo("events/grp/sum/enable", "1", W), 0);
	assert_int_equal(tfs_echo("current_tracer", "function", W), 0);
	assert_int_equal(tfs_echo("events/grp/sum/enable", "0", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	call_add3(1, 1, 1);
	expect_in("trace", "add3 <-", 1);
	expect_in("trace", "sum: ", 0);
	assert_int_equal(tfs_echo("current_tracer", "nop", W), 0);
	assert_memory_equal(before, (const void *)add3, 5);
	/* With the graph tracer: its entry and exit around the probe's hit. */
	assert_int_equal(tfs_echo("events/grp/sum/enable", "1", W), 0);
	assert_int_equal(tfs_echo("current_tracer", "function_graph", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(call_add3(5, 6, 7), 18);
	expect_in("trace", "sum: (add3+0x0/0x", 1);
	expect_in("trace", "add3();", 1);
	assert_int_equal(tfs_echo("current_tracer", "nop", W), 0);
	assert_int_equal(tfs_echo("events/grp/sum/enable", "0", W), 0);
	assert_memory_equal(before, (const void *)add3, 5);
	assert_int_equal(tfs_echo("dynamic_events", "-:grp/sum", A), 0);
}

/* An fprobe's entry is a sled function's entry too; $comm and an
 * immediate. */
static void test_fprobe_entry(void **state)
{
	(void)state;
	assert_int_equal(
	    tfs_echo("dynamic_events", "f parse_request len=$arg2:u32 c=$comm k=\\7", A), 0);
	check("dynamic_events",
	      "f:fprobes/parse_request__entry parse_request len=$arg2:u32 c=$comm k=\\7\n");
	assert_int_equal(tfs_echo("events/fprobes/parse_request__entry/enable", "1", W), 0);
	call_parse("/f", 42);
	expect_in("trace", "parse_request__entry: (parse_request+0x0/0x", 1);
	expect_in("trace", ") len=42 c=\"test_tracefs_pr\" k=0x7\n", 1);
	assert_int_equal(tfs_echo("events/fprobes/parse_request__entry/enable", "0", W), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:fprobes/parse_request__entry", A), 0);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("dynamic_events", "p:bad parse_request x=%zz", -EINVAL,
		     LOG("trace_kprobe", "Invalid register name", "p:bad parse_request x=%zz",
			 SP11 "                      "));
	expect_error("kprobe_events", "p:bad no_such_function_here", -ENOENT,
		     LOG("trace_kprobe", "Invalid probed address or symbol",
			 "p:bad no_such_function_here", SP11 "      "));
	expect_error("kprobe_events", "p:bad parse_request+4", -EOPNOTSUPP,
		     LOG("trace_kprobe", "Failed to register probe event", "p:bad parse_request+4",
			 SP11 "      "));
	/* A return probe off the sleds hooks the return from an instruction
	 * probe at the function's entry (test_insn_retprobe). */
	assert_int_equal(tfs_echo("kprobe_events", "r:bad abort $retval", A), 0);
	assert_int_equal(tfs_echo("kprobe_events", "-:bad", A), 0);
	/* A function without a patchable entry (libc's) takes an instruction
	 * probe (test_insn_probe). */
	assert_int_equal(tfs_echo("kprobe_events", "p:bad abort", A), 0);
	assert_int_equal(tfs_echo("kprobe_events", "-:bad", A), 0);
	expect_error("dynamic_events", "x:bad parse_request", -EINVAL, "");
	/* The ftrace entries are no eprobe source (test_tracefs_eprobe). */
	expect_error(
	    "dynamic_events", "e:ep ftrace.print", -EINVAL,
	    LOG("event_probe", "Attached event does not exist", "e:ep ftrace.print", SP11 "     "));
	check("dynamic_events", "");
	/* The name of another event. */
	assert_int_equal(tfs_echo("dynamic_events", "p:kprobes/one parse_request", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:kprobes/one parse_request", A), -EEXIST);
	assert_int_equal(tfs_echo("kprobe_events", "-:kprobes/one", A), 0);
	/* An append whose arg differs: the caret on that arg, as the kernel's. */
	assert_int_equal(tfs_echo("kprobe_events", "p:kprobes/two parse_request a=\\1", A), 0);
	expect_error("kprobe_events", "p:kprobes/two parse_request b=\\1", -EEXIST,
		     LOG("trace_kprobe", "Argument type or name is different from existing probe",
			 "p:kprobes/two parse_request b=\\1", SP11 "                            "));
	assert_int_equal(tfs_echo("kprobe_events", "", W), 0);
}

static void test_uprobe_file_offset(void **state)
{
	(void)state;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = 0;
	uint64_t off = (uintptr_t)parse_request;
	assert_int_equal(dl_iterate_phdr(foff_one, &off), 1);
	char def[4200], listing[4300];
	snprintf(def, sizeof(def), "p:up %s:0x%llx len=%%si:u32", exe, (unsigned long long)off);
	snprintf(listing, sizeof(listing), "p:uprobes/up %s:0x%016llx len=%%si:u32\n", exe,
		 (unsigned long long)off);
	assert_int_equal(tfs_echo("uprobe_events", def, A), 0);
	check("uprobe_events", listing);
	check("kprobe_events", "");
	assert_int_equal(tfs_echo("events/uprobes/up/enable", "1", W), 0);
	call_parse("/u", 77);
	char want[64];
	snprintf(want, sizeof(want), "up: (0x%llx) len=77\n",
		 (unsigned long long)(uintptr_t)parse_request);
	expect_in("trace", want, 1);
	char prof[4300];
	snprintf(prof, sizeof(prof), "  %s %-44s %15lu\n", exe, "up", 1ul);
	check("uprobe_profile", prof);
	/* kprobe_events neither lists nor deletes it. */
	assert_int_equal(tfs_echo("kprobe_events", "-:uprobes/up", A), -ENOENT);
	assert_int_equal(tfs_echo("events/uprobes/up/enable", "0", W), 0);
	assert_int_equal(tfs_echo("uprobe_events", "", W), 0);
	check("uprobe_events", "");
}

/* Probes made, enabled, disabled and deleted while threads run through the
 * probed function: no crash, records of the enabled spells, the bytes back. */
static volatile int running;

static void *caller(void *arg)
{
	(void)arg;
	while (READ_ONCE(running))
		call_parse("/thread", 7);
	return NULL;
}

/* Under ASan each round's stop of the three busy threads is far slower
 * (20 rounds: 4.5 s plain, 6 min with ASan on 2 loaded CPUs): fewer rounds
 * there, where the point is memory errors. */
#if defined(__SANITIZE_ADDRESS__)
#define CHURN_ROUNDS 5
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHURN_ROUNDS 5
#endif
#endif
#ifndef CHURN_ROUNDS
#define CHURN_ROUNDS 20
#endif

static void test_churn_under_threads(void **state)
{
	(void)state;
	uint8_t before[5];
	memcpy(before, (const void *)parse_request, 5);
	pthread_t th[3];
	WRITE_ONCE(running, 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, caller, NULL), 0);
	for (int round = 0; round < CHURN_ROUNDS; round++) {
		assert_int_equal(tfs_echo("dynamic_events", PROBE, A), 0);
		/* The last round's records alone are searched (a sanitizer's
		 * strstr over the whole ring takes minutes). */
		if (round == CHURN_ROUNDS - 1)
			assert_int_equal(tfs_echo("trace", "", W), 0);
		assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "1", W), 0);
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
		assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "0", W), 0);
		if (round == CHURN_ROUNDS - 1) {
			/* The records are read while their event exists. */
			char *s = rd("trace");
			assert_true(tfs_count(s, ") path=\"/thread\" len=7\n") > 0);
			free(s);
		}
		assert_int_equal(tfs_echo("dynamic_events", "-:myprobe", A), 0);
	}
	WRITE_ONCE(running, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	assert_memory_equal(before, (const void *)parse_request, 5);
}

static void test_with_synthetic(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "s:lat u64 x", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:px parse_request", A), 0);
	check("dynamic_events", "s:synthetic/lat\tu64 x\np:kprobes/px parse_request\n");
	check("synthetic_events", "lat\tu64 x\n");
	check("kprobe_events", "p:kprobes/px parse_request\n");
	assert_int_equal(tfs_echo("dynamic_events", "-:lat", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:px", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:px parse_request", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "s:lat u64 x", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	check("dynamic_events", "");
	/* !KIND:EVENT ... deletes as -:EVENT does, synthetic events too. */
	assert_int_equal(tfs_echo("dynamic_events", "s:lat u64 x", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:px parse_request", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "!p:px parse_request", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "!s:lat u64 x", A), 0);
	check("dynamic_events", "");
	/* -:GROUP/ deletes every probe of the group, and nothing else. */
	assert_int_equal(tfs_echo("dynamic_events", "p:grp/a parse_request", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:grp/b parse_request", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:other/c parse_request", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "-:grp/", A), 0);
	check("dynamic_events", "p:other/c parse_request\n");
	assert_int_equal(tfs_echo("kprobe_events", "-:grp/", A), -ENOENT);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
}

/* A thread that runs with every signal blocked cannot be stopped: enabling
 * a probe then fails with EBUSY (after the stop's bound) and leaves the code
 * as it was; once the thread is gone, the tree's next operation attaches it. */
static int spin_stop;
static void *spin_blocked(void *arg)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	WRITE_ONCE(*(int *)arg, 1);
	while (!READ_ONCE(spin_stop))
		__asm__ volatile("pause" ::: "memory");
	return NULL;
}

static void test_enable_when_threads_do_not_stop(void **state)
{
	(void)state;
	uint8_t before[5];
	memcpy(before, (const void *)parse_request, 5);
	assert_int_equal(tfs_echo("dynamic_events", PROBE, A), 0);
	int ready = 0;
	WRITE_ONCE(spin_stop, 0);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, spin_blocked, &ready), 0);
	while (!READ_ONCE(ready))
		sched_yield();
	assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "1", W), -EBUSY);
	assert_memory_equal(before, (const void *)parse_request, 5);
	call_parse("/x", 2);
	expect_in("trace", "myprobe:", 0);
	WRITE_ONCE(spin_stop, 1);
	pthread_join(t, NULL);
	check("kprobe_events", LISTING); /* any operation of the tree tries again */
	assert_memory_not_equal(before, (const void *)parse_request, 5);
	call_parse("/y", 2);
	expect_in("trace", ") path=\"/y\" len=2\n", 1);
	assert_int_equal(tfs_echo("events/kprobes/myprobe/enable", "0", W), 0);
	assert_memory_equal(before, (const void *)parse_request, 5);
	assert_int_equal(tfs_echo("dynamic_events", "-:myprobe", A), 0);
}

int main(void)
{
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_define_enable_trace, setup),
	    cmocka_unit_test_setup(test_filter_hist, setup),
	    cmocka_unit_test_setup(test_regs_and_function_tracer, setup),
	    cmocka_unit_test_setup(test_fprobe_entry, setup),
	    cmocka_unit_test_setup(test_errors, setup),
	    cmocka_unit_test_setup(test_uprobe_file_offset, setup),
	    cmocka_unit_test_setup(test_churn_under_threads, setup),
	    cmocka_unit_test_setup(test_with_synthetic, setup),
	    cmocka_unit_test_setup(test_enable_when_threads_do_not_stop, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
