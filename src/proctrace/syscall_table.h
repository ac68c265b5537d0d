/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system call table (generated from the kernel's definitions) and the
 * strace-like classes (%file, %net, ...) over it. */
#ifndef UFT_PT_SYSCALL_TABLE_H
#define UFT_PT_SYSCALL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PT_MAX_SYSCALL 512 /* numbers below this; the bitmap's size */

/* How the print fmt shows an argument by name: `conv` the conversions in
 * the text, `args` their arguments with '@' standing for the field's value
 * (__print_flags() and __print_symbolic() over the uapi headers' values). */
struct pt_decoder {
	const char *conv, *args;
};

struct pt_syscall {
	int nr;
	const char *name;  /* as <asm/unistd_64.h> spells it */
	const char *event; /* the kernel's SYSCALL_DEFINE name, NULL: no event here */
	uint8_t nargs;
	const char *arg_type[6];
	const char *arg_name[6];
	uint8_t str_args; /* bit i: argument i is a user string, read into __NAME_val */
	uint8_t dec[6];	  /* argument i's index in pt_decoders, 0: the kernel's hex */
	uint8_t ret_hex;  /* returns an address: the exit shows it in hex */
};

extern const struct pt_syscall pt_syscalls[];
extern const unsigned pt_nr_syscalls;
extern const struct pt_decoder pt_decoders[];
/* __print_symbolic() arguments giving " (ENAME)" for an error in REC->ret,
 * "" otherwise: the common errors (up to ELOOP) and every one. */
extern const char pt_errno_short[], pt_errno_all[];

/* The longest string read from the tracee for a __NAME_val field, its NUL
 * included (the kernel's bound for the strings its syscall events read). */
#define PT_STR_MAX 256

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
