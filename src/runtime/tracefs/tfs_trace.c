/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The buffer's contents as files: trace (a snapshot in time order), the
 * consuming trace_pipe, per_cpu/cpuN/{trace,trace_pipe,trace_pipe_raw,stats}
 * and snapshot.
 *
 * Rings are per thread; the files are per buffer and per CPU. `trace` peeks
 * at every ring of the buffer and sorts. Consuming readers share one queue
 * per CPU per instance, filled from the rings on demand: whoever reads
 * trace_pipe or a CPU's pipe takes the events of that queue, once. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire/page.h"
#include "engine/format/print_fmt.h"
#include "wire/ring_reader.h"
#include "engine/text/trace_text.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/latency/csect.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tfs_text.h"
#include "runtime/tracefs/tfs_marker.h"
#include "util/atomics.h"
#include "util/util.h"

/* Records and their data. A list made by a reader (`trace`, a snapshot) owns
 * all n; a consuming queue owns those from head to n only: see queue_pop(). */
struct tfs_recs {
	struct tfs_rec *v;
	size_t n, cap, head; /* head: first not yet consumed (queues) */
};

struct tfs_snapshot {
	struct tfs_recs recs;
};

/* Frees what the list owns: a slot handed out of a queue has no data left. */
static void recs_free(struct tfs_recs *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->v[i].data);
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}

static int recs_add(struct tfs_recs *rs, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		    uint64_t lost)
{
	/* a snapshot of the rings holds many: start where a page's worth fits */
	if (uft_array_reserve(rs->v, rs->cap, rs->n + 1, 256))
		return -ENOMEM;
	char *copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, len);
	rs->v[rs->n] = (struct tfs_rec){ts, lost, rs->n, cpu, len, copy};
	rs->n++;
	return 0;
}

/* Time order; records of equal time keep the order they were read in (a
 * thread's ring order), so an entry stays before its exit. */
static int rec_cmp(const void *a, const void *b)
{
	const struct tfs_rec *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- rings of a buffer ---- */

/* Every ring of the buffer (or all) whose state is in `states` (a mask of
 * 1 << UFT_RING_*), each checked to lie inside the region first. */
static void for_each_ring_in(uint32_t buffer, unsigned states, tfs_ring_fn fn, void *ctx)
{
	struct uft_shm_header *h = uft_sess.hdr;
	if (!h)
		return;
	uint32_t nr = uft_load_seq_cst(&h->nr_rings);
	if (nr > UFT_SHM_MAX_RINGS)
		nr = UFT_SHM_MAX_RINGS;
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t off = smp_load_acquire(&h->ring_off[i]);
		if (!off || !uft_shm_ring_ok(h, off))
			continue;
		struct uft_ring *r = (struct uft_ring *)((char *)h + off);
		/* A ring may be taken again by a new thread while this walks:
		 * its buffer is read only once its state is known. */
		uint32_t st = smp_load_acquire(&r->state);
		if (st > 31 || !(states & (1u << st)) ||
		    (buffer != TFS_ALL_BUFFERS && READ_ONCE(r->buffer) != buffer))
			continue;
		fn(ctx, r, i);
	}
}

void tfs_for_each_ring(uint32_t buffer, tfs_ring_fn fn, void *ctx)
{
	for_each_ring_in(buffer, 1u << UFT_RING_ACTIVE | 1u << UFT_RING_EXITED, fn, ctx);
}

struct peek_ctx {
	struct tfs_recs *out;
	int cpu; /* -1: all */
	int err;
};

static int peek_one(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		    uint64_t missed)
{
	struct peek_ctx *p = ctx;
	if (p->cpu >= 0 && (uint32_t)p->cpu != cpu)
		return 0;
	if (recs_add(p->out, ts, cpu, data, len, 0) != 0) {
		p->err = -ENOMEM;
		return 1;
	}
	return 0;
}

static void peek_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uft_ring_peek(r, peek_one, ctx);
}

static int collect(uint32_t buffer, int cpu, struct tfs_recs *out)
{
	struct peek_ctx p = {out, cpu, 0};
	tfs_for_each_ring(buffer, peek_ring, &p);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), rec_cmp);
	return p.err;
}

static void clear_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uft_ring_clear(r);
	/* A drained ring whose thread is gone goes back for reuse. */
	uint32_t st = UFT_RING_EXITED;
	if (uft_load_seq_cst(&r->produced) == uft_load_seq_cst(&r->consumed))
		uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE);
}

