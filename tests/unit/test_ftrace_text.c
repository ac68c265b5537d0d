/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The function tracers' text: function lines and function_graph output from
 * crafted record sequences, compared byte for byte with the kernel's layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/text/ftrace_text.h"
#include "wire/shm_layout.h"
#include "ftrace_recs.h"

/* ---- a small symbol table ---- */

static const struct {
	const char *name;
	uint64_t start, size;
	const char *module;
} syms[] = {
    {"main", 0x1000, 0x100, NULL},
    {"foo", 0x1100, 0x40, NULL},
    {"bar", 0x1200, 0x80, NULL},
    {"a_long_function_name", 0x1300, 0x80, NULL},
    {"memcpy", 0x7f0000001000ull, 0x200, "libc.so.6"},
};

static bool lookup(void *ctx, uint64_t addr, struct uft_sym *out)
{
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (addr >= syms[i].start && addr < syms[i].start + syms[i].size) {
			*out = (struct uft_sym){syms[i].name, syms[i].start, syms[i].size,
						syms[i].module};
			return true;
		}
	return false;
}

static const char *comm_of(void *ctx, int pid)
{
	return pid == 100 ? "worker" : pid == 200 ? "other" : pid == 300 ? "averylongname" : NULL;
}

/* Markers comment their message; other events "name: ...". */
static void comment(void *ctx, FILE *f, const struct uft_ftrace_rec *r)
{
	const struct uft_common_entry *e = r->data;
	if (e->type == UFT_ID_PRINT)
		fputs((const char *)r->data + 16, f);
	else
		fprintf(f, "tick: type=%u", e->type);
}

static bool plain(void *ctx, const struct uft_ftrace_rec *r)
{
	return ((const struct uft_common_entry *)r->data)->type == 4;
}

/* ---- capture ---- */

static char *text;
static size_t text_len;

static FILE *cap(void)
{
	free(text);
	text = NULL;
	FILE *f = open_memstream(&text, &text_len);
	assert_non_null(f);
	return f;
}

static const char *done(FILE *f)
{
	fclose(f);
	return text;
}

static int teardown(void **state)
{
	free(text);
	text = NULL;
	return 0;
}

/* ---- function tracer ---- */

static const char *fn(uint64_t ip, uint64_t parent, unsigned opts)
{
	struct uft_rec_function r = ftr_fn(100, ip, parent);
	FILE *f = cap();
	assert_int_equal(uft_ftrace_fn_body(f, &r, sizeof(r), opts, lookup, NULL), 0);
	return done(f);
}

static void test_function_body(void **state)
{
	assert_string_equal(fn(0x1106, 0x1010, UFT_FN_PRINT_PARENT), "foo <-main");
	assert_string_equal(fn(0x1106, 0x1010, 0), "foo");
	assert_string_equal(fn(0x1106, 0x1010, UFT_FN_PRINT_PARENT | UFT_FN_SYM_OFFSET),
			    "foo+0x6/0x40 <-main+0x10/0x100");
	assert_string_equal(fn(0x1106, 0x1010, UFT_FN_PRINT_PARENT | UFT_FN_SYM_ADDR),
			    "foo <0000000000001106> <-main <0000000000001010>");
	assert_string_equal(fn(0x7f0000001010ull, 0x1100, UFT_FN_PRINT_PARENT | UFT_FN_SYM_OFFSET),
			    "memcpy+0x10/0x200 [libc.so.6] <-foo+0x0/0x40");
	assert_string_equal(fn(0x7f0000001010ull, 0x1100, UFT_FN_PRINT_PARENT), "memcpy <-foo");
	/* No parent, an unknown address, address 0. */
	assert_string_equal(fn(0x1106, 0, UFT_FN_PRINT_PARENT), "foo");
	assert_string_equal(fn(0x5000, 0x1010, UFT_FN_PRINT_PARENT), "0x00005000 <-main");
	assert_string_equal(fn(0, 0x1010, UFT_FN_PRINT_PARENT), "0 <-main");
	/* A record too short prints nothing. */
	struct uft_rec_function r = ftr_fn(100, 1, 2);
	FILE *f = cap();
	assert_int_equal(uft_ftrace_fn_body(f, &r, 16, 0, lookup, NULL), -1);
	assert_string_equal(done(f), "");
}

