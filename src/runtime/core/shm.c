/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The process's shared region: one sparse memfd holding formats and rings, so a
 * consumer that holds the fd reads everything committed even after a crash. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "wire/ring_reader.h"

/* Bytes of this process's mapping of its region: bounds taken from here,
 * never from the header a consumer could rewrite. */
static uint64_t region_size;

/* A file size limit (ulimit -f) bounds a memfd too, and growing one past it
 * kills the program with SIGXFSZ: the region is made to fit the limit, or
 * not made at all (tracing off) when not even `least` fits. */
static bool fit_size_limit(uint64_t *size, uint64_t least)
{
	struct rlimit fl;
	if (getrlimit(RLIMIT_FSIZE, &fl) != 0 || fl.rlim_cur == RLIM_INFINITY ||
	    *size <= (uint64_t)fl.rlim_cur)
		return true;
	uint64_t cap = (uint64_t)fl.rlim_cur & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
	if (cap < least) {
		errno = EFBIG;
		return false;
	}
	*size = cap;
	return true;
}

struct uft_shm_header *uft_shm_create(uint64_t size, uint64_t least, int *memfd_out)
{
	if (!fit_size_limit(&size, least))
		return NULL;
	char name[32];
	snprintf(name, sizeof(name), "uft-%d", (int)getpid());
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)size) != 0) {
		close(fd);
		return NULL;
	}
	/* The size is fixed for good: consumers map it once, whole, and refuse a
	 * region that could shrink under them (a read past the end is SIGBUS). */
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
		close(fd);
		return NULL;
	}
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	struct uft_shm_header *h = p;
	region_size = size;
	h->version = UFT_SHM_VERSION;
	h->pid = getpid();
	h->subbuf_size = UFT_SUBBUF_SIZE;
	h->size = size;
	h->formats_off = UFT_SHM_HDR_SIZE;
	h->formats_cap = UFT_SHM_FORMATS_CAP;
	h->rings_off = UFT_SHM_HDR_SIZE + UFT_SHM_FORMATS_CAP;
	uft_store_seq_cst(&h->alloc_off, h->rings_off);
	h->clock_id = uft_buffers[0].clock;
	uft_fence_release();
	h->magic = UFT_SHM_MAGIC;
	*memfd_out = fd;
	return h;
}

bool uft_shm_ring_ok(const struct uft_shm_header *h, uint64_t off)
{
	if (off < UFT_SHM_HDR_SIZE + UFT_SHM_FORMATS_CAP || off % 8 || off > region_size ||
	    sizeof(struct uft_ring) > region_size - off)
		return false;
	struct uft_ring_geom g;
	return uft_ring_geom_read((const struct uft_ring *)((const char *)h + off),
				  region_size - off, &g);
}

static void ring_init(struct uft_ring *r, const struct uft_buffer *b, uint32_t buffer, int tid,
		      uint32_t level, const struct uft_wring_geom *g)
{
	uint32_t nr_pages = g->nr_pages;
	uint64_t first = g->first_page;
	r->tid = tid;
	r->pid = getpid();
	r->level = level;
	r->mode = g->mode;
	WRITE_ONCE(r->buffer, buffer);
	r->clock = b->clock;
	r->ts_raw = uft_buffer_raw_tsc(b);
	WRITE_ONCE(r->clear_page, first);
	WRITE_ONCE(r->clear_off, 0);
	WRITE_ONCE(r->overrun, 0);
	r->overrun_base = 0;
	r->ts_mult = uft_tsc.mult;
	r->ts_shift = uft_tsc.shift;
	r->ts_zero = uft_tsc.zero;
	memset(r->comm, 0, sizeof(r->comm));
	prctl(PR_GET_NAME, r->comm, 0, 0, 0);
	WRITE_ONCE(r->produced, first);
	WRITE_ONCE(r->consumed, first);
	WRITE_ONCE(r->entries, 0);
	WRITE_ONCE(r->dropped, 0);
	WRITE_ONCE(r->lost, 0);
	WRITE_ONCE(r->read_entries, 0);
	WRITE_ONCE(r->wake_pending, 0);
	WRITE_ONCE(r->block_waits, 0);
	WRITE_ONCE(r->block_timeouts, 0);
	WRITE_ONCE(r->block_want, 0);
	memset(r->meta, 0, sizeof(r->meta[0]) * nr_pages);
	r->meta[first % nr_pages].seq_lo = (uint32_t)first;
	/* The first page starts empty; its header is written with the first
	 * record. */
	memset((char *)r + g->hdr_size + (first % nr_pages) * (uint64_t)g->subbuf_size, 0,
	       UFT_PAGE_HDR_SIZE);
}

