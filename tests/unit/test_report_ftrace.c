/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft report and trace-cmd report on trace.dat files holding function and
 * function_graph records: uft prints the kernel's trace text, and trace-cmd
 * names the same functions from the file's kallsyms. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
#include "ftrace_recs.h"
#include "cmd/commands.h"
#include "tracedat/tracedat.h"

#define PS 4096u

static const char marker_format[] = "name: print\nID: 5\nformat:\n" FTR_COMMON_FIELDS
				    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
				    "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n"
				    "\nprint fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

static const char kallsyms[] = "0000000000001000 T tracing_mark_write\n"
			       "000055d0c0a01000 T main\n"
			       "000055d0c0a01100 t foo\n"
			       "000055d0c0a01200 T bar\n"
			       "000055d0c0a01300 T end_of_text\n"
			       "00007f2a1c001000 T memcpy\t[libc.so.6]\n"
			       "00007f2a1c001200 T memset\t[libc.so.6]\n";

#define MAIN 0x55d0c0a01000ull
#define FOO 0x55d0c0a01100ull
#define BAR 0x55d0c0a01200ull
#define MEMCPY 0x7f2a1c001000ull

struct rec {
	uint64_t ts;
	uint8_t data[64];
	uint32_t len;
};

static struct rec recs[32];
static size_t nr_recs;

#define PUT(ts_, r_)                                                                               \
	do {                                                                                       \
		__typeof__(r_) v_ = (r_);                                                          \
		recs[nr_recs].ts = (ts_);                                                          \
		memcpy(recs[nr_recs].data, &v_, sizeof(v_));                                       \
		recs[nr_recs].len = sizeof(v_);                                                    \
		nr_recs++;                                                                         \
	} while (0)

static void put_marker(uint64_t ts, int pid, const char *msg)
{
	struct rec *r = &recs[nr_recs++];
	memset(r, 0, sizeof(*r));
	struct uft_common_entry c = {UFT_ID_PRINT, 0, 0, pid};
	uint64_t ip = 0x1000;
	memcpy(r->data, &c, sizeof(c));
	memcpy(r->data + 8, &ip, 8);
	snprintf((char *)r->data + 16, sizeof(r->data) - 16, "%s", msg);
	r->ts = ts;
	r->len = 16 + (uint32_t)strlen(msg) + 1;
}

static char path[64];

/* The funcgraph_exit format the file declares. */
static const char *exit_format = ftr_exit_format;

/* Every record on CPU 0 of a two-CPU file. */
static void write_file(void)
{
	snprintf(path, sizeof(path), "/tmp/uft-test-ftrace-%d.dat", getpid());
	struct tracedat_writer *w = tracedat_writer_open(path, 2, PS, "local");
	assert_non_null(w);
	static uint8_t page[PS];
	struct uft_page_builder b;
	uft_page_builder_init(&b, page, PS);
	for (size_t i = 0; i < nr_recs; i++)
		assert_int_equal(uft_page_builder_add(&b, recs[i].ts, recs[i].data, recs[i].len),
				 0);
	uft_page_builder_finish(&b, 0);
	assert_int_equal(tracedat_writer_add_page(w, 0, page), 0);
	assert_int_equal(tracedat_writer_add_format(w, "ftrace", ftr_function_format), 0);
	assert_int_equal(tracedat_writer_add_format(w, "ftrace", ftr_entry_format), 0);
	assert_int_equal(tracedat_writer_add_format(w, "ftrace", exit_format), 0);
	assert_int_equal(tracedat_writer_add_format(w, "ftrace", marker_format), 0);
	assert_int_equal(tracedat_writer_add_cmdline(w, 100, "worker"), 0);
	assert_int_equal(tracedat_writer_set_kallsyms(w, kallsyms, sizeof(kallsyms) - 1), 0);
	assert_int_equal(tracedat_writer_close(w), 0);
}

