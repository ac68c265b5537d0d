/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timerlat and osnoise as tracers of the process's own tree: listed and
 * taken by current_tracer, the osnoise/ knobs with the kernel's defaults
 * and bounds (a bad write is EINVAL and changes nothing), the two headers
 * byte for byte, the records' line layouts, stop_tracing_total_us turning
 * tracing off and keeping the buffer, one buffer at a time (EBUSY). No
 * timing is asserted: the values measured are only matched by shape. */
#define _GNU_SOURCE
#include <errno.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_helpers.h"
#include <uft/uft.h>

static char *cat(const char *path)
{
	int err = 0;
	char *s = tfs_cat(path, &err);
	assert_int_equal(err, 0);
	return s;
}

static void expect(const char *path, const char *want)
{
	char *s = cat(path);
	assert_string_equal(s, want);
	free(s);
}

/* The number of lines of text matching the extended regex re. */
static int count_re(const char *text, const char *re)
{
	regex_t rx;
	assert_int_equal(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0);
	int found = 0;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *line = strndup(p, len);
		found += regexec(&rx, line, 0, NULL, 0) == 0;
		free(line);
		p += len + (e != NULL);
	}
	regfree(&rx);
	return found;
}

/* Waits (at most about 10 s) until trace holds a line matching re. */
static char *wait_for(const char *re)
{
	for (int i = 0; i < 1000; i++) {
		char *s = cat("trace");
		if (count_re(s, re) > 0)
			return s;
		free(s);
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
	fail_msg("no line matches %s", re);
	return NULL;
}

static const char tl_header[] =
    "# tracer: timerlat\n"
    "#\n"
    "#                                _-----=> irqs-off\n"
    "#                               / _----=> need-resched\n"
    "#                              | / _---=> hardirq/softirq\n"
    "#                              || / _--=> preempt-depth\n"
    "#                              ||| / _-=> migrate-disable\n"
    "#                              |||| /     delay\n"
    "#                              |||||            ACTIVATION\n"
    "#           TASK-PID      CPU# |||||   TIMESTAMP   ID            CONTEXT                 "
    "LATENCY\n"
    "#              | |         |   |||||      |         |                  |                 "
    "      |\n";

static const char osn_header[] =
    "# tracer: osnoise\n"
    "#\n"
    "#                                _-----=> irqs-off\n"
    "#                               / _----=> need-resched\n"
    "#                              | / _---=> hardirq/softirq\n"
    "#                              || / _--=> preempt-depth\n"
    "#                              ||| / _-=> migrate-disable                         MAX\n"
    "#                              |||| /     delay                                   SIN"
    "GLE      Interference counters:\n"
    "#                              |||||               RUNTIME      NOISE  %% OF CPU  NOI"
    "SE    +-----------------------------+\n"
    "#           TASK-PID      CPU# |||||   TIMESTAMP    IN US       IN US  AVAILABLE  IN "
    "US     HW    NMI    IRQ   SIRQ THREAD\n"
    "#              | |         |   |||||      |           |             |    |           "
    " |      |      |      |      |      |\n";

static void test_knobs(void **state)
{
	(void)state;
	char *s = cat("available_tracers");
	assert_non_null(strstr(s, "timerlat osnoise "));
	free(s);
	expect("osnoise/period_us", "1000000\n");
	expect("osnoise/runtime_us", "1000000\n");
	expect("osnoise/stop_tracing_us", "0\n");
	expect("osnoise/stop_tracing_total_us", "0\n");
	expect("osnoise/timerlat_period_us", "1000\n");
	expect("osnoise/print_stack", "0\n");
	expect("osnoise/options", "DEFAULTS OSNOISE_WORKLOAD NO_PANIC_ON_STOP "
				  "NO_OSNOISE_PREEMPT_DISABLE NO_OSNOISE_IRQ_DISABLE\n");
	char all[32];
	long n = sysconf(_SC_NPROCESSORS_CONF);
	snprintf(all, sizeof(all), n > 1 ? "0-%ld\n" : "0\n", n - 1);
	expect("osnoise/cpus", all);

	/* The kernel's bounds: runtime <= period, timerlat 100..1000000 us. */
	assert_int_equal(tfs_echo("osnoise/period_us", "500000", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/runtime_us", "2000000", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/timerlat_period_us", "99", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/timerlat_period_us", "1000001", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/stop_tracing_us", "abc", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/cpus", "0-99999", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/options", "BOGUS", UFT_TFS_TRUNC), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/options", "NO_DEFAULTS", UFT_TFS_TRUNC), -EINVAL);
	expect("osnoise/period_us", "1000000\n");
	expect("osnoise/timerlat_period_us", "1000\n");
	expect("osnoise/cpus", all);
	assert_int_equal(tfs_echo("osnoise/runtime_us", "100000", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("osnoise/period_us", "200000", UFT_TFS_TRUNC), 0);
	expect("osnoise/period_us", "200000\n");
	assert_int_equal(tfs_echo("osnoise/options", "PANIC_ON_STOP", UFT_TFS_TRUNC), 0);
	expect("osnoise/options", "NO_DEFAULTS OSNOISE_WORKLOAD PANIC_ON_STOP "
				  "NO_OSNOISE_PREEMPT_DISABLE NO_OSNOISE_IRQ_DISABLE\n");
	assert_int_equal(tfs_echo("osnoise/options", "DEFAULTS", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("osnoise/cpus", "0", UFT_TFS_TRUNC), 0);
	expect("osnoise/cpus", "0\n");
}

static void test_timerlat(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "timerlat", UFT_TFS_TRUNC), 0);
	expect("current_tracer", "timerlat\n");
	char *s = wait_for("#2 +context thread timer_latency");
	/* the header, byte for byte, then the kernel's line of each wake-up */
	assert_memory_equal(s, tl_header, strlen(tl_header));
	assert_true(count_re(s, "^ +timerlat/0-[0-9]+ +\\[000\\] \\.{5} +[0-9]+\\.[0-9]{6}: "
				"#1     context thread timer_latency +[0-9]+ ns$") == 1);
	/* the irq context (the timer signal's handler) comes first, with the
	 * activation's number */
	assert_true(count_re(s, "^ +timerlat/0-[0-9]+ +\\[000\\] \\.{5} +[0-9]+\\.[0-9]{6}: "
				"#1     context    irq timer_latency +[0-9]+ ns$") == 1);
	assert_true(strstr(s, "#1     context    irq") < strstr(s, "#1     context thread"));
	free(s);

	/* print_stack (1 us: every activation): the kernel's stack record
	 * after the thread record, from the measuring thread's loop. */
	assert_int_equal(tfs_echo("osnoise/print_stack", "1", UFT_TFS_TRUNC), 0);
	s = wait_for("^ => timerlat_thread$");
	assert_true(count_re(s, "^ +timerlat/[0-9]+-[0-9]+ +\\[[0-9]{3}\\] \\.{5} +[0-9.]+: "
				"<stack trace>$") >= 1);
	free(s);
	assert_int_equal(tfs_echo("osnoise/print_stack", "0", UFT_TFS_TRUNC), 0);
	/* A fork child has none of the threads: changing its tracer joins
	 * nothing (no hang). It starts none here (TSan refuses threads made
	 * after a multi-threaded fork). */
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC) == 0 ? 0 : 1);
	int st = 0;
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* One buffer at a time, as in the kernel. */
	assert_int_equal(uft_tracefs_mkdir("instances/osn"), 0);
	assert_int_equal(tfs_echo("instances/osn/current_tracer", "osnoise", UFT_TFS_TRUNC),
			 -EBUSY);
	/* the same tracer in another instance shares the threads, and both
	 * buffers get the records (rtla's -t instance beside its own) */
	assert_int_equal(tfs_echo("instances/osn/current_tracer", "timerlat", UFT_TFS_TRUNC), 0);
	for (int i = 0; i < 1000; i++) {
		s = cat("instances/osn/trace");
		bool got = count_re(s, "context thread timer_latency") > 0;
		free(s);
		if (got)
			break;
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
	s = cat("instances/osn/trace");
	assert_true(count_re(s, "context thread timer_latency") > 0);
	free(s);
	assert_int_equal(tfs_echo("instances/osn/current_tracer", "nop", UFT_TFS_TRUNC), 0);
	assert_int_equal(uft_tracefs_rmdir("instances/osn"), 0);

	/* A latency over stop_tracing_total_us (1 us: the first) stops
	 * tracing and keeps the buffer. */
	assert_int_equal(tfs_echo("osnoise/stop_tracing_total_us", "1", UFT_TFS_TRUNC), 0);
	for (int i = 0; i < 1000; i++) {
		char *on = cat("tracing_on");
		bool off = strcmp(on, "0\n") == 0;
		free(on);
		if (off)
			break;
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
	expect("tracing_on", "0\n");
	s = cat("trace");
	assert_true(count_re(s, "context thread timer_latency") > 0);
	free(s);
	assert_int_equal(tfs_echo("osnoise/stop_tracing_total_us", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
}

#define COMMON                                                                                     \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define START_DURATION                                                                             \
	"\tfield:u64 start;\toffset:8;\tsize:8;\tsigned:0;\n"                                      \
	"\tfield:u64 duration;\toffset:16;\tsize:8;\tsigned:0;\n"
#define NS_SECS "(REC->start) / 1000000000UL, (REC->start) % 1000000000UL"
static const struct {
	const char *name, *format;
} noise_formats[] = {
    {"sample_threshold", COMMON START_DURATION
     "\tfield:u64 interference;\toffset:24;\tsize:8;\tsigned:0;\n\n"
     "print fmt: \"start %llu.%09u duration %llu ns interference %llu\", " NS_SECS
     ", REC->duration, REC->interference\n"},
    {"nmi_noise", COMMON START_DURATION
     "\nprint fmt: \"start %llu.%09u duration %llu ns\", " NS_SECS ", REC->duration\n"},
    {"irq_noise", COMMON START_DURATION
     "\tfield:__data_loc char[] desc;\toffset:24;\tsize:4;\tsigned:1;\n"
     "\tfield:int vector;\toffset:28;\tsize:4;\tsigned:1;\n\n"
     "print fmt: \"%s:%d start %llu.%09u duration %llu ns\", __get_str(desc), "
     "REC->vector, " NS_SECS ", REC->duration\n"},
    {"softirq_noise", COMMON START_DURATION
     "\tfield:int vector;\toffset:24;\tsize:4;\tsigned:1;\n\n"
     "print fmt: \"%8s:%d start %llu.%09u duration %llu ns\", "
     "__print_symbolic(REC->vector, { 0, \"HI\" }, { 1, \"TIMER\" }, { 2, "
     "\"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, "
     "{ 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" }), "
     "REC->vector, " NS_SECS ", REC->duration\n"},
    {"thread_noise",
     COMMON "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	    "\tfield:u64 start;\toffset:24;\tsize:8;\tsigned:0;\n"
	    "\tfield:u64 duration;\toffset:32;\tsize:8;\tsigned:0;\n"
	    "\tfield:pid_t pid;\toffset:40;\tsize:4;\tsigned:1;\n\n"
	    "print fmt: \"%8s:%d start %llu.%09u duration %llu ns\", REC->comm, REC->pid, " NS_SECS
	    ", REC->duration\n"},
};

static void test_osnoise(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("osnoise/runtime_us", "20000", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("osnoise/period_us", "50000", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_thresh", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("events/osnoise/sample_threshold/enable", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("current_tracer", "osnoise", UFT_TFS_TRUNC), 0);
	char *s = wait_for("^ +osnoise/0-[0-9]+ .*[0-9]+ +[0-9]+ +[0-9]{1,3}\\.[0-9]{5} ");
	assert_memory_equal(s, osn_header, strlen(osn_header));
	/* runtime, noise, % available with five decimals, max single noise,
	 * then the five counters, as the kernel prints them */
	assert_true(count_re(s, "^ +osnoise/0-[0-9]+ +\\[000\\] \\.{5} +[0-9]+\\.[0-9]{6}: [0-9]+ "
				"+[0-9]+ +[0-9]{1,3}\\.[0-9]{5} +[0-9]+ +0 +[0-9]+ +[0-9]+ +[0-9]+ "
				"+[0-9]+$") >= 1);
	free(s);
	/* every noise sample, as the kernel's osnoise:sample_threshold (a
	 * sample above 1 us comes within seconds on any machine) */
	s = wait_for("sample_threshold: start");
	assert_true(count_re(s, "^ +osnoise/[0-9]+-[0-9]+ +\\[[0-9]{3}\\] \\.{5} +[0-9.]+: "
				"sample_threshold: start [0-9]+\\.[0-9]{9} duration [0-9]+ ns "
				"interference [0-9]+$") >= 1);
	free(s);
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	/* stop_tracing_us (1 us): tracing stops at the first sample over it,
	 * whose event is the buffer's last osnoise one */
	assert_int_equal(tfs_echo("osnoise/stop_tracing_us", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_thresh", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("current_tracer", "osnoise", UFT_TFS_TRUNC), 0);
	for (int i = 0; i < 1000; i++) {
		char *on = cat("tracing_on");
		bool off = strcmp(on, "0\n") == 0;
		free(on);
		if (off)
			break;
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
	expect("tracing_on", "0\n");
	s = cat("trace");
	assert_true(count_re(s, "sample_threshold: start [0-9.]+ duration [0-9]{4,} ns") >= 1);
	free(s);
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("osnoise/stop_tracing_us", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("events/osnoise/sample_threshold/enable", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_thresh", "0", UFT_TFS_TRUNC), 0);
	/* The osnoise:* formats, byte for byte the kernel's. */
	for (size_t i = 0; i < sizeof(noise_formats) / sizeof(noise_formats[0]); i++) {
		char path[128];
		snprintf(path, sizeof(path), "events/osnoise/%s/format", noise_formats[i].name);
		s = cat(path);
		const char *body = strstr(s, "\nformat:\n");
		assert_non_null(body);
		assert_string_equal(body + 9, noise_formats[i].format);
		free(s);
	}
	/* The record's format is the kernel's ftrace:osnoise. */
	s = cat("events/ftrace/osnoise/format");
	assert_non_null(strstr(s, "\tfield:u64 noise;\toffset:8;\tsize:8;\tsigned:0;\n"));
	assert_non_null(strstr(s, "\tfield:unsigned int thread_count;\toffset:48;\tsize:4;"));
	free(s);
	s = cat("events/ftrace/timerlat/format");
	assert_non_null(strstr(s, "\tfield:u64 timer_latency;\toffset:16;\tsize:8;\tsigned:0;\n"));
	free(s);
}

/* osnoise/per_cpu/cpuN/timerlat_fd: the kernel's user-space workload. */
static void test_timerlat_fd(void **state)
{
	(void)state;
	const char *fd0 = "osnoise/per_cpu/cpu0/timerlat_fd";
	struct uft_tfs_handle *h = NULL, *h2 = NULL;
	/* only with timerlat set and NO_OSNOISE_WORKLOAD */
	assert_int_equal(uft_tracefs_open(fd0, UFT_TFS_READ, &h), -EINVAL);
	assert_int_equal(tfs_echo("osnoise/options", "NO_OSNOISE_WORKLOAD", UFT_TFS_TRUNC), 0);
	assert_int_equal(uft_tracefs_open(fd0, UFT_TFS_READ, &h), -EINVAL);
	assert_int_equal(tfs_echo("current_tracer", "timerlat", UFT_TFS_TRUNC), 0);
	assert_int_equal(uft_tracefs_open(fd0, UFT_TFS_READ, &h), 0);
	/* one reader per CPU */
	assert_int_equal(uft_tracefs_open(fd0, UFT_TFS_READ, &h2), -EBUSY);
	char buf[8];
	for (int i = 0; i < 3; i++)
		assert_int_equal(uft_tracefs_read(h, buf, sizeof(buf), 0), 0);
	uft_tracefs_release(h);
	char *s = cat("trace");
	/* per activation: irq, thread, and at the next read the return from
	 * user space; on the file's CPU */
	const char *ctx[] = {"   irq", "thread", "user-ret"};
	for (int a = 1; a <= 2; a++)
		for (int c = 0; c < 3; c++) {
			char re[160];
			snprintf(re, sizeof(re),
				 "^ +.+-[0-9]+ +\\[000\\] \\.{5} +[0-9.]+: #%d +context %s "
				 "timer_latency +[0-9]+ ns$",
				 a, ctx[c]);
			assert_int_equal(count_re(s, re), 1);
		}
	assert_int_equal(count_re(s, "#3 +context user-ret"), 0);
	free(s);
	/* released: the CPU's file opens again */
	assert_int_equal(uft_tracefs_open(fd0, UFT_TFS_READ, &h), 0);
	uft_tracefs_release(h);
	/* the tree's own threads back: the file is theirs */
	assert_int_equal(tfs_echo("osnoise/options", "DEFAULTS", UFT_TFS_TRUNC), 0);
	assert_int_equal(uft_tracefs_open(fd0, UFT_TFS_READ, &h), -EINVAL);
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
}

int main(void)
{
	uft_session_start();
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_knobs),
	    cmocka_unit_test(test_timerlat),
	    cmocka_unit_test(test_osnoise),
	    cmocka_unit_test(test_timerlat_fd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
