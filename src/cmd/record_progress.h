/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `uft record`'s progress line on a terminal: elapsed time, events per
 * second, bytes written and the events lost so far, redrawn after the
 * collector's drains about twice a second and erased before the summary. */
#ifndef UFT_RECORD_PROGRESS_H
#define UFT_RECORD_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/progress.h"
#include "recorder/collect.h"

struct record_progress {
	struct progress pr;
	const struct collect *c;
	uint64_t last_events;
	double last_t;
};

/* c: the collector record_run will set up (read only after its drains). */
void record_progress_init(struct record_progress *rp, const struct collect *c, bool on);
/* A record_output's `drained`: ctx is the struct record_progress. */
void record_progress_drained(void *ctx, bool final);
/* Events lost so far: overwritten before the recorder read them, dropped on
 * a full buffer, unwritable. */
uint64_t record_lost_so_far(const struct collect *c);

#endif
