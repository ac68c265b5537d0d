/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace clocks uft offers, named as the kernel's trace_clock file names
 * them, in the kernel's order. */
#ifndef UFT_CLOCKS_H
#define UFT_CLOCKS_H

#include <stdbool.h>
#include <stddef.h>

enum uft_clock {
	UFT_CLOCK_LOCAL = 0, /* TSC scaled to ns with the kernel's perf conversion */
	UFT_CLOCK_GLOBAL,    /* same source: the TSC is synchronized (constant/nonstop) */
	UFT_CLOCK_COUNTER,   /* process-wide event counter, not a time */
	UFT_CLOCK_UPTIME,    /* jiffies-like ticks (1/250 s) of CLOCK_MONOTONIC_COARSE */
	UFT_CLOCK_PERF,	     /* perf_clock: identical to local in user space */
	UFT_CLOCK_MONO,	     /* CLOCK_MONOTONIC */
	UFT_CLOCK_MONO_RAW,  /* CLOCK_MONOTONIC_RAW */
	UFT_CLOCK_BOOT,	     /* CLOCK_BOOTTIME */
	UFT_CLOCK_TAI,	     /* CLOCK_TAI */
	UFT_CLOCK_X86_TSC,   /* raw TSC cycles */
	UFT_NR_CLOCKS,
};

const char *uft_clock_name(enum uft_clock c);
int uft_clock_by_name(const char *name); /* -1 if unknown */
bool uft_clock_is_ns(enum uft_clock c);
/* Text of the trace_clock file with `c` in brackets, newline terminated. */
int uft_clock_list(enum uft_clock c, char *buf, size_t len);

#endif
