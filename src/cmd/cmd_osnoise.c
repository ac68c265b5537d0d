/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft osnoise top|hist: the noise a busy thread per CPU suffers
 * (src/latency/osnoise.h), in rtla's layouts. The interference counters
 * come from the CPU's /proc/interrupts and /proc/softirqs counts over each
 * runtime window and the thread's involuntary switches; HW noise (noise with
 * no interference) needs the kernel's per-sample accounting: "-". */
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
#include "latency/osn_detect.h"
#include "latency/osnoise.h"
#include "util/atomics.h"

static const char usage[] =
    "usage: uft osnoise top  [-c CPUS] [-d DURATION] [-p PERIOD_US] [-r RUNTIME_US] [-s US]\n"
    "                        [-S US] [-T US] [-P POLICY] [-q]\n"
    "       uft osnoise hist [same] [-b BUCKET] [-E ENTRIES] [--no-header] [--no-summary]\n"
    "                        [--no-index] [--with-zeros]\n"
    "  A thread per CPU reads the clock in a loop for RUNTIME_US of every PERIOD_US\n"
    "  (defaults 1000000 and 1000000); each gap longer than the threshold is noise.\n"
    "  -c CPUS        the CPUs (cpulist form; default: all this process may use)\n"
    "  -d DURATION    run time: N (seconds), Ns, Nm, Nh, Nd (default: until SIGINT)\n"
    "  -p PERIOD_US   the period, 100..10000000 us\n"
    "  -r RUNTIME_US  the busy part of each period, 100..PERIOD_US\n"
    "  -s, --stop US  stop when one noise sample exceeds US\n"
    "  -S, --stop-total US  stop when a period's total noise exceeds US\n"
    "  -T, --threshold US   the shortest gap counted as noise (default 5)\n"
    "  -P POLICY      f:PRIO, r:PRIO, o:NICE (default: the process's policy)\n"
    "  -q, --quiet    top: print the table only at the end\n"
    "  -b, --bucket-size N  hist: bucket width in us (default 1)\n"
    "  -E, --entries N      hist: number of buckets (default 256)\n";

struct on_args {
	struct lat_common c; /* first: the shared options */
	long period_us, runtime_us, stop_us, stop_total_us, thresh_us;
};

static int on_take(void *opts, int opt, char *arg)
{
	struct on_args *a = opts;
	switch (opt) {
	case 'p':
		if (!cli_long(arg, 10, 100, 10000000, &a->period_us))
			return cli_error(a->c.cli, "bad period '%s' (100..10000000 us)", arg);
		return CLI_OK;
	case 'r':
		if (!cli_long(arg, 10, 100, 10000000, &a->runtime_us))
			return cli_error(a->c.cli, "bad runtime '%s' (100..10000000 us)", arg);
		return CLI_OK;
	case 's':
		if (!cli_long(arg, 10, 1, 100000000, &a->stop_us))
			return cli_error(a->c.cli, "bad single noise limit '%s' (us)", arg);
		return CLI_OK;
	case 'S':
		if (!cli_long(arg, 10, 1, 100000000, &a->stop_total_us))
			return cli_error(a->c.cli, "bad total noise limit '%s' (us)", arg);
		return CLI_OK;
	case 'T':
		if (!cli_long(arg, 10, 1, 1000000, &a->thresh_us))
			return cli_error(a->c.cli, "bad threshold '%s' (1..1000000 us)", arg);
		return CLI_OK;
	}
	int rc = lat_take_common(&a->c, opt, arg);
	return rc != LAT_NOT_MINE ? rc : cli_usage_error(a->c.cli);
}

#define ON_COMMON_LONG                                                                             \
	{"cpus", required_argument, NULL, 'c'}, {"duration", required_argument, NULL, 'd'},        \
	    {"period", required_argument, NULL, 'p'}, {"runtime", required_argument, NULL, 'r'},   \
	    {"stop", required_argument, NULL, 's'}, {"stop-total", required_argument, NULL, 'S'},  \
	    {"threshold", required_argument, NULL, 'T'},                                           \
	    {"priority", required_argument, NULL, 'P'},                                            \
	{                                                                                          \
		"help", no_argument, NULL, 'h'                                                     \
	}

static const struct option on_long[] = {
    ON_COMMON_LONG, {"quiet", no_argument, NULL, 'q'}, {NULL, 0, NULL, 0}};
