/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The function tracers' text, column for column as the kernel's
 * kernel/trace/trace_functions_graph.c and kernel/trace/trace_output.c
 * print it, so readers of ftrace output read uft's. Records are the kernel's layouts
 * (ftrace_records.h). */
#define _GNU_SOURCE
#include "engine/text/ftrace_text.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "wire/ftrace_records.h"
#include "util/util.h"
#include <uft/event.h>

/* Deeper calls are shown but not matched with their exits (the kernel's
 * FTRACE_RETFUNC_DEPTH). */
#define GRAPH_MAX_DEPTH 50
#define GRAPH_INDENT 2
#define PROC_WIDTH 14

struct uft_graph_cpu {
	int last_pid; /* -1 before the first line */
	int depth;    /* where comments go */
	uint64_t enter[GRAPH_MAX_DEPTH];
};

/* ---- symbols ---- */

void uft_ftrace_ip(FILE *f, uint64_t addr, unsigned opts, uft_sym_fn sym, void *ctx)
{
	struct uft_sym s = {0};
	if (!addr) {
		fputc('0', f);
		return;
	}
	bool found = sym && sym(ctx, addr, &s);
	if (found && !s.name && s.module) {
		fprintf(f, "[%s+0x%llx]", s.module, (unsigned long long)(addr - s.start));
	} else if (found && s.name && s.name[0]) {
		fputs(s.name, f);
		if (opts & UFT_FN_SYM_OFFSET) {
			fprintf(f, "+0x%llx/0x%llx", (unsigned long long)(addr - s.start),
				(unsigned long long)s.size);
			if (s.module)
				fprintf(f, " [%s]", s.module);
		}
	} else {
		fprintf(f, "0x%08llx", (unsigned long long)addr);
	}
	if (opts & UFT_FN_SYM_ADDR)
		fprintf(f, " <%016llx>", (unsigned long long)addr);
}

/* The name of the symbol holding the call that returns to `ret` into buf
 * (an unnamed one's "[object+0xoffset]" of ret itself), or NULL. */
static const char *caller_name(uint64_t ret, uft_sym_fn sym, void *ctx, char *buf, size_t len)
{
	struct uft_sym s = {0};
	if (!ret || !sym(ctx, ret - 1, &s))
		return NULL;
	if (!s.name && s.module)
		snprintf(buf, len, "[%s+0x%llx]", s.module, (unsigned long long)(ret - s.start));
	else if (s.name && s.name[0])
		snprintf(buf, len, "%s", s.name);
	else
		return NULL;
	return buf;
}

void uft_stack_text(FILE *f, const void *callers, uint32_t n, uft_sym_fn sym, void *ctx)
{
	uint32_t i = 0;
	uint64_t ret;
	char buf[512];
	for (; i < n; i++) {
		memcpy(&ret, (const char *)callers + 8 * i, 8);
		const char *name = caller_name(ret, sym, ctx, buf, sizeof(buf));
		if (!name || strncmp(name, "uft__", 5) != 0)
			break;
	}
	fputs("<stack trace>", f);
	for (; i < n; i++) {
		memcpy(&ret, (const char *)callers + 8 * i, 8);
		if (ret == UINT64_MAX)
			break;
		const char *name = caller_name(ret, sym, ctx, buf, sizeof(buf));
		if (name)
			fprintf(f, "\n => %s", name);
		else
			fprintf(f, "\n => 0x%llx", (unsigned long long)ret);
	}
}

int uft_ftrace_fn_body(FILE *f, const void *data, uint32_t len, unsigned opts, uft_sym_fn sym,
		       void *ctx)
{
	struct uft_rec_function r;
	if (len < sizeof(r))
		return -1;
	memcpy(&r, data, sizeof(r));
	uft_ftrace_ip(f, r.ip, opts, sym, ctx);
	if ((opts & UFT_FN_PRINT_PARENT) && r.parent_ip) {
		fputs(" <-", f);
		uft_ftrace_ip(f, r.parent_ip, opts, sym, ctx);
	}
	return 0;
}

