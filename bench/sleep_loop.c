/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bare wake-up loop uft timerlat is measured against: one thread
 * pinned to CPU under SCHED_FIFO PRIO (when allowed), clock_nanosleep to an
 * absolute CLOCK_MONOTONIC time every PERIOD_US for SECONDS, the latency of
 * each wake-up counted in 1 us buckets. Prints cyclictest's histogram form
 * ("%06d %06lu" rows, then "# Max Latencies: N"), which bench/latency.sh reads.
 *
 *   sleep_loop CPU PERIOD_US SECONDS PRIO */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BUCKETS 100000

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: sleep_loop CPU PERIOD_US SECONDS PRIO\n");
		return 2;
	}
	int cpu = atoi(argv[1]), prio = atoi(argv[4]);
	uint64_t period = strtoull(argv[2], NULL, 10) * 1000;
	uint64_t seconds = strtoull(argv[3], NULL, 10);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
	struct sched_param sp = {.sched_priority = prio};
	if (prio && sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("sched_setscheduler (running under the default policy)");
	static uint64_t hist[BUCKETS + 1];
	uint64_t max = 0, next = now_ns() + period, end = next + seconds * 1000000000u;
	while (next < end) {
		struct timespec ts = {(time_t)(next / 1000000000u), (long)(next % 1000000000u)};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		uint64_t now = now_ns(), lat = now - next;
		uint64_t us = lat / 1000;
		hist[us < BUCKETS ? us : BUCKETS]++;
		if (us > max)
			max = us;
		next += period;
		while (next <= now)
			next += period;
	}
	printf("# Histogram\n");
	for (int i = 0; i < BUCKETS; i++)
		if (hist[i])
			printf("%06d %06llu\n", i, (unsigned long long)hist[i]);
	printf("# Histogram Overflows: %05llu\n", (unsigned long long)hist[BUCKETS]);
	printf("# Max Latencies: %05llu\n", (unsigned long long)max);
	return 0;
}