_Static_assert(UFT_MAX_BUFFERS == UFT_SHM_MAX_BUFFERS, "region counters cover every buffer");

/* Bytes a ring of nr_pages slots of `subbuf` bytes takes, and its header's
 * (ring + slot metadata). */
static uint64_t ring_bytes(uint32_t nr_pages, uint32_t subbuf, uint32_t *hdr_size)
{
	uint64_t hdr = uft_ring_hdr_bytes(nr_pages);
	*hdr_size = (uint32_t)hdr;
	return hdr + (uint64_t)nr_pages * subbuf;
}

/* Raises the region's largest sub-buffer size to `subbuf` (a recorder sizes
 * its pages from it) before a ring of that size is ACTIVE. */
static void note_subbuf(struct uft_shm_header *h, uint32_t subbuf)
{
	uint32_t cur = uft_load_seq_cst(&h->subbuf_size);
	while (cur < subbuf && !uft_try_cmpxchg(&h->subbuf_size, &cur, subbuf))
		;
}

/* Whether ring r's space holds `total` bytes. Its size is read from shared
 * memory, so it is also checked against the mapping, which is private. */
static bool ring_fits(struct uft_shm_header *h, struct uft_ring *r, uint64_t total)
{
	uint64_t off = (uint64_t)((char *)r - (char *)h);
	return READ_ONCE(r->total_size) >= total && off + total <= region_size;
}

uint64_t uft_shm_least_for(uint32_t ring_pages)
{
	uint32_t hdr_size;
	return UFT_SHM_HDR_SIZE + UFT_SHM_FORMATS_CAP +
	       UFT_SHM_MIN_RINGS * ring_bytes(ring_pages, UFT_SUBBUF_SIZE, &hdr_size);
}

uint64_t uft_shm_size_for(uint32_t ring_pages)
{
	uint64_t need = uft_shm_least_for(ring_pages);
	return need > UFT_SHM_DEFAULT_SIZE ? need : UFT_SHM_DEFAULT_SIZE;
}

/* Events an exited ring holds that no reader took: from the oldest page
 * still in it (or what a reader delivered, if more) to its final count. */
static uint64_t ring_unread(struct uft_shm_header *h, struct uft_ring *r)
{
	uint64_t entries = smp_load_acquire(&r->entries);
	uint64_t c = READ_ONCE(r->consumed);
	uint32_t nr = READ_ONCE(r->nr_pages);
	if (!nr)
		return 0;
	const struct uft_slot_meta *m = &r->meta[c % nr];
	if ((uint64_t)((const char *)(m + 1) - (const char *)h) > region_size)
		return 0; /* a layout no writer made */
	uint64_t from = READ_ONCE(m->first_entry);
	uint64_t read = READ_ONCE(r->read_entries);
	if (read > from)
		from = read;
	return entries > from ? entries - from : 0;
}

/* Hands a ring this caller moved to INIT to a new thread, laid out as g
 * inside the space it owns. The old generation's losses outlive it in the
 * region's counters: as accounted by nobody when no reader drained it
 * (`unread`: recycled), else as retired. Readers still holding the previous
 * generation see the new one before any other byte changes. */