/* %ps: the bare name. */
static void put_func(FILE *f, struct uft_graph *g, uint64_t addr)
{
	uft_ftrace_ip(f, addr, 0, g->sym, g->sym_ctx);
}

/* ---- state ---- */

int uft_graph_init(struct uft_graph *g)
{
	int n = g->nr_cpus > 0 ? g->nr_cpus : 1;
	g->cpus = calloc((size_t)n, sizeof(*g->cpus));
	if (!g->cpus)
		return -1;
	g->nr_state = n;
	for (int i = 0; i < n; i++)
		g->cpus[i].last_pid = -1;
	g->cpu_width = snprintf(NULL, 0, "%d", n - 1);
	return 0;
}

void uft_graph_free(struct uft_graph *g)
{
	free(g->cpus);
	g->cpus = NULL;
	g->nr_state = 0;
}

/* A record of a CPU the file did not announce shares the last CPU's state. */
static struct uft_graph_cpu *cpu_state(struct uft_graph *g, int cpu)
{
	if (cpu < 0)
		cpu = 0;
	return &g->cpus[cpu < g->nr_state ? cpu : g->nr_state - 1];
}

/* ---- header ---- */

void uft_graph_header(FILE *f, unsigned flags)
{
	if (flags & UFT_GRAPH_NO_CONTEXT)
		return;
	bool lat = flags & UFT_GRAPH_LATENCY;
	if (lat) {
		/* The kernel's legend over the flags column, user-space names. */
		int w = (flags & UFT_GRAPH_ABSTIME ? 16 : 0) + (flags & UFT_GRAPH_CPU ? 4 : 0) +
			(flags & UFT_GRAPH_PROC ? 17 : 0);
		fprintf(f, "#%*s  _-----=> signals-off     \n", w, "");
		fprintf(f, "#%*s / _----=> need-resched    \n", w, "");
		fprintf(f, "#%*s| / _---=> signal-handler  \n", w, "");
		fprintf(f, "#%*s|| / _--=> nesting-depth   \n", w, "");
		fprintf(f, "#%*s||| /                      \n", w, "");
	}
	fputc('#', f);
	if (flags & UFT_GRAPH_ABSTIME)
		fputs("     TIME       ", f);
	if (flags & UFT_GRAPH_CPU)
		fputs(" CPU", f);
	if (flags & UFT_GRAPH_PROC)
		fputs("  TASK/PID       ", f);
	if (lat)
		fputs("||||   ", f);
	if (flags & UFT_GRAPH_DURATION)
		fputs("  DURATION   ", f);
	fputs("               FUNCTION CALLS\n", f);
	fputc('#', f);
	if (flags & UFT_GRAPH_ABSTIME)
		fputs("      |         ", f);
	if (flags & UFT_GRAPH_CPU)
		fputs(" |  ", f);
	if (flags & UFT_GRAPH_PROC)
		fputs("   |    |        ", f);
	if (lat)
		fputs("||||   ", f);
	if (flags & UFT_GRAPH_DURATION)
		fputs("   |   |      ", f);
	fputs("               |   |   |   |\n", f);
}

/* ---- columns ---- */

static void put_cpu(FILE *f, struct uft_graph *g, int cpu)
{
	fprintf(f, " %*d) ", g->cpu_width, cpu);
}

/* comm-pid centered in 14 columns, the comm cut to 7 characters. */
static void put_proc(FILE *f, struct uft_graph *g, int pid)
{
	char comm[8], pid_str[12];
	snprintf(comm, sizeof(comm), "%s", uft_out_comm(g->comm, g->comm_ctx, pid));
	int n = snprintf(pid_str, sizeof(pid_str), "%d", pid);
	int len = (int)strlen(comm) + n + 1;
	int spaces = len < PROC_WIDTH ? PROC_WIDTH - len : 0;
	fprintf(f, "%*s%s-%s%*s", spaces / 2, "", comm, pid_str, spaces - spaces / 2, "");
}

