/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-CPU latency statistics and their histogram. */
#include "latency/lat_stats.h"

#include <errno.h>
#include <stdlib.h>

#include "util/atomics.h"

int lat_stats_init(struct lat_stats *s, uint32_t unit_ns, uint32_t bucket, uint32_t entries)
{
	*s = (struct lat_stats){.min = UINT64_MAX};
	s->hist.unit_ns = unit_ns ? unit_ns : 1;
	s->hist.bucket = bucket ? bucket : 1;
	s->hist.entries = entries;
	if (!entries)
		return 0;
	s->hist.counts = calloc((size_t)entries + 1, sizeof(*s->hist.counts));
	return s->hist.counts ? 0 : -ENOMEM;
}

void lat_stats_free(struct lat_stats *s)
{
	free(s->hist.counts);
	s->hist.counts = NULL;
}

uint32_t lat_hist_index(const struct lat_hist *h, uint64_t ns)
{
	uint64_t i = ns / h->unit_ns / h->bucket;
	return i < h->entries ? (uint32_t)i : h->entries;
}

/* The fields are written by the one measuring thread; WRITE_ONCE lets a
 * display thread read each of them whole while it runs. */
void lat_stats_add(struct lat_stats *s, uint64_t ns)
{
	WRITE_ONCE(s->cur, ns);
	if (ns < s->min)
		WRITE_ONCE(s->min, ns);
	if (ns > s->max)
		WRITE_ONCE(s->max, ns);
	WRITE_ONCE(s->sum, s->sum + ns);
	WRITE_ONCE(s->count, s->count + 1);
	if (s->hist.counts) {
		uint64_t *c = &s->hist.counts[lat_hist_index(&s->hist, ns)];
		WRITE_ONCE(*c, *c + 1);
	}
}

uint64_t lat_stats_avg(const struct lat_stats *s)
{
	uint64_t n = READ_ONCE(s->count);
	return n ? READ_ONCE(s->sum) / n : 0;
}

bool lat_hist_percentile(const struct lat_stats *s, unsigned pct, uint64_t *ns)
{
	const struct lat_hist *h = &s->hist;
	uint64_t total = 0;
	if (!h->counts)
		return false;
	for (uint32_t i = 0; i <= h->entries; i++)
		total += h->counts[i];
	if (!total)
		return false;
	/* The rank of the sample sought, rounded up: pct of total, at least 1. */
	uint64_t rank = (total * pct + 99) / 100, seen = 0;
	if (!rank)
		rank = 1;
	for (uint32_t i = 0; i < h->entries; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			*ns = (uint64_t)i * h->bucket * h->unit_ns;
			return true;
		}
	}
	return false;
}
