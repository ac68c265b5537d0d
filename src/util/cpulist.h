/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU list parsing ("0-3,8,10-11", "0-15:2/4", "N"), the kernel's cpulist format. */
#ifndef UFT_CPULIST_H
#define UFT_CPULIST_H

#include <stddef.h>
#include <stdint.h>

/* Parses the first n bytes of s (a NUL or newline ends the list earlier)
 * into the byte bitmap mask of nbits bits (bit i = mask[i / 8] & 1 << i % 8),
 * which it clears first. Groups are separated by commas or whitespace; each
 * is A, A-B or A-B:USED/GROUP; "N" stands for nbits - 1. Returns 0, or -1 on
 * bad syntax, a CPU >= nbits, or an empty or reversed range. */
int uft_cpulist_parse(const char *s, size_t n, uint8_t *mask, unsigned nbits);

#endif
