/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* osnoise's noise detector: fed the successive clock reads of a busy loop,
 * it counts every gap between two reads longer than the threshold as one
 * noise sample (the kernel osnoise's sample_threshold) and sums them per
 * period. Pure arithmetic, so a test feeds it a made-up clock. */
#ifndef UFT_LATENCY_OSN_DETECT_H
#define UFT_LATENCY_OSN_DETECT_H

#include <stdint.h>

#include "latency/lat_stats.h"

struct osn_detect {
	uint64_t thresh_ns;	   /* a gap above it is noise */
	uint64_t last;		   /* the previous read */
	uint64_t noise;		   /* this period's total noise, ns */
	uint64_t max_single;	   /* this period's longest gap counted, ns */
	uint64_t count;		   /* this period's noise samples */
	struct lat_stats *samples; /* every noise sample, or NULL */
};

/* A new period whose first read is t0. */
static inline void osn_begin(struct osn_detect *d, uint64_t t0)
{
	d->last = t0;
	d->noise = d->max_single = d->count = 0;
}

/* The next read t; returns the gap when it was noise, else 0. */
static inline uint64_t osn_feed(struct osn_detect *d, uint64_t t)
{
	uint64_t gap = t - d->last;
	d->last = t;
	if (gap <= d->thresh_ns)
		return 0;
	d->noise += gap;
	d->count++;
	if (gap > d->max_single)
		d->max_single = gap;
	if (d->samples)
		lat_stats_add(d->samples, gap);
	return gap;
}

/* Percent of the runtime left to the loop, times 100000 (five decimals,
 * as the kernel prints it): (runtime - noise) / runtime. */
uint64_t osn_available_e5(uint64_t runtime, uint64_t noise);

#endif
