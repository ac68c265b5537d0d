/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include "recorder/collect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"
#include "wire/clocks.h"
#include "wire/page.h"
#include "engine/filter/event_spec.h"
#include "recorder/proc_syms.h"
#include "tracedat/tracedat.h"
#include "util/atomics.h"
#include "util/util.h"
#include <uft/event.h>

void collect_init(struct collect *c)
{
	memset(c, 0, sizeof(*c));
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	c->max_cpus = cpus > 0 && cpus < 4096 ? (uint32_t)cpus : 4096;
	c->spool_fd = -1;
	c->spool_direct = -1;
}

void collect_free(struct collect *c)
{
	for (size_t i = 0; i < c->nr_procs; i++) {
		struct collect_proc *p = c->procs[i];
		if (p->hdr)
			munmap(p->hdr, p->map_len);
		free(p->id_map);
		for (uint32_t k = 0; k < p->nr_rings; k++)
			free(p->rings[k].segs);
		free(p->rings);
		free(p);
	}
	free(c->procs);
	for (int i = 0; i < c->nr_cpus; i++) {
		for (size_t k = 0; k < c->cpus[i].nr_segs; k++)
			collect_seg_free(c->cpus[i].segs[k]);
		free(c->cpus[i].segs);
	}
	free(c->cpus);
	if (c->spool_fd >= 0)
		close(c->spool_fd);
	if (c->spool_direct >= 0)
		close(c->spool_direct);
	for (uint32_t i = 0; i < c->nr_regions; i++)
		free(c->regions[i].buf);
	free(c->regions);
	free(c->scratch);
	for (size_t i = 0; i < c->nr_formats; i++) {
		free(c->formats[i].system);
		free(c->formats[i].name);
		free(c->formats[i].body);
	}
	free(c->formats);
	free(c->comms);
	proc_syms_free(c->syms);
}

static void set_comm(struct collect *c, int pid, const char *comm);

#define SYMS_SCAN_NS 50000000ull

static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int collect_add_proc(struct collect *c, pid_t pid, int memfd, int conn, const char *comm)
{
	struct shm_region reg;
	enum shm_drop why;
	int rc = shm_check_region(memfd, &reg, &why);
	if (rc != 0) {
		c->refused[why]++;
		return rc;
	}
	struct collect_proc *p = calloc(1, sizeof(*p));
	void *procs = realloc(c->procs, (c->nr_procs + 1) * sizeof(*c->procs));
	if (!p || !procs) {
		free(p);
		munmap(reg.hdr, reg.map_len);
		return -ENOMEM;
	}
	c->procs = procs;
	p->id_map = calloc(65536, sizeof(*p->id_map));
	if (!p->id_map) {
		free(p);
		munmap(reg.hdr, reg.map_len);
		return -ENOMEM;
	}
	p->pid = pid;
	p->conn = conn;
	p->hdr = reg.hdr;
	p->map_len = reg.map_len;
	p->reg = reg;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	c->procs[c->nr_procs++] = p;
	/* trace_marker records carry the process's pid (its main thread may
	 * have no ring): named by the comm it registered with, unless a ring
	 * of that thread says otherwise. */
	set_comm(c, pid, p->comm);
	if (c->clock_id < 0 || c->nr_procs == 1)
		c->clock_id = reg.clock_id;
	if (c->syms) {
		proc_syms_scan(c->syms, pid);
		p->syms_scanned = mono_ns();
	}
	return 0;
}

static void set_comm(struct collect *c, int pid, const char *comm)
{
	for (size_t i = 0; i < c->nr_comms; i++) {
		if (c->comms[i].pid == pid) {
			snprintf(c->comms[i].comm, sizeof(c->comms[i].comm), "%.15s", comm);
			return;
		}
	}
	void *n = realloc(c->comms, (c->nr_comms + 1) * sizeof(*c->comms));
	if (!n)
		return;
	c->comms = n;
	c->comms[c->nr_comms].pid = pid;
	snprintf(c->comms[c->nr_comms].comm, sizeof(c->comms[0].comm), "%.15s", comm);
	c->nr_comms++;
}

