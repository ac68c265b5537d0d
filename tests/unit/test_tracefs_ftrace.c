/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live trace files with function tracer records: function lines with the
 * symbol options, the function_graph output in trace and trace_pipe, and the
 * function_graph options in trace_options and options/. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "wire/ftrace_records.h"
#include "wire/shm_layout.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "ftrace_events.h"
#include "tfs_helpers.h"
#include <uft/uft.h>

/* Functions the records name. */
__attribute__((noinline, used)) void ftt_outer(void)
{
	__asm__ volatile("nop; nop; nop; nop; nop; nop; nop; nop" ::: "memory");
}

__attribute__((noinline, used)) void ftt_inner(void)
{
	__asm__ volatile("nop; nop; nop; nop" ::: "memory");
}

#define OUTER ((uint64_t)(uintptr_t)&ftt_outer)
#define INNER ((uint64_t)(uintptr_t)&ftt_inner)

/* ---- helpers ---- */

static char *cat(const char *path)
{
	int err = 0;
	char *s = tfs_cat(path, &err);
	assert_int_equal(err, 0);
	return s;
}

/* The text after the header: the lines that do not start with '#'. */
static const char *body_of(const char *s)
{
	while (*s == '#') {
		const char *nl = strchr(s, '\n');
		if (!nl)
			return s + strlen(s);
		s = nl + 1;
	}
	return s;
}

static char cpu_col[16];

/* Options back to the kernel's defaults, whatever a failed test left. */
static int teardown(void **state)
{
	static const char *const opts[] = {
	    "print-parent", "nosym-offset", "nosym-addr", "noraw", "nolatency-format",
	};
	static const char *const files[][2] = {
	    {"funcgraph-cpu", "1"},  {"funcgraph-tail", "0"},	 {"funcgraph-duration", "1"},
	    {"funcgraph-proc", "0"}, {"funcgraph-overrun", "0"}, {"funcgraph-abstime", "0"},
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		tfs_echo("trace_options", opts[i], UFT_TFS_TRUNC);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[64];
		snprintf(path, sizeof(path), "options/%s", files[i][0]);
		tfs_echo(path, files[i][1], UFT_TFS_TRUNC);
	}
	unsetenv("UFT_TRACER");
	unsetenv("UFT_FTRACE_FILTER");
	return 0;
}

static int setup(void **state)
{
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	return 0;
}

/* ---- function ---- */

