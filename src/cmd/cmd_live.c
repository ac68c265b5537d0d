/* The live commands, modeled on trace-cmd's: start, stop, restart, show,
 * reset and stat act on a running process's tracefs tree through its
 * control socket. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/ctl_proto.h"
#include "engine/filter/event_spec.h"
#include "cmd/commands.h"
#include "client/live.h"

/* Writes text into file or says why not (with the error_log's last entry
 * when the tree logged one). Returns 0 or 1. */
static int put(struct live *l, const char *file, const char *text, unsigned flags)
{
	int rc = live_write(l, file, text, flags);
	if (rc == 0)
		return 0;
	fprintf(stderr, "uft: %s: %s: %s\n", file, text, strerror(-rc));
	int err;
	char *log = live_cat(l, "error_log", NULL, &err);
	if (log && *log) {
		/* The last entry: its three lines. */
		char *end = log + strlen(log), *p = end;
		for (int lines = 0; p > log && lines < 4; p--)
			if (p[-1] == '\n' && ++lines == 4)
				break;
		fputs(p, stderr);
	}
	free(log);
	return 1;
}

/* Each "system:event" of available_events that spec selects. */
typedef int (*event_fn)(struct live *l, const char *sys, const char *ev, void *ctx);

static int for_matching(struct live *l, const char *spec, event_fn fn, void *ctx)
{
	int err;
	char *all = live_cat(l, "/available_events", NULL, &err);
	if (!all)
		return live_fail("available_events", err);
	int rc = 0, n = 0;
	char *save = NULL;
	for (char *line = strtok_r(all, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		if (!uft_event_spec_matches(spec, line, colon + 1))
			continue;
		n++;
		rc = fn(l, line, colon + 1, ctx);
	}
	free(all);
	if (!rc && !n) {
		fprintf(stderr, "uft: no event matches '%s'\n", spec);
		return 1;
	}
	return rc;
}

static int set_filter(struct live *l, const char *sys, const char *ev, void *ctx)
{
	char file[256];
	snprintf(file, sizeof(file), "events/%s/%s/filter", sys, ev);
	return put(l, file, ctx, UFT_TFS_TRUNC);
}

static int enable_one(struct live *l, const char *sys, const char *ev, void *ctx)
{
	char tok[256];
	snprintf(tok, sizeof(tok), "%s:%s", sys, ev);
	return put(l, "set_event", tok, UFT_TFS_APPEND);
}

struct event_arg {
	const char *spec;
	const char *filter; /* NULL: none */
};

static void start_usage(FILE *f)
{
	fputs("usage: uft start [-p PID] [-B INSTANCE] [-e EVENT [-f FILTER]]... [-b KB]\n"
	      "                 [-C CLOCK] [-O OPTION]...\n"
	      "  Enables the events (only those given: others are disabled first) and\n"
	      "  turns tracing on in a running process, without recording.\n"
	      "  -e EVENT   SYSTEM:EVENT, SYSTEM:*, SYSTEM, EVENT or all (globs allowed)\n"
	      "  -f FILTER  filter of the events of the -e before it\n"
	      "  -b KB      buffer size per thread ring, in KiB\n"
	      "  -C CLOCK   trace clock (local, global, mono, ...)\n"
	      "  -O OPTION  trace option (NAME or noNAME)\n"
	      "  -B NAME    act on instance NAME\n",
	      f);
}

int cmd_start(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"pid", required_argument, NULL, 'p'}, {"help", no_argument, NULL, 'h'}, {0}};
	const char *pid = NULL, *inst = NULL, *kb = NULL, *clock = NULL;
	struct event_arg *ev = calloc((size_t)argc, sizeof(*ev));
	const char **optv = calloc((size_t)argc, sizeof(*optv));
	size_t nev = 0, nopt = 0;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:B:e:f:b:C:O:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pid = optarg;
			break;
		case 'B':
			inst = optarg;
			break;
		case 'e':
			ev[nev++].spec = optarg;
			break;
		case 'f':
			if (!nev) {
				fprintf(stderr, "uft: -f needs an -e before it\n");
				return 2;
			}
			ev[nev - 1].filter = optarg;
			break;
		case 'b':
			kb = optarg;
			break;
		case 'C':
			clock = optarg;
			break;
		case 'O':
			optv[nopt++] = optarg;
			break;
		case 'h':
			start_usage(stdout);
			return 0;
		default:
			start_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		start_usage(stderr);
		return 2;
	}
	struct live l;
	if (live_open(&l, pid, inst))
		return 1;
	int rc = 0;
	if (kb)
		rc |= put(&l, "buffer_size_kb", kb, UFT_TFS_TRUNC);
	if (clock && !rc)
		rc |= put(&l, "trace_clock", clock, UFT_TFS_TRUNC);
	for (size_t i = 0; i < nopt && !rc; i++)
		rc |= put(&l, "trace_options", optv[i], UFT_TFS_TRUNC);
	if (nev && !rc)
		rc |= put(&l, "set_event", "", UFT_TFS_TRUNC);
	for (size_t i = 0; i < nev && !rc; i++) {
		const char *spec = ev[i].spec;
		rc |= for_matching(&l, spec, enable_one, NULL);
		if (!rc && ev[i].filter)
			rc |= for_matching(&l, spec, set_filter, (void *)ev[i].filter);
	}
	if (!rc)
		rc |= put(&l, "tracing_on", "1", UFT_TFS_TRUNC);
	live_close(&l);
	free(ev);
	free(optv);
	return rc;
}

