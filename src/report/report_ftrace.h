/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft report's side of the function tracers: which tracer a file holds, its
 * header, and the function and function_graph lines of its records, named
 * from the file's kallsyms. */
#ifndef UFT_REPORT_FTRACE_H
#define UFT_REPORT_FTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/text/ftrace_text.h"
#include "tracedat/kallsyms.h"
#include "report/output.h"
#include "tracedat/trace_file.h"

struct report_ftrace {
	struct trace_file *tf;
	struct uft_ksyms syms;
	uint16_t id_function, id_entry, id_exit, id_print, id_stack; /* 0: not in the file */
	struct uft_tracer_guess guess;
	struct uft_graph g;
	bool graph; /* function_graph lines (after report_ftrace_header) */
	unsigned out_flags;
	unsigned fn_opts;     /* UFT_FN_*: print-parent by default */
	unsigned graph_flags; /* UFT_GRAPH_*: the kernel's defaults */
};

/* 0, or -1 when out of memory. */
int report_ftrace_init(struct report_ftrace *rf, struct trace_file *tf, unsigned out_flags);
void report_ftrace_free(struct report_ftrace *rf);
/* A trace option ("sym-offset", "nofuncgraph-cpu", ...): 0, or -EINVAL for
 * a name that is not one of the function tracers' display options. */
int report_ftrace_option(struct report_ftrace *rf, const char *opt);
/* The ftrace event ids, looked up again (after more formats were added). */
void report_ftrace_find_ids(struct report_ftrace *rf);
/* Names functions from this kallsyms text from now on: 0, or -1. */
int report_ftrace_set_syms(struct report_ftrace *rf, const char *text, size_t len);
/* function_graph lines from now on, without a header: 0, or -1. */
int report_ftrace_graph(struct report_ftrace *rf);
/* First pass: each record's type tells which tracer wrote the file. */
void report_ftrace_note(struct report_ftrace *rf, const void *data, uint32_t len);
/* The header, as the live trace file of that tracer prints it. */
int report_ftrace_header(struct report_ftrace *rf, FILE *f, uint64_t entries, uint64_t written);
/* One record (next: the following record of its CPU, or NULL). Returns
 * UFT_GRAPH_LEAF when next was shown with it. */
int report_ftrace_line(struct report_ftrace *rf, FILE *f, const struct uft_out_record *r,
		       const struct uft_out_record *next);

#endif