/* ---- consuming queues ----
 *
 * Who owns a queued record's data: the queue, until a reader takes the record
 * (queue_pop(), through pipes_take() or the raw pages); from then on the
 * reader alone, which frees it once it has turned it into text or a page. The
 * slot it leaves below head keeps no pointer, so clearing the buffer, rmdir
 * and fork (pipes_free()) free exactly the records still pending, whatever a
 * reader that stopped half way still holds as text. */

struct tfs_pipes {
	struct uft_ring_cursor *cur; /* by ring slot */
	uint32_t nr_cur;
	struct tfs_recs q[]; /* one per CPU */
};

static struct tfs_pipes *pipes[UFT_MAX_BUFFERS];

static struct tfs_pipes *pipes_of(uint32_t buffer)
{
	if (!pipes[buffer]) {
		struct tfs_pipes *p =
		    calloc(1, sizeof(*p) + (size_t)tfs_nr_cpus() * sizeof(p->q[0]));
		pipes[buffer] = p;
	}
	return pipes[buffer];
}

static void pipes_free(uint32_t buffer)
{
	struct tfs_pipes *p = pipes[buffer];
	if (!p)
		return;
	for (int c = 0; c < tfs_nr_cpus(); c++)
		recs_free(&p->q[c]);
	free(p->cur);
	free(p);
	pipes[buffer] = NULL;
}

/* Takes the record at the head of a queue: its data is the caller's now. */
static struct tfs_rec queue_pop(struct tfs_recs *q)
{
	struct tfs_rec r = q->v[q->head];
	q->v[q->head++].data = NULL;
	if (q->head == q->n)
		q->head = q->n = 0;
	return r;
}

/* Drops the slots readers emptied once they are half the queue, so a queue
 * that is never read to its end does not grow without bound. */
static void queue_compact(struct tfs_recs *q)
{
	if (!q->head || q->head < q->n - q->head)
		return;
	memmove(q->v, q->v + q->head, (q->n - q->head) * sizeof(*q->v));
	q->n -= q->head;
	q->head = 0;
	/* Records still to come are numbered after these (rec_cmp's ties). */
	for (size_t i = 0; i < q->n; i++)
		q->v[i].seq = i;
}

struct fill_ctx {
	struct tfs_pipes *p;
	int err;
};

static int queue_one(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		     uint64_t missed)
{
	struct fill_ctx *f = ctx;
	int ncpu = tfs_nr_cpus();
	if (cpu >= (uint32_t)ncpu)
		cpu = (uint32_t)ncpu - 1;
	if (recs_add(&f->p->q[cpu], ts, cpu, data, len, missed) != 0) {
		f->err = -ENOMEM;
		return 1;
	}
	return 0;
}

static void fill_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	struct fill_ctx *f = ctx;
	struct tfs_pipes *p = f->p;
	if (slot >= p->nr_cur) {
		uint32_t n = slot + 64;
		void *c = realloc(p->cur, n * sizeof(*p->cur));
		if (!c)
			return;
		p->cur = c;
		memset(p->cur + p->nr_cur, 0, (n - p->nr_cur) * sizeof(*p->cur));
		for (uint32_t i = p->nr_cur; i < n; i++)
			p->cur[i].generation = UINT32_MAX;
		p->nr_cur = n;
	}
	bool exited = uft_load_seq_cst(&r->state) == UFT_RING_EXITED;
	struct uft_ring_cursor *c = &p->cur[slot];
	if (uft_ring_drain(r, c, true, queue_one, f) > 0)
		uft_ring_consumed_to(r, c); /* read once: gone for `trace` too */
	uint32_t st = UFT_RING_EXITED;
	if (exited && uft_load_seq_cst(&r->produced) == uft_load_seq_cst(&r->consumed))
		uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE);
}

/* Moves what the rings hold into the per-CPU queues, each kept in time order. */
static int pipes_fill(uint32_t buffer)
{
	/* What a snapshot trigger took is not for the pipes. */
	tfs_triggers_service();
	struct tfs_pipes *p = pipes_of(buffer);
	if (!p)
		return -ENOMEM;
	size_t before[256];
	int ncpu = tfs_nr_cpus() < 256 ? tfs_nr_cpus() : 256;
	for (int c = 0; c < ncpu; c++) {
		queue_compact(&p->q[c]);
		before[c] = p->q[c].n;
	}
	struct fill_ctx f = {p, 0};
	tfs_for_each_ring(buffer, fill_ring, &f);
	for (int c = 0; c < ncpu; c++) {
		struct tfs_recs *q = &p->q[c];
		if (q->n != before[c])
			qsort(q->v + q->head, q->n - q->head, sizeof(*q->v), rec_cmp);
	}
	return f.err;
}

