/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Text of the function tracers (Documentation/trace/ftrace.rst: the function
 * and function_graph tracers): the function
 * tracer's "func <-parent" body and the whole function_graph output (header,
 * CPU/proc/time columns, durations with their marks, leaves, braces, tails,
 * task switches and comments), as the kernel prints them. Shared by the live
 * trace files and `uft report`; names come from a symbol callback. */
#ifndef UFT_FTRACE_TEXT_H
#define UFT_FTRACE_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/text/trace_text.h"

/* The symbol holding an address. No name (NULL) with a module: no symbol
 * holds it, but it is in that object loaded at `start`, and is printed
 * "[module+0xoffset]" (docs/design/symbols.md). */
struct uft_sym {
	const char *name;
	uint64_t start;	    /* the symbol's address */
	uint64_t size;	    /* 0 when unknown */
	const char *module; /* shared object, or NULL for the program itself */
};

/* Fills *out and returns true when addr belongs to a known symbol. */
typedef bool (*uft_sym_fn)(void *ctx, uint64_t addr, struct uft_sym *out);

/* Symbol options of the function tracer (the kernel's trace_options). */
enum {
	UFT_FN_PRINT_PARENT = 1u << 0, /* print-parent */
	UFT_FN_SYM_OFFSET = 1u << 1,   /* sym-offset: name+0xoff/0xsize [module] */
	UFT_FN_SYM_ADDR = 1u << 2,     /* sym-addr: name <0000556f12345678> */
};

/* An address as the kernel's seq_print_ip_sym: 0 for 0, the name (with
 * sym-offset and sym-addr forms), 0x%08lx when no symbol holds it. */
void uft_ftrace_ip(FILE *f, uint64_t addr, unsigned opts, uft_sym_fn sym, void *ctx);

/* The body of a kernel_stack record as the kernel's trace file prints it:
 * "<stack trace>", then " => caller" per return address of `callers` (n,
 * unaligned), named by the symbol holding the call (the byte before it),
 * else the address; the frames of uft's generated event writers (uft__*)
 * on top left out, the kernel's end mark (all ones) ending it. No newline. */
void uft_stack_text(FILE *f, const void *callers, uint32_t n, uft_sym_fn sym, void *ctx);

/* The body of a function record, "func <-parent" (no newline). Returns 0,
 * or -1 for a record too short to be one (nothing printed). */
int uft_ftrace_fn_body(FILE *f, const void *data, uint32_t len, unsigned opts, uft_sym_fn sym,
		       void *ctx);

/* function_graph display flags: the kernel's funcgraph-* options. */
enum {
	UFT_GRAPH_OVERRUN = 1u << 0,  /* funcgraph-overrun */
	UFT_GRAPH_CPU = 1u << 1,      /* funcgraph-cpu */
	UFT_GRAPH_OVERHEAD = 1u << 2, /* funcgraph-overhead */
	UFT_GRAPH_PROC = 1u << 3,     /* funcgraph-proc */
	UFT_GRAPH_DURATION = 1u << 4, /* funcgraph-duration */
	UFT_GRAPH_ABSTIME = 1u << 5,  /* funcgraph-abstime */
	UFT_GRAPH_IRQS = 1u << 6,     /* funcgraph-irqs: off hides calls made in signal handlers */
	UFT_GRAPH_TAIL = 1u << 7,     /* funcgraph-tail */
	UFT_GRAPH_NO_CONTEXT = 1u << 8,	 /* option context-info off */
	UFT_GRAPH_LATENCY = 1u << 9,	 /* option latency-format: the flags column */
	UFT_GRAPH_RETVAL = 1u << 10,	 /* funcgraph-retval: return values in comments */
	UFT_GRAPH_RETVAL_HEX = 1u << 11, /* funcgraph-retval-hex: never as an error code */
	UFT_GRAPH_DEFAULT =
	    UFT_GRAPH_CPU | UFT_GRAPH_OVERHEAD | UFT_GRAPH_DURATION | UFT_GRAPH_IRQS,
};

/* The display bit of a trace option name: print-parent, sym-offset and
 * sym-addr set *fn, the funcgraph-* options *graph (the other stays 0).
 * False for any other name. */
bool uft_ftrace_option_bit(const char *name, unsigned *fn, unsigned *graph);

/* One record of a CPU's stream. */
struct uft_ftrace_rec {
	int cpu;
	uint64_t ts; /* nanoseconds */
	const void *data;
	uint32_t len;
};

/* Writes the text of a record met while graph tracing (a marker's message,
 * or "event: body" for other events); a final newline is dropped. */
typedef void (*uft_graph_comment_fn)(void *ctx, FILE *f, const struct uft_ftrace_rec *r);
/* True for records that print as ordinary trace lines (stack traces). */
typedef bool (*uft_graph_plain_fn)(void *ctx, const struct uft_ftrace_rec *r);

struct uft_graph_cpu;

/* The reader of one output: fill the public fields, then uft_graph_init. */
struct uft_graph {
	unsigned flags; /* UFT_GRAPH_* */
	int nr_cpus;	/* width of the CPU column: digits of nr_cpus - 1 */
	uint16_t id_function, id_entry, id_exit; /* record types (1, 11, 10 in uft files) */
	uft_sym_fn sym;
	void *sym_ctx;
	uft_comm_fn comm;
	void *comm_ctx;
	uft_graph_comment_fn comment;
	void *comment_ctx;
	uft_graph_plain_fn plain; /* may be NULL */
	void *plain_ctx;
	/* private: per CPU, the last pid, depth and open functions */
	struct uft_graph_cpu *cpus;
	int nr_state;
	int cpu_width;
};

/* 0, or -1 when out of memory. */
int uft_graph_init(struct uft_graph *g);
void uft_graph_free(struct uft_graph *g);

/* The column legend under "# tracer: function_graph\n#\n" (nothing without
 * context-info; with latency-format the flags legend first, the latency
 * block above it being the caller's). */
void uft_graph_header(FILE *f, unsigned flags);

enum {
	UFT_GRAPH_PLAIN = -1, /* not a graph line: print it as an ordinary trace line */
	UFT_GRAPH_DONE = 0,
	UFT_GRAPH_LEAF = 1, /* `next` was the entry's own exit and is consumed */
};

struct uft_rec_funcgraph_exit;
/* A funcgraph_exit record of either layout into *ex: the one with retval
 * (48 bytes, kernel 6.5+ and uft) or the one before (40 bytes, retval 0).
 * False for a record too short for either. */
bool uft_graph_exit_decode(const void *data, uint32_t len, struct uft_rec_funcgraph_exit *ex);

/* The lines of one record; `next` is the record that follows it on the same
 * CPU (NULL when none is known yet), which makes an entry a leaf. */
int uft_graph_line(struct uft_graph *g, FILE *f, const struct uft_ftrace_rec *r,
		   const struct uft_ftrace_rec *next);

/* The tracer the records of a buffer belong to when nothing else says:
 * function_graph with graph records, function with function records. */
struct uft_tracer_guess {
	bool graph, function;
};
void uft_tracer_guess_add(struct uft_tracer_guess *t, uint16_t type, uint16_t id_function,
			  uint16_t id_entry, uint16_t id_exit);
const char *uft_tracer_guess_name(const struct uft_tracer_guess *t);

#endif
