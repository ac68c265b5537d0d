/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `uft sqlhist -i FILE -e`: SQL statements applied to a recorded file. Each
 * statement becomes its synthetic event and hist triggers (or its one hist
 * trigger) as on a live system, run over the file's records in time order
 * (src/report/replay.h); a later statement may name an earlier one's synthetic
 * event. */
#ifndef UFT_SQLHIST_FILE_H
#define UFT_SQLHIST_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "engine/sqlhist/sqlhist.h"
#include "tracedat/trace_file.h"

struct sqlhist_stmt {
	const char *name; /* -n NAME, or NULL */
	const char *sql;
};

/* Applies the statements in order and prints to out: with `hist` (a hist
 * specification) the histogram of that trigger on the last statement's
 * synthetic event; else, when the last statement has a JOIN, the `trace`
 * text of its synthetic event's records (as the kernel's trace file reads
 * with only that event enabled); else the last statement's histogram.
 * o->rand is the first statement's number, the next ones take the
 * following numbers. Returns the exit status: 0, 1 (run failed), 2 (a
 * statement or the specification refused; message on err). */
int sqlhist_file(struct trace_file *tf, const struct sqlhist_stmt *st, size_t n,
		 const struct uft_sql_opts *o, const char *hist, FILE *out, FILE *err);

/* The statement with the caret under the error position. */
void sqlhist_show_error(FILE *err, const char *sql, const struct uft_sql_error *e);

#endif