/* Takes the oldest queued record (of one CPU, or of all). */
static bool pipes_take(uint32_t buffer, int cpu, struct tfs_rec *out)
{
	struct tfs_pipes *p = pipes[buffer];
	if (!p)
		return false;
	struct tfs_recs *best = NULL;
	for (int c = 0; c < tfs_nr_cpus(); c++) {
		struct tfs_recs *q = &p->q[c];
		if ((cpu >= 0 && c != cpu) || q->head == q->n)
			continue;
		if (!best || q->v[q->head].ts < best->v[best->head].ts)
			best = q;
	}
	if (!best)
		return false;
	*out = queue_pop(best);
	return true;
}

/* The record a take of that CPU would return next, left in place. */
static struct tfs_rec *pipes_peek(uint32_t buffer, int cpu)
{
	struct tfs_pipes *p = pipes[buffer];
	if (!p || cpu < 0 || cpu >= tfs_nr_cpus())
		return NULL;
	struct tfs_recs *q = &p->q[cpu];
	return q->head < q->n ? &q->v[q->head] : NULL;
}

static bool pipes_ready(uint32_t buffer, int cpu)
{
	struct tfs_pipes *p = pipes[buffer];
	if (!p)
		return false;
	for (int c = 0; c < tfs_nr_cpus(); c++)
		if ((cpu < 0 || c == cpu) && p->q[c].head < p->q[c].n)
			return true;
	return false;
}

void tfs_trace_after_fork(uint32_t buffer)
{
	pipes_free(buffer);
}

void tfs_trace_clear(uint32_t buffer)
{
	tfs_for_each_ring(buffer, clear_ring, NULL);
	pipes_free(buffer);
}

/* ---- text ---- */

struct overrun_ctx {
	uint64_t overrun;
};

static void add_overrun(void *ctx, struct uft_ring *r, uint32_t slot)
{
	struct overrun_ctx *o = ctx;
	o->overrun += uft_load_seq_cst(&r->overrun) - r->overrun_base;
}

/* The view of an instance's records: the current tracer, or with "nop" the
 * function tracer whose records the buffer holds. */
static void view_for(struct tfs_view *v, const struct tfs_inst *in, const struct tfs_recs *rs)
{
	char tracer[32];
	tfs_current_tracer(in, tracer, sizeof(tracer));
	tfs_view_init(v, in, tracer);
	for (size_t i = 0; rs && i < rs->n && !v->graph; i++)
		tfs_view_note(v, &rs->v[i]);
}

/* The records' lines in the view's form (no header). */
static void print_lines(FILE *f, struct tfs_view *v, struct tfs_comms *cm, struct tfs_recs *rs)
{
	uint64_t first = rs->n ? rs->v[0].ts : 0;
	/* The graph's leaves need the record after each one on its CPU; an
	 * exit shown with its entry is skipped. */
	size_t *next = NULL;
	bool *skip = NULL;
	if (v->graph && rs->n) {
		size_t ncpu = (size_t)tfs_nr_cpus() + 1;
		size_t *last = malloc(ncpu * sizeof(*last));
		next = malloc(rs->n * sizeof(*next));
		skip = calloc(rs->n, sizeof(*skip));
		if (!last || !next || !skip) {
			free(next);
			free(skip);
			next = NULL;
			skip = NULL;
		}
		for (size_t c = 0; next && c < ncpu; c++)
			last[c] = SIZE_MAX;
		for (size_t i = rs->n; next && i-- > 0;) {
			size_t c = rs->v[i].cpu < ncpu ? rs->v[i].cpu : ncpu - 1;
			next[i] = last[c];
			last[c] = i;
		}
		free(last);
	}
	for (size_t i = 0; i < rs->n; i++) {
		if (skip && skip[i])
			continue;
		struct tfs_rec *r = &rs->v[i];
		r->seq = i;
		size_t j = next ? next[i] : SIZE_MAX;
		int rc = tfs_view_line(f, v, cm, r, j != SIZE_MAX ? &rs->v[j] : NULL, first,
				       i + 1 < rs->n ? rs->v[i + 1].ts : 0);
		if (rc == UFT_GRAPH_LEAF && j != SIZE_MAX)
			skip[j] = true;
	}
	free(skip);
	free(next);
}

