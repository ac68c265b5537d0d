/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include "recorder/shm_check.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "wire/clocks.h"
#include "util/atomics.h"

const char *shm_drop_name(enum shm_drop why)
{
	static const char *const names[SHM_DROP_NR] = {
	    [SHM_DROP_UNSEALED] = "unsealed memfd",
	    [SHM_DROP_REGION] = "bad region header",
	    [SHM_DROP_RING] = "bad ring header",
	    [SHM_DROP_RING_STATE] = "bad ring state",
	    [SHM_DROP_PAGE] = "bad page",
	    [SHM_DROP_FORMAT] = "bad format record",
	    [SHM_DROP_CPU] = "bad cpu",
	};
	return (unsigned)why < SHM_DROP_NR ? names[why] : "?";
}

/* [off, off + len) inside [0, size), without overflow. */
static bool inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static bool header_ok(const struct uft_shm_header *h, uint64_t size, struct shm_region *out)
{
	/* One read of each field: the checked value is the one kept. */
	out->formats_off = READ_ONCE(h->formats_off);
	out->formats_cap = READ_ONCE(h->formats_cap);
	out->rings_off = READ_ONCE(h->rings_off);
	uint32_t clock = READ_ONCE(h->clock_id);
	uint32_t subbuf = READ_ONCE(h->subbuf_size);
	out->clock_id = (int)clock;
	return READ_ONCE(h->magic) == UFT_SHM_MAGIC && READ_ONCE(h->version) == UFT_SHM_VERSION &&
	       subbuf >= UFT_SUBBUF_SIZE && subbuf <= UFT_SUBBUF_MAX &&
	       READ_ONCE(h->size) == size && clock < UFT_NR_CLOCKS &&
	       out->formats_off >= sizeof(struct uft_shm_header) && out->formats_off % 8 == 0 &&
	       inside(out->formats_off, out->formats_cap, size) &&
	       out->rings_off >= out->formats_off + out->formats_cap && out->rings_off % 8 == 0 &&
	       out->rings_off <= size;
}

static int check_region(int fd, int prot, struct shm_region *out, enum shm_drop *why)
{
	struct stat st;
	*why = SHM_DROP_REGION;
	if (fstat(fd, &st) != 0)
		return -errno;
	/* Without the shrink seal the owner could truncate the file under the
	 * mapping, and the next read would be a SIGBUS. */
	int seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK)) {
		*why = SHM_DROP_UNSEALED;
		return -EPERM;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < UFT_SHM_HDR_SIZE)
		return -EINVAL;
	size_t len = (size_t)st.st_size;
	void *m = mmap(NULL, len, prot, MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	if (!header_ok(m, len, out)) {
		munmap(m, len);
		return -EPROTO;
	}
	out->hdr = m;
	out->map_len = len;
	return 0;
}

int shm_check_region(int fd, struct shm_region *out, enum shm_drop *why)
{
	return check_region(fd, PROT_READ | PROT_WRITE, out, why);
}

int shm_check_region_ro(int fd, struct shm_region *out, enum shm_drop *why)
{
	return check_region(fd, PROT_READ, out, why);
}

bool shm_check_ring(const struct shm_region *s, uint64_t off, struct uft_ring_geom *g)
{
	if (off < s->rings_off || off % 8 || !inside(off, sizeof(struct uft_ring), s->map_len))
		return false;
	const struct uft_ring *r = (const struct uft_ring *)((const char *)s->hdr + off);
	return READ_ONCE(r->magic) == UFT_RING_MAGIC && uft_ring_geom_read(r, s->map_len - off, g);
}
