/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* timerlat's measuring threads. */
#define _GNU_SOURCE
#include "latency/timerlat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/atomics.h"

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){.tv_sec = (time_t)(ns / 1000000000u),
				 .tv_nsec = (long)(ns % 1000000000u)};
}

static void *timerlat_thread(void *arg)
{
	struct timerlat_cpu *c = arg;
	struct timerlat *t = c->t;
	lat_thread_enter(&t->o.sched);
	uint64_t period = t->o.period_ns, next = lat_now_ns() + period;
	while (!READ_ONCE(t->stop)) {
		struct timespec ts = ts_of(next);
		int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		uint64_t now = lat_now_ns();
		if (rc == EINTR)
			continue;
		uint64_t lat = now - next;
		lat_stats_add(&c->st, lat);
		if (t->o.sample)
			t->o.sample(t->o.ctx, c->cpu, lat);
		if (t->o.stop_ns && lat > t->o.stop_ns) {
			int none = -1;
			uft_try_cmpxchg(&t->stop_cpu, &none, c->cpu);
			WRITE_ONCE(t->stop, 1);
		}
		/* Periods the thread overslept are skipped, not caught up in a burst. */
		next += period;
		while (next <= now)
			next += period;
	}
	return NULL;
}

int timerlat_start(struct timerlat *t, const struct timerlat_opts *o)
{
	memset(t, 0, sizeof(*t));
	t->o = *o;
	t->stop_cpu = -1;
	for (unsigned i = 0; i < o->nbits; i++)
		t->n += !!(o->cpus[i / 8] & 1u << i % 8);
	t->cpu = calloc(t->n ? t->n : 1, sizeof(*t->cpu));
	if (!t->cpu)
		return -ENOMEM;
	unsigned k = 0;
	for (unsigned i = 0; i < o->nbits; i++) {
		if (!(o->cpus[i / 8] & 1u << i % 8))
			continue;
		struct timerlat_cpu *c = &t->cpu[k++];
		c->cpu = (int)i;
		c->t = t;
		if (lat_stats_init(&c->st, o->hist_unit_ns, o->hist_bucket, o->hist_entries)) {
			timerlat_stop(t);
			timerlat_free(t);
			return -ENOMEM;
		}
	}
	for (unsigned i = 0; i < t->n; i++) {
		struct timerlat_cpu *c = &t->cpu[i];
		int rc =
		    lat_thread_start(&c->th, c->cpu, &o->sched, timerlat_thread, c, &t->fell_back);
		if (rc) {
			timerlat_stop(t);
			timerlat_free(t);
			return -rc;
		}
		c->started = true;
	}
	return 0;
}

bool timerlat_stopped(const struct timerlat *t)
{
	return READ_ONCE(t->stop_cpu) >= 0;
}

void timerlat_stop(struct timerlat *t)
{
	WRITE_ONCE(t->stop, 1);
	for (unsigned i = 0; i < t->n; i++)
		if (t->cpu[i].started) {
			pthread_join(t->cpu[i].th, NULL);
			t->cpu[i].started = false;
		}
}

void timerlat_free(struct timerlat *t)
{
	for (unsigned i = 0; i < t->n; i++)
		lat_stats_free(&t->cpu[i].st);
	free(t->cpu);
	t->cpu = NULL;
	t->n = 0;
}
