/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft stat: what a running process traces: tracer, events and filters,
 * buffer sizes, clock, per-CPU counts, tracing state and instances. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "wire/ctl_proto.h"

static const char usage[] = "usage: uft stat [-p PID] [-B INSTANCE]\n"
			    "  What is enabled and filtered, buffer sizes, clock, tracing state,\n"
			    "  and per-CPU entries, overruns and drops.\n";

static char *trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = 0;
	return s;
}

/* The filter of SYS:EV into fm, unless it has none. */
static void note_filter(struct live *l, FILE *fm, const char *sys, const char *ev)
{
	char file[256];
	int err;
	snprintf(file, sizeof(file), "events/%s/%s/filter", sys, ev);
	char *f = live_cat(l, file, NULL, &err);
	if (f && strcmp(trim(f), "none") != 0 && fm)
		fprintf(fm, "  %s:%s \"%s\"\n", sys, ev, f);
	free(f);
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
		note_filter(l, fm, line, colon + 1);
	}
	if (fm)
		fclose(fm);
	if (filters && *filters)
		printf("\nFilters:\n%s", filters);
	free(filters);
	free(set);
}

static unsigned long long stat_field(const char *s, const char *name)
{
	const char *p = s ? strstr(s, name) : NULL;
	return p ? strtoull(p + strlen(name), NULL, 10) : 0;
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
		printf("  %s: entries %llu  overrun %llu  dropped %llu  read %llu\n", ns.v[i],
		       stat_field(s, "entries: "), stat_field(s, "\noverrun: "),
		       stat_field(s, "dropped events: "), stat_field(s, "read events: "));
		free(s);
	}
	live_names_free(&ns);
}

/* printf(fmt, the file trimmed, or "?") */
static void stat_file(struct live *l, const char *fmt, const char *file)
{
	int err;
	char *s = live_cat(l, file, NULL, &err);
	printf(fmt, s ? trim(s) : "?");
	free(s);
}

static void stat_clock(struct live *l)
{
	int err;
	char *s = live_cat(l, "trace_clock", NULL, &err);
	char *open = s ? strchr(s, '[') : NULL, *close = open ? strchr(open, ']') : NULL;
	if (close)
		*close = 0;
	printf("\nTrace clock: %s\n", open ? open + 1 : "?");
	free(s);
}

static void stat_instances(struct live *l)
{
	struct live_names ns = {0};
	live_readdir(l, "/instances", &ns);
	if (ns.n) {
		printf("\nInstances:\n");
		for (size_t i = 0; i < ns.n; i++)
			printf("   %s\n", ns.v[i]);
	}
	live_names_free(&ns);
}

int cmd_stat(int argc, char **argv)
{
	static const struct cli cli = {"uft stat", usage, "p:B:h", NULL, NULL};
	struct live l;
	int rc = live_args_simple(&l, &cli, argc, argv);
	if (rc != CLI_OK)
		return rc;
	printf("Process: %d %s\n", (int)uft_ctl_peer_pid(l.c), uft_ctl_peer_comm(l.c));
	if (l.instance)
		printf("Instance: %s\n", l.instance);
	stat_file(&l, "Tracer: %s\n", "current_tracer");
	stat_events(&l);
	stat_file(&l, "\nBuffer size in kilobytes (per thread):\n   %s\n", "buffer_size_kb");
	stat_file(&l, "\nBuffer total size in kilobytes:\n   %s\n", "buffer_total_size_kb");
	stat_clock(&l);
	stat_cpus(&l);
	int err;
	char *s = live_cat(&l, "tracing_on", NULL, &err);
	printf("\nTracing is %s\n", s && s[0] == '1' ? "enabled" : "disabled");
	free(s);
	if (!l.instance)
		stat_instances(&l);
	live_close(&l);
	return 0;
}