static void print_recs(FILE *f, const struct tfs_inst *in, struct tfs_recs *rs, uint64_t overrun)
{
	struct tfs_comms cm;
	struct tfs_view v;
	tfs_comms_load(&cm, in->buffer);
	view_for(&v, in, rs);
	tfs_text_header(f, &v, rs->n, overrun, rs->n ? &rs->v[0] : NULL);
	print_lines(f, &v, &cm, rs);
	tfs_view_free(&v);
	tfs_comms_free(&cm);
}

/* ---- trace ---- */

struct max_copy {
	struct tfs_recs rs;
	struct uft_csect_info info;
	int err;
};

static void copy_max(void *ctx, const struct uft_csect_trace *tr)
{
	struct max_copy *m = ctx;
	m->info = tr->info;
	for (size_t i = 0; i < tr->n && !m->err; i++)
		m->err =
		    recs_add(&m->rs, tr->v[i].ts, tr->v[i].cpu, tr->v[i].data, tr->v[i].len, 0);
}

/* A section tracer's `trace`: its max trace, in the latency format whatever
 * the option says, as the kernel's print_max tracers. */
static int show_max_trace(const struct tfs_node *n, FILE *out)
{
	struct max_copy m = {0};
	uft_csect_with_max(n->inst->buffer, copy_max, &m);
	if (m.err) {
		recs_free(&m.rs);
		return m.err;
	}
	struct tfs_inst lat = *n->inst;
	lat.opts |= 1ull << tfs_option_find("latency-format");
	struct tfs_comms cm;
	struct tfs_view v;
	tfs_comms_load(&cm, lat.buffer);
	if (tfs_opt(&lat, "display-graph")) {
		char tracer[32];
		tfs_current_tracer(&lat, tracer, sizeof(tracer));
		tfs_view_init(&v, &lat, tracer);
		tfs_view_max_graph(&v);
	} else {
		view_for(&v, &lat, &m.rs);
	}
	v.sect = m.rs.n ? &m.info : NULL;
	tfs_text_header(out, &v, m.rs.n, 0, m.rs.n ? &m.rs.v[0] : NULL);
	print_lines(out, &v, &cm, &m.rs);
	tfs_view_free(&v);
	tfs_comms_free(&cm);
	recs_free(&m.rs);
	return 0;
}

static int show_trace(const struct tfs_node *n, FILE *out)
{
	if (uft_csect_owns(n->inst->buffer) && n->dir != TFS_D_CPU)
		return show_max_trace(n, out);
	struct tfs_recs rs = {0};
	int cpu = n->dir == TFS_D_CPU ? n->cpu : -1;
	int rc = collect(n->inst->buffer, cpu, &rs);
	struct overrun_ctx o = {0};
	tfs_for_each_ring(n->inst->buffer, add_overrun, &o);
	if (rc == 0)
		print_recs(out, n->inst, &rs, cpu < 0 ? o.overrun : 0);
	recs_free(&rs);
	return rc;
}

static void clear_cpu(uint32_t buffer, int cpu)
{
	/* Rings are per thread: clearing one CPU's view clears the events the
	 * buffer holds for that CPU by consuming them into nothing. */
	if (pipes_fill(buffer) != 0)
		return;
	struct tfs_rec r;
	while (pipes_take(buffer, cpu, &r))
		free(r.data);
}

static int open_trace(struct uft_tfs_handle *h)
{
	if (h->flags & UFT_TFS_TRUNC) {
		if (h->n.dir != TFS_D_CPU && uft_csect_owns(h->n.inst->buffer))
			uft_csect_clear_trace(h->n.inst->buffer); /* what `trace` shows */
		if (h->n.dir == TFS_D_CPU)
			clear_cpu(h->n.inst->buffer, h->n.cpu);
		else
			tfs_trace_clear(h->n.inst->buffer);
	}
	return 0;
}