/* The block the kernel prints when another task's records follow on a CPU. */
static void check_pid(FILE *f, struct uft_graph *g, int cpu, int pid)
{
	struct uft_graph_cpu *c = cpu_state(g, cpu);
	if (c->last_pid == pid)
		return;
	int prev = c->last_pid;
	c->last_pid = pid;
	if (prev == -1)
		return;
	fputs(" ------------------------------------------\n", f);
	put_cpu(f, g, cpu);
	put_proc(f, g, prev);
	fputs(" => ", f);
	put_proc(f, g, pid);
	fputs("\n ------------------------------------------\n\n", f);
}

static void prologue(FILE *f, struct uft_graph *g, const struct uft_ftrace_rec *r, int pid)
{
	check_pid(f, g, r->cpu, pid);
	if (g->flags & UFT_GRAPH_NO_CONTEXT)
		return;
	if (g->flags & UFT_GRAPH_ABSTIME)
		fprintf(f, "%5lu.%06lu |  ", (unsigned long)(r->ts / 1000000000),
			(unsigned long)(r->ts % 1000000000 / 1000));
	if (g->flags & UFT_GRAPH_CPU)
		put_cpu(f, g, r->cpu);
	if (g->flags & UFT_GRAPH_PROC) {
		put_proc(f, g, pid);
		fputs(" | ", f);
	}
	if (g->flags & UFT_GRAPH_LATENCY) {
		char fl[6];
		uft_out_flags(r->data, fl);
		fprintf(f, " %s | ", fl);
	}
}

/* Microseconds with as many decimals as keep the number in 7 digits, then
 * padded to 8 columns. */
static void put_duration_value(FILE *f, uint64_t ns)
{
	char us[24], frac[8];
	int len = snprintf(us, sizeof(us), "%llu", (unsigned long long)(ns / 1000));
	fputs(us, f);
	if (len < 7) {
		int digits = 8 - len - 1 < 3 ? 8 - len - 1 : 3;
		snprintf(frac, sizeof(frac), "%03u", (unsigned)(ns % 1000));
		frac[digits] = 0;
		fprintf(f, ".%s", frac);
		len += digits + 1;
	}
	fputs(" us ", f);
	for (; len < 8; len++)
		fputc(' ', f);
}

static void put_duration(FILE *f, struct uft_graph *g, uint64_t ns)
{
	if (!(g->flags & UFT_GRAPH_DURATION) || (g->flags & UFT_GRAPH_NO_CONTEXT))
		return;
	if (g->flags & UFT_GRAPH_OVERHEAD)
		fprintf(f, "%c ", uft_out_mark(ns));
	else
		fputs("  ", f);
	put_duration_value(f, ns);
	fputs("|  ", f);
}

static void put_no_duration(FILE *f, struct uft_graph *g)
{
	if ((g->flags & UFT_GRAPH_DURATION) && !(g->flags & UFT_GRAPH_NO_CONTEXT))
		fputs("              |  ", f);
}

/* Depths a recorded file may claim beyond any real stack are cut, so a
 * damaged record cannot ask for gigabytes of spaces. */
#define GRAPH_INDENT_MAX 4096

static void indent(FILE *f, long depth)
{
	if (depth > GRAPH_INDENT_MAX)
		depth = GRAPH_INDENT_MAX;
	for (long i = 0; i < depth * GRAPH_INDENT; i++)
		fputc(' ', f);
}

/* The depth comments take after a return from `depth` (no wrap-around on a
 * damaged record). */
static int depth_above(int depth)
{
	return depth > INT_MIN ? depth - 1 : depth;
}

/* ---- lines ---- */

static bool hidden(const struct uft_graph *g, const struct uft_common_entry *e)
{
	/* A signal handler is user space's interrupt: funcgraph-irqs off hides it. */
	return !(g->flags & UFT_GRAPH_IRQS) && (e->flags & UFT_FLAG_IN_SIGNAL);
}

