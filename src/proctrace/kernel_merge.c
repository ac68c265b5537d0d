/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel backend's merge of the per-CPU records into one time order
 * (design/process-tracer.md, "Kernel backend", Pages): records are copied out
 * of the pages as they are read, sorted by time, and released only up to the
 * newest time seen at the previous drain. A record stamped earlier on another
 * CPU may still have been in the making while that CPU was read, but not a
 * whole drain later. */
#include "proctrace/kernel_backend.h"
#include "util/util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct pt_kev {
	uint64_t ts;
	uint32_t cpu, off, len, seq;
};

int pt_kmerge_add(struct pt_kmerge *m, uint32_t cpu, uint64_t ts, const void *rec, uint32_t len,
		  uint16_t id)
{
	size_t need = m->arena_len + ((len + 7u) & ~7u);
	if (uft_array_reserve(m->arena, m->arena_cap, need, 1 << 16) ||
	    uft_array_reserve(m->ev, m->cap_ev, m->nr_ev + 1, 256))
		return -1;
	uint8_t *p = m->arena + m->arena_len;
	memcpy(p, rec, len);
	memcpy(p, &id, 2);
	m->ev[m->nr_ev++] = (struct pt_kev){
	    .ts = ts, .cpu = cpu, .off = (uint32_t)m->arena_len, .len = len, .seq = m->seq++};
	m->arena_len = need;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct pt_kev *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_offset(const void *a, const void *b)
{
	const struct pt_kev *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Whether ev is already in cmp's order: records of one CPU come in time
 * order, and often only one CPU has any, so the sort is mostly not needed. */
static bool sorted(const struct pt_kev *ev, size_t n, int (*cmp)(const void *, const void *))
{
	for (size_t i = 1; i < n; i++)
		if (cmp(&ev[i - 1], &ev[i]) > 0)
			return false;
	return true;
}

void pt_kmerge_flush(struct pt_kmerge *m, bool all, pt_kmerge_fn fn, void *ctx)
{
	if (!m->nr_ev) /* nothing held: the bound stays (and ev may be NULL) */
		return;
	if (!sorted(m->ev, m->nr_ev, by_time))
		qsort(m->ev, m->nr_ev, sizeof(*m->ev), by_time);
	size_t i = 0;
	uint64_t newest = m->bound;
	for (; i < m->nr_ev && (all || m->ev[i].ts <= m->bound); i++)
		fn(ctx, m->ev[i].cpu, m->ev[i].ts, m->arena + m->ev[i].off, m->ev[i].len);
	for (size_t j = i; j < m->nr_ev; j++)
		newest = m->ev[j].ts > newest ? m->ev[j].ts : newest;
	m->bound = newest;
	/* keep the rest, packed at the arena's start in arena order (a record
	 * only ever moves down, over ones already moved) */
	memmove(m->ev, m->ev + i, (m->nr_ev - i) * sizeof(*m->ev));
	m->nr_ev -= i;
	if (!sorted(m->ev, m->nr_ev, by_offset))
		qsort(m->ev, m->nr_ev, sizeof(*m->ev), by_offset);
	size_t len = 0;
	for (i = 0; i < m->nr_ev; i++) {
		struct pt_kev *e = &m->ev[i];
		memmove(m->arena + len, m->arena + e->off, e->len);
		e->off = (uint32_t)len;
		len += (e->len + 7u) & ~7u;
	}
	m->arena_len = len;
}

void pt_kmerge_free(struct pt_kmerge *m)
{
	free(m->ev);
	free(m->arena);
	memset(m, 0, sizeof(*m));
}
