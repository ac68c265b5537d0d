/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The function_graph tracer end to end on a known call tree: functions of
 * this program (built with the patchable entries) are patched, run, and the
 * live `trace` file must print the kernel's graph text byte for byte (the
 * duration column off where durations would vary, and checked by shape where
 * it is on). */
#define _GNU_SOURCE
#include <regex.h>
#include <sched.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/tracefs/tracefs.h"
#include "tfs_helpers.h"
#include "util/atomics.h"
#include <uft/uft.h> /* its registration constructors are in this program */

#define W (UFT_TFS_WRITE | UFT_TFS_TRUNC)

#define NOINLINE __attribute__((noinline))
static volatile unsigned sink;

NOINLINE int gl_leaf(int x)
{
	uft_add_return_relaxed(&sink, (unsigned)x);
	__asm__ volatile("" ::: "memory");
	return x & 0xff;
}

NOINLINE int gl_mid(int x)
{
	return gl_leaf(x) + gl_leaf(x + 1);
}

NOINLINE int gl_top(int x)
{
	int r = gl_mid(x);
	return r + gl_leaf(r);
}

NOINLINE int gl_fail(int x)
{
	return -gl_leaf(x);
}

static void echo(const char *path, const char *text)
{
	assert_int_equal(tfs_echo(path, text, W), 0);
}

static char *trace_text(void)
{
	int err;
	char *t = tfs_cat("trace", &err);
	assert_non_null(t);
	return t;
}

/* Runs gl_top under function_graph with the given option settings and
 * returns the trace file's text. */
static char *graph_of_top(const char *const *opts)
{
	echo("current_tracer", "nop");
	echo("set_ftrace_filter", "gl_*");
	for (; *opts; opts++) {
		char path[64];
		bool off = strncmp(*opts, "no", 2) == 0;
		snprintf(path, sizeof(path), "options/%s", *opts + (off ? 2 : 0));
		echo(path, off ? "0" : "1");
	}
	echo("current_tracer", "function_graph");
	gl_top(3);
	echo("tracing_on", "0");
	char *t = trace_text();
	echo("tracing_on", "1");
	return t;
}

static void restore(void)
{
	echo("current_tracer", "nop");
	echo("options/funcgraph-cpu", "1");
	echo("options/funcgraph-duration", "1");
	echo("options/funcgraph-tail", "0");
	echo("options/funcgraph-retval", "0");
	echo("options/funcgraph-retval-hex", "0");
	echo("set_ftrace_filter", "");
}

/* No CPU and no duration column: only the tree. */
static void test_tree_text(void **state)
{
	static const char *const opts[] = {"nofuncgraph-cpu", "nofuncgraph-duration", NULL};
	char *t = graph_of_top(opts);
	assert_string_equal(t, "# tracer: function_graph\n"
			       "#\n"
			       "#               FUNCTION CALLS\n"
			       "#               |   |   |   |\n"
			       "gl_top() {\n"
			       "  gl_mid() {\n"
			       "    gl_leaf();\n"
			       "    gl_leaf();\n"
			       "  }\n"
			       "  gl_leaf();\n"
			       "}\n");
	free(t);
	restore();
}

/* funcgraph-tail names the function at each closing brace. */
static void test_tree_text_tail(void **state)
{
	static const char *const opts[] = {"nofuncgraph-cpu", "nofuncgraph-duration",
					   "funcgraph-tail", NULL};
	char *t = graph_of_top(opts);
	assert_string_equal(t, "# tracer: function_graph\n"
			       "#\n"
			       "#               FUNCTION CALLS\n"
			       "#               |   |   |   |\n"
			       "gl_top() {\n"
			       "  gl_mid() {\n"
			       "    gl_leaf();\n"
			       "    gl_leaf();\n"
			       "  } /* gl_mid */\n"
			       "  gl_leaf();\n"
			       "} /* gl_top */\n");
	free(t);
	restore();
}

/* funcgraph-retval: the values the functions returned, taken at their
 * return; an int error code in decimal unless funcgraph-retval-hex. */
static void test_tree_text_retval(void **state)
{
	static const char *const opts[] = {"nofuncgraph-cpu", "nofuncgraph-duration",
					   "funcgraph-retval", NULL};
	char *t = graph_of_top(opts);
	assert_string_equal(t, "# tracer: function_graph\n"
			       "#\n"
			       "#               FUNCTION CALLS\n"
			       "#               |   |   |   |\n"
			       "gl_top() {\n"
			       "  gl_mid() {\n"
			       "    gl_leaf(); /* = 0x3 */\n"
			       "    gl_leaf(); /* = 0x4 */\n"
			       "  } /* gl_mid = 0x7 */\n"
			       "  gl_leaf(); /* = 0x7 */\n"
			       "} /* gl_top = 0xe */\n");
	free(t);
	echo("trace", "");
	gl_fail(22);
	t = trace_text();
	assert_non_null(
	    strstr(t, "gl_fail() {\n  gl_leaf(); /* = 0x16 */\n} /* gl_fail = -22 */\n"));
	free(t);
	echo("options/funcgraph-retval-hex", "1");
	t = trace_text();
	assert_non_null(strstr(t, "} /* gl_fail = 0xffffffea */\n"));
	free(t);
	restore();
}

/* The default columns: CPU, duration with its mark, the same tree. The
 * thread stays on one CPU for the few microseconds of the call. */
static void test_tree_default_columns(void **state)
{
	static const char *const opts[] = {NULL};
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	char *t = graph_of_top(opts);
	static const char *const want[] = {
	    "^# tracer: function_graph$",
	    "^#$",
	    "^# CPU  DURATION                  FUNCTION CALLS$",
	    "^# \\|     \\|   \\|                     \\|   \\|   \\|   \\|$",
	    "^ 0\\)               \\|  gl_top\\(\\) \\{$",
	    "^ 0\\)               \\|    gl_mid\\(\\) \\{$",
	    "^ 0\\) [ +!#*@$] [0-9]+[.]?[0-9]* us +\\|      gl_leaf\\(\\);$",
	    "^ 0\\) [ +!#*@$] [0-9]+[.]?[0-9]* us +\\|      gl_leaf\\(\\);$",
	    "^ 0\\) [ +!#*@$] [0-9]+[.]?[0-9]* us +\\|    }$",
	    "^ 0\\) [ +!#*@$] [0-9]+[.]?[0-9]* us +\\|    gl_leaf\\(\\);$",
	    "^ 0\\) [ +!#*@$] [0-9]+[.]?[0-9]* us +\\|  }$",
	};
	char *save = NULL, *line = strtok_r(t, "\n", &save);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_non_null(line);
		regex_t re;
		assert_int_equal(regcomp(&re, want[i], REG_EXTENDED | REG_NOSUB), 0);
		if (regexec(&re, line, 0, NULL, 0) != 0)
			fail_msg("line %zu: '%s' does not match '%s'", i, line, want[i]);
		regfree(&re);
		if (i >= 4) /* the duration column keeps its width */
			assert_int_equal(strchr(line, '|') - line, 18);
		line = strtok_r(NULL, "\n", &save);
	}
	assert_null(line);
	free(t);
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		CPU_SET(c, &one);
	sched_setaffinity(0, sizeof(one), &one);
	restore();
}

int main(void)
{
	setenv("UFT_CTL", "0", 1);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tree_text),
	    cmocka_unit_test(test_tree_text_tail),
	    cmocka_unit_test(test_tree_text_retval),
	    cmocka_unit_test(test_tree_default_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
