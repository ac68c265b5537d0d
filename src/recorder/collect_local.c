/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include "recorder/collect_local.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uft/event.h>

/* As the rings' segments (collect.c): a long segment is closed at a pause,
 * so that stretches of other sources on its CPU need no record-by-record
 * merge at the end. */
#define LOCAL_SPLIT_PAGES 4
#define LOCAL_SPLIT_GAP 200000ull

int collect_local_init(struct collect_local *l, struct collect *c)
{
	memset(l, 0, sizeof(*l));
	l->c = c;
	l->id_map = calloc(65536, sizeof(*l->id_map));
	return l->id_map ? 0 : -ENOMEM;
}

int collect_local_format(struct collect_local *l, uint16_t id, const char *system, const char *text,
			 size_t len)
{
	uint16_t g = collect_global_id(l->c, system, text, len, id);
	l->id_map[id] = g;
	return g ? 0 : -1;
}

void collect_local_comm(struct collect_local *l, pid_t pid, const char *comm)
{
	collect_set_comm(l->c, (int)pid, comm);
}

static void count_lost(struct collect *c, struct collect_cpu *s)
{
	if (s)
		s->lost++;
	c->totals.lost++;
}

void collect_local_overrun(struct collect_local *l, uint32_t cpu, uint64_t n)
{
	struct collect *c = l->c;
	struct collect_cpu *s = cpu < c->max_cpus ? collect_cpu_stream(c, cpu) : NULL;
	c->totals.written += n;
	c->totals.overrun += n;
	if (s)
		s->overrun += n;
}

/* The CPU's open segment for a record at ts. */
static struct collect_seg *local_seg(struct collect_local *l, struct collect_cpu *s, uint32_t cpu,
				     uint64_t ts)
{
	struct collect *c = l->c;
	if (cpu >= l->nr_segs) {
		void *n = realloc(l->segs, (cpu + 1) * sizeof(*l->segs));
		if (!n)
			return NULL;
		l->segs = n;
		memset(l->segs + l->nr_segs, 0, (cpu + 1 - l->nr_segs) * sizeof(*l->segs));
		l->nr_segs = cpu + 1;
	}
	struct collect_seg *sg = l->segs[cpu];
	if (sg && sg->nr_pages >= LOCAL_SPLIT_PAGES && ts > sg->last_ts + LOCAL_SPLIT_GAP) {
		int rc = collect_seg_close(c, sg);
		if (rc && !c->io_error)
			c->io_error = rc;
		sg = NULL;
	}
	if (!sg)
		sg = l->segs[cpu] = collect_seg_new(c, s, (int)cpu);
	return sg;
}

int collect_local_put(struct collect_local *l, uint32_t cpu, uint64_t ts, void *record,
		      uint32_t len)
{
	struct collect *c = l->c;
	struct uft_common_entry *e = record;
	c->totals.written++;
	if (cpu >= c->max_cpus || len < sizeof(*e)) {
		count_lost(c, NULL);
		return 1;
	}
	struct collect_cpu *s = collect_cpu_stream(c, cpu);
	uint16_t id = l->id_map[e->type];
	if (!s || !id) {
		count_lost(c, s);
		return 1;
	}
	e->type = id;
	int rc;
	if (c->sink) {
		rc = c->sink(c->sink_ctx, cpu, ts, id, record, len, 0) ? -ENOMEM : 0;
	} else {
		/* The engine's times are ns of uft's clock: the file's units may
		 * be the rings' cycles (collect.c, TSC2NSEC). */
		ts = collect_ts_from_ns(c, ts);
		struct collect_seg *sg = local_seg(l, s, cpu, ts);
		rc = sg ? collect_seg_add(c, sg, ts, record, len, 0) : -ENOMEM;
	}
	if (rc) {
		count_lost(c, s);
		if (rc < 0 && !c->io_error && !c->sink)
			c->io_error = rc;
		return rc < 0 ? rc : 1;
	}
	collect_count_stored(c, s, ts, len);
	l->stored++;
	return 0;
}

void collect_local_close(struct collect_local *l)
{
	for (uint32_t i = 0; i < l->nr_segs; i++) {
		if (!l->segs[i])
			continue;
		int rc = collect_seg_close(l->c, l->segs[i]);
		if (rc && !l->c->io_error)
			l->c->io_error = rc;
		l->segs[i] = NULL;
	}
}

/* The segments themselves belong to the collector's CPUs. */
void collect_local_free(struct collect_local *l)
{
	free(l->id_map);
	free(l->segs);
	memset(l, 0, sizeof(*l));
}
