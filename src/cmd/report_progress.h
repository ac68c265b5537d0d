/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `uft report`'s progress on a terminal: a thread that shows, about twice a
 * second once a second has passed, how much of the file's pages the passes
 * over it have read (record_iter_bytes, and the printer's own count). */
#ifndef UFT_REPORT_PROGRESS_H
#define UFT_REPORT_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd/progress.h"
#include "tracedat/tracedat.h"

struct report_progress {
	struct progress pr;
	uint64_t total;	 /* bytes of pages in the file, every instance's */
	uint64_t *extra; /* more bytes read, by another iterator (NULL: none) */
	pthread_t th;
	bool running;
	int stop;
};

/* Starts the display when `on` and standard error is a terminal. */
void report_progress_start(struct report_progress *rp, const struct tracedat *td, uint64_t *extra,
			   bool on);
/* Stops it and erases its line. */
void report_progress_stop(struct report_progress *rp);

#endif
