/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Function tracer records through the whole recording path: this program,
 * run again under `uft record -p function_graph`, writes function and
 * funcgraph records itself; the recorder collects them with the program's
 * symbols from its maps, and uft report and trace-cmd name the functions. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ftrace_events.h"
#include "tfs_helpers.h"
#include "cmd/commands.h"
#include <uft/uft.h>

__attribute__((noinline, used)) void rft_outer(void)
{
	__asm__ volatile("nop; nop; nop; nop; nop; nop; nop; nop" ::: "memory");
}

__attribute__((noinline, used)) void rft_inner(void)
{
	__asm__ volatile("nop; nop; nop; nop; nop; nop; nop; nop" ::: "memory");
}

#define OUTER ((uint64_t)(uintptr_t)&rft_outer)
#define INNER ((uint64_t)(uintptr_t)&rft_inner)

/* The traced side: a graph of two calls and a function record. */
static int child(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (uft_session_start() != 0)
		return 3;
	/* Only the records written here: whatever tracer start-up turned on
	 * goes off (which also empties the buffer). */
	tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC);
	setup_events();
	put_entry(OUTER, 0);
	put_entry(INNER, 1);
	put_exit(INNER, 1, 1000, 2500);
	put_exit(OUTER, 0, 0, 61770);
	put_fn(INNER, OUTER + 4);
	return 0;
}

static char dat[64], exe[4096];

static char *run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char *text = calloc(1, 1 << 20);
	size_t n = fread(text, 1, (1 << 20) - 1, p);
	text[n] = 0;
	pclose(p);
	return text;
}

static char *uft_report(void)
{
	char out[80];
	snprintf(out, sizeof(out), "/tmp/uft-test-ftrec-%d.txt", getpid());
	fflush(stdout);
	int saved = dup(1);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	dup2(fd, 1);
	close(fd);
	char *argv[] = {"report", "-i", dat, NULL};
	int rc = cmd_report(3, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(rc, 0);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "cat '%s'", out);
	char *text = run(cmd);
	unlink(out);
	return text;
}

static void test_recorded_graph(void **state)
{
	const char *b = getenv("UFT_BUILD");
	char uft[4200], cmd[8600];
	snprintf(uft, sizeof(uft), "%s/bin/uft", b && *b ? b : "build");
	if (access(uft, X_OK) != 0) {
		print_message("%s not built: skipping\n", uft);
		return;
	}
	snprintf(dat, sizeof(dat), "/tmp/uft-test-ftrec-%d.dat", getpid());
	snprintf(cmd, sizeof(cmd), "'%s' record -q -p function_graph -o '%s' -- '%s' --child 2>&1",
		 uft, dat, exe);
	free(run(cmd));

	/* The program's functions are in the file's kallsyms. */
	snprintf(cmd, sizeof(cmd), "grep -a -c -E '^[0-9a-f]{16} T rft_(outer|inner)$' '%s'", dat);
	char *n = run(cmd);
	assert_string_equal(n, "2\n");
	free(n);

	char *u = uft_report();
	assert_non_null(strstr(u, "# tracer: function_graph\n#\n# CPU  DURATION"));
	assert_non_null(strstr(u, ")               |  rft_outer() {\n"));
	assert_non_null(strstr(u, ")   1.500 us    |    rft_inner();\n"));
	assert_non_null(strstr(u, ") + 61.770 us   |  }\n"));
	/* Under the graph a function record is an ordinary line. */
	assert_non_null(strstr(u, ": rft_inner <-rft_outer\n"));
	free(u);

	if (system("command -v trace-cmd >/dev/null 2>&1") != 0) {
		print_message("trace-cmd not in PATH: skipping its part\n");
		unlink(dat);
		return;
	}
	snprintf(cmd, sizeof(cmd), "trace-cmd report -O parent=1 -i '%s' 2>/dev/null", dat);
	char *t = run(cmd);
	assert_non_null(strstr(t, "|  rft_outer() {\n"));
	assert_non_null(strstr(t, "1.500 us   |    rft_inner();\n"));
	assert_non_null(strstr(t, "rft_inner <-- rft_outer\n"));
	free(t);
	unlink(dat);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--child") == 0)
		return child();
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 1;
	exe[n] = 0;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_recorded_graph),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
