/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Function tracer records in uft report: tracer, header and lines, shared
 * with the live trace files through src/engine/text/ftrace_text.c. */
#define _GNU_SOURCE
#include "report/report_ftrace.h"

#include <errno.h>
#include <string.h>

#include <event-parse.h>
#include <uft/event.h>

static uint16_t ftrace_id(struct tep_handle *tep, const char *name)
{
	struct tep_event *ev = tep ? tep_find_event_by_name(tep, "ftrace", name) : NULL;
	return ev ? (uint16_t)ev->id : 0;
}

/* Inside a graph, records of other events are comments: a marker's text,
 * or the event's usual body. */
static void comment(void *ctx, FILE *f, const struct uft_ftrace_rec *r)
{
	struct report_ftrace *rf = ctx;
	const struct uft_common_entry *e = r->data;
	if (rf->id_print && e->type == rf->id_print && r->len > 16) {
		const char *p = r->data;
		fwrite(p + 16, 1, strnlen(p + 16, r->len - 16), f);
		return;
	}
	struct uft_out_record o = {r->cpu, r->ts, r->data, r->len};
	uft_out_body(f, rf->tf->tep, &o);
}

static bool plain(void *ctx, const struct uft_ftrace_rec *r)
{
	struct report_ftrace *rf = ctx;
	return rf->id_stack && ((const struct uft_common_entry *)r->data)->type == rf->id_stack;
}

int report_ftrace_init(struct report_ftrace *rf, struct trace_file *tf, unsigned out_flags)
{
	memset(rf, 0, sizeof(*rf));
	rf->tf = tf;
	rf->out_flags = out_flags;
	rf->fn_opts = UFT_FN_PRINT_PARENT;
	rf->graph_flags = UFT_GRAPH_DEFAULT;
	if (uft_ksyms_parse(&rf->syms, tf->td->kallsyms ? tf->td->kallsyms : "",
			    tf->td->kallsyms ? tf->td->kallsyms_len : 0) != 0)
		return -1;
	report_ftrace_find_ids(rf);
	return 0;
}

void report_ftrace_find_ids(struct report_ftrace *rf)
{
	struct tep_handle *tep = rf->tf->tep;
	rf->id_function = ftrace_id(tep, "function");
	rf->id_entry = ftrace_id(tep, "funcgraph_entry");
	rf->id_exit = ftrace_id(tep, "funcgraph_exit");
	rf->id_print = ftrace_id(tep, "print");
	rf->id_stack = ftrace_id(tep, "kernel_stack");
}

int report_ftrace_set_syms(struct report_ftrace *rf, const char *text, size_t len)
{
	struct uft_ksyms k;
	if (uft_ksyms_parse(&k, text, len) != 0)
		return -1;
	uft_ksyms_free(&rf->syms);
	rf->syms = k;
	return 0;
}

int report_ftrace_option(struct report_ftrace *rf, const char *opt)
{
	unsigned fn, graph;
	bool on = true;
	if (!uft_ftrace_option_bit(opt, &fn, &graph)) {
		if (strncmp(opt, "no", 2) != 0 || !uft_ftrace_option_bit(opt + 2, &fn, &graph))
			return -EINVAL;
		on = false;
	}
	if (on) {
		rf->fn_opts |= fn;
		rf->graph_flags |= graph;
	} else {
		rf->fn_opts &= ~fn;
		rf->graph_flags &= ~graph;
	}
	return 0;
}

void report_ftrace_free(struct report_ftrace *rf)
{
	if (rf->graph)
		uft_graph_free(&rf->g);
	uft_ksyms_free(&rf->syms);
}

void report_ftrace_note(struct report_ftrace *rf, const void *data, uint32_t len)
{
	uint16_t type;
	if (len < 2)
		return;
	memcpy(&type, data, 2);
	if (type && (type == rf->id_function || type == rf->id_entry || type == rf->id_exit))
		uft_tracer_guess_add(&rf->guess, type, rf->id_function, rf->id_entry, rf->id_exit);
}