/* stop and restart: tracing_on 0 or 1. */
static int switch_tracing(int argc, char **argv, const char *value, const char *usage)
{
	struct live l;
	int rc = live_open_args(&l, argc, argv, usage, 0, NULL);
	if (rc >= 0)
		return rc;
	rc = put(&l, "tracing_on", value, UFT_TFS_TRUNC);
	live_close(&l);
	return rc;
}

int cmd_stop(int argc, char **argv)
{
	return switch_tracing(argc, argv, "0", "usage: uft stop [-p PID] [-B INSTANCE]\n");
}

int cmd_restart(int argc, char **argv)
{
	return switch_tracing(argc, argv, "1", "usage: uft restart [-p PID] [-B INSTANCE]\n");
}

/* ---- show ---- */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
}

static int stream_pipe(struct live *l, const char *file)
{
	char path[256];
	int h = uft_ctl_open(l->c, live_path(l, file, path, sizeof(path)), UFT_TFS_READ);
	if (h < 0)
		return live_fail(path, h);
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	uft_ctl_set_interrupt_flag(l->c, &interrupted);
	static char buf[UFT_CTL_MAX_IO];
	int rc = 0;
	while (!interrupted) {
		ssize_t n = uft_ctl_read(l->c, h, buf, sizeof(buf), 0);
		if (n == -EINTR || n == -ECONNRESET || n == 0)
			break;
		if (n < 0) {
			rc = live_fail(path, (int)n);
			break;
		}
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n || fflush(stdout) != 0)
			break;
	}
	uft_ctl_release(l->c, h);
	return rc;
}

static void show_usage(FILE *f)
{
	fputs("usage: uft show [-p PID] [-B INSTANCE] [-c CPU] [-s] [--pipe]\n"
	      "                [--tracing_on] [--current_tracer] [--buffer_size]\n"
	      "                [--buffer_total_size] [--options]\n"
	      "  Prints the process's trace file (a snapshot; --pipe streams trace_pipe\n"
	      "  until interrupted; -s the snapshot; -c one CPU's), or the named file.\n",
	      f);
}

int cmd_show(int argc, char **argv)
{
	enum { O_PIPE = 256, O_ON, O_TRACER, O_SIZE, O_TOTAL, O_OPTIONS };
	static const struct option opts[] = {{"pid", required_argument, NULL, 'p'},
					     {"pipe", no_argument, NULL, O_PIPE},
					     {"snapshot", no_argument, NULL, 's'},
					     {"cpu", required_argument, NULL, 'c'},
					     {"tracing_on", no_argument, NULL, O_ON},
					     {"current_tracer", no_argument, NULL, O_TRACER},
					     {"buffer_size", no_argument, NULL, O_SIZE},
					     {"buffer_total_size", no_argument, NULL, O_TOTAL},
					     {"options", no_argument, NULL, O_OPTIONS},
					     {"help", no_argument, NULL, 'h'},
					     {0}};
	const char *pid = NULL, *inst = NULL, *cpu = NULL, *file = "trace";
	bool pipe = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:B:c:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pid = optarg;
			break;
		case 'B':
			inst = optarg;
			break;
		case 'c':
			cpu = optarg;
			break;
		case 's':
			file = "snapshot";
			break;
		case O_PIPE:
			pipe = true;
			file = "trace_pipe";
			break;
		case O_ON:
			file = "tracing_on";
			break;
		case O_TRACER:
			file = "current_tracer";
			break;
		case O_SIZE:
			file = "buffer_size_kb";
			break;
		case O_TOTAL:
			file = "buffer_total_size_kb";
			break;
		case O_OPTIONS:
			file = "trace_options";
			break;
		case 'h':
			show_usage(stdout);
			return 0;
		default:
			show_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		show_usage(stderr);
		return 2;
	}
	char cpufile[64];
	if (cpu) {
		snprintf(cpufile, sizeof(cpufile), "per_cpu/cpu%s/%s", cpu, file);
		file = cpufile;
	}
	struct live l;
	if (live_open(&l, pid, inst))
		return 1;
	int rc = 0;
	if (pipe) {
		rc = stream_pipe(&l, file);
	} else {
		int err;
		size_t len;
		char *text = live_cat(&l, file, &len, &err);
		if (!text)
			rc = live_fail(file, err);
		else
			fwrite(text, 1, len, stdout);
		free(text);
	}
	live_close(&l);
	return rc;
}

