/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `uft report --hist`, `--synth` and `--trace`: hist triggers and
 * synthetic events run over a recorded file by the engine the runtime uses
 * live (src/report/replay.h). */
#ifndef UFT_REPORT_HIST_H
#define UFT_REPORT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/replay.h"
#include "tracedat/trace_file.h"

struct report_hist_opts {
	const char *const *synths; /* synthetic_events lines, defined first */
	size_t nr_synths;
	const char *const *hists; /* SYSTEM:EVENT:SPEC, attached in order */
	size_t nr_hists;
};

/* Defines the synthetic events, attaches the triggers and runs the file
 * through them; with `keep` the synthetic records are kept and their
 * formats known to tf's libtraceevent handle. NULL when something is
 * refused or fails (the message is on err), with *status 2 when a
 * definition or trigger was refused (before any record was read), else 1. */
struct replay *report_replay(struct trace_file *tf, const struct report_hist_opts *o, bool keep,
			     const char *prog, FILE *err, int *status);

/* Runs the triggers over every record of `tf` and prints their `hist`
 * texts to `out` in order. Returns 0, 2 when a definition or trigger is
 * refused, or 1 when the run fails (nothing is printed then). */
int report_hist(struct trace_file *tf, const struct report_hist_opts *o, FILE *out, FILE *err);

#endif
