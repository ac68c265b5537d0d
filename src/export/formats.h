/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The export formats of uft report (docs/design/export.md). Each writes
 * to out as it reads and returns 0, or -errno after a message on err. */
#ifndef UFT_EXPORT_FORMATS_H
#define UFT_EXPORT_FORMATS_H

#include <stdio.h>

#include "export/export.h"

/* Perfetto's protobuf trace (a Trace message of TracePackets). */
int export_perfetto(struct trace_file *tf, const struct exp_opts *o, FILE *out, FILE *err);
/* The Trace Event Format's JSON object form (Chrome, Perfetto UI,
 * speedscope). */
int export_chrome_json(struct trace_file *tf, const struct exp_opts *o, FILE *out, FILE *err);

/* What a flame graph's widths measure. */
enum flame_by {
	FLAME_BY_AUTO,	/* time when the file has function_graph calls, else count */
	FLAME_BY_TIME,	/* self time of each call path */
	FLAME_BY_COUNT, /* calls, or stack samples */
};

/* One line per distinct stack, "a;b;c VALUE", outermost caller first. */
int export_folded(struct trace_file *tf, const struct exp_opts *o, enum flame_by by, FILE *out,
		  FILE *err);
/* A self-contained interactive SVG flame graph (zoom on click, search). */
int export_flame_svg(struct trace_file *tf, const struct exp_opts *o, enum flame_by by,
		     const char *title, FILE *out, FILE *err);

#endif