/* uft report's output, run in this process, with up to two -O options. */
static char *uft_report_opts(const char *o1, const char *o2, int want_rc)
{
	char out[80];
	snprintf(out, sizeof(out), "/tmp/uft-test-ftrace-%d.txt", getpid());
	fflush(stdout);
	int saved = dup(1);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	dup2(fd, 1);
	close(fd);
	char *argv[8] = {"report", "-i", path};
	int argc = 3;
	if (o1) {
		argv[argc++] = "-O";
		argv[argc++] = (char *)o1;
	}
	if (o2) {
		argv[argc++] = "-O";
		argv[argc++] = (char *)o2;
	}
	argv[argc] = NULL;
	int rc = cmd_report(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(rc, want_rc);
	FILE *f = fopen(out, "r");
	assert_non_null(f);
	char *text = calloc(1, 65536);
	size_t n = fread(text, 1, 65535, f);
	text[n] = 0;
	fclose(f);
	unlink(out);
	return text;
}

static char *uft_report(void)
{
	return uft_report_opts(NULL, NULL, 0);
}

static bool have_trace_cmd(void)
{
	return system("command -v trace-cmd >/dev/null 2>&1") == 0;
}

static char *trace_cmd_report(const char *opts)
{
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s -i '%s' 2>/dev/null", opts, path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char *text = calloc(1, 65536);
	size_t n = fread(text, 1, 65535, p);
	text[n] = 0;
	pclose(p);
	return text;
}

/* The function column of each graph line ("main() {", "foo();", "}"):
 * what follows "|  " (after the indentation), one per line. */
static char *calls_of(const char *text)
{
	char *out = calloc(1, strlen(text) + 1);
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *bar = memmem(p, len, "|  ", 3);
		if (*p != '#' && bar) {
			const char *s = bar + 3;
			while (*s == ' ')
				s++;
			strncat(out, s, len - (size_t)(s - p));
			strcat(out, "\n");
		}
		p += len + (nl != NULL);
	}
	return out;
}

static void test_graph_report(void **state)
{
	nr_recs = 0;
	PUT(1000001000ull, ftr_ent(100, MAIN, 0));
	PUT(1000002000ull, ftr_ent(100, FOO, 1));
	PUT(1000003382ull, ftr_exit(100, FOO, 1, 1000002000ull, 1000003382ull));
	PUT(1000004000ull, ftr_ent(100, MEMCPY + 0x10, 1));
	put_marker(1000004500ull, 100, "hello\n");
	PUT(1000065770ull, ftr_exit(100, MEMCPY + 0x10, 1, 1000004000ull, 1000065770ull));
	PUT(1000070000ull, ftr_exit(100, MAIN, 0, 1000001000ull, 1000070000ull));
	write_file();
	char *u = uft_report();
	assert_string_equal(u, "# tracer: function_graph\n"
			       "#\n"
			       "# CPU  DURATION                  FUNCTION CALLS\n"
			       "# |     |   |                     |   |   |   |\n"
			       " 0)               |  main() {\n"
			       " 0)   1.382 us    |    foo();\n"
			       " 0)               |    memcpy() {\n"
			       " 0)               |      /* hello */\n"
			       " 0) + 61.770 us   |    }\n"
			       " 0) + 69.000 us   |  }\n");
	/* The graph options, as in trace_options. */
	char *o = uft_report_opts("nofuncgraph-cpu", "funcgraph-tail", 0);
	assert_string_equal(o, "# tracer: function_graph\n"
			       "#\n"
			       "#  DURATION                  FUNCTION CALLS\n"
			       "#   |   |                     |   |   |   |\n"
			       "              |  main() {\n"
			       "  1.382 us    |    foo();\n"
			       "              |    memcpy() {\n"
			       "              |      /* hello */\n"
			       "+ 61.770 us   |    } /* memcpy */\n"
			       "+ 69.000 us   |  } /* main */\n");
	free(o);
	o = uft_report_opts("funcgraph-proc", "nofuncgraph-duration", 0);
	assert_non_null(strstr(o, "\n 0)   worker-100   |   memcpy() {\n"));
	free(o);
	o = uft_report_opts("funcgraph-bogus", NULL, 2);
	assert_string_equal(o, "");
	free(o);
	if (!have_trace_cmd()) {
		print_message("trace-cmd not in PATH: skipping the comparison\n");
		free(u);
		unlink(path);
		return;
	}
	/* trace-cmd draws the same calls from the same records. */
	char *t = trace_cmd_report("");
	char *uc = calls_of(u), *tc = calls_of(t);
	assert_string_equal(tc, "main() {\nfoo();\nmemcpy() {\n}\n}\n");
	assert_string_equal(uc, "main() {\nfoo();\nmemcpy() {\n/* hello */\n}\n}\n");
	assert_non_null(strstr(t, "1.382 us   |    foo();"));
	assert_non_null(strstr(t, "+ 61.770 us  |    }"));
	free(uc);
	free(tc);
	free(t);
	free(u);
	unlink(path);
}