int report_ftrace_graph(struct report_ftrace *rf)
{
	rf->g = (struct uft_graph){
	    .flags = rf->graph_flags,
	    .nr_cpus = rf->tf->td->nr_cpus,
	    .id_function = rf->id_function,
	    .id_entry = rf->id_entry,
	    .id_exit = rf->id_exit,
	    .sym = uft_ksyms_lookup,
	    .sym_ctx = &rf->syms,
	    .comm = trace_file_comm,
	    .comm_ctx = rf->tf,
	    .comment = comment,
	    .comment_ctx = rf,
	    .plain = plain,
	    .plain_ctx = rf,
	};
	if (uft_graph_init(&rf->g) != 0)
		return -1;
	rf->graph = true;
	return 0;
}

int report_ftrace_header(struct report_ftrace *rf, FILE *f, uint64_t entries, uint64_t written)
{
	const char *tracer = uft_tracer_guess_name(&rf->guess);
	if (rf->guess.graph) {
		if (report_ftrace_graph(rf) != 0)
			return -1;
		fprintf(f, "# tracer: %s\n#\n", tracer);
		uft_graph_header(f, rf->g.flags);
		return 0;
	}
	uft_out_header(f, tracer, entries, written, rf->tf->td->nr_cpus, rf->out_flags);
	return 0;
}

/* The callers of a kernel_stack record: false if its format is not the
 * kernel's (an int `size`, then `caller` entries). */
static bool stack_entries(struct report_ftrace *rf, const struct uft_out_record *r, const char **at,
			  uint32_t *n)
{
	struct tep_event *ev = tep_find_event(rf->tf->tep, rf->id_stack);
	struct tep_format_field *size_f = ev ? tep_find_field(ev, "size") : NULL;
	struct tep_format_field *caller_f = ev ? tep_find_field(ev, "caller") : NULL;
	if (!size_f || !caller_f || size_f->size != 4 || size_f->offset + 4u > r->size ||
	    (uint32_t)caller_f->offset > r->size)
		return false;
	int32_t size;
	memcpy(&size, (const char *)r->data + size_f->offset, 4);
	uint32_t room = (r->size - (uint32_t)caller_f->offset) / 8;
	*n = size < 0 ? 0 : (uint32_t)size < room ? (uint32_t)size : room;
	*at = (const char *)r->data + caller_f->offset;
	return true;
}

int report_ftrace_line(struct report_ftrace *rf, FILE *f, const struct uft_out_record *r,
		       const struct uft_out_record *next)
{
	if (rf->graph) {
		struct uft_ftrace_rec a = {r->cpu, r->ts, r->data, r->size}, b;
		if (next)
			b = (struct uft_ftrace_rec){next->cpu, next->ts, next->data, next->size};
		int rc = uft_graph_line(&rf->g, f, &a, next ? &b : NULL);
		if (rc != UFT_GRAPH_PLAIN)
			return rc;
	}
	const struct uft_common_entry *e = r->data;
	if (r->size >= sizeof(*e) && rf->id_function && e->type == rf->id_function &&
	    r->size >= 24) {
		uft_out_prefix(f, uft_out_comm(trace_file_comm, rf->tf, e->pid), e->pid, r->cpu,
			       r->data, r->ts, rf->out_flags);
		uft_ftrace_fn_body(f, r->data, r->size, rf->fn_opts, uft_ksyms_lookup, &rf->syms);
		fputc('\n', f);
		return UFT_GRAPH_DONE;
	}
	const char *callers;
	uint32_t n;
	if (r->size >= sizeof(*e) && rf->id_stack && e->type == rf->id_stack &&
	    stack_entries(rf, r, &callers, &n)) {
		uft_out_prefix(f, uft_out_comm(trace_file_comm, rf->tf, e->pid), e->pid, r->cpu,
			       r->data, r->ts, rf->out_flags);
		uft_stack_text(f, callers, n, uft_ksyms_lookup, &rf->syms);
		fputc('\n', f);
		return UFT_GRAPH_DONE;
	}
	uft_out_event(f, rf->tf->tep, trace_file_comm, rf->tf, r, rf->out_flags);
	return UFT_GRAPH_DONE;
}