/* ---- function_graph ---- */

struct seq {
	unsigned char buf[64][48];
	struct uft_ftrace_rec r[64];
	size_t n;
};

static void add(struct seq *s, int cpu, uint64_t ts, const void *rec, size_t len)
{
	memcpy(s->buf[s->n], rec, len);
	s->r[s->n] = (struct uft_ftrace_rec){cpu, ts, s->buf[s->n], (uint32_t)len};
	s->n++;
}

#define ADD(s, cpu, ts, rec)                                                                       \
	do {                                                                                       \
		__typeof__(rec) r_ = (rec);                                                        \
		add((s), (cpu), (ts), &r_, sizeof(r_));                                            \
	} while (0)

static void add_marker(struct seq *s, int cpu, uint64_t ts, int pid, const char *msg)
{
	unsigned char rec[48] = {0};
	struct uft_common_entry c = {UFT_ID_PRINT, 0, 0, pid};
	memcpy(rec, &c, sizeof(c));
	snprintf((char *)rec + 16, sizeof(rec) - 16, "%s", msg);
	add(s, cpu, ts, rec, 16 + strlen(msg) + 1);
}

/* Renders a sequence the way the trace file does: each record with the next
 * one of its CPU, a consumed leaf exit skipped. */
static const char *render(struct seq *s, unsigned flags, int nr_cpus)
{
	struct uft_graph g = {
	    .flags = flags,
	    .nr_cpus = nr_cpus,
	    .id_function = UFT_ID_FUNCTION,
	    .id_entry = UFT_ID_FUNCGRAPH_ENTRY,
	    .id_exit = UFT_ID_FUNCGRAPH_EXIT,
	    .sym = lookup,
	    .comm = comm_of,
	    .comment = comment,
	    .plain = plain,
	};
	assert_int_equal(uft_graph_init(&g), 0);
	bool skip[64] = {0};
	FILE *f = cap();
	for (size_t i = 0; i < s->n; i++) {
		if (skip[i])
			continue;
		size_t j = i + 1;
		while (j < s->n && s->r[j].cpu != s->r[i].cpu)
			j++;
		int rc = uft_graph_line(&g, f, &s->r[i], j < s->n ? &s->r[j] : NULL);
		if (rc == UFT_GRAPH_LEAF)
			skip[j] = true;
		else if (rc == UFT_GRAPH_PLAIN)
			fputs("PLAIN\n", f);
	}
	uft_graph_free(&g);
	return done(f);
}

/* main { foo(); bar { marker } } with durations of every mark. */
static void basic_seq(struct seq *s)
{
	s->n = 0;
	ADD(s, 0, 1000, ftr_ent(100, 0x1000, 0));
	ADD(s, 0, 2000, ftr_ent(100, 0x1100, 1));
	ADD(s, 0, 3382, ftr_exit(100, 0x1100, 1, 2000, 3382));
	ADD(s, 0, 4000, ftr_ent(100, 0x1200, 1));
	add_marker(s, 0, 4500, 100, "hello\n");
	ADD(s, 0, 65770, ftr_exit(100, 0x1200, 1, 4000, 65770));
	ADD(s, 0, 3594275000ull, ftr_exit(100, 0x1000, 0, 1000, 3594275000ull));
}

static void test_graph_default(void **state)
{
	struct seq s;
	basic_seq(&s);
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT, 2),
			    " 0)               |  main() {\n"
			    " 0)   1.382 us    |    foo();\n"
			    " 0)               |    bar() {\n"
			    " 0)               |      /* hello */\n"
			    " 0) + 61.770 us   |    }\n"
			    " 0) $ 3594274 us  |  }\n");
}

