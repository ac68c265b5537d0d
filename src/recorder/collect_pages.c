/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streaming a recording to disk as it is drained. Each ring's events on one
 * CPU are already in time order, so they are packed into file pages as they
 * arrive (a segment per ring and CPU) and the full pages go, through a
 * buffer per CPU, to that CPU's region of a spool file beside the output.
 * At the end the regions are pushed together (the holes between them
 * collapsed), so that a CPU whose segments follow one another in time (the
 * usual case: one thread at a time on a CPU, including a thread that moved
 * between CPUs) has its pages in one run, and the spool can become the
 * file. Otherwise a CPU whose segments do not overlap gets its pages by
 * reference, copied into the output; overlapping segments are merged record
 * by record into new pages. Memory stays a buffer per CPU, a page per open
 * segment plus 8 bytes per page. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/collect.h"
#include "tracedat/tracedat.h"
#include "util/util.h"
#include "wire/page.h"

#define SPOOL_BUF (256u << 10) /* per region */
/* The spool's pages start after a hole the file's metadata is written into
 * at the end, so that the spool can become the file without a copy
 * (tracedat_writer_adopt_spool_hole); a hole costs no disk. */
#define SPOOL_HOLE (64ull << 20)
/* A CPU's region: as large as the file system lets a file of one per CPU
 * be (ext4: 16 TiB in all), at most this, at least REGION_MIN. */
#define REGION_MAX (256ull << 30)
#define REGION_MIN (1ull << 30)

/* Writes whole pages past the page cache when the file system allows it:
 * the pages are not read back soon, and a buffered write costs the CPU a
 * copy into newly allocated cache pages (most of a recording's CPU time on
 * the recorder's side), where a direct write hands the buffer to the device.
 * Only aligned offsets and lengths go this way; the first refusal turns it
 * off for the rest of the recording (a file system without O_DIRECT). */
#define DIRECT_ALIGN 4096u

static bool spool_write_direct(struct collect *c, struct collect_region *r)
{
	size_t n = r->used;
	uint64_t at = r->base + r->len;
	if (c->spool_direct < 0 || n % DIRECT_ALIGN || at % DIRECT_ALIGN)
		return false;
	const uint8_t *p = r->buf;
	while (n) {
		ssize_t w = pwrite(c->spool_direct, p, n, (off_t)at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0 || (size_t)w % DIRECT_ALIGN) {
			/* Refused (or cut short at an odd size): buffered from
			 * here on; what was written directly stays. */
			close(c->spool_direct);
			c->spool_direct = -1;
			if (p != r->buf)
				memmove(r->buf, p, n);
			r->used = n;
			r->len = at - r->base;
			return false;
		}
		p += w;
		at += (uint64_t)w;
		n -= (size_t)w;
	}
	r->len += r->used;
	r->used = 0;
	return true;
}

