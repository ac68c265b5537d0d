/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* osnoise's sampling threads. */
#define _GNU_SOURCE
#include "latency/osnoise.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "latency/osn_detect.h"
#include "util/atomics.h"
#include "util/util.h"

/* The longest sleep between two looks at the stop flag. */
#define OSN_SLICE_NS 10000000u

static void stop_at(struct osnoise *n, int cpu)
{
	int none = -1;
	uft_try_cmpxchg(&n->stop_cpu, &none, cpu);
	WRITE_ONCE(n->stop, 1);
}

static uint64_t nivcsw(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)ru.ru_nivcsw;
}

static void sleep_until(struct osnoise *n, uint64_t end)
{
	for (uint64_t now = lat_now_ns(); now < end && !READ_ONCE(n->stop); now = lat_now_ns()) {
		uint64_t to = end - now < OSN_SLICE_NS ? end : now + OSN_SLICE_NS;
		struct timespec ts = {.tv_sec = (time_t)(to / 1000000000u),
				      .tv_nsec = (long)(to % 1000000000u)};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* One period's sums into the CPU's totals. */
static void account(struct osnoise_cpu *c, const struct osn_detect *d, uint64_t runtime,
		    const struct cpu_irqs *a, const struct cpu_irqs *b, uint64_t switches)
{
	struct osnoise_sum *s = &c->sum;
	WRITE_ONCE(s->runtime, s->runtime + runtime);
	WRITE_ONCE(s->noise, s->noise + d->noise);
	WRITE_ONCE(s->count, s->count + d->count);
	if (d->noise > s->max_noise)
		WRITE_ONCE(s->max_noise, d->noise);
	if (d->max_single > s->max_single)
		WRITE_ONCE(s->max_single, d->max_single);
	if (a && b) {
		WRITE_ONCE(s->nmi, s->nmi + (b->nmi - a->nmi));
		WRITE_ONCE(s->irq, s->irq + (b->irq - a->irq));
		WRITE_ONCE(s->sirq, s->sirq + (b->sirq - a->sirq));
	}
	WRITE_ONCE(s->thread, s->thread + switches);
	WRITE_ONCE(s->periods, s->periods + 1);
}

static void *osnoise_thread(void *arg)
{
	struct osnoise_cpu *c = arg;
	struct osnoise *n = c->o;
	const struct osnoise_opts *o = &n->o;
	struct osn_detect d = {.thresh_ns = o->thresh_ns ? o->thresh_ns : 1000,
			       .samples = &c->samples};
	struct cpu_irqs a, b;
	lat_thread_enter(&o->sched);
	c->sum.irq_known = !o->no_irq_counts && cpu_irqs_read(c->cpu, &a) == 0;
	while (!READ_ONCE(n->stop)) {
		if (c->sum.irq_known)
			cpu_irqs_read(c->cpu, &a);
		uint64_t sw = nivcsw(), seen = sw;
		uint64_t start = lat_now_ns(), now = start, end = start + o->runtime_ns;
		osn_begin(&d, start);
		while (now < end) {
			now = lat_now_ns();
			uint64_t gap = osn_feed(&d, now);
			if (unlikely(gap) && o->noise) {
				uint64_t cur = nivcsw();
				o->noise(o->ctx, c->cpu, now - gap, gap, cur - seen);
				seen = cur;
				d.last = now = lat_now_ns();
			}
			if (unlikely(gap) && o->stop_ns && gap > o->stop_ns) {
				stop_at(n, c->cpu);
				break;
			}
			if (unlikely(READ_ONCE(n->stop)))
				break;
		}
		sw = nivcsw() - sw;
		if (c->sum.irq_known)
			cpu_irqs_read(c->cpu, &b);
		/* A window cut short by the end of the run is no period (the
		 * kernel reports whole periods), unless a stop threshold cut it:
		 * then it holds the sample that stopped the run. */
		if (now < end && !osnoise_stopped(n))
			break;
		account(c, &d, now - start, c->sum.irq_known ? &a : NULL, &b, sw);
		if (o->period) {
			struct osnoise_period p = {now - start, d.noise, d.max_single,
						   d.count,	0,	 0,
						   0,		sw,	 c->sum.irq_known};
			if (p.irq_known) {
				p.nmi = b.nmi - a.nmi;
				p.irq = b.irq - a.irq;
				p.sirq = b.sirq - a.sirq;
			}
			o->period(o->ctx, c->cpu, &p);
		}
		if (o->stop_total_ns && d.noise > o->stop_total_ns)
			stop_at(n, c->cpu);
		sleep_until(n, start + o->period_ns);
	}
	return NULL;
}

int osnoise_start(struct osnoise *n, const struct osnoise_opts *o)
{
	memset(n, 0, sizeof(*n));
	n->o = *o;
	n->stop_cpu = -1;
	for (unsigned i = 0; i < o->nbits; i++)
		n->n += !!(o->cpus[i / 8] & 1u << i % 8);
	n->cpu = calloc(n->n ? n->n : 1, sizeof(*n->cpu));
	if (!n->cpu)
		return -ENOMEM;
	unsigned k = 0;
	for (unsigned i = 0; i < o->nbits; i++) {
		if (!(o->cpus[i / 8] & 1u << i % 8))
			continue;
		struct osnoise_cpu *c = &n->cpu[k++];
		c->cpu = (int)i;
		c->o = n;
		if (lat_stats_init(&c->samples, o->hist_unit_ns, o->hist_bucket, o->hist_entries)) {
			osnoise_free(n);
			return -ENOMEM;
		}
	}
	for (unsigned i = 0; i < n->n; i++) {
		struct osnoise_cpu *c = &n->cpu[i];
		int rc =
		    lat_thread_start(&c->th, c->cpu, &o->sched, osnoise_thread, c, &n->fell_back);
		if (rc) {
			osnoise_stop(n);
			osnoise_free(n);
			return -rc;
		}
		c->started = true;
	}
	return 0;
}

bool osnoise_stopped(const struct osnoise *n)
{
	return READ_ONCE(n->stop_cpu) >= 0;
}

void osnoise_stop(struct osnoise *n)
{
	WRITE_ONCE(n->stop, 1);
	for (unsigned i = 0; i < n->n; i++)
		if (n->cpu[i].started) {
			pthread_join(n->cpu[i].th, NULL);
			n->cpu[i].started = false;
		}
}

void osnoise_free(struct osnoise *n)
{
	for (unsigned i = 0; i < n->n; i++)
		lat_stats_free(&n->cpu[i].samples);
	free(n->cpu);
	n->cpu = NULL;
	n->n = 0;
}
