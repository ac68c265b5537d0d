/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `uft record` (and `uft stream`, name leading its lines) says when it is done: per-CPU counts
 * and the total, the share of events lost with what would have kept them, and what a traced
 * process's memory held that failed a check. */
#ifndef UFT_RECORD_SUMMARY_H
#define UFT_RECORD_SUMMARY_H

#include <stdint.h>

#include "recorder/collect.h"

struct record_loss {
	uint64_t attempted; /* events the programs wrote or tried to */
	uint64_t missing;   /* of those, not in the file */
	double pct;	    /* missing / attempted, in percent */
};

void record_print_summary(const struct collect *c, const char *path, uint64_t size);
/* What a traced process's memory held that failed a check (stderr). */
void record_print_refused(const char *name, const struct collect *c);
struct record_loss record_loss(const struct collect *c);
/* The loss, its share and the remedies on stderr, when any was lost.
 * buffer_kb and mode: the recording's -b (0: the default) and -M. */
void record_print_loss(const char *name, const struct collect *c, long buffer_kb, const char *mode);

#endif