static void test_function_lines(void **state)
{
	put_fn(INNER, OUTER + 5);
	char *s = cat("trace");
	assert_non_null(
	    strstr(s, "# tracer: function\n#\n# entries-in-buffer/entries-written: 1/1"));
	const char *line = body_of(s);
	char want[128];
	snprintf(want, sizeof(want), "-%-7d [%03d] ....", gettid(), sched_getcpu());
	assert_non_null(strstr(line, want));
	if (!strstr(line, ": ftt_inner <-ftt_outer\n"))
		fail_msg("%s", s);
	free(s);

	assert_int_equal(tfs_echo("trace_options", "noprint-parent", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_non_null(strstr(body_of(s), ": ftt_inner\n"));
	free(s);
	assert_int_equal(tfs_echo("trace_options", "print-parent", UFT_TFS_TRUNC), 0);

	assert_int_equal(tfs_echo("options/sym-offset", "1", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_non_null(strstr(body_of(s), ": ftt_inner+0x0/0x"));
	assert_non_null(strstr(body_of(s), " <-ftt_outer+0x5/0x"));
	free(s);
	assert_int_equal(tfs_echo("options/sym-offset", "0", UFT_TFS_TRUNC), 0);

	assert_int_equal(tfs_echo("options/sym-addr", "1", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	snprintf(want, sizeof(want), ": ftt_inner <%016llx> <-ftt_outer <%016llx>\n",
		 (unsigned long long)INNER, (unsigned long long)OUTER + 5);
	assert_non_null(strstr(body_of(s), want));
	free(s);
	assert_int_equal(tfs_echo("options/sym-addr", "0", UFT_TFS_TRUNC), 0);

	/* A library function carries its object with sym-offset (libc's own
	 * getpid, whatever a sanitizer interposes). */
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	assert_non_null(libc);
	void *fn = dlsym(libc, "getpid");
	assert_non_null(fn);
	dlclose(libc);
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	put_fn((uint64_t)(uintptr_t)fn, INNER);
	assert_int_equal(tfs_echo("options/sym-offset", "1", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_non_null(strstr(body_of(s), " [libc.so.6] <-ftt_inner+0x0/0x"));
	free(s);
	assert_int_equal(tfs_echo("options/sym-offset", "0", UFT_TFS_TRUNC), 0);

	/* The raw form: ip and parent in hex. */
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	put_fn(INNER, OUTER);
	assert_int_equal(tfs_echo("options/raw", "1", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	snprintf(want, sizeof(want), " %llx %llx\n", (unsigned long long)INNER,
		 (unsigned long long)OUTER);
	assert_non_null(strstr(s, want));
	free(s);
	assert_int_equal(tfs_echo("options/raw", "0", UFT_TFS_TRUNC), 0);
}

/* ---- function_graph ---- */

static void put_graph(void)
{
	put_entry(OUTER, 0);
	put_entry(INNER, 1);
	put_exit(INNER, 1, 1000, 2500);
	assert_int_equal(tfs_echo("trace_marker", "note", UFT_TFS_TRUNC), 0);
	put_exit(OUTER, 0, 0, 61770);
}

static void test_graph_trace(void **state)
{
	put_graph();
	char *s = cat("trace");
	char want[1024];
	snprintf(want, sizeof(want),
		 "# tracer: function_graph\n"
		 "#\n"
		 "# CPU  DURATION                  FUNCTION CALLS\n"
		 "# |     |   |                     |   |   |   |\n"
		 "%s              |  ftt_outer() {\n"
		 "%s  1.500 us    |    ftt_inner();\n"
		 "%s              |  /* note */\n"
		 "%s+ 61.770 us   |  }\n",
		 cpu_col, cpu_col, cpu_col, cpu_col);
	assert_string_equal(s, want);
	free(s);

	/* The options: no CPU column, a tail on every exit. */
	assert_int_equal(tfs_echo("options/funcgraph-cpu", "0", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("options/funcgraph-tail", "1", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_string_equal(s, "# tracer: function_graph\n"
			       "#\n"
			       "#  DURATION                  FUNCTION CALLS\n"
			       "#   |   |                     |   |   |   |\n"
			       "              |  ftt_outer() {\n"
			       "  1.500 us    |    ftt_inner();\n"
			       "              |  /* note */\n"
			       "+ 61.770 us   |  } /* ftt_outer */\n");
	free(s);
	assert_int_equal(tfs_echo("options/funcgraph-duration", "0", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_string_equal(body_of(s), "ftt_outer() {\n"
					"  ftt_inner();\n"
					"/* note */\n"
					"} /* ftt_outer */\n");
	free(s);
	assert_int_equal(tfs_echo("options/funcgraph-duration", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("options/funcgraph-cpu", "1", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("options/funcgraph-tail", "0", UFT_TFS_TRUNC), 0);

	/* latency-format: the latency block, the flags legend and column. */
	assert_int_equal(tfs_echo("options/latency-format", "1", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_memory_equal(
	    s, "# tracer: function_graph\n#\n# function_graph latency trace v1.1.5 on ",
	    strlen("# tracer: function_graph\n#\n# function_graph latency trace v1.1.5 on "));
	assert_non_null(strstr(s, "#    ||| /                      \n"
				  "# CPU||||     DURATION                  FUNCTION CALLS\n"));
	char line[128];
	snprintf(line, sizeof(line), "\n%s ..... |               |  ftt_outer() {\n", cpu_col);
	assert_non_null(strstr(s, line));
	free(s);
	/* Over an empty buffer, no latency block and no legend. */
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	s = cat("trace");
	assert_string_equal(s, "# tracer: nop\n#\n");
	free(s);
	assert_int_equal(tfs_echo("options/latency-format", "0", UFT_TFS_TRUNC), 0);
}

static void test_graph_pipe(void **state)
{
	put_graph();
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open("trace_pipe", UFT_TFS_READ | UFT_TFS_NONBLOCK, &h), 0);
	char buf[4096];
	size_t len = 0;
	ssize_t n;
	while ((n = uft_tracefs_read(h, buf + len, sizeof(buf) - len - 1, 0)) > 0)
		len += (size_t)n;
	assert_int_equal(n, -EAGAIN);
	buf[len] = 0;
	char want[1024];
	snprintf(want, sizeof(want),
		 "%s              |  ftt_outer() {\n"
		 "%s  1.500 us    |    ftt_inner();\n"
		 "%s              |  /* note */\n"
		 "%s+ 61.770 us   |  }\n",
		 cpu_col, cpu_col, cpu_col, cpu_col);
	assert_string_equal(buf, want);
	/* A later exit of the same reader still knows its entry. */
	put_entry(OUTER, 0);
	n = uft_tracefs_read(h, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	put_exit(OUTER, 0, 0, 2000);
	put_fn(INNER, OUTER);
	len = 0;
	while ((n = uft_tracefs_read(h, buf + len, sizeof(buf) - len - 1, 0)) > 0)
		len += (size_t)n;
	buf[len] = 0;
	snprintf(want, sizeof(want), "%s  2.000 us    |  }\n", cpu_col);
	assert_memory_equal(buf, want, strlen(want));
	/* A function record is an ordinary line. */
	assert_non_null(strstr(buf + strlen(want), ": ftt_inner <-ftt_outer\n"));
	uft_tracefs_release(h);
}

static void test_graph_options_files(void **state)
{
	/* The graph options exist in options/ with the kernel's defaults... */
	static const struct {
		const char *name, *value;
	} defaults[] = {
	    {"funcgraph-overrun", "0\n"},  {"funcgraph-cpu", "1\n"},
	    {"funcgraph-overhead", "1\n"}, {"funcgraph-proc", "0\n"},
	    {"funcgraph-duration", "1\n"}, {"funcgraph-abstime", "0\n"},
	    {"funcgraph-irqs", "1\n"},	   {"funcgraph-tail", "0\n"},
	    {"sleep-time", "1\n"},	   {"graph-time", "1\n"},
	};
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		char path[64];
		snprintf(path, sizeof(path), "options/%s", defaults[i].name);
		char *s = cat(path);
		assert_string_equal(s, defaults[i].value);
		free(s);
	}
	/* ... but trace_options lists and takes them only while function_graph
	 * is the current tracer. */
	char *tracer = cat("current_tracer");
	if (strcmp(tracer, "nop\n") == 0) {
		char *s = cat("trace_options");
		assert_null(strstr(s, "funcgraph"));
		assert_non_null(strstr(s, "print-parent\nnosym-offset\nnosym-addr\n"));
		free(s);
		assert_int_equal(tfs_echo("trace_options", "nofuncgraph-cpu", UFT_TFS_TRUNC),
				 -EINVAL);
		s = cat("options/funcgraph-cpu");
		assert_string_equal(s, "1\n");
		free(s);
	}
	free(tracer);
	if (tfs_echo("current_tracer", "function_graph", UFT_TFS_TRUNC) == 0) {
		char *s = cat("trace_options");
		assert_non_null(strstr(s,
				       "nofuncgraph-overrun\nfuncgraph-cpu\nfuncgraph-overhead\n"
				       "nofuncgraph-proc\nfuncgraph-duration\nnofuncgraph-abstime\n"
				       "funcgraph-irqs\nnofuncgraph-tail\nnofuncgraph-retval\n"
				       "nofuncgraph-retval-hex\nsleep-time\ngraph-time\n"));
		free(s);
		assert_int_equal(tfs_echo("trace_options", "funcgraph-proc", UFT_TFS_TRUNC), 0);
		s = cat("options/funcgraph-proc");
		assert_string_equal(s, "1\n");
		free(s);
		assert_int_equal(tfs_echo("trace_options", "nofuncgraph-proc", UFT_TFS_TRUNC), 0);
		assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	}
	/* Bad values change nothing. */
	assert_int_equal(tfs_echo("options/funcgraph-tail", "2", UFT_TFS_TRUNC), -EINVAL);
	char *s = cat("options/funcgraph-tail");
	assert_string_equal(s, "0\n");
	free(s);
}

/* ---- uft record -p: start-up writes the tree's files ---- */

/* Applies UFT_TRACER and its files; whether the report says an error. */
static bool tracer_env_fails(char **text)
{
	struct uft_start_report r = {0};
	uft_record_tracer_apply(&r);
	bool failed = r.error;
	if (text)
		*text = r.text ? strdup(r.text) : NULL;
	uft_start_report_free(&r);
	return failed;
}

static void test_session_tracer_env(void **state)
{
	unsetenv("UFT_TRACER");
	setenv("UFT_FTRACE_FILTER", "ftt_outer", 1);
	char *text;
	assert_false(tracer_env_fails(&text)); /* no tracer asked: nothing */
	assert_null(text);

	/* Start-up meets the same answer a write to the file gets. */
	int want = tfs_echo("set_ftrace_filter", "ftt_outer", UFT_TFS_TRUNC);
	setenv("UFT_TRACER", "function", 1);
	setenv("UFT_FTRACE_FILTER", "ftt_outer ftt_inner", 1);
	bool failed = tracer_env_fails(NULL);
	char *s;
	if (want != 0) {
		assert_true(failed);
		s = cat("current_tracer"); /* a refused filter leaves the tracer alone */
		assert_string_equal(s, "nop\n");
		free(s);
	} else {
		assert_false(failed);
		s = cat("current_tracer");
		assert_string_equal(s, "function\n");
		free(s);
		s = cat("set_ftrace_filter");
		assert_non_null(strstr(s, "ftt_outer"));
		assert_non_null(strstr(s, "ftt_inner"));
		free(s);
		assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
		assert_int_equal(tfs_echo("set_ftrace_filter", "", UFT_TFS_TRUNC), 0);
	}
	/* A pattern that matches no function: the kernel's EINVAL, named. */
	setenv("UFT_FTRACE_FILTER", "no_such_function_here", 1);
	assert_true(tracer_env_fails(&text));
	assert_string_equal(text, "\x1e"
				  "Eset_ftrace_filter: no function matches "
				  "'no_such_function_here'\n");
	free(text);
	s = cat("current_tracer");
	assert_string_equal(s, "nop\n");
	free(s);
	/* A tracer the tree does not have: refused, named. */
	unsetenv("UFT_FTRACE_FILTER");
	setenv("UFT_TRACER", "bogus", 1);
	assert_int_equal(tfs_echo("current_tracer", "bogus", UFT_TFS_TRUNC), -EINVAL);
	assert_true(tracer_env_fails(&text));
	assert_string_equal(text, "\x1e"
				  "Ecurrent_tracer: cannot set bogus: Invalid argument\n");
	free(text);
	unsetenv("UFT_TRACER");
}

int main(void)
{
	/* One CPU, so every record carries the same CPU column. */
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	uft_session_start();
	setup_events();
	char *n = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&n, &len);
	fprintf(f, "%ld", sysconf(_SC_NPROCESSORS_CONF) - 1);
	fclose(f);
	snprintf(cpu_col, sizeof(cpu_col), " %*d) ", (int)len, sched_getcpu());
	free(n);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_function_lines, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_graph_trace, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_graph_pipe, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_graph_options_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_session_tracer_env, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
