/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clock and the median's sort order every bench program uses, those
 * built without libuft too. */
#ifndef UFT_BENCH_TIME_H
#define UFT_BENCH_TIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t bench_mono_raw_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* qsort order of doubles, for medians. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#endif
