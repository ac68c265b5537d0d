/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft report: a trace.dat file printed as the kernel's `trace` file reads:
 * header, legend, then every event of every CPU merged in time order. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "wire/clocks.h"
#include "wire/page.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/report_progress.h"
#include "export/formats.h"
#include "export/html.h"
#include "report/output.h"
#include "report/report_ftrace.h"
#include "report/report_hist.h"
#include "tracedat/trace_file.h"
#include "util/atomics.h"

struct cpu_cursor {
	const struct tracedat_cpu *cpu;
	const char *buffer; /* the instance's name; NULL for the top one */
	uint64_t page_off;  /* offset of the current page within the CPU's data */
	struct uft_page_iter it;
	struct uft_page_rec rec;
	bool have;
	bool started;
	bool counts;	 /* adds its pages to print_bytes (a look-ahead copy does not) */
	uint64_t missed; /* announced by the current page */
};

/* Bytes of pages the printer's passes entered, for the progress display. */
static uint64_t print_bytes;

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
		if (c->counts)
			WRITE_ONCE(print_bytes, READ_ONCE(print_bytes) + page_size);
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

static const char usage[] =
    "usage: uft report [-i FILE] [--cpu N] [-O [no]OPTION]... [--synth DEF]... "
    "[--hist SYSTEM:EVENT:SPEC]... [--trace]\n"
    "       uft report [-i FILE] [--cpu N]... (--format FORMAT | --flame | --html) [-o OUT]\n"
    "                  [--counter SYSTEM:EVENT:FIELD]... [--folded-by time|count]\n"
    "  -i FILE      trace.dat file to read (default trace.dat)\n"
    "  --cpu N      only events of CPU N (repeatable)\n"
    "  -O OPTION    a function tracer display option of trace_options (print-parent,\n"
    "               sym-offset, sym-addr, funcgraph-cpu, -proc, -abstime, -duration,\n"
    "               -overhead, -overrun, -irqs, -tail, -retval, -retval-hex);\n"
    "               noOPTION turns it off\n"
    "  --synth DEF  define a synthetic event, synthetic_events syntax\n"
    "               ('wakeup_lat u64 lat; pid_t pid'); repeatable\n"
    "  --hist S     run hist trigger S over the file ('sched:sched_switch:\n"
    "               keys=prev_pid:vals=prev_prio'); repeatable, run in order;\n"
    "               prints the histograms, no event lines\n"
    "  --trace      print the events instead, with the synthetic events the\n"
    "               triggers generated among them\n"
    "  --format F   export instead of printing: perfetto (Perfetto's protobuf\n"
    "               trace), chrome-json (Trace Event Format), folded (one line\n"
    "               per call path: flame graph input)\n"
    "  --flame      export a self-contained interactive flame graph (SVG)\n"
    "  --html       export one self-contained HTML page: timeline, flame graph,\n"
    "               and the histograms of the --hist given\n"
    "  -o FILE      where the export goes (default: standard output)\n"
    "  --counter S  SYSTEM:EVENT:FIELD as a counter track (perfetto,\n"
    "               chrome-json); repeatable\n"
    "  --folded-by M  folded and flame widths: time (self time of calls) or\n"
    "               count (calls, stack samples); default time when the file\n"
    "               has function_graph calls, else count\n";

struct report_opts {
	const char *in;
	struct cpu_set sel;
	const char **hists, **synths;
	size_t nr_hists, nr_synths;
	bool trace;
	const char *opts[64];
	size_t nr_opts;
	const char *format; /* an export, or NULL */
	const char *out;
	struct exp_opts xo;
	enum flame_by by;
};

static const struct cli report_cli;

static int take(void *opts, int opt, char *arg)
{
	struct report_opts *o = opts;
	unsigned fn, graph;
	long cpu;
	switch (opt) {
	case 'O':
		if (!uft_ftrace_option_bit(arg, &fn, &graph) &&
		    !(strncmp(arg, "no", 2) == 0 && uft_ftrace_option_bit(arg + 2, &fn, &graph)))
			return cli_error(&report_cli, "unknown option '%s'", arg);
		if (o->nr_opts < sizeof(o->opts) / sizeof(o->opts[0]))
			o->opts[o->nr_opts++] = arg;
		break;
	case 'i':
		o->in = arg;
		break;
	case 'c':
		if (!cli_long(arg, 10, 0, 4095, &cpu))
			return cli_error(&report_cli, "bad cpu '%s'", arg);
		o->sel.mask[cpu / 64] |= 1ull << (cpu % 64);
		o->sel.any = true;
		break;
	case 'H':
		return push(&o->hists, &o->nr_hists, arg) ? 1 : CLI_OK;
	case 'S':
		return push(&o->synths, &o->nr_synths, arg) ? 1 : CLI_OK;
	case 'T':
		o->trace = true;
		break;
	case 'F':
		if (strcmp(arg, "perfetto") && strcmp(arg, "chrome-json") && strcmp(arg, "folded"))
			return cli_error(&report_cli, "unknown format '%s'", arg);
		o->format = arg;
		break;
	case 'G':
		o->format = "flame";
		break;
	case 'W':
		o->format = "html";
		break;
	case 'o':
		o->out = arg;
		break;
	case 'C':
		if (o->xo.nr_counters == EXPORT_MAX_COUNTERS)
			return cli_error(&report_cli, "at most %d --counter", EXPORT_MAX_COUNTERS);
		o->xo.counters[o->xo.nr_counters++] = arg;
		break;
	case 'B':
		if (strcmp(arg, "time") && strcmp(arg, "count"))
			return cli_error(&report_cli, "--folded-by: time or count, not '%s'", arg);
		o->by = arg[0] == 't' ? FLAME_BY_TIME : FLAME_BY_COUNT;
		break;
	}
	return CLI_OK;
}

