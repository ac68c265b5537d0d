/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd/record_summary.h"
#include "wire/shm_layout.h"

/* libuft's ring size per thread when -b is not given (KiB). */
#define DEFAULT_BUFFER_KB 1024

void record_print_summary(const struct collect *c, const char *path, uint64_t size)
{
	for (int i = 0; i < c->nr_cpus; i++) {
		const struct collect_cpu *s = &c->cpus[i];
		printf("CPU%d: %llu events, %llu overrun, %llu dropped", i,
		       (unsigned long long)s->total, (unsigned long long)s->overrun,
		       (unsigned long long)s->dropped);
		if (s->lost)
			printf(", %llu lost", (unsigned long long)s->lost);
		printf("\n");
	}
	const struct collect_totals *t = &c->totals;
	printf("total: %llu events written, %llu recorded, %llu overrun, %llu dropped",
	       (unsigned long long)t->written, (unsigned long long)t->recorded,
	       (unsigned long long)t->overrun, (unsigned long long)t->dropped);
	if (t->lost)
		printf(", %llu lost", (unsigned long long)t->lost);
	/* Processes that handed over their rings; the process tracer's are
	 * counted in its own line. */
	if (t->block_waits)
		printf("\nwaits: %llu for the recorder on a full buffer, %llu of them ran out",
		       (unsigned long long)t->block_waits, (unsigned long long)t->block_timeouts);
	printf("\n%s: %llu bytes", path, (unsigned long long)size);
	if (c->nr_procs)
		printf(", %zu process%s", c->nr_procs, c->nr_procs == 1 ? "" : "es");
	printf("\n");
}

void record_print_refused(const char *name, const struct collect *c)
{
	for (int i = 0; i < SHM_DROP_NR; i++)
		if (c->refused[i])
			fprintf(stderr, "%s: dropped from traced memory: %llu %s\n", name,
				(unsigned long long)c->refused[i], shm_drop_name((enum shm_drop)i));
}

struct record_loss record_loss(const struct collect *c)
{
	const struct collect_totals *t = &c->totals;
	/* written counts what was overrun; a dropped event was never written. */
	struct record_loss l = {.attempted = t->written + t->dropped,
				.missing = t->overrun + t->dropped + t->lost};
	l.pct = l.attempted ? 100.0 * (double)l.missing / (double)l.attempted : 0;
	return l;
}

void record_print_loss(const char *name, const struct collect *c, long buffer_kb, const char *mode)
{
	bool discard = mode && strcmp(mode, "discard") == 0;
	bool overwrite = !mode || strcmp(mode, "overwrite") == 0; /* stream's default */
	struct record_loss l = record_loss(c);
	if (!l.missing)
		return;
	const struct collect_totals *t = &c->totals;
	long kb = buffer_kb ? buffer_kb : DEFAULT_BUFFER_KB;
	/* A ring that held what was recorded, times what was asked: the next
	 * power of two, within what a ring can be. */
	double want = (double)kb * (double)l.attempted /
		      (double)(l.attempted > l.missing ? l.attempted - l.missing : 1);
	long max_kb = (long)UFT_SHM_MAX_RING_PAGES * (UFT_SUBBUF_SIZE / 1024);
	long more = kb * 2;
	while (more < want && more < max_kb)
		more *= 2;
	if (more > max_kb)
		more = max_kb;
	fprintf(stderr, "%s: lost %llu of %llu events (%.1f%%)", name,
		(unsigned long long)l.missing, (unsigned long long)l.attempted, l.pct);
	if (t->overrun)
		fprintf(stderr, "; %llu overwritten before they were read",
			(unsigned long long)t->overrun);
	if (t->dropped)
		fprintf(stderr, "; %llu dropped on a full buffer", (unsigned long long)t->dropped);
	if (t->lost)
		fprintf(stderr, "; %llu unreadable", (unsigned long long)t->lost);
	fprintf(stderr, "\n");
	if (t->overrun || t->dropped)
		fprintf(stderr,
			"%s: to keep them: a larger buffer per thread (-b %ld; it was %ld "
			"KiB), fewer events (-e, -f; -l, -n or --max-graph-depth for the function "
			"tracers)%s%s\n",
			name, more, kb,
			t->overrun && overwrite
			    ? ", -M block to have a thread wait for the recorder "
			      "on a full buffer"
			    : "",
			t->overrun && !discard ? ", or -M discard to keep the first events instead "
						 "of the last"
					       : "");
}