/* "name: X\nID: N\nformat:..." -> name and the text after the ID line. */
static int split_format(const char *text, size_t len, char **name, char **body)
{
	const char *end = text + len;
	if (len < 6 || strncmp(text, "name: ", 6) != 0)
		return -1;
	const char *nl = memchr(text, '\n', len);
	if (!nl)
		return -1;
	const char *id = nl + 1;
	if (end - id < 4 || strncmp(id, "ID: ", 4) != 0)
		return -1;
	const char *nl2 = memchr(id, '\n', (size_t)(end - id));
	if (!nl2)
		return -1;
	*name = strndup(text + 6, (size_t)(nl - text - 6));
	*body = strndup(nl2 + 1, (size_t)(end - nl2 - 1));
	return *name && *body ? 0 : -1;
}

static bool id_taken(struct collect *c, uint16_t id)
{
	for (size_t i = 0; i < c->nr_formats; i++)
		if (c->formats[i].id == id)
			return true;
	return false;
}

/* Maps a process's format to a global id: the same system, name and layout
 * share an id across processes; anything else gets its own. */
static uint16_t global_id(struct collect *c, const char *system, const char *text, size_t len,
			  uint16_t local)
{
	char *name = NULL, *body = NULL;
	if (split_format(text, len, &name, &body) != 0) {
		free(name);
		free(body);
		return 0;
	}
	for (size_t i = 0; i < c->nr_formats; i++) {
		struct collect_format *f = &c->formats[i];
		if (strcmp(f->system, system) == 0 && strcmp(f->name, name) == 0 &&
		    strcmp(f->body, body) == 0) {
			free(name);
			free(body);
			return f->id;
		}
	}
	/* A process's own id when it is free (always for the first process):
	 * its pages then keep their ids as they are. */
	uint16_t id = local;
	if (id_taken(c, id) || id == 0 || id == UFT_ID_CPU_MARK) {
		id = UFT_ID_FIRST_DYNAMIC;
		while (id_taken(c, id) && id < 0xffff)
			id++;
	}
	void *n = realloc(c->formats, (c->nr_formats + 1) * sizeof(*c->formats));
	if (!n) {
		free(name);
		free(body);
		return 0;
	}
	c->formats = n;
	c->formats[c->nr_formats++] = (struct collect_format){strdup(system), name, body, id};
	return id;
}

/* A record that does not fit the area the process said it published is
 * refused, and the rest of the area with it. */
static void import_formats(struct collect *c, struct collect_proc *p)
{
	if (p->formats_bad)
		return;
	const char *area = (const char *)p->hdr + p->reg.formats_off;
	uint64_t len = smp_load_acquire(&p->hdr->formats_len);
	bool bad = len > p->reg.formats_cap || len < p->formats_seen;
	while (!bad && p->formats_seen + sizeof(struct uft_format_rec) <= len) {
		struct uft_format_rec r;
		memcpy(&r, area + p->formats_seen, sizeof(r));
		uint64_t need = (sizeof(r) + (uint64_t)r.len + 7) & ~7ull;
		if (need > len - p->formats_seen) {
			bad = true;
			break;
		}
		/* A private copy: the text is parsed after the checks. */
		char *text = malloc((size_t)r.len + 1);
		if (!text)
			return;
		memcpy(text, area + p->formats_seen + sizeof(r), r.len);
		text[r.len] = 0;
		char system[sizeof(r.system) + 1];
		memcpy(system, r.system, sizeof(r.system));
		system[sizeof(r.system)] = 0;
		p->id_map[r.id] = global_id(c, system, text, r.len, r.id);
		free(text);
		p->formats_seen += need;
	}
	if (bad) {
		p->formats_bad = true;
		c->refused[SHM_DROP_FORMAT]++;
	}
}

static struct collect_cpu *cpu_stream(struct collect *c, uint32_t cpu)
{
	if (cpu >= 4096)
		cpu = 4095;
	if ((int)cpu >= c->nr_cpus) {
		void *n = realloc(c->cpus, (cpu + 1) * sizeof(*c->cpus));
		if (!n)
			return NULL;
		c->cpus = n;
		memset(c->cpus + c->nr_cpus, 0,
		       (cpu + 1 - (uint32_t)c->nr_cpus) * sizeof(*c->cpus));
		c->nr_cpus = (int)cpu + 1;
	}
	return &c->cpus[cpu];
}