/* ---- reset ---- */

static int clear_system_filter(struct live *l, const char *sys, const char *ev, void *ctx)
{
	char file[256];
	snprintf(file, sizeof(file), "events/%s/%s/filter", sys, ev);
	return put(l, file, "0", UFT_TFS_TRUNC);
}

static int reset_one(struct live *l)
{
	int rc = put(l, "set_event", "", UFT_TFS_TRUNC);
	rc |= put(l, "set_event_pid", "", UFT_TFS_TRUNC);
	rc |= put(l, "set_event_notrace_pid", "", UFT_TFS_TRUNC);
	int err;
	char *all = live_cat(l, "/available_events", NULL, &err);
	if (all && *all)
		rc |= for_matching(l, "*", clear_system_filter, NULL);
	free(all);
	rc |= put(l, "current_tracer", "nop", UFT_TFS_TRUNC);
	/* The function tracers' selections (the graph's exist at the top only). */
	rc |= put(l, "set_ftrace_filter", "", UFT_TFS_TRUNC);
	rc |= put(l, "set_ftrace_notrace", "", UFT_TFS_TRUNC);
	rc |= put(l, "set_ftrace_pid", "", UFT_TFS_TRUNC);
	rc |= put(l, "set_ftrace_notrace_pid", "", UFT_TFS_TRUNC);
	if (!l->instance) {
		rc |= put(l, "set_graph_function", "", UFT_TFS_TRUNC);
		rc |= put(l, "set_graph_notrace", "", UFT_TFS_TRUNC);
		rc |= put(l, "max_graph_depth", "0", UFT_TFS_TRUNC);
	}
	rc |= put(l, "trace_clock", "local", UFT_TFS_TRUNC);
	rc |= put(l, "buffer_size_kb", "1024", UFT_TFS_TRUNC);
	rc |= put(l, "snapshot", "0", UFT_TFS_TRUNC);
	rc |= put(l, "trace", "", UFT_TFS_TRUNC);
	rc |= put(l, "error_log", "", UFT_TFS_TRUNC);
	rc |= put(l, "tracing_on", "1", UFT_TFS_TRUNC);
	return rc;
}

int cmd_reset(int argc, char **argv)
{
	struct live l;
	int rc =
	    live_open_args(&l, argc, argv,
			   "usage: uft reset [-p PID] [-B INSTANCE]\n"
			   "  Disables every event, clears filters, the buffer and the snapshot,\n"
			   "  restores the tracer, its function selections, clock and buffer\n"
			   "  size and turns tracing on;\n"
			   "  without -B also removes every instance.\n",
			   0, NULL);
	if (rc >= 0)
		return rc;
	rc = reset_one(&l);
	if (!l.instance) {
		struct live_names ns = {0};
		live_readdir(&l, "/instances", &ns);
		for (size_t i = 0; i < ns.n; i++) {
			char path[256];
			snprintf(path, sizeof(path), "instances/%s", ns.v[i]);
			int r = uft_ctl_rmdir(l.c, path);
			if (r)
				rc |= live_fail(path, r);
		}
		live_names_free(&ns);
	}
	live_close(&l);
	return rc;
}

/* ---- stat ---- */

static char *trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = 0;
	return s;
}