bool uft_graph_exit_decode(const void *data, uint32_t len, struct uft_rec_funcgraph_exit *ex)
{
	if (len >= sizeof(*ex)) {
		memcpy(ex, data, sizeof(*ex));
		return true;
	}
	if (len < UFT_FUNCGRAPH_EXIT_OLD_SIZE)
		return false;
	/* func at 8, depth at 16, overrun at 20, calltime at 24, rettime at 32 */
	const char *p = data;
	memcpy(&ex->common, p, sizeof(ex->common));
	memcpy(&ex->func, p + 8, 8);
	ex->retval = 0;
	memcpy(&ex->depth, p + 16, 4);
	memcpy(&ex->overrun, p + 20, 4);
	memcpy(&ex->calltime, p + 24, 8);
	memcpy(&ex->rettime, p + 32, 8);
	return true;
}

/* The end of a return value comment, " = value" and its close: an error code (a value from -4095 to
 * -1, also when only its low 32 bits were returned, as an int is) in decimal unless
 * funcgraph-retval-hex is set, anything else in hex. */
static void put_retval(FILE *f, const struct uft_graph *g, uint64_t v)
{
	int64_t err = 0;
	if (v && !(g->flags & UFT_GRAPH_RETVAL_HEX)) {
		uint64_t x =
		    (v >> 32) == 0 && (v & 0x80000000u) ? (uint64_t)(int64_t)(int32_t)v : v;
		if (x >= (uint64_t)-4095)
			err = (int64_t)x;
	}
	if (err)
		fprintf(f, " = %lld */\n", (long long)err);
	else
		fprintf(f, " = 0x%llx */\n", (unsigned long long)v);
}

static int graph_entry(struct uft_graph *g, FILE *f, const struct uft_ftrace_rec *r,
		       const struct uft_ftrace_rec *next)
{
	struct uft_rec_funcgraph_entry ent;
	struct uft_rec_funcgraph_exit ex;
	memcpy(&ent, r->data, sizeof(ent));
	if (hidden(g, &ent.common))
		return UFT_GRAPH_DONE;
	bool leaf = false;
	if (next && uft_graph_exit_decode(next->data, next->len, &ex))
		leaf = ex.common.type == g->id_exit && ex.common.pid == ent.common.pid &&
		       ex.func == ent.func;
	prologue(f, g, r, ent.common.pid);
	struct uft_graph_cpu *c = cpu_state(g, r->cpu);
	int depth = ent.depth;
	if (leaf) {
		c->depth = depth_above(depth);
		if (depth >= 0 && depth < GRAPH_MAX_DEPTH)
			c->enter[depth] = 0;
		put_duration(f, g, ex.rettime - ex.calltime);
		indent(f, depth);
		put_func(f, g, ent.func);
		if (g->flags & UFT_GRAPH_RETVAL) {
			fputs("(); /*", f);
			put_retval(f, g, ex.retval);
		} else {
			fputs("();\n", f);
		}
		return UFT_GRAPH_LEAF;
	}
	c->depth = depth;
	if (depth >= 0 && depth < GRAPH_MAX_DEPTH)
		c->enter[depth] = ent.func;
	put_no_duration(f, g);
	indent(f, depth);
	put_func(f, g, ent.func);
	fputs("() {\n", f);
	return UFT_GRAPH_DONE;
}

static int graph_exit(struct uft_graph *g, FILE *f, const struct uft_ftrace_rec *r)
{
	struct uft_rec_funcgraph_exit ex;
	if (!uft_graph_exit_decode(r->data, r->len, &ex))
		return UFT_GRAPH_PLAIN;
	if (hidden(g, &ex.common))
		return UFT_GRAPH_DONE;
	struct uft_graph_cpu *c = cpu_state(g, r->cpu);
	bool match = true;
	c->depth = depth_above(ex.depth);
	if (ex.depth >= 0 && ex.depth < GRAPH_MAX_DEPTH) {
		match = c->enter[ex.depth] == ex.func;
		c->enter[ex.depth] = 0;
	}
	prologue(f, g, r, ex.common.pid);
	put_duration(f, g, ex.rettime - ex.calltime);
	indent(f, ex.depth);
	/* An exit whose entry is not shown names its function; with its
	 * return value every exit does. */
	if (g->flags & UFT_GRAPH_RETVAL) {
		fputs("} /* ", f);
		put_func(f, g, ex.func);
		put_retval(f, g, ex.retval);
	} else if (match && !(g->flags & UFT_GRAPH_TAIL)) {
		fputs("}\n", f);
	} else {
		fputs("} /* ", f);
		put_func(f, g, ex.func);
		fputs(" */\n", f);
	}
	if (g->flags & UFT_GRAPH_OVERRUN)
		fprintf(f, " (Overruns: %u)\n", ex.overrun);
	return UFT_GRAPH_DONE;
}

