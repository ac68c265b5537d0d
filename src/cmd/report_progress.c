/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cmd/report_progress.h"

#include <stdio.h>
#include <time.h>

#include "tracedat/record_iter.h"
#include "util/atomics.h"

static uint64_t pages_bytes(const struct tracedat_cpu *v, size_t n)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i].size;
	return sum;
}

static void tick(struct report_progress *rp)
{
	if (!progress_due(&rp->pr, 1.0))
		return;
	uint64_t done = READ_ONCE(record_iter_bytes);
	if (rp->extra)
		done += READ_ONCE(*rp->extra);
	uint64_t pass = done / rp->total;
	char size[32], pass_text[32] = "";
	progress_bytes(size, sizeof(size), rp->total);
	if (pass)
		snprintf(pass_text, sizeof(pass_text), ", pass %llu", (unsigned long long)pass + 1);
	progress_line(&rp->pr, "%.1f s, %.0f%% of %s%s", progress_elapsed(&rp->pr),
		      100.0 * (double)(done % rp->total) / (double)rp->total, size, pass_text);
}

static void *show(void *arg)
{
	struct report_progress *rp = arg;
	const struct timespec step = {0, 100 * 1000 * 1000};
	while (!READ_ONCE(rp->stop)) {
		nanosleep(&step, NULL);
		if (!READ_ONCE(rp->stop))
			tick(rp);
	}
	return NULL;
}

void report_progress_start(struct report_progress *rp, const struct tracedat *td, uint64_t *extra,
			   bool on)
{
	*rp = (struct report_progress){.extra = extra};
	progress_init(&rp->pr, "uft report", on);
	rp->total = pages_bytes(td->cpus, td->nr_cpu_data);
	for (size_t i = 0; i < td->nr_instances; i++)
		rp->total += pages_bytes(td->instances[i].cpus, td->instances[i].nr_cpu_data);
	if (!rp->pr.on || !rp->total)
		return;
	tick(rp); /* a line at once when no delay is asked (UFT_PROGRESS_DELAY=0) */
	rp->running = pthread_create(&rp->th, NULL, show, rp) == 0;
}

void report_progress_stop(struct report_progress *rp)
{
	if (rp->running) {
		WRITE_ONCE(rp->stop, 1);
		pthread_join(rp->th, NULL);
		rp->running = false;
	}
	progress_end(&rp->pr);
}
