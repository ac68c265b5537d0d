/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Open-addressing tables (linear probing, kept under half full). */
#include "export/names.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
	return h;
}

static uint64_t hash_addr(uint64_t a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdull;
	return a ^ (a >> 33);
}

void names_free(struct names *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->str[i]);
	free(t->str);
	free(t->slots);
	free(t->addrs);
	memset(t, 0, sizeof(*t));
}

static int grow_slots(struct names *t)
{
	uint32_t ns = t->nslots ? t->nslots * 2 : 1024;
	uint32_t *s = calloc(ns, sizeof(*s));
	if (!s)
		return -1;
	for (uint32_t id = 0; id < t->n; id++) {
		uint32_t h = (uint32_t)hash_bytes(t->str[id], strlen(t->str[id])) & (ns - 1);
		while (s[h])
			h = (h + 1) & (ns - 1);
		s[h] = id + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = ns;
	return 0;
}

static uint32_t add(struct names *t, const char *s, size_t len)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 256;
		char **v = realloc(t->str, cap * sizeof(*v));
		if (!v)
			return UINT32_MAX;
		t->str = v;
		t->cap = cap;
	}
	char *c = strndup(s, len);
	if (!c)
		return UINT32_MAX;
	t->str[t->n] = c;
	return t->n++;
}

uint32_t names_intern(struct names *t, const char *s, size_t len)
{
	if ((t->n + 1) * 2 > t->nslots && grow_slots(t) != 0)
		return UINT32_MAX;
	uint32_t h = (uint32_t)hash_bytes(s, len) & (t->nslots - 1);
	for (; t->slots[h]; h = (h + 1) & (t->nslots - 1)) {
		const char *c = t->str[t->slots[h] - 1];
		if (strncmp(c, s, len) == 0 && c[len] == '\0')
			return t->slots[h] - 1;
	}
	uint32_t id = add(t, s, len);
	if (id != UINT32_MAX)
		t->slots[h] = id + 1;
	return id;
}

int names_addr(const struct names *t, uint64_t addr, uint32_t *id)
{
	if (!t->naddr_slots)
		return -1;
	uint32_t m = t->naddr_slots - 1;
	for (uint32_t h = (uint32_t)hash_addr(addr) & m; t->addrs[h].id; h = (h + 1) & m)
		if (t->addrs[h].addr == addr) {
			*id = t->addrs[h].id - 1;
			return 0;
		}
	return -1;
}

static void put_addr(struct names *t, uint64_t addr, uint32_t id)
{
	uint32_t m = t->naddr_slots - 1;
	uint32_t h = (uint32_t)hash_addr(addr) & m;
	while (t->addrs[h].id && t->addrs[h].addr != addr)
		h = (h + 1) & m;
	if (!t->addrs[h].id)
		t->naddr++;
	t->addrs[h].addr = addr;
	t->addrs[h].id = id + 1;
}

int names_addr_set(struct names *t, uint64_t addr, uint32_t id)
{
	if ((t->naddr + 1) * 2 > t->naddr_slots) {
		uint32_t ns = t->naddr_slots ? t->naddr_slots * 2 : 1024;
		struct names old = *t;
		t->addrs = calloc(ns, sizeof(*t->addrs));
		if (!t->addrs) {
			t->addrs = old.addrs;
			return -1;
		}
		t->naddr_slots = ns;
		t->naddr = 0;
		for (uint32_t i = 0; i < old.naddr_slots; i++)
			if (old.addrs[i].id)
				put_addr(t, old.addrs[i].addr, old.addrs[i].id - 1);
		free(old.addrs);
	}
	put_addr(t, addr, id);
	return 0;
}