/* funcgraph-retval in uft report: the exits' retval field. */
static void test_graph_report_retval(void **state)
{
	nr_recs = 0;
	PUT(1000001000ull, ftr_ent(100, MAIN, 0));
	PUT(1000002000ull, ftr_ent(100, FOO, 1));
	PUT(1000003382ull, ftr_exit_ret(100, FOO, 1, 1000002000ull, 1000003382ull, 0xfffffff4));
	PUT(1000070000ull, ftr_exit_ret(100, MAIN, 0, 1000001000ull, 1000070000ull, 0x2a));
	write_file();
	char *o = uft_report_opts("funcgraph-retval", NULL, 0);
	assert_string_equal(o, "# tracer: function_graph\n"
			       "#\n"
			       "# CPU  DURATION                  FUNCTION CALLS\n"
			       "# |     |   |                     |   |   |   |\n"
			       " 0)               |  main() {\n"
			       " 0)   1.382 us    |    foo(); /* = -12 */\n"
			       " 0) + 69.000 us   |  } /* main = 0x2a */\n");
	free(o);
	o = uft_report_opts("funcgraph-retval", "funcgraph-retval-hex", 0);
	assert_non_null(strstr(o, "    foo(); /* = 0xfffffff4 */\n"));
	free(o);
	if (have_trace_cmd()) {
		/* trace-cmd's graph plugin reads the fields by name. */
		char *t = trace_cmd_report("");
		assert_non_null(strstr(t, "1.382 us   |    foo();"));
		assert_non_null(strstr(t, "+ 69.000 us  |  }"));
		free(t);
	}
	unlink(path);
}

/* A recording whose exits have the layout before retval (40 bytes, its
 * own format) reads as before; its values print as 0. */
static void test_graph_report_old_layout(void **state)
{
	nr_recs = 0;
	PUT(1000001000ull, ftr_ent(100, MAIN, 0));
	PUT(1000002000ull, ftr_ent(100, FOO, 1));
	struct uft_rec_funcgraph_exit x[2] = {
	    ftr_exit_ret(100, FOO, 1, 1000002000ull, 1000003382ull, 5),
	    ftr_exit_ret(100, MAIN, 0, 1000001000ull, 1000070000ull, 5)};
	uint64_t ts[2] = {1000003382ull, 1000070000ull};
	for (int i = 0; i < 2; i++) {
		struct rec *r = &recs[nr_recs++];
		memcpy(r->data, &x[i], 16);
		memcpy(r->data + 16, &x[i].depth, 24);
		r->len = UFT_FUNCGRAPH_EXIT_OLD_SIZE;
		r->ts = ts[i];
	}
	exit_format = ftr_exit_format_old;
	write_file();
	exit_format = ftr_exit_format;
	char *o = uft_report_opts("funcgraph-retval", NULL, 0);
	assert_non_null(strstr(o, " 0)               |  main() {\n"
				  " 0)   1.382 us    |    foo(); /* = 0x0 */\n"
				  " 0) + 69.000 us   |  } /* main = 0x0 */\n"));
	free(o);
	unlink(path);
}

static void test_function_report(void **state)
{
	nr_recs = 0;
	PUT(2000001000ull, ftr_fn(100, FOO + 4, MAIN + 0x20));
	PUT(2000002000ull, ftr_fn(100, MEMCPY, FOO + 8));
	PUT(2000003000ull, ftr_fn(100, 0x800, 0));
	write_file();
	char *u = uft_report();
	const char *body = strstr(u, "#              | |         |   |||||     |         |\n");
	assert_non_null(body);
	assert_memory_equal(
	    u, "# tracer: function\n#\n# entries-in-buffer/entries-written: 3/3   #P:2\n",
	    strlen("# tracer: function\n#\n# entries-in-buffer/entries-written: 3/3"
		   "   #P:2\n"));
	body += strlen("#              | |         |   |||||     |         |\n");
	assert_string_equal(body,
			    "          worker-100     [000] .....     2.000001: foo <-main\n"
			    "          worker-100     [000] .....     2.000002: memcpy <-foo\n"
			    "          worker-100     [000] .....     2.000003: 0x00000800\n");
	if (!have_trace_cmd()) {
		print_message("trace-cmd not in PATH: skipping the comparison\n");
		free(u);
		unlink(path);
		return;
	}
	/* trace-cmd (showing parents) names the same function and parent on
	 * each line: "foo <-- main" where uft prints "foo <-main". */
	char *t = trace_cmd_report("-O parent=1");
	static const char *const pairs[][2] = {
	    {": foo <-main\n", "function:             foo <-- main\n"},
	    {": memcpy <-foo\n", "memcpy <-- foo\n"},
	    {": 0x00000800\n", "0x800 <-- 0x0\n"},
	};
	for (size_t i = 0; i < 3; i++) {
		assert_non_null(strstr(u, pairs[i][0]));
		assert_non_null(strstr(t, pairs[i][1]));
	}
	free(t);
	free(u);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_graph_report),
	    cmocka_unit_test(test_graph_report_retval),
	    cmocka_unit_test(test_graph_report_old_layout),
	    cmocka_unit_test(test_function_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
