/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE
/* Clock selection and the TSC-to-nanosecond conversion.
 *
 * The conversion is the kernel's own (wire/tsc_perf.c): a perf event's mmap page publishes
 * time_mult/time_shift/time_zero such that sched_clock (the kernel's "local"
 * clock) = time_zero + (tsc * time_mult) >> time_shift. Where perf is not
 * available we calibrate against CLOCK_MONOTONIC_RAW for 2 ms at start-up and
 * anchor the result to CLOCK_MONOTONIC. */
#include "runtime/core/trace_clock.h"
#include "util/atomics.h"
#include "wire/tsc_perf.h"

struct uft_tsc_conv uft_tsc;
static uint64_t uft_counter_clock;

static uint64_t ts_of(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t uft_clock_read_slow(enum uft_clock c)
{
	switch (c) {
	case UFT_CLOCK_LOCAL:
	case UFT_CLOCK_GLOBAL:
	case UFT_CLOCK_PERF:
		if (uft_tsc.usable)
			return uft_tsc_to_ns(uft_arch_cycles());
		return ts_of(CLOCK_MONOTONIC);
	case UFT_CLOCK_COUNTER:
		return uft_fetch_add_relaxed(&uft_counter_clock, 1);
	case UFT_CLOCK_UPTIME:
		/* Ticks of 1/250 s (the HZ of Debian kernels) since boot, as jiffies count. */
		return ts_of(CLOCK_MONOTONIC_COARSE) / 4000000ull;
	case UFT_CLOCK_MONO:
		return ts_of(CLOCK_MONOTONIC);
	case UFT_CLOCK_MONO_RAW:
		return ts_of(CLOCK_MONOTONIC_RAW);
	case UFT_CLOCK_BOOT:
		return ts_of(CLOCK_BOOTTIME);
	case UFT_CLOCK_TAI:
		return ts_of(CLOCK_TAI);
	case UFT_CLOCK_X86_TSC:
		return uft_arch_cycles();
	default:
		return ts_of(CLOCK_MONOTONIC);
	}
}

/* The kernel's conversion (wire/tsc_perf.c), when it offers one. */
static bool tsc_from_perf(void)
{
	struct uft_tsc_perf p;
	if (!uft_tsc_perf_read(&p))
		return false;
	uft_tsc.mult = p.mult;
	uft_tsc.shift = p.shift;
	uft_tsc.zero = p.zero;
	uft_tsc.exact = true;
	return true;
}

static void tsc_calibrate(void)
{
	uint64_t t0 = ts_of(CLOCK_MONOTONIC_RAW), c0 = uft_arch_cycles();
	uint64_t t1, c1;
	do {
		t1 = ts_of(CLOCK_MONOTONIC_RAW);
		c1 = uft_arch_cycles();
	} while (t1 - t0 < 2000000ull);
	/* ns = cycles * mult >> shift, shift chosen so mult keeps 32 bits of precision. */
	uint32_t shift = 24;
	uint64_t mult = ((t1 - t0) << shift) / (c1 - c0 ? c1 - c0 : 1);
	while (mult > UINT32_MAX && shift > 0) {
		shift--;
		mult >>= 1;
	}
	uft_tsc.mult = (uint32_t)mult;
	uft_tsc.shift = shift;
	uint64_t mono = ts_of(CLOCK_MONOTONIC), now = uft_arch_cycles();
	uft_tsc.zero = 0;
	uft_tsc.zero = mono - uft_tsc_to_ns(now);
	uft_tsc.exact = false;
}

void uft_clock_init(void)
{
	if (uft_tsc.mult)
		return;
	uft_tsc.usable = uft_tsc_stable();
	if (!tsc_from_perf())
		tsc_calibrate();
}