static void test_graph_marks(void **state)
{
	static const struct {
		uint64_t ns;
		const char *line;
	} cases[] = {
	    {140417, " 0) ! 140.417 us  |  foo();\n"},
	    {1837709, " 0) # 1837.709 us |  foo();\n"},
	    {33998590, " 0) * 33998.59 us |  foo();\n"},
	    {119760200, " 0) @ 119760.2 us |  foo();\n"},
	    {10000, " 0)   10.000 us   |  foo();\n"},
	    {10001, " 0) + 10.001 us   |  foo();\n"},
	    {7, " 0)   0.007 us    |  foo();\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seq s = {.n = 0};
		ADD(&s, 0, 10, ftr_ent(100, 0x1100, 0));
		ADD(&s, 0, 20, ftr_exit(100, 0x1100, 0, 10, 10 + cases[i].ns));
		assert_string_equal(render(&s, UFT_GRAPH_DEFAULT, 4), cases[i].line);
	}
	/* Without funcgraph-overhead the mark column stays blank. */
	struct seq s = {.n = 0};
	ADD(&s, 0, 10, ftr_ent(100, 0x1100, 0));
	ADD(&s, 0, 20, ftr_exit(100, 0x1100, 0, 10, 10 + 140417));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT & ~UFT_GRAPH_OVERHEAD, 4),
			    " 0)   140.417 us  |  foo();\n");
}

static void test_graph_header(void **state)
{
	FILE *f = cap();
	uft_graph_header(f, UFT_GRAPH_DEFAULT);
	assert_string_equal(done(f), "# CPU  DURATION                  FUNCTION CALLS\n"
				     "# |     |   |                     |   |   |   |\n");
	f = cap();
	uft_graph_header(f, UFT_GRAPH_DEFAULT | UFT_GRAPH_PROC | UFT_GRAPH_ABSTIME);
	assert_string_equal(
	    done(f),
	    "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
	    "#      |          |     |    |           |   |                     |   |   |   |\n");
	f = cap();
	uft_graph_header(f, 0);
	assert_string_equal(done(f), "#               FUNCTION CALLS\n"
				     "#               |   |   |   |\n");
	f = cap();
	uft_graph_header(f, UFT_GRAPH_DEFAULT | UFT_GRAPH_NO_CONTEXT);
	assert_string_equal(done(f), "");
}

static void test_graph_latency_format(void **state)
{
	FILE *f = cap();
	uft_graph_header(f, UFT_GRAPH_DEFAULT | UFT_GRAPH_LATENCY);
	assert_string_equal(done(f), "#      _-----=> signals-off     \n"
				     "#     / _----=> need-resched    \n"
				     "#    | / _---=> signal-handler  \n"
				     "#    || / _--=> nesting-depth   \n"
				     "#    ||| /                      \n"
				     "# CPU||||     DURATION                  FUNCTION CALLS\n"
				     "# |  ||||      |   |                     |   |   |   |\n");
	struct seq s = {.n = 0};
	struct uft_rec_funcgraph_entry e = ftr_ent(100, 0x1000, 0);
	e.common.flags = UFT_FLAG_SIGS_BLOCKED | UFT_FLAG_IN_SIGNAL;
	e.common.preempt_count = 2;
	ADD(&s, 0, 100, e);
	ADD(&s, 0, 200, ftr_ent(100, 0x1100, 1));
	ADD(&s, 0, 300, ftr_exit(100, 0x1100, 1, 200, 300));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT | UFT_GRAPH_LATENCY, 2),
			    " 0)  d.h2. |               |  main() {\n"
			    " 0)  ..... |   0.100 us    |    foo();\n");
}

static void test_graph_columns(void **state)
{
	struct seq s = {.n = 0};
	ADD(&s, 1, 1234567891234ull, ftr_ent(100, 0x1000, 0));
	ADD(&s, 1, 1234567892234ull, ftr_ent(100, 0x1100, 1));
	ADD(&s, 1, 1234567893234ull, ftr_exit(100, 0x1100, 1, 1234567892234ull, 1234567893234ull));
	ADD(&s, 1, 1234567894234ull, ftr_exit(100, 0x1000, 0, 1234567891234ull, 1234567894234ull));
	/* Eleven CPUs: two digits. */
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT | UFT_GRAPH_PROC | UFT_GRAPH_ABSTIME, 11),
			    " 1234.567891 |    1)   worker-100   |               |  main() {\n"
			    " 1234.567892 |    1)   worker-100   |   1.000 us    |    foo();\n"
			    " 1234.567894 |    1)   worker-100   |   3.000 us    |  }\n");
	/* No CPU, no duration. */
	assert_string_equal(render(&s, UFT_GRAPH_IRQS, 11), "main() {\n"
							    "  foo();\n"
							    "}\n");
	/* Without context-info only the calls are left. */
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT | UFT_GRAPH_NO_CONTEXT, 2), "main() {\n"
										     "  foo();\n"
										     "}\n");
	/* Tail and overrun. */
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT | UFT_GRAPH_TAIL | UFT_GRAPH_OVERRUN, 2),
			    " 1)               |  main() {\n"
			    " 1)   1.000 us    |    foo();\n"
			    " 1)   3.000 us    |  } /* main */\n"
			    " (Overruns: 0)\n");
}

