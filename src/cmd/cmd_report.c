/* uft report: a trace.dat file printed as the kernel's `trace` file reads:
 * header, legend, then every event of every CPU merged in time order. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "wire/clocks.h"
#include "wire/page.h"
#include "cmd/commands.h"
#include "report/output.h"
#include "report/report_ftrace.h"
#include "report/report_hist.h"
#include "tracedat/trace_file.h"

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

static int push(const char ***v, size_t *n, const char *s)
{
	const char **m = realloc(*v, (*n + 1) * sizeof(**v));
	if (!m)
		return -1;
	*v = m;
	m[(*n)++] = s;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uft report [-i FILE] [--cpu N] [-O [no]OPTION]... [--synth DEF]... "
		"[--hist SYSTEM:EVENT:SPEC]... [--trace]\n"
		"  -i FILE      trace.dat file to read (default trace.dat)\n"
		"  --cpu N      only events of CPU N (repeatable)\n"
		"  -O OPTION    a function tracer display option of trace_options (print-parent,\n"
		"               sym-offset, sym-addr, funcgraph-cpu, -proc, -abstime, -duration,\n"
		"               -overhead, -overrun, -irqs, -tail); noOPTION turns it off\n"
		"  --synth DEF  define a synthetic event, synthetic_events syntax\n"
		"               ('wakeup_lat u64 lat; pid_t pid'); repeatable\n"
		"  --hist S     run hist trigger S over the file ('sched:sched_switch:\n"
		"               keys=prev_pid:vals=prev_prio'); repeatable, run in order;\n"
		"               prints the histograms, no event lines\n"
		"  --trace      print the events instead, with the synthetic events the\n"
		"               triggers generated among them\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"input", required_argument, NULL, 'i'},
	    {"cpu", required_argument, NULL, 'c'},
	    {"hist", required_argument, NULL, 'H'},
	    {"synth", required_argument, NULL, 'S'},
	    {"trace", no_argument, NULL, 'T'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *in = "trace.dat";
	struct cpu_set sel = {0};
	const char **hists = NULL, **synths = NULL;
	size_t nr_hists = 0, nr_synths = 0;
	bool trace = false;
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
				free(synths);
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
		case 'H':
		case 'S':
			if (push(opt == 'H' ? &hists : &synths, opt == 'H' ? &nr_hists : &nr_synths,
				 optarg)) {
				free(hists);
				free(synths);
				return 1;
			}
			break;
		case 'T':
			trace = true;
			break;
		case 'h':
			free(hists);
			free(synths);
			usage(stdout);
			return 0;
		default:
			free(hists);
			free(synths);
			usage(stderr);
			return 2;
		}
	}
	if ((nr_synths || trace) && !nr_hists) {
		fprintf(stderr, "uft report: --synth and --trace go with --hist\n");
		free(hists);
		free(synths);
		return 2;
	}
	const struct report_hist_opts ho = {synths, nr_synths, hists, nr_hists};
	if (optind < argc)
		in = argv[optind];

	struct trace_file tf;
	char err[256];
	if (trace_file_open(&tf, in, err, sizeof(err)) != 0) {
		fprintf(stderr, "uft report: %s\n", err);
		free(hists);
		free(synths);
		return 1;
	}
	if (nr_hists && !trace) {
		int rc = report_hist(&tf, &ho, stdout, stderr);
		free(hists);
		free(synths);
		trace_file_close(&tf);
		return rc;
	}
	/* --trace: the synthetic records, each after the record that made it. */
	struct replay *rp = NULL;
	const struct replay_rec *extra = NULL;
	size_t nr_extra = 0, next = 0;
	if (trace) {
		rp = report_replay(&tf, &ho, true, "uft report", stderr);
		if (!rp) {
			free(hists);
			free(synths);
			trace_file_close(&tf);
			return 1;
		}
		extra = replay_records(rp, &nr_extra);
	}
	free(hists);
	free(synths);
	if (tf.td->latency) {
		replay_free(rp);
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
		replay_free(rp);
		trace_file_close(&tf);
		return 1;
	}
	struct report_ftrace rf;
	if (report_ftrace_init(&rf, &tf, flags) != 0) {
		free(cur);
		replay_free(rp);
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
	for (size_t k = 0; k < nr_extra; k++)
		entries += cpu_selected(&sel, extra[k].cpu);
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
		const void *cause = best->rec.data;
		if (report_ftrace_line(&rf, stdout, &r, more ? &nx : NULL) == UFT_GRAPH_LEAF)
			cursor_next(best, psz);
		for (; next < nr_extra; next++) {
			const struct replay_rec *x = &extra[next];
			if (!cpu_selected(&sel, x->cpu))
				continue;
			if (x->cause != cause)
				break;
			struct uft_out_record xr = {x->cpu, x->ts, x->data, x->len};
			uft_out_event(stdout, tf.tep, trace_file_comm, &tf, &xr, flags);
		}
		cursor_next(best, psz);
	}
	report_ftrace_free(&rf);
	free(cur);
	replay_free(rp);
	trace_file_close(&tf);
	return 0;
}
