/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft timerlat top|hist: the timer latency of a thread per CPU woken by an
 * absolute timer (src/latency/timerlat.h), printed in rtla's layouts. User
 * space sees the thread latency only: the IRQ columns of top show "-" and
 * hist has the thread columns alone (rtla's --no-irq layout). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/lat_cli.h"
#include "latency/timerlat.h"
#include "util/atomics.h"

static const char usage[] =
    "usage: uft timerlat top  [-c CPUS] [-d DURATION] [-p PERIOD_US] [-P f:PRIO] [-T US] [-n] "
    "[-q]\n"
    "       uft timerlat hist [-c CPUS] [-d DURATION] [-p PERIOD_US] [-P f:PRIO] [-T US] [-n]\n"
    "                         [-b BUCKET] [-E ENTRIES] [--no-header] [--no-summary]\n"
    "                         [--no-index] [--with-zeros]\n"
    "  A thread per CPU woken every PERIOD_US (default 1000) by an absolute\n"
    "  CLOCK_MONOTONIC timer; its latency is the wake-up time minus the timer's.\n"
    "  -c CPUS        the CPUs (cpulist form; default: all this process may use)\n"
    "  -d DURATION    run time: N (seconds), Ns, Nm, Nh, Nd (default: until SIGINT)\n"
    "  -p PERIOD_US   the timer period, 100..1000000 us\n"
    "  -P POLICY      f:PRIO (SCHED_FIFO, the default f:95), r:PRIO, o:NICE\n"
    "  -T, --thread US  stop when a thread latency exceeds US\n"
    "  -n, --nano     print nanoseconds instead of microseconds\n"
    "  -q, --quiet    top: print the table only at the end\n"
    "  -b, --bucket-size N  hist: bucket width in time units (default 1)\n"
    "  -E, --entries N      hist: number of buckets (default 256)\n"
    "  -i, --irq, -s, -a, -u and -k need the kernel's timerlat tracer: refused.\n";

struct tl_args {
	struct lat_common c; /* first: the shared options */
	uint64_t period_us, stop_us;
	bool nano;
};

static int tl_take(void *opts, int opt, char *arg)
{
	struct tl_args *a = opts;
	long v;
	switch (opt) {
	case 'p':
		if (!cli_long(arg, 10, 100, 1000000, &v))
			return cli_error(a->c.cli, "bad period '%s' (100..1000000 us)", arg);
		a->period_us = (uint64_t)v;
		return CLI_OK;
	case 'T':
		if (!cli_long(arg, 10, 1, 100000000, &v))
			return cli_error(a->c.cli, "bad thread latency limit '%s' (us)", arg);
		a->stop_us = (uint64_t)v;
		return CLI_OK;
	case 'n':
		a->nano = true;
		return CLI_OK;
	}
	int rc = lat_take_common(&a->c, opt, arg);
	if (rc != LAT_NOT_MINE)
		return rc;
	return cli_error(a->c.cli,
			 "-%c needs the kernel's timerlat tracer (IRQ context, stacks, "
			 "kernel threads); uft measures the thread latency only",
			 opt);
}

static const struct option tl_long[] = {
    {"cpus", required_argument, NULL, 'c'},   {"duration", required_argument, NULL, 'd'},
    {"period", required_argument, NULL, 'p'}, {"priority", required_argument, NULL, 'P'},
    {"thread", required_argument, NULL, 'T'}, {"nano", no_argument, NULL, 'n'},
    {"quiet", no_argument, NULL, 'q'},	      {"irq", required_argument, NULL, 'i'},
    {"stack", required_argument, NULL, 's'},  {"auto", required_argument, NULL, 'a'},
    {"help", no_argument, NULL, 'h'},	      {NULL, 0, NULL, 0}};

static const struct option tl_hist_long[] = {{"cpus", required_argument, NULL, 'c'},
					     {"duration", required_argument, NULL, 'd'},
					     {"period", required_argument, NULL, 'p'},
					     {"priority", required_argument, NULL, 'P'},
					     {"thread", required_argument, NULL, 'T'},
					     {"nano", no_argument, NULL, 'n'},
					     {"irq", required_argument, NULL, 'i'},
					     {"stack", required_argument, NULL, 's'},
					     {"auto", required_argument, NULL, 'a'},
					     {"bucket-size", required_argument, NULL, 'b'},
					     {"entries", required_argument, NULL, 'E'},
					     {"no-header", no_argument, NULL, LAT_OPT_NO_HEADER},
					     {"no-summary", no_argument, NULL, LAT_OPT_NO_SUMMARY},
					     {"no-index", no_argument, NULL, LAT_OPT_NO_INDEX},
					     {"with-zeros", no_argument, NULL, LAT_OPT_WITH_ZEROS},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};

static unsigned long long in_unit(const struct tl_args *a, uint64_t ns)
{
	return a->nano ? ns : ns / 1000;
}

struct tl_view {
	struct timerlat *t;
	const struct tl_args *a;
};

static void print_top(const struct tl_view *v, uint64_t elapsed_s)
{
	const char *unit = v->a->nano ? "ns" : "us";
	char dur[32];
	lat_duration_text(elapsed_s, dur, sizeof(dur));
	printf("%37s%s\n", "", "Timer Latency");
	printf(
	    "%s   |          IRQ Timer Latency (%s)        |         Thread Timer Latency (%s)\n",
	    dur, unit, unit);
	printf("CPU COUNT      |      cur       min       avg       max |      cur       min       "
	       "avg "
	       "      max\n");
	for (unsigned i = 0; i < v->t->n; i++) {
		const struct timerlat_cpu *c = &v->t->cpu[i];
		uint64_t n = READ_ONCE(c->st.count);
		printf("%3d #%-9llu |%9s %9s %9s %9s |", c->cpu, (unsigned long long)n, "-", "-",
		       "-", "-");
		if (!n) {
			printf("%9s %9s %9s %9s\n", "-", "-", "-", "-");
			continue;
		}
		printf("%9llu %9llu %9llu %9llu\n", in_unit(v->a, READ_ONCE(c->st.cur)),
		       in_unit(v->a, READ_ONCE(c->st.min)), in_unit(v->a, lat_stats_avg(&c->st)),
		       in_unit(v->a, READ_ONCE(c->st.max)));
	}
}

static void refresh_top(void *arg, uint64_t elapsed_s)
{
	/* Clear the terminal and home the cursor, as top does. */
	fputs("\033[2J\033[1;1H", stdout);
	print_top(arg, elapsed_s);
	fflush(stdout);
}

static bool tl_stopped(void *arg)
{
	return timerlat_stopped(((struct tl_view *)arg)->t);
}

static void print_row_label(const char *label)
{
	printf("%-6s", label);
}

static void print_hist(const struct tl_view *v, uint64_t elapsed_s)
{
	const struct tl_args *a = v->a;
	const struct timerlat *t = v->t;
	if (!a->c.no_header) {
		char dur[32];
		lat_duration_text(elapsed_s, dur, sizeof(dur));
		printf("# RTLA timerlat histogram\n# Time unit is %s\n# Duration: %s\n",
		       a->nano ? "nanoseconds (ns)" : "microseconds (us)", dur);
		if (!a->c.no_index)
			printf("Index");
		for (unsigned i = 0; i < t->n; i++)
			printf("   Thr-%03d", t->cpu[i].cpu);
		printf("\n");
	}
	uint32_t entries = t->o.hist_entries;
	for (uint32_t b = 0; b < entries; b++) {
		bool any = false;
		for (unsigned i = 0; i < t->n; i++)
			any |= t->cpu[i].st.hist.counts[b] != 0;
		if (!any && !a->c.with_zeros)
			continue;
		if (!a->c.no_index)
			printf("%-6llu", (unsigned long long)b * t->o.hist_bucket);
		for (unsigned i = 0; i < t->n; i++)
			printf("%9llu ", (unsigned long long)t->cpu[i].st.hist.counts[b]);
		printf("\n");
	}
	if (a->c.no_summary)
		return;
	print_row_label("over:");
	for (unsigned i = 0; i < t->n; i++)
		printf("%9llu ", (unsigned long long)t->cpu[i].st.hist.counts[entries]);
	printf("\n");
	print_row_label("count:");
	for (unsigned i = 0; i < t->n; i++)
		printf("%9llu ", (unsigned long long)t->cpu[i].st.count);
	printf("\n");
	static const char *const labels[] = {"min:", "avg:", "max:"};
	for (int k = 0; k < 3; k++) {
		print_row_label(labels[k]);
		for (unsigned i = 0; i < t->n; i++) {
			const struct lat_stats *s = &t->cpu[i].st;
			uint64_t x = k == 0 ? s->min : k == 1 ? lat_stats_avg(s) : s->max;
			if (s->count)
				printf("%9llu ", in_unit(a, x));
			else
				printf("%9s ", "-");
		}
		printf("\n");
	}
}

int cmd_timerlat(int argc, char **argv)
{
	static const struct cli top_cli = {"uft timerlat top", usage, "c:d:p:P:T:nqi:s:a:h",
					   tl_long, tl_take};
	static const struct cli hist_cli = {"uft timerlat hist", usage, "c:d:p:P:T:nb:E:i:s:a:h",
					    tl_hist_long, tl_take};
	if (argc < 2 || (strcmp(argv[1], "top") && strcmp(argv[1], "hist"))) {
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			fputs(usage, stdout);
			return 0;
		}
		fprintf(stderr, "uft timerlat: say 'top' or 'hist'\n");
		return cli_usage_error(&top_cli);
	}
	struct tl_args a = {
	    .period_us = 1000,
	    .c = {
		.sched = {SCHED_FIFO, 95}, .bucket = 1, .entries = 256, .hist = argv[1][0] == 'h'}};
	a.c.cli = a.c.hist ? &hist_cli : &top_cli;
	int first;
	int rc = cli_parse(a.c.cli, &a, argc - 1, argv + 1, &first);
	if (rc != CLI_OK)
		return rc;
	if (first < argc - 1)
		return cli_error(a.c.cli, "unexpected argument '%s'", argv[1 + first]);
	uint8_t *mask;
	unsigned nbits;
	char err[128];
	if (!lat_parse_cpus(a.c.cpus, &mask, &nbits, err, sizeof(err)))
		return cli_error(a.c.cli, "%s", err);

	struct timerlat_opts o = {.cpus = mask,
				  .nbits = nbits,
				  .period_ns = a.period_us * 1000,
				  .sched = a.c.sched,
				  .stop_ns = a.stop_us * 1000,
				  .hist_unit_ns = a.nano ? 1 : 1000,
				  .hist_bucket = (uint32_t)a.c.bucket,
				  .hist_entries = a.c.hist ? (uint32_t)a.c.entries : 0};
	struct timerlat t;
	lat_block_signals();
	rc = timerlat_start(&t, &o);
	free(mask);
	if (rc) {
		fprintf(stderr, "%s: cannot start the measuring threads: %s\n", a.c.cli->name,
			strerror(-rc));
		return 1;
	}
	lat_note_policy(&a.c, t.fell_back);
	struct tl_view v = {&t, &a};
	struct lat_run run = {
	    .duration_s = a.c.duration_s,
	    .stopped = tl_stopped,
	    .refresh = !a.c.hist && !a.c.quiet && isatty(STDOUT_FILENO) ? refresh_top : NULL,
	    .arg = &v};
	uint64_t elapsed = lat_wait(&run);
	timerlat_stop(&t);
	if (run.refresh)
		fputs("\033[2J\033[1;1H", stdout);
	if (a.c.hist)
		print_hist(&v, elapsed);
	else
		print_top(&v, elapsed);
	if (timerlat_stopped(&t))
		printf("uft timerlat hit stop tracing: thread latency above %llu us on CPU %d\n",
		       (unsigned long long)a.stop_us, t.stop_cpu);
	timerlat_free(&t);
	return 0;
}