static const struct option report_longopts[] = {
    {"input", required_argument, NULL, 'i'},
    {"cpu", required_argument, NULL, 'c'},
    {"hist", required_argument, NULL, 'H'},
    {"synth", required_argument, NULL, 'S'},
    {"trace", no_argument, NULL, 'T'},
    {"format", required_argument, NULL, 'F'},
    {"flame", no_argument, NULL, 'G'},
    {"html", no_argument, NULL, 'W'},
    {"output", required_argument, NULL, 'o'},
    {"counter", required_argument, NULL, 'C'},
    {"folded-by", required_argument, NULL, 'B'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const struct cli report_cli = {"uft report", usage, "i:O:o:h", report_longopts, take};

static int parse(struct report_opts *o, int argc, char **argv)
{
	int first;
	int rc = cli_parse(&report_cli, o, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	if ((o->nr_synths || o->trace) && !o->nr_hists)
		return cli_error(&report_cli, "--synth and --trace go with --hist");
	bool html = o->format && !strcmp(o->format, "html");
	if (o->format && !html && o->nr_hists)
		return cli_error(&report_cli, "--format and --flame do not go with --hist");
	if (html && o->trace)
		return cli_error(&report_cli, "--html does not go with --trace");
	bool tree = o->format && (!strcmp(o->format, "folded") || !strcmp(o->format, "flame"));
	if (o->format && o->xo.nr_counters && strcmp(o->format, "perfetto") != 0 &&
	    strcmp(o->format, "chrome-json") != 0)
		return cli_error(&report_cli,
				 "--counter goes with --format perfetto or chrome-json");
	if (o->format && o->by && !tree)
		return cli_error(&report_cli, "--folded-by goes with --format folded or --flame");
	if (!o->format && (o->out || o->xo.nr_counters || o->by))
		return cli_error(
		    &report_cli,
		    "-o, --counter and --folded-by go with --format, --flame or --html");
	if (first < argc)
		o->in = argv[first];
	return CLI_OK;
}

/* The records in time order, each CPU's merged: what the trace file reads. */
struct printer {
	struct trace_file *tf;
	const struct cpu_set *sel;
	struct report_ftrace rf;
	unsigned flags;
	struct cpu_cursor *cur;
	size_t n;
	/* --trace: the synthetic records, each after the record that made it. */
	const struct replay_rec *extra;
	size_t nr_extra, next;
};

static int printer_init(struct printer *p, struct trace_file *tf, const struct report_opts *o)
{
	p->tf = tf;
	p->sel = &o->sel;
	int clk = uft_clock_by_name(tf->td->clock);
	if (clk >= 0 && !uft_clock_is_ns((enum uft_clock)clk))
		p->flags |= UFT_OUT_RAW_CLOCK;
	const struct tracedat *td = tf->td;
	p->n = td->nr_cpu_data;
	for (size_t k = 0; k < td->nr_instances; k++)
		p->n += td->instances[k].nr_cpu_data;
	p->cur = calloc(p->n ? p->n : 1, sizeof(*p->cur));
	if (!p->cur)
		return -1;
	/* All instances merged, as trace-cmd report does, each line of another
	 * instance than the top one led by its name. */
	size_t n = 0;
	for (size_t i = 0; i < td->nr_cpu_data; i++)
		p->cur[n++].cpu = &td->cpus[i];
	for (size_t k = 0; k < td->nr_instances; k++)
		for (size_t i = 0; i < td->instances[k].nr_cpu_data; i++) {
			p->cur[n].buffer = td->instances[k].name;
			p->cur[n++].cpu = &td->instances[k].cpus[i];
		}
	for (size_t i = 0; i < n; i++)
		p->cur[i].counts = true;
	if (report_ftrace_init(&p->rf, tf, p->flags) != 0) {
		free(p->cur);
		return -1;
	}
	for (size_t i = 0; i < o->nr_opts; i++)
		report_ftrace_option(&p->rf, o->opts[i]);
	return 0;
}

/* A first pass over the selected CPUs for the header's entry counts, which
 * also puts each cursor on its first record. */
static void print_header(struct printer *p)
{
	uint32_t psz = p->tf->td->page_size;
	uint64_t entries = 0, lost = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (!cpu_selected(p->sel, p->cur[i].cpu->cpu))
			continue;
		struct cpu_cursor c = {.cpu = p->cur[i].cpu, .counts = true};
		while (cursor_next(&c, psz)) {
			entries++;
			report_ftrace_note(&p->rf, c.rec.data, c.rec.len);
			if (c.missed && c.missed != UINT64_MAX)
				lost += c.missed;
			c.missed = 0;
		}
		cursor_next(&p->cur[i], psz);
	}
	for (size_t k = 0; k < p->nr_extra; k++)
		entries += cpu_selected(p->sel, p->extra[k].cpu);
	report_ftrace_header(&p->rf, stdout, entries, entries + lost);
}

/* The synthetic records that the record at cause made. */
static void print_extra(struct printer *p, const void *cause)
{
	for (; p->next < p->nr_extra; p->next++) {
		const struct replay_rec *x = &p->extra[p->next];
		if (!cpu_selected(p->sel, x->cpu))
			continue;
		if (x->cause != cause)
			break;
		struct uft_out_record xr = {x->cpu, x->ts, x->data, x->len};
		uft_out_event(stdout, p->tf->tep, trace_file_comm, p->tf, &xr, p->flags);
	}
}

/* The earliest record of the CPUs not yet exhausted (nor left out), or NULL. */
static struct cpu_cursor *earliest(struct printer *p)
{
	struct cpu_cursor *best = NULL;
	for (size_t i = 0; i < p->n; i++)
		if (p->cur[i].have && (!best || p->cur[i].rec.ts < best->rec.ts))
			best = &p->cur[i];
	return best;
}

static void print_records(struct printer *p)
{
	uint32_t psz = p->tf->td->page_size;
	struct cpu_cursor *best;
	while ((best = earliest(p))) {
		if (best->missed) {
			uft_out_lost(stdout, best->cpu->cpu, best->missed);
			best->missed = 0;
		}
		struct uft_out_record r = {best->cpu->cpu, best->rec.ts, best->rec.data,
					   best->rec.len};
		/* The next record of the same CPU, for function_graph's leaves. */
		struct cpu_cursor peek = *best;
		peek.counts = false;
		bool more = p->rf.graph && cursor_next(&peek, psz);
		struct uft_out_record nx = {peek.cpu->cpu, peek.rec.ts, peek.rec.data,
					    peek.rec.len};
		const void *cause = best->rec.data;
		if (best->buffer)
			printf("%s: ", best->buffer);
		if (report_ftrace_line(&p->rf, stdout, &r, more ? &nx : NULL) == UFT_GRAPH_LEAF)
			cursor_next(best, psz);
		print_extra(p, cause);
		cursor_next(best, psz);
	}
}

/* The events as the trace file prints them (with --trace, the synthetic
 * records among them); returns the exit status. */
static int print_trace(struct trace_file *tf, const struct report_opts *o,
		       const struct report_hist_opts *ho)
{
	struct printer p = {0};
	struct replay *rp = NULL;
	if (o->trace) {
		int rc;
		rp = report_replay(tf, ho, true, "uft report", stderr, &rc);
		if (!rp)
			return rc;
		p.extra = replay_records(rp, &p.nr_extra);
	}
	if (tf->td->latency) {
		replay_free(rp);
		/* as trace-cmd report prints a latency file */
		printf("cpus=%d\n", tf->td->nr_cpus);
		fwrite(tf->td->latency_text, 1, tf->td->latency_len, stdout);
		putchar('\n');
		return 0;
	}
	if (printer_init(&p, tf, o) != 0) {
		replay_free(rp);
		return 1;
	}
	print_header(&p);
	print_records(&p);
	report_ftrace_free(&p.rf);
	free(p.cur);
	replay_free(rp);
	return 0;
}

static bool export_cpu_ok(const void *sel, int cpu)
{
	return cpu_selected(sel, cpu);
}

/* --html: the --hist texts first (a refused trigger stops here: 2), then
 * the page. */
static int export_html_page(struct trace_file *tf, const struct report_opts *o, FILE *out)
{
	const struct report_hist_opts ho = {o->synths, o->nr_synths, o->hists, o->nr_hists};
	struct html_hist *hv = calloc(o->nr_hists ? o->nr_hists : 1, sizeof(*hv));
	struct replay *r = NULL;
	int rc = hv ? 0 : -ENOMEM;
	if (!rc && o->nr_hists) {
		int status;
		r = report_replay(tf, &ho, false, "uft report", stderr, &status);
		if (!r)
			rc = status == 2 ? -EINVAL : -ENOMEM;
	}
	for (size_t i = 0; !rc && i < o->nr_hists; i++) {
		size_t len;
		char *text = NULL;
		FILE *m = open_memstream(&text, &len);
		if (!m || replay_print_hist(r, i, m) != 0 || fclose(m) != 0) {
			free(text);
			rc = -ENOMEM;
			break;
		}
		hv[i] = (struct html_hist){o->hists[i], text};
	}
	if (!rc)
		rc = export_html(tf, &o->xo, o->in, hv, o->nr_hists, out, stderr);
	for (size_t i = 0; hv && i < o->nr_hists; i++)
		free((char *)hv[i].text);
	free(hv);
	replay_free(r);
	return rc;
}

static int export_to(struct trace_file *tf, const struct report_opts *o, FILE *out)
{
	const char *f = o->format;
	if (!strcmp(f, "html"))
		return export_html_page(tf, o, out);
	if (!strcmp(f, "perfetto"))
		return export_perfetto(tf, &o->xo, out, stderr);
	if (!strcmp(f, "chrome-json"))
		return export_chrome_json(tf, &o->xo, out, stderr);
	if (!strcmp(f, "folded"))
		return export_folded(tf, &o->xo, o->by, out, stderr);
	return export_flame_svg(tf, &o->xo, o->by, o->in, out, stderr);
}

/* --format and --flame: the export written to -o (removed again when it
 * fails) or to standard output; 0, 1 or 2 (refused). */
static int run_export(struct trace_file *tf, struct report_opts *o)
{
	o->xo.cpu_ok = export_cpu_ok;
	o->xo.cpu_sel = &o->sel;
	bool file = o->out && strcmp(o->out, "-") != 0;
	if (!file && isatty(STDOUT_FILENO) && strcmp(o->format, "perfetto") == 0)
		return cli_error(&report_cli, "the perfetto export is binary: give -o FILE");
	FILE *out = file ? fopen(o->out, "w") : stdout;
	if (!out) {
		fprintf(stderr, "uft report: %s: %s\n", o->out, strerror(errno));
		return 1;
	}
	static char buf[1 << 20];
	setvbuf(out, buf, _IOFBF, sizeof(buf));
	int rc = export_to(tf, o, out);
	if (fflush(out) != 0 && !rc)
		rc = -errno;
	if (rc == -EIO || (rc && rc != -EINVAL && rc != -ENOMEM))
		fprintf(stderr, "uft report: writing %s: %s\n", file ? o->out : "the output",
			strerror(rc == -EIO ? EIO : -rc));
	if (file) {
		if (fclose(out) != 0 && !rc)
			rc = -EIO;
		if (rc)
			unlink(o->out);
	}
	return rc == -EINVAL ? 2 : rc ? 1 : 0;
}

/* Each --cpu names a CPU of the file: one it lacks is refused, not shown
 * as an empty trace. */
static int check_cpus(const struct report_opts *o, const struct tracedat *td)
{
	if (!o->sel.any || td->nr_cpus <= 0)
		return CLI_OK;
	for (int cpu = td->nr_cpus; cpu < 4096; cpu++)
		if (o->sel.mask[cpu / 64] & (1ull << (cpu % 64)))
			return cli_error(&report_cli, "--cpu %d: %s has CPUs 0..%d", cpu, o->in,
					 td->nr_cpus - 1);
	return CLI_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {.in = "trace.dat"};
	int rc = parse(&o, argc, argv);
	if (rc == CLI_OK) {
		const struct report_hist_opts ho = {o.synths, o.nr_synths, o.hists, o.nr_hists};
		struct trace_file tf;
		char err[256];
		/* The input is an argument: one that cannot be read as a
		 * trace.dat is refused. */
		if (trace_file_open(&tf, o.in, err, sizeof(err)) != 0) {
			rc = cli_error(&report_cli, "%s", err);
		} else {
			rc = check_cpus(&o, tf.td);
			/* Progress on a terminal, unless the output goes to it too. */
			bool to_file = o.format && o.out && strcmp(o.out, "-") != 0;
			struct report_progress rp;
			report_progress_start(&rp, tf.td, &print_bytes,
					      rc == CLI_OK && (to_file || !isatty(STDOUT_FILENO)));
			if (rc == CLI_OK && o.format)
				rc = run_export(&tf, &o);
			else if (rc == CLI_OK)
				rc = o.nr_hists && !o.trace ? report_hist(&tf, &ho, stdout, stderr)
							    : print_trace(&tf, &o, &ho);
			report_progress_stop(&rp);
			trace_file_close(&tf);
		}
	}
	free(o.hists);
	free(o.synths);
	return rc;
}
