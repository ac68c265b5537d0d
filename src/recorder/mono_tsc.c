/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CLOCK_MONOTONIC times on the rings' TSC (mono_tsc.h). */
#define _GNU_SOURCE
#include "recorder/mono_tsc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

static uint64_t mono_now(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ull + (uint64_t)t->tv_nsec;
}

#if defined(__x86_64__)
/* The tightest of a few TSC, CLOCK_MONOTONIC, TSC readings. */
static struct mono_tsc_pt tsc_sample(void)
{
	struct mono_tsc_pt best = {0};
	uint64_t width = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		struct timespec t;
		uint64_t a = __builtin_ia32_rdtsc();
		clock_gettime(CLOCK_MONOTONIC, &t);
		uint64_t b = __builtin_ia32_rdtsc();
		if (b - a < width) {
			width = b - a;
			best.tsc = a + (b - a) / 2;
			best.mono = mono_now(&t);
		}
	}
	return best;
}
#endif

void mono_tsc_sample(struct mono_tsc *m)
{
#if defined(__x86_64__)
	if (!m->on)
		return;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (m->nr_pts && mono_now(&t) < m->pts[m->nr_pts - 1].mono + 1000000)
		return;
	struct mono_tsc_pt p = tsc_sample();
	if (m->nr_pts && p.mono < m->pts[m->nr_pts - 1].mono + 1000000)
		return;
	if (!uft_array_reserve(m->pts, m->cap_pts, m->nr_pts + 1, 64))
		m->pts[m->nr_pts++] = p;
#else
	(void)m;
#endif
}

void mono_tsc_init(struct mono_tsc *m, bool on)
{
	memset(m, 0, sizeof(*m));
#if defined(__x86_64__)
	m->on = on;
#else
	(void)on; /* no TSC: the rings are on CLOCK_MONOTONIC's ns already */
#endif
	mono_tsc_sample(m);
}

void mono_tsc_cover(struct mono_tsc *m, uint64_t mono)
{
	if (m->on && (!m->nr_pts || mono >= m->pts[m->nr_pts - 1].mono))
		mono_tsc_sample(m);
}

/* The TSC at CLOCK_MONOTONIC time `mono`: on the line through the readings
 * around it (the nearest two at the ends), or with the rate of f when there
 * is one reading. */
static uint64_t to_tsc(const struct mono_tsc *m, const struct uft_ring_clock *f, uint64_t mono)
{
	const struct mono_tsc_pt *p = m->pts;
	size_t n = m->nr_pts;
	if (n >= 2) {
		size_t lo = 0, hi = n - 1; /* p[lo].mono <= mono < p[hi].mono, clamped */
		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;
			if (p[mid].mono <= mono)
				lo = mid;
			else
				hi = mid;
		}
		double rate =
		    (double)(p[lo + 1].tsc - p[lo].tsc) / (double)(p[lo + 1].mono - p[lo].mono);
		double d = ((double)mono - (double)p[lo].mono) * rate;
		return (uint64_t)((double)p[lo].tsc + d);
	}
	double rate = (double)((uint64_t)1 << f->shift) / (double)f->mult;
	return (uint64_t)((double)p[0].tsc + ((double)mono - (double)p[0].mono) * rate);
}

bool mono_tsc_ready(const struct mono_tsc *m, const struct collect *c)
{
	return !m->on || c->rclk.mult != 0;
}

uint64_t mono_tsc_ns(const struct mono_tsc *m, const struct collect *c, uint64_t mono)
{
	if (!m->on || !m->nr_pts)
		return mono;
	if (c->file_clock == COLLECT_CLOCK_TSC && c->fclk.mult)
		return collect_ts_to_ns(c, to_tsc(m, &c->fclk, mono));
	/* a file in ns (a process tracer's record came first and fixed it):
	 * the rings' times are their own conversions' ns, so these go
	 * through the first ring's */
	if (c->rclk.mult)
		return uft_ring_clock_time(&c->rclk, to_tsc(m, &c->rclk, mono));
	return mono;
}

void mono_tsc_free(struct mono_tsc *m)
{
	free(m->pts);
	memset(m, 0, sizeof(*m));
}
