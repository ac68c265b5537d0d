/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writes a function_graph trace.dat whose calls the export tests know
 * exactly: per story, thread 100 ("app", CPU 0) calls main > parse > lex
 * (a leaf), then main > run, and thread 101 ("app-worker", CPU 1) calls
 * worker > lex; a demo:level record (a number and a name) and a
 * kernel_stack sample (main > run) fall in between.
 *
 *   graph_dat [-n REPEAT] [-g] [-x] [-l LOST] OUT.dat
 *
 * -n repeats the story (each 30 us after the previous one; 12 graph
 * records and 2 others each), -g writes the graph records alone (the
 * benchmark's file), -x adds the buffer edges: two exits whose entries
 * were lost before the first story, two entries whose exits never came
 * after the last; -l marks CPU 1's last page as following LOST lost
 * events. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/page.h"
#include "ftrace_recs.h"
#include "tracedat/tracedat.h"

#define PAGE 4096
#define NR_CPUS 2
#define BASE_NS 1000000000000ull
#define STORY_NS 30000ull

enum { MAIN, PARSE, LEX, RUN, WORKER };
static const uint64_t addr[] = {0x401000, 0x401100, 0x401200, 0x401300, 0x401400};
static const char kallsyms[] = "0000000000401000 T main\n"
			       "0000000000401100 t parse\n"
			       "0000000000401200 t lex\n"
			       "0000000000401300 T run\n"
			       "0000000000401400 T worker\n"
			       "0000000000402000 T _etext\n";

static const char level_format[] = "name: level\nID: 500\nformat:\n" FTR_COMMON_FIELDS
				   "\tfield:long value;\toffset:8;\tsize:8;\tsigned:1;\n"
				   "\tfield:char name[16];\toffset:16;\tsize:16;\tsigned:0;\n"
				   "\nprint fmt: \"value=%ld name=%s\", REC->value, REC->name\n";
static const char stack_format[] =
    "name: kernel_stack\nID: 4\nformat:\n" FTR_COMMON_FIELDS
    "\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n"
    "\nprint fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";

enum kind { ENTRY, EXIT, LEVEL, STACK };
struct step {
	int cpu, pid;
	enum kind kind;
	int fn, depth;
	unsigned us;	  /* within the story */
	unsigned call_us; /* exits: when the call began */
};

static const struct step story[] = {
    {0, 100, ENTRY, MAIN, 0, 0, 0},   {0, 100, ENTRY, PARSE, 1, 1, 0},
    {0, 100, ENTRY, LEX, 2, 2, 0},    {1, 101, ENTRY, WORKER, 0, 3, 0},
    {1, 101, ENTRY, LEX, 1, 4, 0},    {0, 100, EXIT, LEX, 2, 5, 2},
    {1, 101, EXIT, LEX, 1, 6, 4},     {0, 100, EXIT, PARSE, 1, 7, 1},
    {0, 100, ENTRY, RUN, 1, 8, 0},    {0, 100, LEVEL, 0, 0, 9, 0},
    {1, 101, EXIT, WORKER, 0, 10, 3}, {0, 100, STACK, 0, 0, 15, 0},
    {0, 100, EXIT, RUN, 1, 20, 8},    {0, 100, EXIT, MAIN, 0, 21, 0},
};

struct cpu_pages {
	uint8_t page[PAGE];
	struct uft_page_builder b;
};
static struct cpu_pages cpus[NR_CPUS];
static unsigned long lost;

static uint32_t build(const struct step *s, uint64_t base, long n, uint8_t *r)
{
	memset(r, 0, 96);
	struct uft_common_entry c = {.pid = s->pid};
	switch (s->kind) {
	case ENTRY: {
		struct uft_rec_funcgraph_entry e = {.func = addr[s->fn], .depth = s->depth};
		e.common = c;
		e.common.type = UFT_ID_FUNCGRAPH_ENTRY;
		memcpy(r, &e, sizeof(e));
		return sizeof(e);
	}
	case EXIT: {
		struct uft_rec_funcgraph_exit e = {.func = addr[s->fn], .depth = s->depth};
		e.common = c;
		e.common.type = UFT_ID_FUNCGRAPH_EXIT;
		e.calltime = base + s->call_us * 1000ull;
		e.rettime = base + s->us * 1000ull;
		memcpy(r, &e, sizeof(e));
		return sizeof(e);
	}
	case LEVEL: {
		c.type = 500;
		memcpy(r, &c, sizeof(c));
		int64_t v = n % 5 + 1;
		memcpy(r + 8, &v, 8);
		memcpy(r + 16, "q\"x", 3); /* a quote to escape */
		return 32;
	}
	case STACK: {
		c.type = 4;
		memcpy(r, &c, sizeof(c));
		int32_t size = 2;
		uint64_t callers[2] = {addr[RUN] + 0x10, addr[MAIN] + 0x20};
		memcpy(r + 8, &size, 4);
		memcpy(r + 16, callers, sizeof(callers));
		return 80;
	}
	}
	return 0;
}

static int add(struct tracedat_writer *w, const struct step *s, uint64_t base, long n)
{
	struct cpu_pages *c = &cpus[s->cpu];
	uint8_t r[96];
	uint32_t len = build(s, base, n, r);
	uint64_t ts = base + s->us * 1000ull;
	if (uft_page_builder_add(&c->b, ts, r, len) != -1)
		return 0;
	uft_page_builder_finish(&c->b, 0);
	int rc = tracedat_writer_add_page(w, s->cpu, c->page);
	uft_page_builder_init(&c->b, c->page, PAGE);
	if (!rc && uft_page_builder_add(&c->b, ts, r, len) == -1)
		rc = -EINVAL;
	return rc;
}

/* The lost entries' exits (lex at depth 2, parse at 1) and the lost exits'
 * entries (main, then run). */
static int edges(struct tracedat_writer *w, bool head, uint64_t base)
{
	static const struct step before[] = {
	    {0, 100, EXIT, LEX, 2, 8, 7},
	    {0, 100, EXIT, PARSE, 1, 9, 5},
	};
	static const struct step after[] = {
	    {0, 100, ENTRY, MAIN, 0, 0, 0},
	    {0, 100, ENTRY, RUN, 1, 1, 0},
	};
	const struct step *v = head ? before : after;
	int rc = 0;
	for (int i = 0; i < 2 && !rc; i++)
		rc = add(w, &v[i], base, 0);
	return rc;
}

static int finish(struct tracedat_writer *w)
{
	int rc = 0;
	for (int c = 0; c < NR_CPUS && !rc; c++)
		if (cpus[c].b.nr_records) {
			uft_page_builder_finish(&cpus[c].b, c == 1 ? lost : 0);
			rc = tracedat_writer_add_page(w, c, cpus[c].page);
		}
	rc = rc ? rc : tracedat_writer_add_format(w, "ftrace", ftr_entry_format);
	rc = rc ? rc : tracedat_writer_add_format(w, "ftrace", ftr_exit_format);
	rc = rc ? rc : tracedat_writer_add_format(w, "ftrace", stack_format);
	rc = rc ? rc : tracedat_writer_add_format(w, "demo", level_format);
	rc = rc ? rc : tracedat_writer_add_cmdline(w, 100, "app");
	rc = rc ? rc : tracedat_writer_add_cmdline(w, 101, "app-worker");
	return rc ? rc : tracedat_writer_set_kallsyms(w, kallsyms, strlen(kallsyms));
}

int main(int argc, char **argv)
{
	long repeat = 1;
	bool graph_only = false, with_edges = false;
	int opt;
	while ((opt = getopt(argc, argv, "n:gxl:")) != -1) {
		if (opt == 'n')
			repeat = strtol(optarg, NULL, 10);
		else if (opt == 'g')
			graph_only = true;
		else if (opt == 'x')
			with_edges = true;
		else if (opt == 'l')
			lost = strtoul(optarg, NULL, 10);
		else
			repeat = 0;
	}
	if (optind != argc - 1 || repeat <= 0) {
		fprintf(stderr, "usage: graph_dat [-n REPEAT] [-g] [-x] [-l LOST] OUT.dat\n");
		return 2;
	}
	struct tracedat_writer *w = tracedat_writer_open(argv[optind], NR_CPUS, PAGE, "local");
	if (!w) {
		perror(argv[optind]);
		return 1;
	}
	for (int c = 0; c < NR_CPUS; c++)
		uft_page_builder_init(&cpus[c].b, cpus[c].page, PAGE);
	/* Stories start 10 us in, after the lost entries' exits. */
	int rc = with_edges ? edges(w, true, BASE_NS - 10000) : 0;
	for (long n = 0; n < repeat && !rc; n++)
		for (size_t i = 0; i < sizeof(story) / sizeof(story[0]) && !rc; i++)
			if (!graph_only || story[i].kind <= EXIT)
				rc = add(w, &story[i], BASE_NS + (uint64_t)n * STORY_NS, n);
	if (!rc && with_edges)
		rc = edges(w, false, BASE_NS + (uint64_t)repeat * STORY_NS);
	rc = rc ? rc : finish(w);
	if (rc) {
		tracedat_writer_abort(w);
		fprintf(stderr, "graph_dat: %s\n", strerror(-rc));
		return 1;
	}
	rc = tracedat_writer_close(w);
	if (rc) {
		fprintf(stderr, "graph_dat: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}