static void stat_events(struct live *l)
{
	int err;
	char *set = live_cat(l, "set_event", NULL, &err);
	printf("\nEvents:\n");
	if (!set || !*set) {
		printf(" (none enabled)\n");
		free(set);
		return;
	}
	printf(" Individual events:\n");
	char last[128] = "";
	char *filters = NULL;
	size_t flen = 0;
	FILE *fm = open_memstream(&filters, &flen);
	char *save = NULL;
	for (char *line = strtok_r(set, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		if (strcmp(last, line) != 0) {
			printf("   %s\n", line);
			snprintf(last, sizeof(last), "%s", line);
		}
		printf("      %s\n", colon + 1);
		char file[256];
		snprintf(file, sizeof(file), "events/%s/%s/filter", line, colon + 1);
		char *f = live_cat(l, file, NULL, &err);
		if (f && strcmp(trim(f), "none") != 0 && fm)
			fprintf(fm, "  %s:%s \"%s\"\n", line, colon + 1, f);
		free(f);
	}
	if (fm)
		fclose(fm);
	if (filters && *filters)
		printf("\nFilters:\n%s", filters);
	free(filters);
	free(set);
}

static void stat_cpus(struct live *l)
{
	struct live_names ns = {0};
	live_readdir(l, "per_cpu", &ns);
	printf("\nBuffer statistics:\n");
	for (size_t i = 0; i < ns.n; i++) {
		char file[128];
		int err;
		snprintf(file, sizeof(file), "per_cpu/%s/stats", ns.v[i]);
		char *s = live_cat(l, file, NULL, &err);
		unsigned long long entries = 0, overrun = 0, dropped = 0, readev = 0;
		if (s) {
			char *p;
			if ((p = strstr(s, "entries: ")))
				entries = strtoull(p + 9, NULL, 10);
			if ((p = strstr(s, "\noverrun: ")))
				overrun = strtoull(p + 10, NULL, 10);
			if ((p = strstr(s, "dropped events: ")))
				dropped = strtoull(p + 16, NULL, 10);
			if ((p = strstr(s, "read events: ")))
				readev = strtoull(p + 13, NULL, 10);
		}
		printf("  %s: entries %llu  overrun %llu  dropped %llu  read %llu\n", ns.v[i],
		       entries, overrun, dropped, readev);
		free(s);
	}
	live_names_free(&ns);
}

int cmd_stat(int argc, char **argv)
{
	struct live l;
	int rc =
	    live_open_args(&l, argc, argv,
			   "usage: uft stat [-p PID] [-B INSTANCE]\n"
			   "  What is enabled and filtered, buffer sizes, clock, tracing state,\n"
			   "  and per-CPU entries, overruns and drops.\n",
			   0, NULL);
	if (rc >= 0)
		return rc;
	int err;
	printf("Process: %d %s\n", (int)uft_ctl_peer_pid(l.c), uft_ctl_peer_comm(l.c));
	if (l.instance)
		printf("Instance: %s\n", l.instance);
	char *s = live_cat(&l, "current_tracer", NULL, &err);
	printf("Tracer: %s\n", s ? trim(s) : "?");
	free(s);
	stat_events(&l);
	s = live_cat(&l, "buffer_size_kb", NULL, &err);
	printf("\nBuffer size in kilobytes (per thread):\n   %s\n", s ? trim(s) : "?");
	free(s);
	s = live_cat(&l, "buffer_total_size_kb", NULL, &err);
	printf("\nBuffer total size in kilobytes:\n   %s\n", s ? trim(s) : "?");
	free(s);
	s = live_cat(&l, "trace_clock", NULL, &err);
	char *open = s ? strchr(s, '[') : NULL, *close = open ? strchr(open, ']') : NULL;
	if (close)
		*close = 0;
	printf("\nTrace clock: %s\n", open ? open + 1 : "?");
	free(s);
	stat_cpus(&l);
	s = live_cat(&l, "tracing_on", NULL, &err);
	printf("\nTracing is %s\n", s && s[0] == '1' ? "enabled" : "disabled");
	free(s);
	if (!l.instance) {
		struct live_names ns = {0};
		live_readdir(&l, "/instances", &ns);
		if (ns.n) {
			printf("\nInstances:\n");
			for (size_t i = 0; i < ns.n; i++)
				printf("   %s\n", ns.v[i]);
		}
		live_names_free(&ns);
	}
	live_close(&l);
	return 0;
}