struct drain_ctx {
	struct collect *c;
	struct collect_proc *p;
	struct collect_ring *cr; /* the ring being drained */
	struct uft_ring_clock k; /* its clock, read once per drain */
};

#define SEG_SPLIT_GAP 200000ull /* ns: the thread was off its CPU */

/* A traced process's memory is hostile: a ring's conversion becomes the
 * file's (and every other process's times are converted through it) only
 * if it makes sense here — a cycle between 1/64 and 16 ns, and the
 * recorder's own cycle counter converted by it within 10 minutes of
 * CLOCK_MONOTONIC (what libuft anchors it to; the perf clock it may use
 * instead drifts from it by far less). */
static bool clock_plausible(const struct uft_ring_clock *k)
{
	if ((k->mult << 6) < (1ull << k->shift) || k->mult > (16ull << k->shift))
		return false;
	uint64_t ns = uft_ring_clock_time(k, uft_arch_cycles()), now = mono_ns();
	uint64_t d = ns > now ? ns - now : now - ns;
	return d < 600ull * 1000000000ull;
}

/* The first ring read fixes the file's units: its raw TSC cycles when
 * trace-cmd's reader can convert them as the ring does (TSC2NSEC holds a
 * 32-bit signed multiplier and a shift of at most 32), else nanoseconds. */
static void decide_clock(struct collect *c, const struct uft_ring_clock *k)
{
	if (__builtin_expect(!c->rclk.mult, 0) && k && k->raw)
		c->rclk = *k;
	if (c->file_clock != COLLECT_CLOCK_UNSET)
		return;
	bool ns_clock = c->clock_id < 0 || uft_clock_is_ns((enum uft_clock)c->clock_id);
	if (ns_clock && k && k->raw && k->mult && k->mult <= INT32_MAX && k->shift <= 32 &&
	    clock_plausible(k)) {
		c->file_clock = COLLECT_CLOCK_TSC;
		c->fclk = *k;
		c->split_gap = (uint64_t)(((unsigned __int128)SEG_SPLIT_GAP << k->shift) / k->mult);
	} else {
		c->file_clock = COLLECT_CLOCK_NS;
		c->split_gap = SEG_SPLIT_GAP;
	}
}

/* Whether a ring's times are already in the file's units. */
static inline bool clock_is_file(const struct collect *c, const struct uft_ring_clock *k)
{
	if (c->file_clock == COLLECT_CLOCK_NS)
		return !k->raw;
	return k->raw && k->mult == c->fclk.mult && k->shift == c->fclk.shift &&
	       k->zero == c->fclk.zero;
}

