/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracer's clock. The tools do not link libuft, but read the same
 * conversion it does (wire/tsc_perf.c): the perf event page's time_mult,
 * time_shift and time_zero turn the TSC into the kernel's sched_clock, the
 * clock "local" means for the kernel and libuft alike, so a libuft event and
 * a tracer event order correctly on one timeline. */
#define _GNU_SOURCE
#include "proctrace/pt_clock.h"
#include "wire/tsc_perf.h"

#include <stdbool.h>
#include <time.h>

static struct {
	bool done, tsc;
	struct uft_tsc_perf perf;
} conv;

void pt_clock_init(void)
{
	if (conv.done)
		return;
	conv.done = true;
#if defined(__x86_64__)
	if (uft_tsc_stable() && uft_tsc_perf_read(&conv.perf))
		conv.tsc = true;
#endif
}

uint64_t pt_clock_now(void)
{
#if defined(__x86_64__)
	if (conv.tsc) {
		uint64_t tsc = __builtin_ia32_rdtsc();
		return conv.perf.zero +
		       (uint64_t)(((unsigned __int128)tsc * conv.perf.mult) >> conv.perf.shift);
	}
#endif
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *pt_clock_tracefs_name(void)
{
	pt_clock_init();
	return conv.tsc ? "perf" : "mono";
}