static int region_flush(struct collect *c, struct collect_region *r)
{
	if (!r->used || spool_write_direct(c, r))
		return 0;
	const uint8_t *p = r->buf;
	size_t n = r->used;
	uint64_t at = r->base + r->len;
	while (n) {
		ssize_t w = pwrite(c->spool_fd, p, n, (off_t)at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		at += (uint64_t)w;
		n -= (size_t)w;
	}
	r->len += r->used;
	r->used = 0;
	return 0;
}

/* The largest region size (a power of two) such that a file holding every
 * region can exist on the spool's file system; 0 if not even REGION_MIN. */
static uint64_t pick_region_size(int fd, uint32_t regions)
{
	/* A file size limit (ulimit -f) answers EFBIG, not SIGXFSZ's death. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGXFSZ, &ign, &old);
	uint64_t found = 0;
	for (uint64_t size = REGION_MAX; size >= REGION_MIN && !found; size /= 2)
		if (size <= (UINT64_MAX / 2 - SPOOL_HOLE) / regions &&
		    ftruncate(fd, (off_t)(SPOOL_HOLE + regions * size)) == 0)
			found = ftruncate(fd, 0) == 0 ? size : 0;
	sigaction(SIGXFSZ, &old, NULL);
	return found;
}

static int spool_open(struct collect *c)
{
	if (c->spool_fd >= 0)
		return 0;
	c->spool_fd = tracedat_open_spool(c->spool_path ? c->spool_path : "/tmp/x");
	if (c->spool_fd < 0)
		return -errno;
	uint32_t cpus = c->max_cpus ? c->max_cpus : 1;
	c->region_size = cpus > 1 ? pick_region_size(c->spool_fd, cpus + 1) : 0;
	c->nr_regions = c->region_size ? cpus + 1 : 1;
	c->regions = calloc(c->nr_regions, sizeof(*c->regions));
	if (!c->regions)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->nr_regions; i++)
		c->regions[i].base = SPOOL_HOLE + i * c->region_size;
	c->spool_direct = tracedat_reopen_direct(c->spool_fd, O_WRONLY);
	return 0;
}

/* The region a page of `cpu` goes to, with its buffer; NULL without memory. */
static struct collect_region *region_for(struct collect *c, int cpu, uint32_t page_size)
{
	uint32_t i = 0;
	if (c->region_size && cpu >= 0 && (uint32_t)cpu < c->nr_regions - 1) {
		i = (uint32_t)cpu;
		const struct collect_region *r = &c->regions[i];
		if (r->len + r->used + page_size > c->region_size)
			i = c->nr_regions - 1; /* full: the shared one past them */
	} else if (c->region_size) {
		i = c->nr_regions - 1;
	}
	struct collect_region *r = &c->regions[i];
	if (!r->buf) {
		/* Aligned for direct writes. */
		if (posix_memalign((void **)&r->buf, DIRECT_ALIGN, SPOOL_BUF)) {
			r->buf = NULL;
			return NULL;
		}
	}
	return r;
}

uint8_t *collect_spool_room(struct collect *c, int cpu)
{
	if (spool_open(c))
		return NULL;
	struct collect_region *r = region_for(c, cpu, c->page_size);
	if (!r || (SPOOL_BUF - r->used < c->page_size && region_flush(c, r)))
		return NULL;
	c->room_region = (uint32_t)(r - c->regions);
	return r->buf + r->used;
}

uint8_t *collect_spool_unplace(struct collect *c, uint8_t *page, uint32_t size)
{
	const struct collect_region *r =
	    c->room_region < c->nr_regions ? &c->regions[c->room_region] : NULL;
	if (!r || !r->buf || page != r->buf + r->used)
		return page;
	if (!c->scratch && !(c->scratch = malloc(UFT_SUBBUF_MAX)))
		return NULL;
	memcpy(c->scratch, page, size);
	return c->scratch;
}

static int spool_page_from(struct collect *c, struct collect_seg *s, const uint8_t *src,
			   uint32_t size)
{
	int rc = spool_open(c);
	if (rc)
		return rc;
	struct collect_region *r = region_for(c, s->cpu, s->page_size);
	if (!r)
		return -ENOMEM;
	/* A page already in place (collect_spool_room) is not moved. A page
	 * given room in another CPU's buffer is copied from there: that room
	 * is only taken by this copy or the next page. */
	bool in_place = src == r->buf + r->used;
	if (!in_place && SPOOL_BUF - r->used < s->page_size) {
		rc = region_flush(c, r);
		if (rc)
			return rc;
	}
	if (uft_array_reserve(s->pages, s->cap, s->nr_pages + 1, 64) != 0)
		return -ENOMEM;
	s->pages[s->nr_pages++] = r->base + r->len + r->used;
	if (!in_place)
		memcpy(r->buf + r->used, src, size);
	if (size < s->page_size)
		memset(r->buf + r->used + size, 0, s->page_size - size);
	r->used += s->page_size;
	return 0;
}

static int spool_page(struct collect *c, struct collect_seg *s)
{
	return spool_page_from(c, s, s->page, s->page_size);
}

static int seg_flush_page(struct collect *c, struct collect_seg *s)
{
	uft_page_builder_finish(&s->b, s->pending_missed);
	s->pending_missed = 0;
	int rc = spool_page(c, s);
	uft_page_builder_init(&s->b, s->page, s->page_size);
	return rc;
}

struct collect_seg *collect_seg_new(struct collect *c, struct collect_cpu *cs, int cpu)
{
	struct collect_seg *s = calloc(1, sizeof(*s));
	uint32_t ps = c->page_size ? c->page_size : UFT_SUBBUF_SIZE;
	if (!s || uft_array_reserve(cs->segs, cs->segs_cap, cs->nr_segs + 1, 8) != 0) {
		free(s);
		return NULL;
	}
	s->page = malloc(ps);
	if (!s->page) {
		free(s);
		return NULL;
	}
	s->cpu = cpu;
	s->page_size = ps;
	s->order = c->seq++;
	uft_page_builder_init(&s->b, s->page, ps);
	cs->segs[cs->nr_segs++] = s;
	return s;
}

int collect_seg_add(struct collect *c, struct collect_seg *s, uint64_t ts, const void *data,
		    uint32_t len, uint64_t missed)
{
	/* A gap starts a page: its commit word says how many were lost. */
	if (missed && s->b.nr_records) {
		int rc = seg_flush_page(c, s);
		if (rc)
			return rc;
	}
	s->pending_missed += missed;
	int rc = uft_page_builder_add(&s->b, ts, data, len);
	if (rc == -1) {
		rc = seg_flush_page(c, s);
		if (rc)
			return rc;
		rc = uft_page_builder_add(&s->b, ts, data, len);
	}
	if (rc)
		return 1; /* no page holds it */
	/* The pages clamp a time that goes back (a rewritten ring) to the one
	 * before: so do the segment's bounds. */
	if (!s->events++)
		s->first_ts = s->last_ts = ts;
	else if (ts > s->last_ts)
		s->last_ts = ts;
	return 0;
}

int collect_seg_add_page(struct collect *c, struct collect_seg *s, uint8_t *page, uint32_t size,
			 uint32_t commit, uint64_t missed, uint64_t first, uint64_t last,
			 uint64_t n)
{
	if (size > s->page_size)
		return -EINVAL;
	if (s->b.nr_records) {
		/* Its open page goes first, where this one may lie. */
		page = collect_spool_unplace(c, page, size);
		if (!page)
			return -ENOMEM;
		int rc = seg_flush_page(c, s);
		if (rc)
			return rc;
	}
	uint64_t m = s->pending_missed + missed;
	s->pending_missed = 0;
	/* The commit word (and the count of lost events) is the file's own. */
	struct uft_page_builder b = {.page = page, .page_size = size, .tail = commit};
	uft_page_builder_finish(&b, m < missed ? UINT64_MAX : m);
	int rc = spool_page_from(c, s, page, size);
	if (rc)
		return rc;
	if (!s->events || first < s->first_ts)
		s->first_ts = first;
	if (!s->events || last > s->last_ts)
		s->last_ts = last;
	s->events += n;
	return 0;
}

int collect_seg_close(struct collect *c, struct collect_seg *s)
{
	if (!s->page)
		return 0;
	int rc = s->b.nr_records ? seg_flush_page(c, s) : 0;
	free(s->page);
	s->page = NULL;
	return rc;
}

void collect_seg_free(struct collect_seg *s)
{
	if (!s)
		return;
	free(s->page);
	free(s->pages);
	free(s);
}

/* ---- the end: each CPU's segments into the file ---- */

static int cmp_seg(const void *a, const void *b)
{
	const struct collect_seg *x = *(struct collect_seg *const *)a;
	const struct collect_seg *y = *(struct collect_seg *const *)b;
	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* One segment read back page by page for a merge. */
struct seg_reader {
	struct collect_seg *s;
	size_t next; /* page to load next */
	uint8_t *page;
	struct uft_page_iter it;
	struct uft_page_rec rec;
	uint64_t missed; /* lost before rec */
	bool live;
};

static int reader_next(struct collect *c, struct seg_reader *r)
{
	for (;;) {
		if (r->page && uft_page_iter_next(&r->it, &r->rec) > 0)
			return 1;
		if (r->next == r->s->nr_pages) {
			r->live = false;
			return 0;
		}
		uint64_t off = r->s->pages[r->next++];
		const size_t n = r->s->page_size;
		size_t got = 0;
		while (got < n) {
			ssize_t k = pread(c->spool_rd, r->page + got, n - got, (off_t)(off + got));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return k < 0 ? -errno : -EIO;
			got += (size_t)k;
		}
		uft_page_iter_init(&r->it, r->page, r->s->page_size);
		r->missed =
		    r->it.missed ? (r->it.missed_stored ? r->it.missed_count : UINT64_MAX) : 0;
		if (uft_page_iter_next(&r->it, &r->rec) > 0)
			return 1;
	}
}

struct out_pages {
	struct tracedat_writer *w;
	int cpu;
	struct uft_page_builder b;
	uint8_t *page;
	uint32_t page_size;
	uint64_t pending_missed;
};

static int out_flush(struct out_pages *o)
{
	uft_page_builder_finish(&o->b, o->pending_missed);
	o->pending_missed = 0;
	int rc = tracedat_writer_add_page(o->w, o->cpu, o->page);
	uft_page_builder_init(&o->b, o->page, o->page_size);
	return rc;
}

static int out_add(struct out_pages *o, uint64_t ts, const void *data, uint32_t len,
		   uint64_t missed)
{
	if (missed && o->b.nr_records) {
		int rc = out_flush(o);
		if (rc)
			return rc;
	}
	if (missed)
		o->pending_missed = o->pending_missed + missed < o->pending_missed
					? UINT64_MAX
					: o->pending_missed + missed;
	int rc = uft_page_builder_add(&o->b, ts, data, len);
	if (rc == -1) {
		rc = out_flush(o);
		if (!rc)
			rc = uft_page_builder_add(&o->b, ts, data, len);
	}
	/* Every record fit a page of its segment, none larger than the file's. */
	return rc < 0 ? -EIO : rc;
}

/* Whether reader a's record goes before b's: time, then segment order. */
static inline bool before(const struct seg_reader *rd, size_t a, size_t b)
{
	return rd[a].rec.ts < rd[b].rec.ts || (rd[a].rec.ts == rd[b].rec.ts && a < b);
}

/* Restores the min-heap of reader indices below position i. */
static void sift_down(const struct seg_reader *rd, size_t *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && before(rd, h[l], h[m]))
			m = l;
		if (l + 1 < n && before(rd, h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Merges segs[0..n) record by record in time order (ties: the earlier
 * segment first), into new pages of the file's size: a heap, so many
 * threads taking turns on a CPU cost log n per record. */
static int merge_segs(struct collect *c, struct out_pages *o, struct collect_seg **segs, size_t n)
{
	struct seg_reader *rd = calloc(n, sizeof(*rd));
	size_t *heap = calloc(n, sizeof(*heap));
	int rc = rd && heap ? 0 : -ENOMEM;
	size_t live = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		rd[i].s = segs[i];
		rd[i].live = true;
		rd[i].page = malloc(segs[i]->page_size);
		rc = rd[i].page ? reader_next(c, &rd[i]) : -ENOMEM;
		if (rc > 0)
			heap[live++] = i;
		rc = rc < 0 ? rc : 0;
	}
	for (size_t i = live / 2; i-- > 0 && !rc;)
		sift_down(rd, heap, live, i);
	while (!rc && live) {
		struct seg_reader *best = &rd[heap[0]];
		rc = out_add(o, best->rec.ts, best->rec.data, best->rec.len, best->missed);
		best->missed = 0;
		if (rc)
			break;
		int more = reader_next(c, best);
		if (more < 0) {
			rc = more;
			break;
		}
		if (!more)
			heap[0] = heap[--live];
		sift_down(rd, heap, live, 0);
	}
	for (size_t i = 0; rd && i < n; i++)
		free(rd[i].page);
	free(rd);
	free(heap);
	return rc;
}

int collect_write_cpu_pages(struct collect *c, struct tracedat_writer *w, int cpu,
			    uint32_t page_size)
{
	struct collect_cpu *cs = &c->cpus[cpu];
	size_t n = 0;
	for (size_t i = 0; i < cs->nr_segs; i++)
		if (cs->segs[i]->nr_pages)
			cs->segs[n++] = cs->segs[i];
		else
			collect_seg_free(cs->segs[i]);
	cs->nr_segs = n;
	if (!n)
		return 0;
	qsort(cs->segs, n, sizeof(*cs->segs), cmp_seg);
	struct out_pages o = {.w = w, .cpu = cpu, .page_size = page_size};
	int rc = 0;
	for (size_t i = 0; i < n && !rc;) {
		/* A cluster: segments whose time ranges overlap, directly or
		 * through one another. */
		size_t j = i + 1;
		uint64_t last = cs->segs[i]->last_ts;
		bool same = cs->segs[i]->page_size == page_size;
		while (j < n && cs->segs[j]->first_ts < last) {
			if (cs->segs[j]->last_ts > last)
				last = cs->segs[j]->last_ts;
			same = same && cs->segs[j]->page_size == page_size;
			j++;
		}
		if (j == i + 1 && same) {
			/* Its pages as they are: nothing rebuilt, nothing copied. */
			if (o.b.nr_records)
				rc = out_flush(&o);
			struct collect_seg *s = cs->segs[i];
			for (size_t k = 0; k < s->nr_pages && !rc; k++)
				rc = tracedat_writer_add_page_at(w, cpu, s->pages[k]);
		} else {
			if (!o.page) {
				o.page = malloc(page_size);
				if (!o.page)
					return -ENOMEM;
				uft_page_builder_init(&o.b, o.page, page_size);
			}
			rc = merge_segs(c, &o, cs->segs + i, j - i);
		}
		i = j;
	}
	if (!rc && o.b.nr_records)
		rc = out_flush(&o);
	free(o.page);
	return rc;
}

/* Every page offset at or past `from` moves back by `by` (a collapsed gap). */
static void shift_pages(struct collect *c, uint64_t from, uint64_t by)
{
	for (int i = 0; i < c->nr_cpus; i++)
		for (size_t k = 0; k < c->cpus[i].nr_segs; k++) {
			struct collect_seg *s = c->cpus[i].segs[k];
			for (size_t j = 0; j < s->nr_pages; j++)
				if (s->pages[j] >= from)
					s->pages[j] -= by;
		}
}

/* Pushes the regions together, the last first, by collapsing the holes
 * between them (ext4 and XFS move extents, no data). Returns the spool's
 * length; where a hole cannot be collapsed (a file system without it, a
 * length not a multiple of its blocks) the regions stay apart, which only
 * keeps the spool from becoming the file. */
static uint64_t regions_close_up(struct collect *c)
{
	uint64_t end = 0;
	for (uint32_t i = 0; i < c->nr_regions; i++)
		if (c->regions[i].len && c->regions[i].base + c->regions[i].len > end)
			end = c->regions[i].base + c->regions[i].len;
	struct stat st;
	if (c->nr_regions < 2 || fstat(c->spool_fd, &st) != 0 || st.st_blksize <= 0)
		return end ? end : SPOOL_HOLE;
	uint64_t blk = (uint64_t)st.st_blksize;
	/* The data below each hole ends at `prev`; the hole runs to the next
	 * region that holds anything. */
	for (uint32_t i = c->nr_regions; i-- > 0;) {
		const struct collect_region *r = &c->regions[i];
		if (!r->len)
			continue;
		uint64_t prev = SPOOL_HOLE;
		for (uint32_t k = i; k-- > 0;)
			if (c->regions[k].len) {
				prev = c->regions[k].base + c->regions[k].len;
				break;
			}
		uint64_t gap = r->base - prev;
		if (!gap)
			continue;
		if (prev % blk || gap % blk ||
		    fallocate(c->spool_fd, FALLOC_FL_COLLAPSE_RANGE, (off_t)prev, (off_t)gap) != 0)
			break;
		shift_pages(c, r->base, gap);
		for (uint32_t k = i; k < c->nr_regions; k++)
			c->regions[k].base -= gap;
		end -= gap;
	}
	return end ? end : SPOOL_HOLE;
}

int collect_pages_done(struct collect *c, struct tracedat_writer *w)
{
	for (int i = 0; i < c->nr_cpus; i++)
		for (size_t k = 0; k < c->cpus[i].nr_segs; k++) {
			int rc = collect_seg_close(c, c->cpus[i].segs[k]);
			if (rc)
				return rc;
		}
	if (c->spool_fd < 0)
		return 0;
	for (uint32_t i = 0; i < c->nr_regions; i++) {
		int rc = region_flush(c, &c->regions[i]);
		if (rc)
			return rc;
		free(c->regions[i].buf);
		c->regions[i].buf = NULL;
	}
	if (c->spool_direct >= 0) {
		close(c->spool_direct);
		c->spool_direct = -1;
	}
	uint64_t len = regions_close_up(c);
	/* The writer appends merged pages after ours and copies from it. */
	int rc = tracedat_writer_adopt_spool_hole(w, c->spool_fd, SPOOL_HOLE, len);
	if (!rc) {
		c->spool_rd = c->spool_fd; /* the writer's now; still read by merges */
		c->spool_fd = -1;
	}
	return rc;
}
