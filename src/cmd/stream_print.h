/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft stream's output: the events the collector hands over, held until no
 * older one can still come, then printed in time order as the kernel's
 * trace_pipe lines, with uft report's formatter. */
#ifndef UFT_STREAM_PRINT_H
#define UFT_STREAM_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "recorder/collect.h"

struct stream_print;

/* For the collector c (which it installs itself in as the sink); graph:
 * function_graph lines. NULL when out of memory. */
struct stream_print *stream_print_new(struct collect *c, FILE *f, bool graph);
void stream_print_free(struct stream_print *s);
/* After a drain of every traced process (each 100 ms): prints what no
 * event still to come can be older than; with final, everything. */
void stream_print_drained(void *s, bool final);

#endif