static const struct option on_hist_long[] = {ON_COMMON_LONG,
					     {"bucket-size", required_argument, NULL, 'b'},
					     {"entries", required_argument, NULL, 'E'},
					     {"no-header", no_argument, NULL, LAT_OPT_NO_HEADER},
					     {"no-summary", no_argument, NULL, LAT_OPT_NO_SUMMARY},
					     {"no-index", no_argument, NULL, LAT_OPT_NO_INDEX},
					     {"with-zeros", no_argument, NULL, LAT_OPT_WITH_ZEROS},
					     {NULL, 0, NULL, 0}};

struct on_view {
	struct osnoise *n;
	const struct on_args *a;
};

static unsigned long long us(uint64_t ns)
{
	return ns / 1000;
}

static void print_top(const struct on_view *v, uint64_t elapsed_s)
{
	char dur[32];
	lat_duration_text(elapsed_s, dur, sizeof(dur));
	printf("%42s%s\n", "", "Operating System Noise");
	printf("duration: %9s | time is in us\n", dur);
	printf("CPU Period       Runtime        Noise  %% CPU Aval   Max Noise   Max Single"
	       "          HW          NMI          IRQ      Softirq       Thread\n");
	for (unsigned i = 0; i < v->n->n; i++) {
		const struct osnoise_cpu *c = &v->n->cpu[i];
		const struct osnoise_sum *s = &c->sum;
		uint64_t runtime = READ_ONCE(s->runtime), noise = READ_ONCE(s->noise);
		uint64_t avail = osn_available_e5(runtime, noise);
		printf("%3d #%-6llu %12llu %12llu %5llu.%05llu %12llu %12llu %12s", c->cpu,
		       (unsigned long long)READ_ONCE(s->periods), us(runtime), us(noise),
		       (unsigned long long)(avail / 100000), (unsigned long long)(avail % 100000),
		       us(READ_ONCE(s->max_noise)), us(READ_ONCE(s->max_single)), "-");
		if (s->irq_known)
			printf(" %12llu %12llu %12llu", (unsigned long long)READ_ONCE(s->nmi),
			       (unsigned long long)READ_ONCE(s->irq),
			       (unsigned long long)READ_ONCE(s->sirq));
		else
			printf(" %12s %12s %12s", "-", "-", "-");
		printf(" %12llu\n", (unsigned long long)READ_ONCE(s->thread));
	}
}

static void refresh_top(void *arg, uint64_t elapsed_s)
{
	fputs("\033[2J\033[1;1H", stdout);
	print_top(arg, elapsed_s);
	fflush(stdout);
}

static bool on_stopped(void *arg)
{
	return osnoise_stopped(((struct on_view *)arg)->n);
}

static void print_hist(const struct on_view *v, uint64_t elapsed_s)
{
	const struct on_args *a = v->a;
	const struct osnoise *n = v->n;
	if (!a->c.no_header) {
		char dur[32];
		lat_duration_text(elapsed_s, dur, sizeof(dur));
		printf(
		    "# RTLA osnoise histogram\n# Time unit is microseconds (us)\n# Duration: %s\n",
		    dur);
		if (!a->c.no_index)
			printf("Index");
		for (unsigned i = 0; i < n->n; i++)
			printf("   CPU-%03d", n->cpu[i].cpu);
		printf("\n");
	}
	uint32_t entries = n->o.hist_entries;
	for (uint32_t b = 0; b < entries; b++) {
		bool any = false;
		for (unsigned i = 0; i < n->n; i++)
			any |= n->cpu[i].samples.hist.counts[b] != 0;
		if (!any && !a->c.with_zeros)
			continue;
		if (!a->c.no_index)
			printf("%-6llu", (unsigned long long)b * n->o.hist_bucket);
		for (unsigned i = 0; i < n->n; i++)
			printf("%9llu ", (unsigned long long)n->cpu[i].samples.hist.counts[b]);
		printf("\n");
	}
	if (a->c.no_summary)
		return;
	printf("%-6s", "over:");
	for (unsigned i = 0; i < n->n; i++)
		printf("%9llu ", (unsigned long long)n->cpu[i].samples.hist.counts[entries]);
	printf("\n%-6s", "count:");
	for (unsigned i = 0; i < n->n; i++)
		printf("%9llu ", (unsigned long long)n->cpu[i].samples.count);
	printf("\n");
	static const char *const labels[] = {"min:", "avg:", "max:"};
	for (int k = 0; k < 3; k++) {
		printf("%-6s", labels[k]);
		for (unsigned i = 0; i < n->n; i++) {
			const struct lat_stats *s = &n->cpu[i].samples;
			uint64_t x = k == 0 ? s->min : k == 1 ? lat_stats_avg(s) : s->max;
			if (s->count)
				printf("%9llu ", us(x));
			else
				printf("%9s ", "-");
		}
		printf("\n");
	}
}