static void test_graph_missing_entry_and_switch(void **state)
{
	struct seq s = {.n = 0};
	/* An exit whose entry was lost names its function. */
	ADD(&s, 0, 100, ftr_exit(100, 0x1100, 1, 50, 100));
	ADD(&s, 0, 200, ftr_exit(100, 0x1000, 0, 10, 200));
	/* Another task on the same CPU, with a comm cut to 7 characters. */
	ADD(&s, 0, 300, ftr_ent(200, 0x1200, 0));
	ADD(&s, 0, 400, ftr_ent(300, 0x1300, 0));
	/* An unknown pid, then an unknown function. */
	ADD(&s, 0, 500, ftr_ent(7, 0x9999, 0));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT, 2),
			    " 0)   0.050 us    |    } /* foo */\n"
			    " 0)   0.190 us    |  } /* main */\n"
			    " ------------------------------------------\n"
			    " 0)   worker-100   =>   other-200   \n"
			    " ------------------------------------------\n"
			    "\n"
			    " 0)               |  bar() {\n"
			    " ------------------------------------------\n"
			    " 0)   other-200    =>  averylo-300  \n"
			    " ------------------------------------------\n"
			    "\n"
			    " 0)               |  a_long_function_name() {\n"
			    " ------------------------------------------\n"
			    " 0)  averylo-300   =>    <...>-7    \n"
			    " ------------------------------------------\n"
			    "\n"
			    " 0)               |  0x00009999() {\n");
}

static void test_graph_leaf_needs_same_cpu_and_task(void **state)
{
	struct seq s = {.n = 0};
	/* foo's exit is on the same CPU but another record comes first: nested. */
	ADD(&s, 0, 100, ftr_ent(100, 0x1100, 0));
	ADD(&s, 1, 150, ftr_ent(200, 0x1200, 0));
	ADD(&s, 1, 160, ftr_exit(200, 0x1200, 0, 150, 160));
	add_marker(&s, 0, 170, 100, "mid");
	ADD(&s, 0, 200, ftr_exit(100, 0x1100, 0, 100, 200));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT, 2), " 0)               |  foo() {\n"
							      " 1)   0.010 us    |  bar();\n"
							      " 0)               |  /* mid */\n"
							      " 0)   0.100 us    |  }\n");
	/* An exit of another function is no leaf. */
	s.n = 0;
	ADD(&s, 0, 100, ftr_ent(100, 0x1100, 0));
	ADD(&s, 0, 200, ftr_exit(100, 0x1200, 0, 100, 200));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT, 2), " 0)               |  foo() {\n"
							      " 0)   0.100 us    |  } /* bar */\n");
}

static void test_graph_comments_and_plain(void **state)
{
	struct seq s = {.n = 0};
	/* Comments at depth 0 are not indented; deeper ones go one level in. */
	add_marker(&s, 0, 50, 100, "first");
	ADD(&s, 0, 100, ftr_ent(100, 0x1000, 0));
	add_marker(&s, 0, 150, 100, "in main");
	ADD(&s, 0, 200, ftr_ent(100, 0x1100, 1));
	ADD(&s, 0, 300, ftr_ent(100, 0x1200, 2));
	struct uft_common_entry tick = {150, 0, 0, 100};
	add(&s, 0, 350, &tick, sizeof(tick));
	ADD(&s, 0, 400, ftr_fn(100, 0x1100, 0x1000));
	struct uft_common_entry stack = {4, 0, 0, 100};
	add(&s, 0, 450, &stack, sizeof(stack));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT, 2),
			    " 0)               |  /* first */\n"
			    " 0)               |  main() {\n"
			    " 0)               |  /* in main */\n"
			    " 0)               |    foo() {\n"
			    " 0)               |      bar() {\n"
			    " 0)               |        /* tick: type=150 */\n"
			    "PLAIN\n"
			    "PLAIN\n");
}

