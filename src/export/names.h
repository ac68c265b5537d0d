/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interned names for the exports: each distinct string gets a small id
 * (Perfetto's interned event names, the flame graph's frames), and a code
 * address its function's id without a second symbol lookup. */
#ifndef UFT_EXPORT_NAMES_H
#define UFT_EXPORT_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct names {
	char **str; /* by id */
	uint32_t n, cap;
	uint32_t *slots; /* string hash: id + 1, 0 empty */
	uint32_t nslots;
	struct {
		uint64_t addr;
		uint32_t id; /* id + 1, 0 empty */
	} * addrs;
	uint32_t naddr, naddr_slots;
};

void names_free(struct names *t);
/* The id of the string of len bytes, added if new; UINT32_MAX on ENOMEM. */
uint32_t names_intern(struct names *t, const char *s, size_t len);
/* The id cached for addr: 0 with *id set, -1 when not cached. */
int names_addr(const struct names *t, uint64_t addr, uint32_t *id);
/* Caches addr's id: 0, or -1 on ENOMEM. */
int names_addr_set(struct names *t, uint64_t addr, uint32_t id);

#endif
