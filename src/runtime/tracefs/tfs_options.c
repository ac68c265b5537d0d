/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trace_options and options/: the kernel's option names that mean something
 * for a user-space tracer, each a bit of an instance's option word. */
#include <errno.h>
#include <string.h>

#include "runtime/ftrace/ftrace.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/latency/csect.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tfs_text.h"
#include "runtime/tracefs/tracefs.h"
#include "util/atomics.h"
#include "util/util.h"

struct option {
	const char *name;
	bool def;
	const char *tracer; /* a tracer's own option (its tracers, space-separated), or
			     * NULL for the core ones */
};

/* In the kernel's order: the core options, then the tracers' own, which
 * trace_options lists (and takes) only while their tracer is current. */
static const struct option options[] = {
    {"print-parent", true, NULL},
    {"sym-offset", false, NULL},
    {"sym-addr", false, NULL},
    {"verbose", false, NULL},
    {"raw", false, NULL},
    {"hex", false, NULL},
    {"bin", false, NULL},
    {"context-info", true, NULL},
    {"latency-format", false, NULL},
    {"record-cmd", true, NULL},
    {"record-tgid", false, NULL},
    {"overwrite", true, NULL},
    {"irq-info", true, NULL},
    {"markers", true, NULL},
    {"event-fork", false, NULL},
    {"function-trace", true, NULL},
    {"function-fork", false, NULL},
    {"display-graph", false, NULL},
    {"stacktrace", false, NULL},
    {"func_stack_trace", false, "function"},
    {"funcgraph-overrun", false, "function_graph"},
    {"funcgraph-cpu", true, "function_graph"},
    {"funcgraph-overhead", true, "function_graph"},
    {"funcgraph-proc", false, "function_graph"},
    {"funcgraph-duration", true, "function_graph"},
    {"funcgraph-abstime", false, "function_graph"},
    {"funcgraph-irqs", true, "function_graph"},
    {"funcgraph-tail", false, "function_graph"},
    {"funcgraph-retval", false, "function_graph"},
    {"funcgraph-retval-hex", false, "function_graph"},
    {"sleep-time", true, "function_graph"},
    {"graph-time", true, "function_graph"},
    /* uft's: a held pthread mutex is a critical section (csect.h) */
    {"lock-holdtime", false, "preemptoff preemptirqsoff"},
};

