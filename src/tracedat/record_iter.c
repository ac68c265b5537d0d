/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Merges the per-CPU page streams of a trace.dat, every instance's, by
 * timestamp. */
#include "tracedat/record_iter.h"

#include <errno.h>
#include <stdlib.h>

#include "util/atomics.h"

uint64_t record_iter_bytes;

struct record_iter_cpu {
	const struct tracedat_cpu *cpu;
	uint64_t page_off;
	struct uft_page_iter it;
	struct uft_page_rec rec;
	bool have;
	bool started;
};

static void advance(struct record_iter *ri, struct record_iter_cpu *c, uint32_t page_size)
{
	for (;;) {
		if (c->started && uft_page_iter_next(&c->it, &c->rec) > 0) {
			c->have = true;
			return;
		}
		if (c->started)
			c->page_off += page_size;
		c->started = true;
		if (page_size == 0 || c->page_off + page_size > c->cpu->size) {
			c->have = false;
			return;
		}
		uft_page_iter_init(&c->it, c->cpu->data + c->page_off, page_size);
		WRITE_ONCE(record_iter_bytes, READ_ONCE(record_iter_bytes) + page_size);
		if (c->it.missed && c->it.missed_stored)
			ri->lost += c->it.missed_count;
		else if (c->it.missed)
			ri->lost_uncounted = true;
	}
}

int record_iter_init(struct record_iter *it, const struct tracedat *td)
{
	it->page_size = td->page_size;
	it->lost = 0;
	it->lost_uncounted = false;
	it->nr = td->nr_cpu_data;
	for (size_t k = 0; k < td->nr_instances; k++)
		it->nr += td->instances[k].nr_cpu_data;
	it->cpus = calloc(it->nr ? it->nr : 1, sizeof(*it->cpus));
	if (!it->cpus)
		return -ENOMEM;
	/* Every buffer's CPUs: the top instance's, then each other instance's. */
	size_t n = 0;
	for (size_t i = 0; i < td->nr_cpu_data; i++)
		it->cpus[n++].cpu = &td->cpus[i];
	for (size_t k = 0; k < td->nr_instances; k++)
		for (size_t i = 0; i < td->instances[k].nr_cpu_data; i++)
			it->cpus[n++].cpu = &td->instances[k].cpus[i];
	for (size_t i = 0; i < it->nr; i++)
		advance(it, &it->cpus[i], it->page_size);
	return 0;
}

bool record_iter_next(struct record_iter *it, struct uft_page_rec *rec, int *cpu)
{
	struct record_iter_cpu *best = NULL;

	for (size_t i = 0; i < it->nr; i++)
		if (it->cpus[i].have && (!best || it->cpus[i].rec.ts < best->rec.ts))
			best = &it->cpus[i];
	if (!best)
		return false;
	*rec = best->rec;
	*cpu = best->cpu->cpu;
	advance(it, best, it->page_size);
	return true;
}

void record_iter_free(struct record_iter *it)
{
	free(it->cpus);
	it->cpus = NULL;
	it->nr = 0;
}
