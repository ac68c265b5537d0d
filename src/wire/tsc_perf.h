/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's own TSC-to-sched_clock conversion, as a perf event's mmap page
 * publishes it: what the trace clock "local" means for libuft and for the
 * tools alike, so that their timestamps share one timeline. */
#ifndef UFT_TSC_PERF_H
#define UFT_TSC_PERF_H

#include <stdbool.h>
#include <stdint.h>

struct uft_tsc_perf {
	uint32_t mult, shift;
	uint64_t zero; /* ns = zero + (tsc * mult) >> shift */
};

/* Whether the CPUs' TSC is constant and nonstop (/proc/cpuinfo flags). */
bool uft_tsc_stable(void);
/* The conversion from a perf event's mmap page; false where the kernel does
 * not offer it (no perf events, or no cap_user_time: many virtual machines). */
bool uft_tsc_perf_read(struct uft_tsc_perf *out);

#endif