static void test_graph_irqs(void **state)
{
	struct seq s = {.n = 0};
	ADD(&s, 0, 100, ftr_ent(100, 0x1000, 0));
	struct uft_rec_funcgraph_entry e = ftr_ent(100, 0x1100, 1);
	e.common.flags = UFT_FLAG_IN_SIGNAL;
	ADD(&s, 0, 200, e);
	struct uft_rec_funcgraph_exit x = ftr_exit(100, 0x1100, 1, 200, 300);
	x.common.flags = UFT_FLAG_IN_SIGNAL;
	ADD(&s, 0, 300, x);
	ADD(&s, 0, 400, ftr_exit(100, 0x1000, 0, 100, 400));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT, 2), " 0)               |  main() {\n"
							      " 0)   0.100 us    |    foo();\n"
							      " 0)   0.300 us    |  }\n");
	/* funcgraph-irqs off: calls made in signal handlers are not shown. */
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT & ~UFT_GRAPH_IRQS, 2),
			    " 0)               |  main() {\n"
			    " 0)   0.300 us    |  }\n");
}

/* funcgraph-retval: every exit names its function with the value, a leaf
 * gets it after its call; error codes (down to -4095, also as a 32-bit int)
 * in decimal unless funcgraph-retval-hex. */
static void retval_seq(struct seq *s)
{
	s->n = 0;
	ADD(s, 0, 1000, ftr_ent(100, 0x1000, 0));
	ADD(s, 0, 2000, ftr_ent(100, 0x1100, 1));
	ADD(s, 0, 3000, ftr_exit_ret(100, 0x1100, 1, 2000, 3000, 0));
	ADD(s, 0, 4000, ftr_ent(100, 0x1200, 1));
	ADD(s, 0, 4100, ftr_ent(100, 0x1100, 2));
	ADD(s, 0, 4200, ftr_exit_ret(100, 0x1100, 2, 4100, 4200, 0xffffffeaull));
	ADD(s, 0, 4300, ftr_ent(100, 0x1100, 2));
	ADD(s, 0, 4400, ftr_exit_ret(100, 0x1100, 2, 4300, 4400, 0x80000000ull));
	ADD(s, 0, 4500, ftr_ent(100, 0x1100, 2));
	ADD(s, 0, 4600, ftr_exit_ret(100, 0x1100, 2, 4500, 4600, 0xfffffffffffff000ull));
	ADD(s, 0, 5000, ftr_exit_ret(100, 0x1200, 1, 4000, 5000, 0xfffffffffffff001ull));
	ADD(s, 0, 6000, ftr_exit_ret(100, 0x1000, 0, 1000, 6000, 0x1234));
}

static void test_graph_retval(void **state)
{
	struct seq s;
	retval_seq(&s);
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT | UFT_GRAPH_RETVAL, 2),
			    " 0)               |  main() {\n"
			    " 0)   1.000 us    |    foo(); /* = 0x0 */\n"
			    " 0)               |    bar() {\n"
			    " 0)   0.100 us    |      foo(); /* = -22 */\n"
			    " 0)   0.100 us    |      foo(); /* = 0x80000000 */\n"
			    " 0)   0.100 us    |      foo(); /* = 0xfffffffffffff000 */\n"
			    " 0)   1.000 us    |    } /* bar = -4095 */\n"
			    " 0)   5.000 us    |  } /* main = 0x1234 */\n");
	retval_seq(&s);
	assert_string_equal(render(&s, UFT_GRAPH_RETVAL | UFT_GRAPH_RETVAL_HEX, 2),
			    "main() {\n"
			    "  foo(); /* = 0x0 */\n"
			    "  bar() {\n"
			    "    foo(); /* = 0xffffffea */\n"
			    "    foo(); /* = 0x80000000 */\n"
			    "    foo(); /* = 0xfffffffffffff000 */\n"
			    "  } /* bar = 0xfffffffffffff001 */\n"
			    "} /* main = 0x1234 */\n");
	/* funcgraph-retval-hex alone changes nothing. */
	retval_seq(&s);
	const char *t = render(&s, UFT_GRAPH_RETVAL_HEX, 2);
	assert_non_null(strstr(t, "  foo();\n  bar() {\n    foo();\n"));
	assert_non_null(strstr(t, "  }\n}\n"));
}

