/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's `trace` text (Documentation/trace/ftrace.rst, "Output format"): header, legend, the
 * line prefix and lost-event lines, for `uft report` and the live files. */
#ifndef UFT_TRACE_TEXT_H
#define UFT_TRACE_TEXT_H

#include <stdint.h>
#include <stdio.h>

/* Output options (flags arguments). */
enum {
	UFT_OUT_NO_IRQ_INFO = 1u << 0, /* option irq-info off: no flags column */
	UFT_OUT_RAW_CLOCK = 1u << 1,   /* counter, x86-tsc, uptime: raw " %12llu" stamps */
	UFT_OUT_TGID = 1u << 2,	       /* option record-tgid: the TGID column */
};

/* Returns the comm of pid, or NULL if unknown. */
typedef const char *(*uft_comm_fn)(void *ctx, int pid);

/* "# tracer: ..." through the column legend. */
void uft_out_header(FILE *f, const char *tracer, uint64_t entries, uint64_t written, int nr_cpus,
		    unsigned flags);
/* The 5-character flags column of a record payload (out gets a NUL too). */
void uft_out_flags(const void *data, char out[6]);
/* comm for a pid the way the trace file shows it: <idle> for 0, <...> unknown. */
const char *uft_out_comm(uft_comm_fn comm, void *ctx, int pid);
/* "TASK-PID [CPU] flags TIMESTAMP: " of one record. */
void uft_out_prefix(FILE *f, const char *comm, int pid, int cpu, const void *data, uint64_t ts,
		    unsigned flags);
/* The same with the TGID column (UFT_OUT_TGID); tgid <= 0 when unknown. */
void uft_out_prefix_tgid(FILE *f, const char *comm, int pid, int tgid, int cpu, const void *data,
			 uint64_t ts, unsigned flags);
/* The kernel's trace_find_mark for a time in ns: '$' over 1 s, '@' 100 ms,
 * '*' 10 ms, '#' 1 ms, '!' 100 us, '+' 10 us (strictly greater), else ' '. */
char uft_out_mark(uint64_t ns);
/* "CPU:n [LOST m EVENTS]"; lost == UINT64_MAX when the count is unknown. */
void uft_out_lost(FILE *f, int cpu, uint64_t lost);

#endif