uint64_t collect_ts_from_ns(struct collect *c, uint64_t ns)
{
	decide_clock(c, NULL);
	if (c->file_clock != COLLECT_CLOCK_TSC)
		return ns;
	uint64_t t = ns - c->fclk.zero;
	if ((int64_t)t < 0)
		return 0;
	/* The first cycle count that converts to `ns` or later. */
	unsigned __int128 x = ((unsigned __int128)t << c->fclk.shift) + c->fclk.mult - 1;
	x /= c->fclk.mult;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

uint64_t collect_ts_to_ns(const struct collect *c, uint64_t ts)
{
	return c->file_clock == COLLECT_CLOCK_TSC ? uft_ring_clock_time(&c->fclk, ts) : ts;
}

/* A ring's time (its own units) in the file's. */
static inline uint64_t file_ts(struct collect *c, const struct uft_ring_clock *k, uint64_t ts)
{
	return clock_is_file(c, k) ? ts : collect_ts_from_ns(c, uft_ring_clock_time(k, ts));
}

void collect_count_stored(struct collect *c, struct collect_cpu *s, uint64_t ts, uint32_t len)
{
	if (!s->total || ts < s->first_ts)
		s->first_ts = ts;
	if (ts > s->last_ts)
		s->last_ts = ts;
	s->total++;
	s->bytes += len;
	c->totals.recorded++;
}

/* The counts of a ring's collected event: what the summary and CPU stats say. */
static inline void count_event(struct collect *c, struct collect_cpu *s, struct collect_ring *cr,
			       uint64_t ts, uint32_t len, uint64_t missed)
{
	s->overrun += missed;
	cr->attributed += missed;
	collect_count_stored(c, s, ts, len);
}

#define SEG_SPLIT_PAGES 4

/* The ring's segment for `cpu`: a thread that comes back to a CPU soon goes
 * on filling the segment it left there. */
static struct collect_seg *ring_seg(struct collect *c, struct collect_ring *cr,
				    struct collect_cpu *s, uint32_t cpu)
{
	/* Leaving a CPU, or a pause (another thread had the CPU), after a long
	 * stretch closes the segment: what the thread writes next starts a new
	 * one, so the stretches threads took turns at on a CPU follow one
	 * another in time and their pages are used as they are at the end, not
	 * merged. A short stretch (a thread bouncing between CPUs) stays open:
	 * at most one page in SEG_SPLIT_PAGES + 1 is cut short. */
	struct collect_seg *old = cr->seg;
	if (old && old->nr_pages >= SEG_SPLIT_PAGES) {
		int rc = collect_seg_close(c, old);
		if (rc && !c->io_error)
			c->io_error = rc;
		for (size_t i = 0; i < cr->nr_segs; i++)
			if (cr->segs[i] == old)
				cr->segs[i] = cr->segs[--cr->nr_segs];
		cr->seg = NULL;
	}
	for (size_t i = 0; i < cr->nr_segs; i++)
		if (cr->segs[i]->cpu == (int)cpu)
			return cr->seg = cr->segs[i];
	if (uft_array_reserve(cr->segs, cr->segs_cap, cr->nr_segs + 1, 4) != 0)
		return NULL;
	struct collect_seg *sg = collect_seg_new(c, s, (int)cpu);
	if (sg)
		cr->segs[cr->nr_segs++] = sg;
	return cr->seg = sg;
}

/* The ring's thread is gone or the ring changed hands: its segments get no
 * more events, their open pages go to the spool. */
static void ring_close_segs(struct collect *c, struct collect_ring *cr)
{
	for (size_t i = 0; i < cr->nr_segs; i++) {
		int rc = collect_seg_close(c, cr->segs[i]);
		if (rc && !c->io_error)
			c->io_error = rc;
	}
	cr->nr_segs = 0;
	cr->seg = NULL;
}

static int on_record(void *arg, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		     uint64_t missed)
{
	struct drain_ctx *d = arg;
	struct collect *c = d->c;
	const struct uft_common_entry *e = data;
	uint16_t id = d->p->id_map[e->type];
	if (cpu >= c->max_cpus) {
		c->refused[SHM_DROP_CPU]++;
		return 0;
	}
	struct collect_cpu *s = cpu < (uint32_t)c->nr_cpus ? &c->cpus[cpu] : cpu_stream(c, cpu);
	if (!s)
		return 1;
	if (!id) {
		/* No format for it (the process's formats area was full): it cannot
		 * be written, but it is counted. */
		s->lost++;
		c->totals.lost++;
		return 0;
	}
	if (c->sink) {
		/* the units a file would have: the kernel's events follow them */
		decide_clock(c, &d->k);
		ts = uft_ring_clock_time(&d->k, ts);
		count_event(c, s, d->cr, ts, len, missed);
		return c->sink(c->sink_ctx, cpu, ts, id, data, len, missed);
	}
	decide_clock(c, &d->k);
	ts = file_ts(c, &d->k, ts);
	struct collect_seg *sg = d->cr->seg;
	if (!sg || sg->cpu != (int)cpu || ts > sg->last_ts + c->split_gap) {
		sg = ring_seg(c, d->cr, s, cpu);
		if (!sg)
			return 1;
	}
	/* The payload is the reader's private copy of the page (never the
	 * region): the global id is written into it before it is packed. */
	((struct uft_common_entry *)(uintptr_t)data)->type = id;
	count_event(c, s, d->cr, ts, len, missed);
	int rc = collect_seg_add(c, sg, ts, data, len, missed);
	if (rc == 1) {
		/* No page of the file holds it (the pages are the largest
		 * sub-buffer read, so no ring wrote one): counted, not cut. */
		s->lost++;
		c->totals.lost++;
		c->totals.recorded--;
		rc = 0;
	}
	if (rc && !c->io_error)
		c->io_error = rc;
	return rc != 0;
}

/* A complete ring page taken as it is when its records allow: times in the
 * file's units and going forward, no CPU change inside, every id known (and
 * rewritten in place to the global one when it differs). Anything else is
 * declined and goes record by record through on_record. */
static long on_page(void *arg, uint8_t *page, uint32_t size, uint32_t cpu, uint64_t missed,
		    const struct uft_ring_clock *k)
{
	struct drain_ctx *d = arg;
	struct collect *c = d->c;
	if (c->sink || cpu >= c->max_cpus || size > c->page_size)
		return -1;
	decide_clock(c, k);
	if (!clock_is_file(c, k))
		return -1;
	const uint16_t *map = d->p->id_map;
	struct uft_page_iter it;
	struct uft_page_rec rec;
	uint64_t first = 0, last = 0, bytes = 0;
	long n = 0;
	bool remap = false;
	uft_page_iter_init(&it, page, size);
	while (uft_page_iter_next(&it, &rec) > 0) {
		uint16_t type;
		if (rec.len < sizeof(struct uft_common_entry))
			return -1;
		memcpy(&type, rec.data, sizeof(type));
		if (type == UFT_ID_CPU_MARK || !map[type] || (n && rec.ts < last))
			return -1;
		remap |= map[type] != type;
		if (!n)
			first = rec.ts;
		last = rec.ts;
		bytes += rec.len;
		n++;
	}
	if (it.corrupt || !n)
		return -1;
	struct collect_cpu *s = cpu < (uint32_t)c->nr_cpus ? &c->cpus[cpu] : cpu_stream(c, cpu);
	if (!s)
		return -1;
	/* Nothing may be spooled before a page is declined: it may lie in the
	 * spool's buffer (page_room), and is delivered from there. */
	struct collect_seg *sg = d->cr->seg;
	bool new_seg = !sg || sg->cpu != (int)cpu || first > sg->last_ts + c->split_gap;
	if (!new_seg && ((sg->events && first < sg->last_ts) || size > sg->page_size))
		return -1; /* record by record: the pages clamp it */
	if (new_seg) {
		/* Closing the ring's last segment spools its open page. */
		page = collect_spool_unplace(c, page, size);
		sg = page ? ring_seg(c, d->cr, s, cpu) : NULL;
		if (!sg) { /* out of memory: taken, and counted as lost */
			s->lost += (uint64_t)n;
			c->totals.lost += (uint64_t)n;
			return n;
		}
	}
	if (remap) {
		uft_page_iter_init(&it, page, size);
		while (uft_page_iter_next(&it, &rec) > 0) {
			struct uft_common_entry *e = (struct uft_common_entry *)(uintptr_t)rec.data;
			e->type = map[e->type];
		}
	}
	int rc =
	    collect_seg_add_page(c, sg, page, size, it.commit, missed, first, last, (uint64_t)n);
	if (rc && !c->io_error)
		c->io_error = rc;
	s->overrun += missed;
	d->cr->attributed += missed;
	if (!s->total || first < s->first_ts)
		s->first_ts = first;
	if (last > s->last_ts)
		s->last_ts = last;
	s->total += (uint64_t)n;
	s->bytes += bytes;
	c->totals.recorded += (uint64_t)n;
	return n;
}

static uint8_t *page_room(void *arg, uint32_t size)
{
	struct drain_ctx *d = arg;
	struct collect *c = d->c;
	/* Only where a page could be taken: a file page holds it. In the
	 * buffer of the CPU the ring's last events ran on, where it most
	 * likely goes. */
	if (c->sink || size > c->page_size)
		return NULL;
	return collect_spool_room(c, d->cr->seg ? d->cr->seg->cpu : (int)d->cr->cur.cpu);
}

static const struct uft_ring_page_ops page_ops = {on_page, page_room};

static void account_ring(struct collect *c, struct uft_ring *r, struct collect_ring *cr)
{
	uint64_t written = uft_ring_written(r, &cr->cur.geom);
	uint64_t got = cr->cur.delivered;
	c->totals.written += written;
	c->totals.overrun += written > got ? written - got : 0;
	uint64_t dropped = uft_load_seq_cst(&r->dropped), lost = uft_load_seq_cst(&r->lost);
	c->totals.dropped += dropped;
	c->totals.lost += lost;
	c->totals.block_waits += uft_load_seq_cst(&r->block_waits);
	c->totals.block_timeouts += uft_load_seq_cst(&r->block_timeouts);
	/* A CPU that cannot exist (rewritten page metadata) gets nothing. */
	struct collect_cpu *s = cr->cur.cpu < c->max_cpus ? cpu_stream(c, cr->cur.cpu) : NULL;
	if (s) {
		s->dropped += dropped;
		s->lost += lost;
		/* What no later event carried (losses at the very end, events a
		 * clear hid, a gap before one): the CPU lines add up to the total. */
		if (written > got + cr->attributed)
			s->overrun += written - got - cr->attributed;
	}
}

/* The losses the process's writers counted in its region, for the
 * recorded buffer: threads that got no ring, writes with no ring to count
 * them on, and the unread events of exited rings recycled for new threads
 * (written, never read: overrun). Read once, at the end. */
static void account_region(struct collect *c, const struct uft_shm_header *h)
{
	uint64_t recycled = uft_load_seq_cst(&h->recycle_overrun[0]);
	uint64_t dropped = uft_load_seq_cst(&h->ring_dropped[0]);
	uint64_t lost = uft_load_seq_cst(&h->ring_lost[0]);
	c->totals.written += recycled;
	c->totals.overrun += recycled;
	c->totals.dropped += dropped;
	c->totals.lost += lost;
	struct collect_cpu *s = cpu_stream(c, 0);
	if (s) {
		s->overrun += recycled;
		s->dropped += dropped;
		s->lost += lost;
	}
}

/* The file's pages hold the largest sub-buffer of a recorded ring. */
static void note_page_size(struct collect *c, const struct uft_ring_geom *g)
{
	if (g->subbuf_size > c->page_size)
		c->page_size = g->subbuf_size;
}

/* A ring handed to another thread is read from its start, its geometry
 * checked again: the writer may lay it out for another size inside its
 * space. What the old generation delivered was written; what it left unread
 * the writer counted in the region's recycle_overrun. False while the new
 * layout does not check (it may be being set up): not read this time. */
static bool reset_cursor(struct collect *c, struct collect_proc *p, struct collect_ring *cr,
			 const struct uft_ring *r)
{
	if (!cr->retired)
		c->totals.written += cr->cur.delivered;
	cr->retired = false;
	cr->attributed = 0;
	ring_close_segs(c, cr);
	uft_ring_cursor_init(&cr->cur, r);
	return shm_check_ring(&p->reg, cr->off, &cr->cur.geom);
}

void collect_drain(struct collect *c, struct collect_proc *p, bool final)
{
	struct uft_shm_header *h = p->hdr;
	/* What dlopen mapped since the last look (the process may be gone), at
	 * most every SYMS_SCAN_NS: a busy process asks for a drain every few
	 * milliseconds, and reading its maps costs more than its pages. */
	if (c->syms) {
		uint64_t now = mono_ns();
		if (final || now - p->syms_scanned >= SYMS_SCAN_NS) {
			proc_syms_scan(c->syms, p->pid);
			p->syms_scanned = now;
		}
	}
	import_formats(c, p);
	uint32_t n = smp_load_acquire(&h->nr_rings);
	if (n > UFT_SHM_MAX_RINGS)
		n = UFT_SHM_MAX_RINGS;
	if (n > p->nr_rings) {
		void *m = realloc(p->rings, n * sizeof(*p->rings));
		if (!m)
			return;
		p->rings = m;
		memset(p->rings + p->nr_rings, 0, (n - p->nr_rings) * sizeof(*p->rings));
		p->nr_rings = n;
	}
	struct drain_ctx d = {.c = c, .p = p};
	for (uint32_t i = 0; i < p->nr_rings; i++) {
		struct collect_ring *cr = &p->rings[i];
		if (cr->bad)
			continue;
		if (!cr->off) {
			uint64_t off = smp_load_acquire(&h->ring_off[i]);
			if (!off)
				continue;
			/* Geometry is taken once, here, and kept. */
			if (!shm_check_ring(&p->reg, off, &cr->cur.geom)) {
				cr->bad = true;
				c->refused[SHM_DROP_RING]++;
				continue;
			}
			cr->off = off;
		}
		struct uft_ring *r = (struct uft_ring *)((char *)h + cr->off);
		uint32_t state = smp_load_acquire(&r->state);
		if (state == UFT_RING_FREE || state == UFT_RING_INIT)
			continue;
		if (r->buffer != 0) /* an instance's: not recorded */
			continue;
		if (cr->cur.generation != READ_ONCE(r->generation) && !reset_cursor(c, p, cr, r))
			continue;
		note_page_size(c, &cr->cur.geom); /* a recorded ring's, as checked */
		char comm[17];
		memcpy(comm, r->comm, 16);
		comm[16] = 0;
		set_comm(c, r->tid, comm);
		bool exited = state == UFT_RING_EXITED;
		uint64_t bad_pages = cr->cur.bad_pages;
		d.cr = cr;
		uft_ring_clock_read(r, &d.k);
		cr->cur.raw_ts = true; /* on_record converts, to the file's units */
		uft_ring_drain_pages(r, &cr->cur, true, on_record, &page_ops, &d);
		c->refused[SHM_DROP_PAGE] += cr->cur.bad_pages - bad_pages;
		if (cr->cur.bad_state) {
			/* A reused ring starts over; otherwise it is abandoned, with
			 * what it delivered so far kept. */
			if (READ_ONCE(r->generation) != cr->cur.generation) {
				reset_cursor(c, p, cr, r);
				continue;
			}
			cr->bad = true;
			c->refused[SHM_DROP_RING_STATE]++;
			continue;
		}
		if (exited && !final) {
			/* Its thread is gone and it is empty: hand it back for reuse. */
			account_ring(c, r, cr);
			uint32_t st = UFT_RING_EXITED;
			uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE);
			cr->retired = true;
			ring_close_segs(c, cr);
		} else if (final && !cr->retired) {
			account_ring(c, r, cr);
			cr->retired = true;
			ring_close_segs(c, cr);
		}
	}
	if (final) {
		import_formats(c, p);
		account_region(c, h);
	}
}