/* An exit of the layout before retval (40 bytes) still reads, as 0. */
static void test_graph_exit_old_layout(void **state)
{
	struct uft_rec_funcgraph_exit x = ftr_exit_ret(100, 0x1100, 3, 2000, 3382, 7);
	unsigned char old[UFT_FUNCGRAPH_EXIT_OLD_SIZE];
	memcpy(old, &x, 16);
	memcpy(old + 16, &x.depth, 24);
	struct uft_rec_funcgraph_exit d;
	assert_false(uft_graph_exit_decode(old, sizeof(old) - 1, &d));
	assert_true(uft_graph_exit_decode(old, sizeof(old), &d));
	assert_int_equal(d.func, 0x1100);
	assert_int_equal(d.retval, 0);
	assert_int_equal(d.depth, 3);
	assert_int_equal(d.calltime, 2000);
	assert_int_equal(d.rettime, 3382);
	struct seq s = {.n = 0};
	ADD(&s, 0, 1000, ftr_ent(100, 0x1100, 0));
	add(&s, 0, 3382, old, sizeof(old));
	assert_string_equal(render(&s, UFT_GRAPH_DEFAULT | UFT_GRAPH_RETVAL, 2),
			    " 0)   1.382 us    |  foo(); /* = 0x0 */\n");
}

static void test_option_bits(void **state)
{
	unsigned fn = 99, graph = 99;
	assert_true(uft_ftrace_option_bit("sym-offset", &fn, &graph));
	assert_int_equal(fn, UFT_FN_SYM_OFFSET);
	assert_int_equal(graph, 0);
	assert_true(uft_ftrace_option_bit("funcgraph-tail", &fn, &graph));
	assert_int_equal(fn, 0);
	assert_int_equal(graph, UFT_GRAPH_TAIL);
	assert_false(uft_ftrace_option_bit("sleep-time", &fn, &graph));
	assert_false(uft_ftrace_option_bit("nofuncgraph-cpu", &fn, &graph));
}

static void test_tracer_guess(void **state)
{
	struct uft_tracer_guess t = {0};
	assert_string_equal(uft_tracer_guess_name(&t), "nop");
	uft_tracer_guess_add(&t, 150, 1, 11, 10);
	assert_string_equal(uft_tracer_guess_name(&t), "nop");
	uft_tracer_guess_add(&t, 1, 1, 11, 10);
	assert_string_equal(uft_tracer_guess_name(&t), "function");
	uft_tracer_guess_add(&t, 10, 1, 11, 10);
	assert_string_equal(uft_tracer_guess_name(&t), "function_graph");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_function_body, teardown),
	    cmocka_unit_test_teardown(test_graph_default, teardown),
	    cmocka_unit_test_teardown(test_graph_marks, teardown),
	    cmocka_unit_test_teardown(test_graph_header, teardown),
	    cmocka_unit_test_teardown(test_graph_latency_format, teardown),
	    cmocka_unit_test_teardown(test_graph_columns, teardown),
	    cmocka_unit_test_teardown(test_graph_missing_entry_and_switch, teardown),
	    cmocka_unit_test_teardown(test_graph_leaf_needs_same_cpu_and_task, teardown),
	    cmocka_unit_test_teardown(test_graph_comments_and_plain, teardown),
	    cmocka_unit_test_teardown(test_graph_irqs, teardown),
	    cmocka_unit_test_teardown(test_graph_retval, teardown),
	    cmocka_unit_test_teardown(test_graph_exit_old_layout, teardown),
	    cmocka_unit_test_teardown(test_option_bits, teardown),
	    cmocka_unit_test_teardown(test_tracer_guess, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
