/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft top's frame: the sampled tables as plain text, sorted by a column.
 * Batch mode prints it as it is; the terminal view prints its first lines,
 * cut to the window. */
#ifndef UFT_TOP_VIEW_H
#define UFT_TOP_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/top_sample.h"

enum top_sort { TOP_SORT_RATE, TOP_SORT_TOTAL, TOP_SORT_NAME, TOP_SORT_NR };

struct top_view {
	enum top_sort sort;
	bool paused;
	bool keys;	   /* the terminal view: the keys line */
	int max_rows;	   /* rows per table, 0: all */
	double every;	   /* -d */
	const char *notes; /* lines about processes gone, or NULL */
};

/* The column's name in the header. */
const char *top_sort_name(enum top_sort s);
void top_render(FILE *out, const struct top *t, const struct top_view *v);

#endif
