/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Time and CPU of a tracee's stop, as the tracer sees them. */
#ifndef UFT_PT_CLOCK_H
#define UFT_PT_CLOCK_H

#include <stdint.h>

/* Sets up the conversion once (a perf mmap page); cheap to call again. */
void pt_clock_init(void);
/* uft's default trace clock ("local"): the kernel's sched_clock from the TSC
 * with the perf page's conversion, as libuft reads it; CLOCK_MONOTONIC where
 * that is not available (libuft then calibrates the TSC against it). */
uint64_t pt_clock_now(void);
/* The kernel's trace_clock that reads the same time: "perf" (local_clock(),
 * which the perf page's conversion reproduces) with the TSC, "mono" on the
 * CLOCK_MONOTONIC fallback. Calls pt_clock_init(). */
const char *pt_clock_tracefs_name(void);

#endif
