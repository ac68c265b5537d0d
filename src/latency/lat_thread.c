/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pinned measuring threads under the asked scheduling policy. */
#define _GNU_SOURCE
#include "latency/lat_thread.h"

#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

uint64_t lat_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void lat_thread_enter(const struct lat_sched *s)
{
	if (s->policy == SCHED_OTHER && s->prio)
		setpriority(PRIO_PROCESS, (id_t)gettid(), s->prio);
}

static int create(pthread_t *th, int cpu, const struct lat_sched *s, void *(*fn)(void *), void *arg,
		  bool rt)
{
	pthread_attr_t a;
	cpu_set_t set;
	int rc = pthread_attr_init(&a);
	if (rc)
		return rc;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* Pinned and under its policy from its first instruction, so the
	 * first sample is already taken where it should be. */
	rc = pthread_attr_setaffinity_np(&a, sizeof(set), &set);
	if (!rc && rt) {
		struct sched_param p = {.sched_priority = s->prio};
		rc = pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
		if (!rc)
			rc = pthread_attr_setschedpolicy(&a, s->policy);
		if (!rc)
			rc = pthread_attr_setschedparam(&a, &p);
	}
	if (!rc)
		rc = pthread_create(th, &a, fn, arg);
	pthread_attr_destroy(&a);
	return rc;
}

int lat_thread_start(pthread_t *th, int cpu, const struct lat_sched *s, void *(*fn)(void *),
		     void *arg, bool *fell_back)
{
	bool rt = s->policy == SCHED_FIFO || s->policy == SCHED_RR;
	int rc = create(th, cpu, s, fn, arg, rt);
	if (rc == EPERM && rt) {
		*fell_back = true;
		rc = create(th, cpu, s, fn, arg, false);
	}
	return rc;
}