static int write_trace(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	if (n->dir != TFS_D_CPU && uft_csect_owns(n->inst->buffer))
		uft_csect_clear_trace(n->inst->buffer);
	if (n->dir == TFS_D_CPU)
		clear_cpu(n->inst->buffer, n->cpu);
	else
		tfs_trace_clear(n->inst->buffer);
	return 0;
}

/* ---- trace_pipe ---- */

struct pipe_state {
	char *text;
	size_t len, off;
	struct tfs_view view; /* the graph's state lasts across reads */
	bool view_ready;
};

static int open_pipe(struct uft_tfs_handle *h)
{
	h->priv = calloc(1, sizeof(struct pipe_state));
	return h->priv ? 0 : -ENOMEM;
}

static void release_pipe(struct uft_tfs_handle *h)
{
	struct pipe_state *ps = h->priv;
	if (ps) {
		free(ps->text);
		if (ps->view_ready)
			tfs_view_free(&ps->view);
	}
	free(ps);
	h->priv = NULL;
}

/* Formats queued events into the handle's text, at least one line. */
static int pipe_format(struct uft_tfs_handle *h, size_t want)
{
	struct pipe_state *ps = h->priv;
	int cpu = h->n.dir == TFS_D_CPU ? h->n.cpu : -1;
	free(ps->text);
	ps->text = NULL;
	ps->len = ps->off = 0;
	FILE *m = open_memstream(&ps->text, &ps->len);
	if (!m)
		return -ENOMEM;
	struct tfs_comms cm;
	tfs_comms_load(&cm, h->n.inst->buffer);
	if (!ps->view_ready) {
		view_for(&ps->view, h->n.inst, NULL);
		ps->view_ready = true;
	}
	struct tfs_rec r;
	long pos;
	while ((pos = ftell(m)) >= 0 && (size_t)pos < want &&
	       pipes_take(h->n.inst->buffer, cpu, &r)) {
		if (r.lost)
			uft_out_lost(m, (int)r.cpu, r.lost);
		tfs_view_note(&ps->view, &r);
		struct tfs_rec *next =
		    ps->view.graph ? pipes_peek(h->n.inst->buffer, (int)r.cpu) : NULL;
		if (tfs_view_line(m, &ps->view, &cm, &r, next, r.ts, 0) == UFT_GRAPH_LEAF) {
			struct tfs_rec leaf;
			if (pipes_take(h->n.inst->buffer, (int)r.cpu, &leaf))
				free(leaf.data);
		}
		free(r.data);
	}
	tfs_comms_free(&cm);
	return fclose(m) == 0 ? 0 : -ENOMEM;
}

static ssize_t read_pipe(struct uft_tfs_handle *h, char *buf, size_t len)
{
	struct pipe_state *ps = h->priv;
	int cpu = h->n.dir == TFS_D_CPU ? h->n.cpu : -1;
	for (;;) {
		if (ps->off < ps->len) {
			size_t n = ps->len - ps->off < len ? ps->len - ps->off : len;
			memcpy(buf, ps->text + ps->off, n);
			ps->off += n;
			return (ssize_t)n;
		}
		pthread_mutex_lock(&tfs_lock);
		int rc = pipes_fill(h->n.inst->buffer);
		bool ready = rc == 0 && pipes_ready(h->n.inst->buffer, cpu);
		if (ready)
			rc = pipe_format(h, len);
		tfs_unlock();
		if (rc)
			return rc;
		if (ready)
			continue;
		if (h->flags & UFT_TFS_NONBLOCK)
			return -EAGAIN;
		if (uft_xchg(&h->intr, 0))
			return -EINTR;
		uft_tracefs_wait(h, 100);
	}
}

static int poll_pipe(struct uft_tfs_handle *h)
{
	struct pipe_state *ps = h->priv;
	int cpu = h->n.dir == TFS_D_CPU ? h->n.cpu : -1;
	if (ps && ps->off < ps->len)
		return 1;
	pthread_mutex_lock(&tfs_lock);
	bool ready = pipes_fill(h->n.inst->buffer) == 0 && pipes_ready(h->n.inst->buffer, cpu);
	tfs_unlock();
	return ready;
}

/* ---- per_cpu/cpuN/trace_pipe_raw: kernel pages of one CPU ---- */

/* A page built for a reader whose reads are smaller than a sub-buffer:
 * the rest of it goes out with the next reads, as the kernel's. */
struct raw_state {
	uint32_t size, off; /* the page being handed out, and how far */
	uint32_t cap;	    /* bytes of `page` */
	uint8_t page[];
};