static struct uft_ring *ring_take(struct uft_shm_header *h, struct uft_ring *r,
				  const struct uft_buffer *b, uint32_t buffer, int tid,
				  uint32_t level, struct uft_wring_geom *g, bool recycled)
{
	uint32_t old = READ_ONCE(r->buffer);
	if (old < UFT_SHM_MAX_BUFFERS) {
		uint64_t over = READ_ONCE(r->overrun) - READ_ONCE(r->overrun_base);
		uint64_t dropped = READ_ONCE(r->dropped), lost = READ_ONCE(r->lost);
		if (recycled) {
			over += ring_unread(h, r);
			uft_fetch_add_relaxed(&h->recycle_overrun[old], over);
			uft_fetch_add_relaxed(&h->ring_dropped[old], dropped);
			uft_fetch_add_relaxed(&h->ring_lost[old], lost);
		} else {
			uft_fetch_add_relaxed(&h->retired_overrun[old], over);
			uft_fetch_add_relaxed(&h->retired_dropped[old], dropped + lost);
		}
	}
	/* Readers of the old generation hold page indexes up to its last
	 * `produced`: the new one starts past them, at slot 0 still (a thread
	 * that writes little touches no more of the region than before). An
	 * index a consumer pushed out of any real range starts over at 0. */
	uint64_t last = READ_ONCE(r->produced);
	uint64_t cons = READ_ONCE(r->consumed);
	if (cons > last)
		last = cons;
	g->first_page = last < (1ull << 48) ? (last / g->nr_pages + 1) * g->nr_pages : 0;
	WRITE_ONCE(r->generation, READ_ONCE(r->generation) + 1);
	uft_fence_release();
	WRITE_ONCE(r->nr_pages, g->nr_pages);
	WRITE_ONCE(r->hdr_size, g->hdr_size);
	WRITE_ONCE(r->subbuf_size, g->subbuf_size);
	ring_init(r, b, buffer, tid, level, g);
	smp_store_release(&r->state, UFT_RING_ACTIVE);
	return r;
}

/* Carves a new ring from the free end of the region and reserves its table
 * slot; NULL when either is full. Nothing is taken on failure (space is
 * handed back unless another ring was carved after it), so a smaller ring
 * may still fit later. */
static struct uft_ring *ring_carve(struct uft_shm_header *h, const struct uft_wring_geom *g,
				   uint64_t total, uint32_t *slot)
{
	uint64_t off = uft_load_seq_cst(&h->alloc_off);
	do {
		if (off > region_size || total > region_size - off)
			return NULL;
	} while (!uft_try_cmpxchg(&h->alloc_off, &off, off + total));
	uint32_t idx = uft_load_seq_cst(&h->nr_rings);
	do {
		if (idx >= UFT_SHM_MAX_RINGS) {
			uint64_t end = off + total;
			uft_try_cmpxchg(&h->alloc_off, &end, off);
			return NULL;
		}
	} while (!uft_try_cmpxchg(&h->nr_rings, &idx, idx + 1));
	struct uft_ring *r = (struct uft_ring *)((char *)h + off);
	r->magic = UFT_RING_MAGIC;
	r->nr_pages = g->nr_pages;
	r->hdr_size = g->hdr_size;
	r->subbuf_size = g->subbuf_size;
	r->total_size = total;
	r->generation = 1;
	*slot = idx;
	return r;
}

static uint32_t rings_in_table(struct uft_shm_header *h)
{
	uint32_t n = smp_load_acquire(&h->nr_rings);
	return n > UFT_SHM_MAX_RINGS ? UFT_SHM_MAX_RINGS : n;
}

static struct uft_ring *ring_at(struct uft_shm_header *h, uint32_t i)
{
	uint64_t off = smp_load_acquire(&h->ring_off[i]);
	/* An offset from the region is followed only inside this mapping. */
	if (!off || off < UFT_SHM_HDR_SIZE + UFT_SHM_FORMATS_CAP || off % 8 || off > region_size ||
	    sizeof(struct uft_ring) > region_size - off)
		return NULL;
	return (struct uft_ring *)((char *)h + off);
}

/* The smallest FREE ring (a reader drained it) whose space fits `total`,
 * claimed (INIT); NULL if none. */
