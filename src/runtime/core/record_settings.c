/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `uft record`'s settings, handed over in the environment, applied at
 * start-up the way one would set them by hand: events and their filters
 * in the registry, the function tracer's files and then the tracer in the
 * tree. What cannot be applied is reported, not printed: the recorder
 * decides whether the program may go on (recording.md, "Checked before
 * main"). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/runtime.h"
#include "runtime/core/secure_env.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/tracefs/tracefs.h"
#include "util/util.h"
#include "wire/env_names.h"

/* One write into the tree, as `echo TEXT > PATH` (or >> with append). */
static int tree_write(const char *path, const char *text, bool append)
{
	struct uft_tfs_handle *h;
	int rc =
	    uft_tracefs_open(path, UFT_TFS_WRITE | (append ? UFT_TFS_APPEND : UFT_TFS_TRUNC), &h);
	if (rc)
		return rc;
	ssize_t n = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return n < 0 ? (int)n : 0;
}

/* Each pattern of a space-separated list into a function tracer file, the
 * first replacing what the file held. */
static int write_patterns(const char *file, const char *list, struct uft_start_report *r)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return -ENOMEM;
	int rc = 0;
	bool first = true;
	for (char *g = strtok_r(copy, " ", &save); g && !rc; g = strtok_r(NULL, " ", &save)) {
		rc = tree_write(file, g, !first);
		if (rc == -EINVAL)
			uft_start_report_add(r, true, "%s: no function matches '%s'\n", file, g);
		else if (rc)
			uft_start_report_add(r, true, "%s: cannot add '%s': %s\n", file, g,
					     strerror(-rc));
		first = false;
	}
	free(copy);
	return rc;
}

/* The function tracer's files, then the tracer itself. A refused setting
 * leaves the tracer off. */
void uft_record_tracer_apply(struct uft_start_report *r)
{
	const char *tracer = uft_env(UFT_ENV_TRACER);
	if (!tracer || !*tracer)
		return;
	static const struct {
		const char *env, *file;
	} lists[] = {
	    {UFT_ENV_FTRACE_FILTER, "set_ftrace_filter"},
	    {UFT_ENV_FTRACE_NOTRACE, "set_ftrace_notrace"},
	    {UFT_ENV_GRAPH_FUNCTION, "set_graph_function"},
	};
	int rc;
	/* The max-latency tracers, timerlat and osnoise measure without
	 * functions to patch. */
	bool sections = strcmp(tracer, "irqsoff") == 0 || strcmp(tracer, "preemptoff") == 0 ||
			strcmp(tracer, "preemptirqsoff") == 0 || strcmp(tracer, "wakeup") == 0 ||
			strcmp(tracer, "wakeup_rt") == 0 || strcmp(tracer, "wakeup_dl") == 0 ||
			strcmp(tracer, "timerlat") == 0 || strcmp(tracer, "osnoise") == 0;
	if (strcmp(tracer, "nop") != 0 && !sections && uft_ftrace_scan() <= 0) {
		uft_start_report_add(
		    r, true,
		    "%s: no function of this program can be traced: build it (or the "
		    "libraries to trace) with -fpatchable-function-entry=5 (gcc 8+, clang 10+)\n",
		    tracer);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		const char *v = uft_env(lists[i].env);
		if (v && *v && write_patterns(lists[i].file, v, r) != 0)
			return;
	}
	const char *depth = uft_env(UFT_ENV_MAX_GRAPH_DEPTH);
	if (depth && *depth && (rc = tree_write("max_graph_depth", depth, false)) != 0) {
		uft_start_report_add(r, true, "max_graph_depth: cannot set %s: %s\n", depth,
				     strerror(-rc));
		return;
	}
	const char *stack = uft_env(UFT_ENV_FUNC_STACK);
	if (stack && *stack && (rc = tree_write("options/func_stack_trace", "1", false)) != 0) {
		uft_start_report_add(r, true, "options/func_stack_trace: cannot set: %s\n",
				     strerror(-rc));
		return;
	}
	if ((rc = tree_write("current_tracer", tracer, false)) != 0)
		uft_start_report_add(r, true, "current_tracer: cannot set %s: %s\n", tracer,
				     strerror(-rc));
}

void uft_record_settings_apply(struct uft_start_report *r)
{
	const char *ev = uft_env(UFT_ENV_EVENTS);
	const char *flt = uft_env(UFT_ENV_FILTERS);
	/* The filters first: no record gets in unfiltered meanwhile. */
	if (flt && *flt)
		uft_registry_apply_filter_list(flt, r);
	uft_registry_apply_spec_list(ev && *ev ? ev : "all", r);
	uft_record_tracer_apply(r);
}