/* Builds the next page of the handle's CPU, of the buffer's sub-buffer size,
 * into `page`. Returns its size, 0 when nothing is queued, or -errno. A
 * record that no page of this size holds (written into a ring of a bigger
 * sub-buffer before a resize) is dropped. */
static ssize_t build_raw_page(struct uft_tfs_handle *h, uint8_t *page, uint32_t size)
{
	pthread_mutex_lock(&tfs_lock);
	int rc = pipes_fill(h->n.inst->buffer);
	struct uft_page_builder pb;
	uft_page_builder_init(&pb, page, size);
	size_t count = 0;
	struct tfs_pipes *p = pipes[h->n.inst->buffer];
	struct tfs_recs *q = p ? &p->q[h->n.cpu] : NULL;
	while (rc == 0 && q && q->head < q->n) {
		struct tfs_rec *r = &q->v[q->head];
		int add = uft_page_builder_add(&pb, r->ts, r->data, r->len);
		if (add == -1)
			break;
		free(queue_pop(q).data); /* copied into the page, or never fits */
		count += add == 0;
	}
	tfs_unlock();
	if (rc)
		return rc;
	if (!count)
		return 0;
	uft_page_builder_finish(&pb, 0);
	return size;
}

static ssize_t read_pipe_raw(struct uft_tfs_handle *h, char *buf, size_t len)
{
	struct raw_state *rs = h->priv;
	if (rs && rs->off < rs->size) {
		size_t n = rs->size - rs->off < len ? rs->size - rs->off : len;
		memcpy(buf, rs->page + rs->off, n);
		rs->off += (uint32_t)n;
		return (ssize_t)n;
	}
	if (!len)
		return 0;
	for (;;) {
		uint32_t size = uft_buffer_subbuf(&uft_buffers[h->n.inst->buffer]);
		bool whole = len >= size;
		if (!whole && (!rs || rs->cap < size)) {
			struct raw_state *nrs = realloc(rs, sizeof(*rs) + size);
			if (!nrs)
				return -ENOMEM;
			h->priv = rs = nrs;
			rs->cap = size;
			rs->size = rs->off = 0;
		}
		ssize_t got = build_raw_page(h, whole ? (uint8_t *)buf : rs->page, size);
		if (got < 0)
			return got;
		if (got) {
			if (whole)
				return got;
			rs->size = size;
			rs->off = (uint32_t)len;
			memcpy(buf, rs->page, len);
			return (ssize_t)len;
		}
		if (h->flags & UFT_TFS_NONBLOCK)
			return -EAGAIN;
		if (uft_xchg(&h->intr, 0))
			return -EINTR;
		uft_tracefs_wait(h, 100);
	}
}

static void release_pipe_raw(struct uft_tfs_handle *h)
{
	free(h->priv);
	h->priv = NULL;
}

/* ---- per_cpu/cpuN/stats ---- */

struct stats_ctx {
	int cpu;
	uint64_t overrun, dropped, read;
};

/* A ring's losses: to the CPU its current page started on. FREE rings count
 * too (a reader drained them, their losses stay until the ring is reused,
 * which moves them to the region's counters). */
static void stats_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	struct stats_ctx *s = ctx;
	(void)slot;
	uint64_t p = uft_load_seq_cst(&r->produced);
	uint32_t nr_pages = READ_ONCE(r->nr_pages);
	if (!nr_pages || r->meta[p % nr_pages].cpu != (uint32_t)s->cpu)
		return;
	s->overrun += uft_load_seq_cst(&r->overrun) - r->overrun_base;
	s->dropped += uft_load_seq_cst(&r->dropped) + uft_load_seq_cst(&r->lost);
	if (uft_load_seq_cst(&r->state) != UFT_RING_FREE)
		s->read += uft_load_seq_cst(&r->read_entries);
}

/* The counters of every ring of the buffer, and on cpu0 the region's:
 * events that found no ring, and what rings held or lost before they were
 * reused for other threads (docs/design/ring-buffer.md, "Counting"). */