bool collect_spec_matches(const struct collect *c, const char *spec)
{
	for (size_t i = 0; i < c->nr_formats; i++)
		if (uft_event_spec_matches(spec, c->formats[i].system, c->formats[i].name))
			return true;
	return false;
}

/* The kernel's per_cpu/cpuN/stats as trace-cmd stores it (CPUSTAT option),
 * which `trace-cmd report --stat` prints. Everything was drained, so no
 * entries are left in the buffers. */
static int add_cpu_stats(struct collect *c, struct tracedat_writer *w, int cpu)
{
	struct collect_cpu *s = &c->cpus[cpu];
	uint64_t first = collect_ts_to_ns(c, s->first_ts), last = collect_ts_to_ns(c, s->last_ts);
	char ts[2][48];
	uint64_t t[2] = {first, last};
	for (int i = 0; i < 2; i++) {
		if (c->clock_id >= 0 && !uft_clock_is_ns((enum uft_clock)c->clock_id))
			snprintf(ts[i], sizeof(ts[i]), "%llu", (unsigned long long)t[i]);
		else
			snprintf(ts[i], sizeof(ts[i]), "%5llu.%06llu",
				 (unsigned long long)(t[i] / 1000000000ull),
				 (unsigned long long)(t[i] % 1000000000ull / 1000));
	}
	char buf[512];
	int n =
	    snprintf(buf, sizeof(buf),
		     "CPU: %d\nentries: 0\noverrun: %llu\ncommit overrun: 0\nbytes: %llu\n"
		     "oldest event ts: %s\nnow ts: %s\ndropped events: %llu\nread events: %llu\n",
		     cpu, (unsigned long long)s->overrun, (unsigned long long)s->bytes, ts[0],
		     ts[1], (unsigned long long)s->dropped, (unsigned long long)s->total);
	return tracedat_writer_add_option(w, TRACEDAT_OPT_CPUSTAT, buf, (uint32_t)n + 1);
}

