/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder's trust boundary: a traced process's shared region is hostile
 * input. Everything the recorder follows (sizes, offsets, counts) is checked
 * against its own mapping, geometry is snapshotted once, and what does not
 * check out is dropped with a counted reason (docs/design/recording.md). */
#ifndef UFT_SHM_CHECK_H
#define UFT_SHM_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/ring_reader.h"
#include "wire/shm_layout.h"

enum shm_drop {
	SHM_DROP_UNSEALED,   /* a memfd that may shrink under the mapping */
	SHM_DROP_REGION,     /* region header does not describe its mapping */
	SHM_DROP_RING,	     /* ring offset or header out of bounds */
	SHM_DROP_RING_STATE, /* produced/consumed out of range: ring abandoned */
	SHM_DROP_PAGE,	     /* page commit length past the page */
	SHM_DROP_FORMAT,     /* format record past the formats area */
	SHM_DROP_CPU,	     /* event on a CPU that does not exist */
	SHM_DROP_NR,
};

/* The parts of a region header the recorder uses, as checked when it was
 * received; never read from the region again. */
struct shm_region {
	struct uft_shm_header *hdr;
	size_t map_len; /* from fstat of the received fd */
	uint64_t formats_off, formats_cap;
	uint64_t rings_off;
	int clock_id;
};

/* Checks the fd is a sealed memfd (it cannot shrink), maps it and checks its
 * header. 0, or -errno with *why set to the reason to count. */
int shm_check_region(int fd, struct shm_region *out, enum shm_drop *why);
/* The same, mapped read-only (an observer that consumes nothing: uft top). */
int shm_check_region_ro(int fd, struct shm_region *out, enum shm_drop *why);
/* Checks ring offset `off` (from ring_off[]) and the ring there; on success
 * fills its geometry, to be used from then on. */
bool shm_check_ring(const struct shm_region *s, uint64_t off, struct uft_ring_geom *g);
/* The reason's words for the summary. */
const char *shm_drop_name(enum shm_drop why);

#endif