static void stats_collect(struct stats_ctx *s, uint32_t buffer)
{
	struct uft_shm_header *h = uft_sess.hdr;
	if (!h)
		return;
	for_each_ring_in(buffer,
			 1u << UFT_RING_FREE | 1u << UFT_RING_ACTIVE | 1u << UFT_RING_EXITED,
			 stats_ring, s);
	if (s->cpu == 0 && buffer < UFT_SHM_MAX_BUFFERS) {
		s->overrun += uft_load_seq_cst(&h->recycle_overrun[buffer]) +
			      uft_load_seq_cst(&h->retired_overrun[buffer]);
		s->dropped += uft_load_seq_cst(&h->ring_dropped[buffer]) +
			      uft_load_seq_cst(&h->ring_lost[buffer]) +
			      uft_load_seq_cst(&h->retired_dropped[buffer]);
	}
}

static int show_stats(const struct tfs_node *n, FILE *out)
{
	struct tfs_recs rs = {0};
	int rc = collect(n->inst->buffer, n->cpu, &rs);
	if (rc) {
		recs_free(&rs);
		return rc;
	}
	struct stats_ctx s = {n->cpu, 0, 0, 0};
	stats_collect(&s, n->inst->buffer);
	uint64_t bytes = 0;
	for (size_t i = 0; i < rs.n; i++)
		bytes += rs.v[i].len;
	bool ns = uft_clock_is_ns((enum uft_clock)uft_buffers[n->inst->buffer].clock);
	uint64_t oldest = rs.n ? rs.v[0].ts : 0;
	uint64_t now = uft_clock_now((enum uft_clock)uft_buffers[n->inst->buffer].clock);
	fprintf(out, "entries: %zu\n", rs.n);
	fprintf(out, "overrun: %llu\n", (unsigned long long)s.overrun);
	fprintf(out, "commit overrun: 0\n");
	fprintf(out, "bytes: %llu\n", (unsigned long long)bytes);
	if (ns) {
		fprintf(out, "oldest event ts: %5llu.%06lu\n",
			(unsigned long long)(oldest / 1000000000),
			(unsigned long)(oldest % 1000000000 / 1000));
		fprintf(out, "now ts: %5llu.%06lu\n", (unsigned long long)(now / 1000000000),
			(unsigned long)(now % 1000000000 / 1000));
	} else {
		fprintf(out, "oldest event ts: %llu\n", (unsigned long long)oldest);
		fprintf(out, "now ts: %llu\n", (unsigned long long)now);
	}
	fprintf(out, "dropped events: %llu\n", (unsigned long long)s.dropped);
	fprintf(out, "read events: %llu\n", (unsigned long long)s.read);
	recs_free(&rs);
	return 0;
}

/* ---- snapshot ---- */

void tfs_snapshot_free(struct tfs_inst *in)
{
	if (!in->snap)
		return;
	recs_free(&in->snap->recs);
	free(in->snap);
	in->snap = NULL;
}

void tfs_snapshot_empty(struct tfs_inst *in)
{
	if (in->snap)
		recs_free(&in->snap->recs);
}

static const char snapshot_help[] =
    "# Snapshot commands:\n"
    "# echo 0 > snapshot : Clears and frees snapshot buffer\n"
    "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
    "#                      Takes a snapshot of the main buffer.\n"
    "# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n"
    "#                      (Doesn't have to be '2' works with any number that\n"
    "#                       is not a '0' or '1')\n";

static int show_snapshot(const struct tfs_node *n, FILE *out)
{
	struct tfs_inst *in = n->inst;
	if (uft_csect_owns(in->buffer))
		return -EBUSY; /* the max buffer is taken by the tracer */
	if (in->snap && in->snap->recs.n) {
		print_recs(out, in, &in->snap->recs, 0);
		return 0;
	}
	/* An empty snapshot shows its help under the tracer's name alone. */
	struct tfs_view v;
	view_for(&v, in, NULL);
	fprintf(out, "# tracer: %s\n#\n", v.tracer);
	tfs_view_free(&v);
	fprintf(out, "#\n# * Snapshot is %s *\n#\n", in->snap ? "allocated" : "freed");
	fputs(snapshot_help, out);
	return 0;
}

static int write_snapshot(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	struct tfs_inst *in = n->inst;
	unsigned long v;
	if (uft_csect_owns(in->buffer))
		return -EBUSY;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v))
		return -EINVAL;
	if (v == 0) {
		tfs_snapshot_free(in);
		return 0;
	}
	if (v != 1) {
		tfs_snapshot_empty(in);
		return 0;
	}
	/* The main buffer's events become the snapshot; tracing goes on in an
	 * emptied buffer, as after the kernel's swap. */
	struct tfs_snapshot *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	int rc = collect(in->buffer, -1, &s->recs);
	if (rc) {
		recs_free(&s->recs);
		free(s);
		return rc;
	}
	tfs_snapshot_free(in);
	in->snap = s;
	tfs_trace_clear(in->buffer);
	return 0;
}

