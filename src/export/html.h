/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft report --html (docs/design/export.md): a self-contained page with a
 * zoomable timeline of threads and events, the flame graph and the
 * histograms of the --hist given. */
#ifndef UFT_EXPORT_HTML_H
#define UFT_EXPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "export/export.h"

/* Timeline events kept in the page; later ones are counted, not shown. */
#define HTML_MAX_EVENTS 200000

/* One --hist and the kernel's hist text it produced. */
struct html_hist {
	const char *spec;
	const char *text;
};

int export_html(struct trace_file *tf, const struct exp_opts *o, const char *title,
		const struct html_hist *hists, size_t nr_hists, FILE *out, FILE *err);

#endif
