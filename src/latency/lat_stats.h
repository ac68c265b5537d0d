/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the latency tracers keep per CPU: count, last, min, max and sum of
 * nanosecond samples, and a histogram of fixed-width buckets with one
 * overflow bucket, as rtla's hist tools count. One writer per lat_stats;
 * readers take a racy view while it runs and an exact one after it joined. */
#ifndef UFT_LATENCY_LAT_STATS_H
#define UFT_LATENCY_LAT_STATS_H

#include <stdbool.h>
#include <stdint.h>

struct lat_hist {
	uint32_t unit_ns; /* a sample's value is ns / unit_ns (1 or 1000) */
	uint32_t bucket;  /* bucket width, in units */
	uint32_t entries; /* buckets; counts[entries] is the overflow */
	uint64_t *counts; /* NULL: no histogram kept */
};

struct lat_stats {
	uint64_t count, cur, min, max, sum; /* ns; min is UINT64_MAX until a sample */
	struct lat_hist hist;
};

/* entries 0: no histogram. unit_ns and bucket must be > 0. Returns 0 or -ENOMEM. */
int lat_stats_init(struct lat_stats *s, uint32_t unit_ns, uint32_t bucket, uint32_t entries);
void lat_stats_free(struct lat_stats *s);
void lat_stats_add(struct lat_stats *s, uint64_t ns);
/* The bucket a sample of ns falls in: entries for the overflow. */
uint32_t lat_hist_index(const struct lat_hist *h, uint64_t ns);
/* sum / count, 0 without samples. */
uint64_t lat_stats_avg(const struct lat_stats *s);
/* The smallest value (ns) with at least pct percent of the samples at or
 * below it, to the histogram's resolution (the bucket's lower edge); false
 * without samples or when it lies in the overflow. */
bool lat_hist_percentile(const struct lat_stats *s, unsigned pct, uint64_t *ns);

#endif
