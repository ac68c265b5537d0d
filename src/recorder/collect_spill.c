/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bounded memory for long recordings: when the held events pass the limit,
 * each CPU's events are sorted and appended to that CPU's temporary file as a
 * run; at the end the runs are merged in time order (ties kept in arrival
 * order), which gives the same stream as sorting everything in memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/collect.h"

struct spill_rec {
	uint64_t ts;
	uint64_t seq;
	uint32_t len;
	uint32_t missed_before;
};

static int cmp_event(const void *a, const void *b)
{
	const struct collect_event *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sort_held(struct collect_cpu *s)
{
	/* Often one thread per CPU: its events arrive in order already. */
	bool sorted = true;
	for (size_t i = 1; i < s->nr && sorted; i++)
		sorted = cmp_event(&s->ev[i - 1], &s->ev[i]) <= 0;
	if (!sorted)
		qsort(s->ev, s->nr, sizeof(*s->ev), cmp_event);
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int spill_cpu(struct collect *c, struct collect_cpu *s)
{
	if (s->spill_fd < 0) {
		FILE *f = tmpfile();
		if (!f)
			return -errno;
		s->spill_fd = dup(fileno(f));
		fclose(f);
		if (s->spill_fd < 0)
			return -errno;
	}
	void *runs = realloc(s->runs, (s->nr_runs + 1) * sizeof(*s->runs));
	if (!runs)
		return -ENOMEM;
	s->runs = runs;
	sort_held(s);
	size_t cap = 1 << 20, used = 0;
	char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	int rc = 0;
	uint64_t start = s->spill_len;
	for (size_t i = 0; i < s->nr && !rc; i++) {
		struct collect_event *e = &s->ev[i];
		size_t need = sizeof(struct spill_rec) + e->len;
		if (used + need > cap) {
			rc = write_all(s->spill_fd, buf, used);
			s->spill_len += used;
			used = 0;
		}
		struct spill_rec r = {e->ts, e->seq, e->len, e->missed_before};
		memcpy(buf + used, &r, sizeof(r));
		memcpy(buf + used + sizeof(r), c->arena + e->data_off, e->len);
		used += need;
	}
	if (!rc && used) {
		rc = write_all(s->spill_fd, buf, used);
		s->spill_len += used;
	}
	free(buf);
	if (rc)
		return rc;
	s->runs[s->nr_runs++] = (struct collect_run){start, s->nr};
	s->nr = 0;
	return 0;
}

int collect_spill(struct collect *c)
{
	for (int i = 0; i < c->nr_cpus; i++) {
		if (!c->cpus[i].nr)
			continue;
		int rc = spill_cpu(c, &c->cpus[i]);
		if (rc)
			return rc;
	}
	c->arena_len = 0;
	return 0;
}

/* A buffered reader over one run of a spill file. */
struct run_reader {
	int fd;
	uint64_t off, left; /* file offset, records left */
	char *buf;
	size_t cap, pos, len;
	struct collect_event head;
	char *data; /* head's payload, inside buf */
};

static int reader_fill(struct run_reader *r, size_t need)
{
	if (r->len - r->pos >= need)
		return 0;
	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
	if (need > r->cap) {
		char *b = realloc(r->buf, need);
		if (!b)
			return -ENOMEM;
		r->buf = b;
		r->cap = need;
	}
	while (r->len < need) {
		ssize_t n = pread(r->fd, r->buf + r->len, r->cap - r->len, (off_t)r->off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		r->off += (uint64_t)n;
		r->len += (size_t)n;
	}
	return 0;
}

/* Loads the next record as the reader's head; 1 when there is one. */
static int reader_next(struct run_reader *r)
{
	if (!r->left)
		return 0;
	struct spill_rec h;
	int rc = reader_fill(r, sizeof(h));
	if (rc)
		return rc;
	memcpy(&h, r->buf + r->pos, sizeof(h));
	rc = reader_fill(r, sizeof(h) + h.len);
	if (rc)
		return rc;
	r->head = (struct collect_event){h.ts, h.seq, 0, h.len, h.missed_before};
	r->data = r->buf + r->pos + sizeof(h);
	r->pos += sizeof(h) + h.len;
	r->left--;
	return 1;
}

static int merge_runs(struct collect_cpu *s,
		      int (*fn)(void *ctx, const struct collect_event *e, const void *data),
		      void *ctx)
{
	struct run_reader *rd = calloc(s->nr_runs, sizeof(*rd));
	if (!rd)
		return -ENOMEM;
	int rc = 0;
	size_t live = 0;
	for (size_t i = 0; i < s->nr_runs && rc >= 0; i++) {
		rd[i] = (struct run_reader){.fd = s->spill_fd,
					    .off = s->runs[i].off,
					    .left = s->runs[i].count,
					    .cap = 1 << 16};
		rd[i].buf = malloc(rd[i].cap);
		rc = rd[i].buf ? reader_next(&rd[i]) : -ENOMEM;
		live += rc > 0;
	}
	while (rc >= 0 && live) {
		struct run_reader *best = NULL;
		for (size_t i = 0; i < s->nr_runs; i++)
			if (rd[i].data && (!best || cmp_event(&rd[i].head, &best->head) < 0))
				best = &rd[i];
		rc = fn(ctx, &best->head, best->data);
		if (rc)
			break;
		/* The payload may move when the reader refills: done with it now. */
		int more = reader_next(best);
		if (more <= 0) {
			best->data = NULL;
			live--;
			rc = more;
		}
	}
	for (size_t i = 0; i < s->nr_runs; i++)
		free(rd[i].buf);
	free(rd);
	return rc > 0 ? 0 : rc;
}

int collect_each_event(struct collect *c, int cpu,
		       int (*fn)(void *ctx, const struct collect_event *e, const void *data),
		       void *ctx)
{
	struct collect_cpu *s = &c->cpus[cpu];
	if (s->nr_runs) {
		/* Whatever is still held joins the runs, so one merge sees all. */
		if (s->nr) {
			int rc = spill_cpu(c, s);
			if (rc)
				return rc;
		}
		return merge_runs(s, fn, ctx);
	}
	sort_held(s);
	for (size_t i = 0; i < s->nr; i++) {
		int rc = fn(ctx, &s->ev[i], c->arena + s->ev[i].data_off);
		if (rc)
			return rc;
	}
	return 0;
}