/* Pages in raw TSC cycles: trace-cmd's reader takes ns as
 * ((cycles * mult) >> shift) + OFFSET. Its TSC2NSEC offset field is read but
 * not applied (trace-cmd 3.1.6), so the clock's zero goes in OFFSET. */
static int add_tsc2nsec(struct collect *c, struct tracedat_writer *w)
{
	uint8_t o[16];
	uint32_t mult = (uint32_t)c->fclk.mult, shift = c->fclk.shift;
	uint64_t zero = 0;
	memcpy(o, &mult, 4);
	memcpy(o + 4, &shift, 4);
	memcpy(o + 8, &zero, 8);
	int rc = tracedat_writer_add_option(w, TRACEDAT_OPT_TSC2NSEC, o, sizeof(o));
	if (rc || !c->fclk.zero)
		return rc;
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%lld", (long long)c->fclk.zero);
	return tracedat_writer_add_option(w, TRACEDAT_OPT_OFFSET, buf, (uint32_t)n + 1);
}

int collect_write(struct collect *c, const char *path, uint64_t *file_size)
{
	long online = sysconf(_SC_NPROCESSORS_CONF);
	int nr_cpus = c->nr_cpus > online ? c->nr_cpus : (int)online;
	if (nr_cpus < 1)
		nr_cpus = 1;
	cpu_stream(c, (uint32_t)nr_cpus - 1);
	const char *clock =
	    uft_clock_name(c->clock_id < 0 ? UFT_CLOCK_LOCAL : (enum uft_clock)c->clock_id);
	uint32_t page_size = c->page_size ? c->page_size : UFT_SUBBUF_SIZE;
	struct tracedat_writer *w = tracedat_writer_open(path, nr_cpus, page_size, clock);
	if (!w)
		return -errno;
	int rc = c->compression ? tracedat_writer_set_compression(w, c->compression) : 0;
	for (size_t i = 0; i < c->nr_formats && !rc; i++) {
		struct collect_format *f = &c->formats[i];
		char *text;
		if (asprintf(&text, "name: %s\nID: %u\n%s", f->name, f->id, f->body) < 0) {
			rc = -ENOMEM;
			break;
		}
		rc = tracedat_writer_add_format(w, f->system, text);
		free(text);
	}
	for (size_t i = 0; i < c->nr_comms && !rc; i++)
		rc = tracedat_writer_add_cmdline(w, c->comms[i].pid, c->comms[i].comm);
	if (!rc) {
		size_t len;
		char *text = proc_syms_kallsyms(c->syms, &len);
		rc = text ? tracedat_writer_set_kallsyms(w, text, len) : -ENOMEM;
		free(text);
	}
	if (!rc)
		rc = tracedat_writer_add_uname(w);
	if (!rc && c->file_clock == COLLECT_CLOCK_TSC)
		rc = add_tsc2nsec(c, w);
	if (!rc)
		rc = c->io_error ? c->io_error : collect_pages_done(c, w);
	for (int cpu = 0; cpu < nr_cpus && !rc; cpu++)
		rc = collect_write_cpu_pages(c, w, cpu, page_size);
	for (int cpu = 0; cpu < nr_cpus && !rc; cpu++)
		rc = add_cpu_stats(c, w, cpu);
	if (rc) {
		tracedat_writer_abort(w);
		return rc;
	}
	rc = tracedat_writer_close(w);
	if (rc == 0 && file_size) {
		struct stat st;
		*file_size = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
	}
	return rc;
}

/* ---- for the pseudo-sources of collect_local.c ---- */

uint16_t collect_global_id(struct collect *c, const char *system, const char *text, size_t len,
			   uint16_t local)
{
	return global_id(c, system, text, len, local);
}

void collect_set_comm(struct collect *c, int pid, const char *comm)
{
	set_comm(c, pid, comm);
}

struct collect_cpu *collect_cpu_stream(struct collect *c, uint32_t cpu)
{
	return cpu_stream(c, cpu);
}