static struct uft_ring *claim_free(struct uft_shm_header *h, uint64_t total)
{
	for (int tries = 0; tries < 4; tries++) {
		struct uft_ring *best = NULL;
		uint32_t n = rings_in_table(h);
		for (uint32_t i = 0; i < n; i++) {
			struct uft_ring *r = ring_at(h, i);
			if (!r || READ_ONCE(r->state) != UFT_RING_FREE || !ring_fits(h, r, total))
				continue;
			if (!best || r->total_size < best->total_size)
				best = r;
			if (best->total_size == total)
				break;
		}
		if (!best)
			return NULL;
		uint32_t st = UFT_RING_FREE;
		if (uft_try_cmpxchg(&best->state, &st, UFT_RING_INIT))
			return best;
	}
	return NULL;
}

/* An EXITED ring nobody drained, claimed (INIT): round robin from where the
 * last such claim stopped, which takes the oldest first as rings are handed
 * out in table order. In discard mode only an empty one; in overwrite mode
 * any, what it still holds counted as overrun of its buffer. */
static struct uft_ring *claim_exited(struct uft_shm_header *h, uint64_t total, uint32_t mode)
{
	uint32_t n = rings_in_table(h);
	uint32_t start = READ_ONCE(h->recycle_next);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = (start + k) % n;
		struct uft_ring *r = ring_at(h, i);
		if (!r || READ_ONCE(r->state) != UFT_RING_EXITED || !ring_fits(h, r, total))
			continue;
		bool overwrite =
		    mode == UFT_MODE_OVERWRITE && READ_ONCE(r->mode) == UFT_MODE_OVERWRITE;
		if (!overwrite && ring_unread(h, r))
			continue;
		uint32_t st = UFT_RING_EXITED;
		if (!uft_try_cmpxchg(&r->state, &st, UFT_RING_INIT))
			continue;
		/* Ours now: ring_take() counts what it still holds. */
		uft_fetch_add_relaxed(&h->rings_recycled, 1);
		WRITE_ONCE(h->recycle_next, i + 1);
		return r;
	}
	return NULL;
}

/* A ring for a thread's first event at a nesting level, possibly from a
 * signal handler: only atomics, no locks, no allocation. In order: a FREE
 * ring whose space fits, new space at the end of the region, an EXITED ring
 * nobody drained (docs/design/ring-buffer.md, "Ring reuse"). NULL when none
 * has room: the caller counts what it could not write. */
struct uft_ring *uft_shm_ring_alloc(struct uft_shm_header *h, const struct uft_buffer *b,
				    uint32_t buffer, int tid, uint32_t level,
				    struct uft_wring_geom *g)
{
	if (!uft_subbuf_valid(g->subbuf_size))
		g->subbuf_size = UFT_SUBBUF_SIZE;
	uint64_t total = ring_bytes(g->nr_pages, g->subbuf_size, &g->hdr_size);
	g->first_page = 0;
	note_subbuf(h, g->subbuf_size);
	struct uft_ring *r = claim_free(h, total);
	if (r)
		return ring_take(h, r, b, buffer, tid, level, g, false);
	uint32_t slot;
	r = ring_carve(h, g, total, &slot);
	if (r) {
		ring_init(r, b, buffer, tid, level, g);
		smp_store_release(&r->state, UFT_RING_ACTIVE);
		smp_store_release(&h->ring_off[slot], (uint64_t)((char *)r - (char *)h));
		return r;
	}
	r = claim_exited(h, total, g->mode);
	if (r)
		return ring_take(h, r, b, buffer, tid, level, g, true);
	return NULL;
}

/* Appends a format record; consumers read records up to formats_len. */
void uft_shm_add_format(struct uft_shm_header *h, uint16_t id, const char *system, const char *text,
			uint32_t len)
{
	uint64_t need = (sizeof(struct uft_format_rec) + len + 7) & ~7ull;
	uint64_t at = uft_load_seq_cst(&h->formats_len);
	if (at > UFT_SHM_FORMATS_CAP || need > UFT_SHM_FORMATS_CAP - at)
		return;
	struct uft_format_rec *rec = (struct uft_format_rec *)((char *)h + UFT_SHM_HDR_SIZE + at);
	rec->len = len;
	rec->id = id;
	rec->live = 1;
	memset(rec->system, 0, sizeof(rec->system));
	strncpy(rec->system, system, sizeof(rec->system) - 1);
	memcpy(rec->text, text, len);
	smp_store_release(&h->formats_len, at + need);
}
