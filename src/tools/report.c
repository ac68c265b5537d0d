/* uft report: a trace.dat file printed as the kernel's `trace` file reads:
 * header, legend, then every event of every CPU merged in time order. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "common/clocks.h"
#include "common/page.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "tools/report_ftrace.h"
#include "tools/report_hist.h"
#include "tools/trace_file.h"

struct cpu_cursor {
	const struct tracedat_cpu *cpu;
	uint64_t page_off; /* offset of the current page within the CPU's data */
	struct uft_page_iter it;
	struct uft_page_rec rec;
	bool have;
	bool started;
	uint64_t missed; /* announced by the current page */
};

static bool cursor_next(struct cpu_cursor *c, uint32_t page_size)
{
	for (;;) {
		if (c->started && uft_page_iter_next(&c->it, &c->rec) > 0) {
			c->have = true;
			return true;
		}
		if (c->started)
			c->page_off += page_size;
		c->started = true;
		if (page_size == 0 || c->page_off + page_size > c->cpu->size) {
			c->have = false;
			return false;
		}
		uft_page_iter_init(&c->it, c->cpu->data + c->page_off, page_size);
		c->missed =
		    c->it.missed ? (c->it.missed_stored ? c->it.missed_count : UINT64_MAX) : 0;
	}
}

/* The CPUs --cpu asked for; none asked means all. */
struct cpu_set {
	unsigned long long mask[64];
	bool any;
};

static bool cpu_selected(const struct cpu_set *s, int cpu)
{
	if (!s->any)
		return true;
	return cpu >= 0 && cpu < 4096 && (s->mask[cpu / 64] & (1ull << (cpu % 64)));
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: uft report [-i FILE] [--cpu N] [-O [no]OPTION]... [--hist SYSTEM:EVENT:SPEC]\n"
	    "  -i FILE    trace.dat file to read (default trace.dat)\n"
	    "  -O OPTION  a function tracer display option of trace_options (print-parent,\n"
	    "             sym-offset, sym-addr, funcgraph-cpu, -proc, -abstime, -duration,\n"
	    "             -overhead, -overrun, -irqs, -tail); noOPTION turns it off\n"
	    "  --cpu N    only events of CPU N (repeatable)\n"
	    "  --hist S   print the histogram of hist trigger S ('sched:sched_switch:\n"
	    "             keys=prev_pid:vals=prev_prio'); repeatable; no event lines\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"input", required_argument, NULL, 'i'},
	    {"cpu", required_argument, NULL, 'c'},
	    {"hist", required_argument, NULL, 'H'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *in = "trace.dat";
	struct cpu_set sel = {0};
	const char **hists = NULL;
	size_t nr_hists = 0;
	const char *opts[64];
	size_t nr_opts = 0;
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "i:O:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'O': {
			unsigned fn, graph;
			const char *name = optarg;
			if (!uft_ftrace_option_bit(name, &fn, &graph) &&
			    !(strncmp(name, "no", 2) == 0 &&
			      uft_ftrace_option_bit(name + 2, &fn, &graph))) {
				fprintf(stderr, "uft report: unknown option '%s'\n", name);
				free(hists);
				return 2;
			}
			if (nr_opts < sizeof(opts) / sizeof(opts[0]))
				opts[nr_opts++] = name;
			break;
		}
		case 'i':
			in = optarg;
			break;
		case 'c': {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || n < 0 || n >= 4096) {
				fprintf(stderr, "uft report: bad cpu '%s'\n", optarg);
				return 2;
			}
			sel.mask[n / 64] |= 1ull << (n % 64);
			sel.any = true;
			break;
		}
		case 'H': {
			const char **m = realloc(hists, (nr_hists + 1) * sizeof(*hists));
			if (!m) {
				free(hists);
				return 1;
			}
			hists = m;
			hists[nr_hists++] = optarg;
			break;
		}
		case 'h':
			free(hists);
			usage(stdout);
			return 0;
		default:
			free(hists);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		in = argv[optind];

	struct trace_file tf;
	char err[256];
	if (trace_file_open(&tf, in, err, sizeof(err)) != 0) {
		fprintf(stderr, "uft report: %s\n", err);
		free(hists);
		return 1;
	}
	if (nr_hists) {
		int rc = report_hist(&tf, hists, nr_hists, stdout, stderr);
		free(hists);
		trace_file_close(&tf);
		return rc;
	}
	if (tf.td->latency) {
		fwrite(tf.td->latency_text, 1, tf.td->latency_len, stdout);
		trace_file_close(&tf);
		return 0;
	}
	unsigned flags = 0;
	int clk = uft_clock_by_name(tf.td->clock);
	if (clk >= 0 && !uft_clock_is_ns((enum uft_clock)clk))
		flags |= UFT_OUT_RAW_CLOCK;

	size_t n = tf.td->nr_cpu_data;
	struct cpu_cursor *cur = calloc(n ? n : 1, sizeof(*cur));
	if (!cur) {
		trace_file_close(&tf);
		return 1;
	}
	struct report_ftrace rf;
	if (report_ftrace_init(&rf, &tf, flags) != 0) {
		free(cur);
		trace_file_close(&tf);
		return 1;
	}
	for (size_t i = 0; i < nr_opts; i++)
		report_ftrace_option(&rf, opts[i]);
	uint32_t psz = tf.td->page_size;
	uint64_t entries = 0, lost = 0;
	for (size_t i = 0; i < n; i++) {
		cur[i].cpu = &tf.td->cpus[i];
		int cpu = cur[i].cpu->cpu;
		if (!cpu_selected(&sel, cpu))
			continue;
		/* First pass: the header's entry counts. */
		struct cpu_cursor c = {.cpu = cur[i].cpu};
		while (cursor_next(&c, psz)) {
			entries++;
			report_ftrace_note(&rf, c.rec.data, c.rec.len);
			if (c.missed && c.missed != UINT64_MAX)
				lost += c.missed;
			c.missed = 0;
		}
		cursor_next(&cur[i], psz);
	}
	report_ftrace_header(&rf, stdout, entries, entries + lost);
	for (;;) {
		struct cpu_cursor *best = NULL;
		for (size_t i = 0; i < n; i++) {
			if (!cur[i].have) /* exhausted, or a CPU not asked for */
				continue;
			if (!best || cur[i].rec.ts < best->rec.ts)
				best = &cur[i];
		}
		if (!best)
			break;
		if (best->missed) {
			uft_out_lost(stdout, best->cpu->cpu, best->missed);
			best->missed = 0;
		}
		struct uft_out_record r = {best->cpu->cpu, best->rec.ts, best->rec.data,
					   best->rec.len};
		/* The next record of the same CPU, for function_graph's leaves. */
		struct cpu_cursor peek = *best;
		bool more = rf.graph && cursor_next(&peek, psz);
		struct uft_out_record nx = {peek.cpu->cpu, peek.rec.ts, peek.rec.data,
					    peek.rec.len};
		if (report_ftrace_line(&rf, stdout, &r, more ? &nx : NULL) == UFT_GRAPH_LEAF)
			cursor_next(best, psz);
		cursor_next(best, psz);
	}
	report_ftrace_free(&rf);
	free(cur);
	trace_file_close(&tf);
	return 0;
}