static int graph_comment(struct uft_graph *g, FILE *f, const struct uft_ftrace_rec *r)
{
	const struct uft_common_entry *e = r->data;
	int depth = cpu_state(g, r->cpu)->depth;
	prologue(f, g, r, e->pid);
	put_no_duration(f, g);
	if (depth > 0)
		indent(f, (long)depth + 1);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (m) {
		if (g->comment)
			g->comment(g->comment_ctx, m, r);
		if (fclose(m) != 0)
			len = 0;
	}
	if (len && text[len - 1] == '\n')
		len--;
	fputs("/* ", f);
	if (text)
		fwrite(text, 1, len, f);
	fputs(" */\n", f);
	free(text);
	return UFT_GRAPH_DONE;
}

int uft_graph_line(struct uft_graph *g, FILE *f, const struct uft_ftrace_rec *r,
		   const struct uft_ftrace_rec *next)
{
	const struct uft_common_entry *e = r->data;
	if (r->len < sizeof(*e))
		return UFT_GRAPH_PLAIN;
	if (e->type == g->id_entry && r->len >= sizeof(struct uft_rec_funcgraph_entry))
		return graph_entry(g, f, r, next);
	if (e->type == g->id_exit && r->len >= UFT_FUNCGRAPH_EXIT_OLD_SIZE)
		return graph_exit(g, f, r);
	if (e->type == g->id_function || e->type == g->id_entry || e->type == g->id_exit ||
	    (g->plain && g->plain(g->plain_ctx, r)))
		return UFT_GRAPH_PLAIN;
	return graph_comment(g, f, r);
}

/* ---- options ---- */

bool uft_ftrace_option_bit(const char *name, unsigned *fn, unsigned *graph)
{
	static const struct {
		const char *name;
		unsigned fn, graph;
	} map[] = {
	    {"print-parent", UFT_FN_PRINT_PARENT, 0},
	    {"sym-offset", UFT_FN_SYM_OFFSET, 0},
	    {"sym-addr", UFT_FN_SYM_ADDR, 0},
	    {"funcgraph-overrun", 0, UFT_GRAPH_OVERRUN},
	    {"funcgraph-cpu", 0, UFT_GRAPH_CPU},
	    {"funcgraph-overhead", 0, UFT_GRAPH_OVERHEAD},
	    {"funcgraph-proc", 0, UFT_GRAPH_PROC},
	    {"funcgraph-duration", 0, UFT_GRAPH_DURATION},
	    {"funcgraph-abstime", 0, UFT_GRAPH_ABSTIME},
	    {"funcgraph-irqs", 0, UFT_GRAPH_IRQS},
	    {"funcgraph-tail", 0, UFT_GRAPH_TAIL},
	    {"funcgraph-retval", 0, UFT_GRAPH_RETVAL},
	    {"funcgraph-retval-hex", 0, UFT_GRAPH_RETVAL_HEX},
	};
	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		if (strcmp(map[i].name, name) == 0) {
			*fn = map[i].fn;
			*graph = map[i].graph;
			return true;
		}
	}
	return false;
}

/* ---- which tracer ---- */

void uft_tracer_guess_add(struct uft_tracer_guess *t, uint16_t type, uint16_t id_function,
			  uint16_t id_entry, uint16_t id_exit)
{
	if (type == id_entry || type == id_exit)
		t->graph = true;
	else if (type == id_function)
		t->function = true;
}

const char *uft_tracer_guess_name(const struct uft_tracer_guess *t)
{
	return t->graph ? "function_graph" : t->function ? "function" : "nop";
}
