/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What uft timerlat's thread does per wake-up beyond a bare clock_nanosleep
 * loop, timed alone (no sleeping, so the machine's load does not blur it):
 * the statistics and histogram update of src/latency/lat_stats.c and the
 * stop-threshold check, over N made-up latencies. Prints "ns X" per wake-up.
 *
 *   lat_path [N] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "latency/lat_stats.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	struct lat_stats s;
	if (lat_stats_init(&s, 1000, 1, 100000))
		return 1;
	volatile uint64_t stop_ns = 0;
	uint64_t stops = 0, x = 88172645463325252ull;
	uint64_t t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		/* xorshift: latencies spread over 0..64 us, as a loaded machine's. */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t lat = x & 0xffff;
		lat_stats_add(&s, lat);
		if (stop_ns && lat > stop_ns)
			stops++;
	}
	uint64_t t1 = now_ns();
	printf("ns %.2f\n", (double)(t1 - t0) / (double)n);
	printf("# samples %llu, stops %llu\n", (unsigned long long)s.count,
	       (unsigned long long)stops);
	lat_stats_free(&s);
	return 0;
}