/* Whether trace_options shows and takes option i now. */
static bool option_listed(const struct tfs_inst *in, int i)
{
	if (!options[i].tracer)
		return true;
	char tracer[32];
	tfs_current_tracer(in, tracer, sizeof(tracer));
	size_t n = strlen(tracer);
	for (const char *p = options[i].tracer; *p; p += strcspn(p, " "), p += *p == ' ')
		if (strncmp(p, tracer, n) == 0 && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

#define NR_OPTIONS ((int)ARRAY_SIZE(options))
_Static_assert(NR_OPTIONS <= 64, "options are bits of a u64");

int tfs_option_count(void)
{
	return NR_OPTIONS;
}

const char *tfs_option_name(int i)
{
	return options[i].name;
}

int tfs_option_find(const char *name)
{
	for (int i = 0; i < NR_OPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return i;
	return -1;
}

uint64_t tfs_option_defaults(void)
{
	uint64_t v = 0;
	for (int i = 0; i < NR_OPTIONS; i++)
		if (options[i].def)
			v |= 1ull << i;
	return v;
}

bool tfs_opt(const struct tfs_inst *in, const char *name)
{
	int i = tfs_option_find(name);
	return i >= 0 && (in->opts >> i & 1);
}

static void set_fn_stack(uint32_t buffer, bool on)
{
	if (on)
		uft_or_relaxed(&uft_ftrace_fn_stack, 1u << buffer);
	else
		uft_and_relaxed(&uft_ftrace_fn_stack, ~(1u << buffer));
}

int tfs_option_set(struct tfs_inst *in, int i, bool on)
{
	if (i < 0 || i >= NR_OPTIONS)
		return -EINVAL;
	bool was = in->opts >> i & 1;
	if (was == on)
		return 0;
	if (strcmp(options[i].name, "overwrite") == 0) {
		/* Rings take the mode when opened: writers move to new ones. */
		uft_buffers[in->buffer].mode = on ? UFT_MODE_OVERWRITE : UFT_MODE_DISCARD;
		uft_buffer_new_generation(in->buffer);
	}
	if (strcmp(options[i].name, "stacktrace") == 0) {
		/* Writers add a stack after each event record of the buffer. */
		if (on)
			uft_stack_prepare();
		uft_store_seq_cst(&uft_buffers[in->buffer].stacktrace, on);
		if (in->buffer == 0)
			uft_buffer_update_fast();
	}
	if (strcmp(options[i].name, "func_stack_trace") == 0) {
		if (on)
			uft_stack_prepare(); /* the unwinder loaded now, not in a hook */
		set_fn_stack(in->buffer, on);
		/* A stack starts in the function: its sled calls, never jumps to
		 * a stub (ftrace_patch.c). */
		int rc = tfs_ftrace_repatch();
		if (rc) {
			set_fn_stack(in->buffer, !on);
			return rc;
		}
	}
	if (strcmp(options[i].name, "lock-holdtime") == 0)
		uft_csect_set_mutex(in->buffer, on);
	uint64_t before = in->opts;
	if (on)
		in->opts |= 1ull << i;
	else
		in->opts &= ~(1ull << i);
	/* A section tracer's calls come and go with function-trace. */
	if (before != in->opts && strcmp(options[i].name, "function-trace") == 0 &&
	    uft_csect_owns(in->buffer)) {
		int rc = tfs_ftrace_repatch();
		if (rc) {
			in->opts = before;
			return rc;
		}
	}
	if (before != in->opts && strcmp(options[i].name, "display-graph") == 0 &&
	    uft_csect_owns(in->buffer)) {
		int rc = tfs_ftrace_display_graph(in, on);
		if (rc) {
			in->opts = before;
			tfs_ftrace_display_graph(in, !on);
			return rc;
		}
	}
	tfs_follow_refresh();
	return 0;
}

void tfs_follow_refresh(void)
{
	bool any = false;
	for (int b = 0; b < UFT_MAX_BUFFERS && !any; b++)
		any = tfs_insts[b] && (tfs_opt(tfs_insts[b], "event-fork") ||
				       tfs_opt(tfs_insts[b], "function-fork"));
	uft_thread_follow(any);
}

static int show_trace_options(const struct tfs_node *n, FILE *out)
{
	for (int i = 0; i < NR_OPTIONS; i++)
		if (option_listed(n->inst, i))
			fprintf(out, "%s%s\n", n->inst->opts >> i & 1 ? "" : "no", options[i].name);
	return 0;
}

static int write_trace_options(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	tfs_strip(buf, len);
	while (*buf == ' ' || *buf == '\t')
		buf++;
	bool on = strncmp(buf, "no", 2) != 0;
	int i = tfs_option_find(on ? buf : buf + 2);
	if (i < 0 && !on)
		i = tfs_option_find(buf), on = true; /* a name that starts with "no" */
	if (i < 0 || !option_listed(n->inst, i))
		return -EINVAL;
	return tfs_option_set(n->inst, i, on);
}

static int show_option(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%d\n", (int)(n->inst->opts >> n->opt & 1));
	return 0;
}

static int write_option(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v) || v > 1)
		return -EINVAL;
	return tfs_option_set(n->inst, n->opt, v != 0);
}

const struct tfs_file tfs_option_files[] = {
    {.name = "trace_options",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_trace_options,
     .write = write_trace_options},
    {.name = "*", .dir = TFS_D_OPTIONS, .mode = 0644, .show = show_option, .write = write_option},
    {0},
};
