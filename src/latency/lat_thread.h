/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Starting a measuring thread pinned to one CPU under a scheduling policy,
 * and the shared stop flag the measuring loops poll. */
#ifndef UFT_LATENCY_LAT_THREAD_H
#define UFT_LATENCY_LAT_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* policy: SCHED_FIFO or SCHED_RR with prio 1..99, or SCHED_OTHER with prio
 * as the nice value. */
struct lat_sched {
	int policy;
	int prio;
};

/* Starts fn(arg) on cpu under s. When the policy is refused (EPERM: no
 * CAP_SYS_NICE or RLIMIT_RTPRIO), the thread starts under the default policy
 * and *fell_back is set. Returns 0 or a positive errno. */
int lat_thread_start(pthread_t *th, int cpu, const struct lat_sched *s, void *(*fn)(void *),
		     void *arg, bool *fell_back);

/* Called first in the thread: the nice value of a SCHED_OTHER policy. */
void lat_thread_enter(const struct lat_sched *s);

/* CLOCK_MONOTONIC in ns. */
uint64_t lat_now_ns(void);

#endif