int cmd_osnoise(int argc, char **argv)
{
	static const struct cli top_cli = {"uft osnoise top", usage, "c:d:p:r:s:S:T:P:qh", on_long,
					   on_take};
	static const struct cli hist_cli = {"uft osnoise hist", usage, "c:d:p:r:s:S:T:P:b:E:h",
					    on_hist_long, on_take};
	if (argc < 2 || (strcmp(argv[1], "top") && strcmp(argv[1], "hist"))) {
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			fputs(usage, stdout);
			return 0;
		}
		fprintf(stderr, "uft osnoise: say 'top' or 'hist'\n");
		return cli_usage_error(&top_cli);
	}
	struct on_args a = {
	    .thresh_us = 5,
	    .c = {
		.sched = {SCHED_OTHER, 0}, .bucket = 1, .entries = 256, .hist = argv[1][0] == 'h'}};
	a.c.cli = a.c.hist ? &hist_cli : &top_cli;
	int first;
	int rc = cli_parse(a.c.cli, &a, argc - 1, argv + 1, &first);
	if (rc != CLI_OK)
		return rc;
	if (first < argc - 1)
		return cli_error(a.c.cli, "unexpected argument '%s'", argv[1 + first]);
	/* The kernel's defaults: a one-second period, busy all of it. */
	if (!a.period_us)
		a.period_us = a.runtime_us > 1000000 ? a.runtime_us : 1000000;
	if (!a.runtime_us)
		a.runtime_us = a.period_us;
	if (a.runtime_us > a.period_us)
		return cli_error(a.c.cli, "runtime %ld us is longer than the period %ld us",
				 a.runtime_us, a.period_us);
	uint8_t *mask;
	unsigned nbits;
	char err[128];
	if (!lat_parse_cpus(a.c.cpus, &mask, &nbits, err, sizeof(err)))
		return cli_error(a.c.cli, "%s", err);

	struct osnoise_opts o = {.cpus = mask,
				 .nbits = nbits,
				 .period_ns = (uint64_t)a.period_us * 1000,
				 .runtime_ns = (uint64_t)a.runtime_us * 1000,
				 .thresh_ns = (uint64_t)a.thresh_us * 1000,
				 .sched = a.c.sched,
				 .stop_ns = (uint64_t)a.stop_us * 1000,
				 .stop_total_ns = (uint64_t)a.stop_total_us * 1000,
				 .hist_unit_ns = 1000,
				 .hist_bucket = (uint32_t)a.c.bucket,
				 .hist_entries = a.c.hist ? (uint32_t)a.c.entries : 0};
	struct osnoise n;
	lat_block_signals();
	rc = osnoise_start(&n, &o);
	free(mask);
	if (rc) {
		fprintf(stderr, "%s: cannot start the sampling threads: %s\n", a.c.cli->name,
			strerror(-rc));
		return 1;
	}
	lat_note_policy(&a.c, n.fell_back);
	struct on_view v = {&n, &a};
	struct lat_run run = {
	    .duration_s = a.c.duration_s,
	    .stopped = on_stopped,
	    .refresh = !a.c.hist && !a.c.quiet && isatty(STDOUT_FILENO) ? refresh_top : NULL,
	    .arg = &v};
	uint64_t elapsed = lat_wait(&run);
	osnoise_stop(&n);
	if (run.refresh)
		fputs("\033[2J\033[1;1H", stdout);
	if (a.c.hist)
		print_hist(&v, elapsed);
	else
		print_top(&v, elapsed);
	if (osnoise_stopped(&n))
		printf("uft osnoise hit stop tracing on CPU %d\n", n.stop_cpu);
	osnoise_free(&n);
	return 0;
}