struct take_ctx {
	struct peek_ctx p;
	uint64_t cut;
};

static void take_ring(void *ctx, struct uft_ring *r, uint32_t slot)
{
	struct take_ctx *t = ctx;
	uft_ring_take_until(r, t->cut, peek_one, &t->p);
}

int tfs_snapshot_until(struct tfs_inst *in, uint64_t cut)
{
	struct tfs_snapshot *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	struct take_ctx t = {{&s->recs, -1, 0}, cut};
	tfs_for_each_ring(in->buffer, take_ring, &t);
	if (s->recs.n > 1)
		qsort(s->recs.v, s->recs.n, sizeof(*s->recs.v), rec_cmp);
	tfs_snapshot_free(in);
	in->snap = s;
	return t.p.err;
}

struct dump_peek {
	struct peek_ctx p;
	uint64_t cut;	 /* ring units */
	uint64_t cut_ts; /* as the ring being read delivers times */
};

static int peek_until(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		      uint64_t missed)
{
	struct dump_peek *d = ctx;
	return ts <= d->cut_ts ? peek_one(&d->p, ts, cpu, data, len, missed) : 0;
}

static void peek_ring_until(void *ctx, struct uft_ring *r, uint32_t slot)
{
	struct dump_peek *d = ctx;
	d->cut_ts = uft_ring_time(r, d->cut);
	uft_ring_peek(r, peek_until, ctx);
}

void tfs_dump_until(struct tfs_inst *in, uint64_t cut, int cpu, FILE *f)
{
	struct tfs_recs rs = {0};
	if (cpu < 0) {
		struct take_ctx t = {{&rs, -1, 0}, cut};
		tfs_for_each_ring(in->buffer, take_ring, &t);
	} else {
		struct dump_peek d = {{&rs, cpu, 0}, cut, 0};
		tfs_for_each_ring(in->buffer, peek_ring_until, &d);
	}
	if (rs.n > 1)
		qsort(rs.v, rs.n, sizeof(*rs.v), rec_cmp);
	/* The kernel's dump prints in the latency format whatever the option. */
	struct tfs_inst lat = *in;
	lat.opts |= 1ull << tfs_option_find("latency-format");
	fputs("Dumping ftrace buffer:\n", f);
	if (rs.n) {
		struct tfs_comms cm;
		struct tfs_view v;
		tfs_comms_load(&cm, in->buffer);
		view_for(&v, &lat, &rs);
		fputs("---------------------------------\n", f);
		print_lines(f, &v, &cm, &rs);
		fputs("---------------------------------\n", f);
		tfs_view_free(&v);
		tfs_comms_free(&cm);
	} else {
		fputs("   (ftrace buffer empty)\n", f);
	}
	fflush(f);
	recs_free(&rs);
}

int tfs_snapshot_alloc(struct tfs_inst *in)
{
	if (!in->snap)
		in->snap = calloc(1, sizeof(*in->snap));
	return in->snap ? 0 : -ENOMEM;
}

const struct tfs_file tfs_trace_files[] = {
    {.name = "trace",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_trace,
     .write = write_trace,
     .open = open_trace},
    {.name = "trace_pipe",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .open = open_pipe,
     .read = read_pipe,
     .poll = poll_pipe,
     .release = release_pipe},
    {.name = "snapshot",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_snapshot,
     .write = write_snapshot},
    {.name = "trace",
     .dir = TFS_D_CPU,
     .mode = 0644,
     .show = show_trace,
     .write = write_trace,
     .open = open_trace},
    {.name = "trace_pipe",
     .dir = TFS_D_CPU,
     .mode = 0444,
     .open = open_pipe,
     .read = read_pipe,
     .poll = poll_pipe,
     .release = release_pipe},
    {.name = "trace_pipe_raw",
     .dir = TFS_D_CPU,
     .mode = 0444,
     .read = read_pipe_raw,
     .release = release_pipe_raw},
    {.name = "stats", .dir = TFS_D_CPU, .mode = 0444, .show = show_stats},
    {0},
};
