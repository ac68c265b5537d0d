/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system call table (generated from the kernel's definitions) and the
 * strace-like classes (%file, %net, ...) over it. */
#ifndef UFT_PT_SYSCALL_TABLE_H
#define UFT_PT_SYSCALL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PT_MAX_SYSCALL 512 /* numbers below this; the bitmap's size */

struct pt_syscall {
	int nr;
	const char *name;  /* as <asm/unistd_64.h> spells it */
	const char *event; /* the kernel's SYSCALL_DEFINE name, NULL: no event here */
	uint8_t nargs;
	const char *arg_type[6];
	const char *arg_name[6];
};

extern const struct pt_syscall pt_syscalls[];
extern const unsigned pt_nr_syscalls;

/* The entry of number `nr`, NULL if unknown. */
const struct pt_syscall *pt_syscall_by_nr(long nr);
/* By header or event name ("stat" and "newstat" both); NULL if unknown. */
const struct pt_syscall *pt_syscall_by_name(const char *name);

struct pt_sysset {
	uint64_t bits[PT_MAX_SYSCALL / 64];
};

static inline bool pt_sysset_has(const struct pt_sysset *s, long nr)
{
	return nr >= 0 && nr < PT_MAX_SYSCALL && (s->bits[nr / 64] >> (nr % 64)) & 1;
}

static inline void pt_sysset_add(struct pt_sysset *s, long nr)
{
	if (nr >= 0 && nr < PT_MAX_SYSCALL)
		s->bits[nr / 64] |= 1ull << (nr % 64);
}

/* "openat,read,%file,%net" -> the set; a leading '!' on an item removes it.
 * Returns 0, or -1 with the unknown item in `bad` (at most badlen bytes). */
int pt_sysset_parse(const char *spec, struct pt_sysset *out, char *bad, unsigned badlen);
/* The names of a class ("file", "net", ...), NULL-terminated; NULL if unknown. */
const char *const *pt_syscall_class(const char *name);

#endif
