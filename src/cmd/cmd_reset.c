/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft reset: a running process's tree back to how it started: no events,
 * triggers, hists, filters, function commands, synthetic events, tracer or
 * instances, the default clock and buffer size, empty buffers, tracing on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "wire/ctl_proto.h"

static const char usage[] = "usage: uft reset [-p PID] [-B INSTANCE]\n"
			    "  Removes every trigger and hist, disables every event, clears\n"
			    "  filters, function commands, the buffer and the snapshot, restores\n"
			    "  the tracer, its function selections, clock and buffer size and\n"
			    "  turns tracing on; without -B also removes every instance and\n"
			    "  synthetic event.\n";

static int clear_filter(struct live *l, const char *sys, const char *ev, void *ctx)
{
	char file[256];
	snprintf(file, sizeof(file), "events/%s/%s/filter", sys, ev);
	return live_put(l, file, "0", UFT_TFS_TRUNC);
}

/* The text a listed line is removed by: "!" and the line without the state
 * a hist shows after it (" [active]"). */
static void removal_of(const char *line, char *out, size_t cap)
{
	size_t n = strcspn(line, "[");
	while (n && line[n - 1] == ' ')
		n--;
	snprintf(out, cap, "!%.*s", (int)n, line);
}

/* Removes each line `file` lists (triggers, function commands). A line that
 * cannot go yet (a hist whose variables another still uses: EBUSY) counts
 * in *busy for the next pass; any other refusal in *failed. */
static int remove_listed(struct live *l, const char *file, bool (*wanted)(const char *), int *busy,
			 int *failed)
{
	int err, removed = 0;
	char *text = live_cat(l, file, NULL, &err);
	if (!text)
		return 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!*line || *line == '#' || (wanted && !wanted(line)))
			continue;
		char cmd[1024];
		removal_of(line, cmd, sizeof(cmd));
		int rc = live_write(l, file, cmd, UFT_TFS_APPEND);
		if (!rc)
			removed++;
		else if (rc == -EBUSY)
			(*busy)++;
		else
			*failed = live_fail(file, rc);
	}
	free(text);
	return removed;
}

/* One pass over the trigger file of every event, those of the ftrace
 * system (the marker's) included, which available_events does not list. */
static int remove_triggers_pass(struct live *l, int *busy, int *failed)
{
	int removed = 0;
	struct live_names systems = {.dirs_only = true};
	live_readdir(l, "events", &systems);
	for (size_t i = 0; i < systems.n; i++) {
		char dir[256];
		snprintf(dir, sizeof(dir), "events/%s", systems.v[i]);
		struct live_names events = {.dirs_only = true};
		live_readdir(l, dir, &events);
		for (size_t j = 0; j < events.n; j++) {
			char file[512];
			snprintf(file, sizeof(file), "%s/%s/trigger", dir, events.v[j]);
			removed += remove_listed(l, file, NULL, busy, failed);
		}
		live_names_free(&events);
	}
	live_names_free(&systems);
	return removed;
}

/* Triggers and hists of every event. A hist whose variables another hist
 * or an action uses is refused until that one is gone (the kernel's order:
 * the users first), so passes repeat while they remove something. */
static int remove_triggers(struct live *l)
{
	int busy, failed = 0, removed;
	do {
		busy = 0;
		removed = remove_triggers_pass(l, &busy, &failed);
	} while (busy && removed);
	if (busy) {
		fprintf(stderr, "uft: %d trigger(s) still in use could not be removed\n", busy);
		return 1;
	}
	return failed;
}

static bool is_command(const char *line)
{
	return strchr(line, ':') != NULL;
}

/* Function commands (FUNC:traceoff, ...) stay when set_ftrace_filter is
 * emptied, as in the kernel: each is removed by name. */
static int remove_function_commands(struct live *l)
{
	int busy = 0, failed = 0;
	remove_listed(l, "set_ftrace_filter", is_command, &busy, &failed);
	return failed | (busy != 0);
}

/* The files reset writes, in order, and what. */
static const struct {
	const char *file, *text;
	bool top_only; /* the graph's selections exist at the top only */
} defaults[] = {
    {"current_tracer", "nop", false},
    {"set_ftrace_filter", "", false},
    {"set_ftrace_notrace", "", false},
    {"set_ftrace_pid", "", false},
    {"set_ftrace_notrace_pid", "", false},
    {"set_graph_function", "", true},
    {"set_graph_notrace", "", true},
    {"max_graph_depth", "0", true},
    {"trace_clock", "local", false},
    {"buffer_size_kb", "1024", false}, /* every CPU's */
    {"buffer_subbuf_size_kb", "4", false},
    /* Every CPU the mask can leave out (UFT_BUFFER_MAX_CPUS); bits of CPUs
     * that do not exist are ignored. */
    {"tracing_cpumask", "ffffffff,ffffffff,ffffffff,ffffffff,ffffffff,ffffffff,ffffffff,ffffffff",
     false},
    {"options/stacktrace", "0", false},
    {"snapshot", "0", false},
    {"trace", "", false},
    {"error_log", "", false},
    {"tracing_on", "1", false},
};

/* Every write is tried, whatever failed before. */
static int reset_one(struct live *l)
{
	int rc = remove_triggers(l);
	rc |= remove_function_commands(l);
	rc |= live_put(l, "set_event", "", UFT_TFS_TRUNC);
	rc |= live_put(l, "set_event_pid", "", UFT_TFS_TRUNC);
	rc |= live_put(l, "set_event_notrace_pid", "", UFT_TFS_TRUNC);
	int err;
	char *all = live_cat(l, "/available_events", NULL, &err);
	if (all && *all)
		rc |= live_for_events(l, "*", clear_filter, NULL);
	free(all);
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (!defaults[i].top_only || !l->instance)
			rc |= live_put(l, defaults[i].file, defaults[i].text, UFT_TFS_TRUNC);
	return rc;
}

/* Every instance, their triggers first (hists of several instances may
 * feed the same synthetic events). */
static int remove_instances(struct live *l)
{
	int rc = 0;
	struct live_names ns = {0};
	live_readdir(l, "/instances", &ns);
	for (size_t i = 0; i < ns.n; i++) {
		struct live in = *l;
		in.instance = ns.v[i];
		rc |= remove_triggers(&in);
	}
	for (size_t i = 0; i < ns.n; i++) {
		char path[256];
		snprintf(path, sizeof(path), "instances/%s", ns.v[i]);
		int r = uft_ctl_rmdir(l->c, path);
		if (r)
			rc |= live_fail(path, r);
	}
	live_names_free(&ns);
	return rc;
}

int cmd_reset(int argc, char **argv)
{
	static const struct cli cli = {"uft reset", usage, "p:B:h", NULL, NULL};
	struct live l;
	int rc = live_args_simple(&l, &cli, argc, argv);
	if (rc != CLI_OK)
		return rc;
	rc = l.instance ? 0 : remove_instances(&l);
	rc |= reset_one(&l);
	if (!l.instance)
		rc |= live_put(&l, "/synthetic_events", "", UFT_TFS_TRUNC);
	live_close(&l);
	return rc;
}
