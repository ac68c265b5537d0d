/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Trace clocks: the kernel's trace_clock choices that mean something in user
 * space. The writer reads the selected clock once per event. */
#ifndef UFT_CLOCK_H
#define UFT_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "arch/arch.h"
#include "wire/clocks.h"

struct uft_tsc_conv {
	uint32_t mult;
	uint32_t shift;
	uint64_t zero; /* ns added after scaling */
	bool exact;    /* from the kernel's perf mmap page, not calibrated */
	bool usable;   /* TSC constant and non-stop; else local falls back to mono */
};

extern struct uft_tsc_conv uft_tsc;

void uft_clock_init(void);
uint64_t uft_clock_read_slow(enum uft_clock c);

static inline uint64_t uft_tsc_to_ns(uint64_t tsc)
{
	return uft_tsc.zero + (uint64_t)(((unsigned __int128)tsc * uft_tsc.mult) >> uft_tsc.shift);
}

/* The clock `c` in its own units (nanoseconds for the ns clocks). */
static inline uint64_t uft_clock_now(enum uft_clock c)
{
	if (__builtin_expect(c == UFT_CLOCK_LOCAL && uft_tsc.usable, 1))
		return uft_tsc_to_ns(uft_arch_cycles());
	return uft_clock_read_slow(c);
}

#endif
