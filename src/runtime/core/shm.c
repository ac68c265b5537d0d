/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The process's shared region: one sparse memfd holding formats and rings, so a
 * consumer that holds the fd reads everything committed even after a crash. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "wire/ring_reader.h"

/* The region's layout as created: whoever holds the memfd may rewrite the
 * header's copy, so ring placement is bounded by this one. */
static struct {
	uint64_t size, rings_off;
} shm_priv;

struct uft_shm_header *uft_shm_create(uint64_t size, int *memfd_out)
{
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
	shm_priv.size = size;
	shm_priv.rings_off = h->rings_off;
	*memfd_out = fd;
	return h;
}

bool uft_shm_ring_ok(const struct uft_shm_header *h, uint64_t off)
{
	if (off < shm_priv.rings_off || off % 8 || off > shm_priv.size ||
	    sizeof(struct uft_ring) > shm_priv.size - off)
		return false;
	struct uft_ring_geom g;
	return uft_ring_geom_read((const struct uft_ring *)((const char *)h + off),
				  shm_priv.size - off, &g);
}

static void ring_init(struct uft_ring *r, const struct uft_buffer *b, uint32_t nr_pages,
		      uint32_t buffer, int tid, uint32_t level)
{
	uint64_t hdr_size = uft_ring_hdr_bytes(nr_pages);
	/* Geometry rewritten from our own values, in case it was not kept. */
	r->magic = UFT_RING_MAGIC;
	r->nr_pages = nr_pages;
	r->hdr_size = (uint32_t)hdr_size;
	r->total_size = hdr_size + (uint64_t)nr_pages * UFT_SUBBUF_SIZE;
	r->tid = tid;
	r->pid = getpid();
	r->level = level;
	r->mode = b->mode;
	r->buffer = buffer;
	r->clock = b->clock;
	r->ts_raw = uft_buffer_raw_tsc(b);
	WRITE_ONCE(r->clear_page, 0);
	WRITE_ONCE(r->clear_off, 0);
	WRITE_ONCE(r->overrun, 0);
	r->overrun_base = 0;
	r->ts_mult = uft_tsc.mult;
	r->ts_shift = uft_tsc.shift;
	r->ts_zero = uft_tsc.zero;
	memset(r->comm, 0, sizeof(r->comm));
	prctl(PR_GET_NAME, r->comm, 0, 0, 0);
	WRITE_ONCE(r->produced, 0);
	WRITE_ONCE(r->consumed, 0);
	WRITE_ONCE(r->entries, 0);
	WRITE_ONCE(r->dropped, 0);
	WRITE_ONCE(r->lost, 0);
	WRITE_ONCE(r->read_entries, 0);
	WRITE_ONCE(r->wake_pending, 0);
	memset(r->meta, 0, sizeof(r->meta[0]) * nr_pages);
	/* Page 0 starts empty; its header is written with the first record. */
	memset((char *)r + hdr_size, 0, UFT_PAGE_HDR_SIZE);
}

/* Reuses a drained ring of the same geometry, or carves a new one. Called on a
 * thread's first event at a nesting level, possibly from a signal handler:
 * only atomics, no locks, no allocation. */
struct uft_ring *uft_shm_ring_alloc(struct uft_shm_header *h, const struct uft_buffer *b,
				    uint32_t nr_pages, uint32_t buffer, int tid, uint32_t level)
{
	uint64_t hdr_size = uft_ring_hdr_bytes(nr_pages);
	uint64_t total = hdr_size + (uint64_t)nr_pages * UFT_SUBBUF_SIZE;
	uint32_t n = smp_load_acquire(&h->nr_rings);
	if (n > UFT_SHM_MAX_RINGS)
		n = UFT_SHM_MAX_RINGS;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = smp_load_acquire(&h->ring_off[i]);
		/* An offset from the region is followed only inside it. */
		if (!off || off < shm_priv.rings_off || off % 8 || off > shm_priv.size ||
		    total > shm_priv.size - off)
			continue;
		struct uft_ring *r = (struct uft_ring *)((char *)h + off);
		uint32_t st = UFT_RING_FREE;
		if (READ_ONCE(r->nr_pages) != nr_pages)
			continue;
		if (!uft_try_cmpxchg(&r->state, &st, UFT_RING_INIT))
			continue;
		ring_init(r, b, nr_pages, buffer, tid, level);
		r->generation++;
		smp_store_release(&r->state, UFT_RING_ACTIVE);
		return r;
	}

	uint64_t off = uft_fetch_add(&h->alloc_off, total);
	if (off < shm_priv.rings_off || off % 8 || off > shm_priv.size ||
	    total > shm_priv.size - off)
		return NULL;
	uint32_t idx = uft_fetch_add(&h->nr_rings, 1);
	if (idx >= UFT_SHM_MAX_RINGS)
		return NULL;
	struct uft_ring *r = (struct uft_ring *)((char *)h + off);
	r->generation = 1;
	ring_init(r, b, nr_pages, buffer, tid, level);
	smp_store_release(&r->state, UFT_RING_ACTIVE);
	smp_store_release(&h->ring_off[idx], off);
	return r;
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
