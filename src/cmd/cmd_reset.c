/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft reset: a running process's tree back to how it started: no events,
 * filters, tracer or instances, the default clock and buffer size, empty
 * buffers, tracing on. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "wire/ctl_proto.h"

static const char usage[] = "usage: uft reset [-p PID] [-B INSTANCE]\n"
			    "  Disables every event, clears filters, the buffer and the snapshot,\n"
			    "  restores the tracer, its function selections, clock and buffer\n"
			    "  size and turns tracing on;\n"
			    "  without -B also removes every instance.\n";

static int clear_filter(struct live *l, const char *sys, const char *ev, void *ctx)
{
	char file[256];
	snprintf(file, sizeof(file), "events/%s/%s/filter", sys, ev);
	return live_put(l, file, "0", UFT_TFS_TRUNC);
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
	int rc = live_put(l, "set_event", "", UFT_TFS_TRUNC);
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

static int remove_instances(struct live *l)
{
	int rc = 0;
	struct live_names ns = {0};
	live_readdir(l, "/instances", &ns);
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
	rc = reset_one(&l);
	if (!l.instance)
		rc |= remove_instances(&l);
	live_close(&l);
	return rc;
}
