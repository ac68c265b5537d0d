/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The osnoise measurement: one thread per selected CPU, pinned, reads the
 * clock in a loop for runtime of every period; each gap above the
 * threshold is noise (osn_detect.h). Per CPU it sums the periods as rtla
 * osnoise top shows them, and counts the CPU's interrupts (cpu_irqs.h) and
 * the thread's involuntary switches over each runtime window. */
#ifndef UFT_LATENCY_OSNOISE_H
#define UFT_LATENCY_OSNOISE_H

#include <stdbool.h>
#include <stdint.h>

#include "latency/cpu_irqs.h"
#include "latency/lat_stats.h"
#include "latency/lat_thread.h"

struct osnoise_period;

struct osnoise_opts {
	const uint8_t *cpus; /* byte bitmap of nbits CPUs */
	unsigned nbits;
	uint64_t period_ns, runtime_ns; /* runtime <= period */
	uint64_t thresh_ns;		/* 0: 1 µs, the kernel's default */
	struct lat_sched sched;
	uint64_t stop_ns;	/* one noise sample above it stops; 0: never */
	uint64_t stop_total_ns; /* a period's total noise above it stops; 0: never */
	uint32_t hist_unit_ns, hist_bucket, hist_entries; /* of noise samples; 0: none */
	bool no_irq_counts; /* leave /proc out (its reads cost a few µs a period) */
	/* Called by the CPU's thread at the end of each period (NULL: none):
	 * the runtime's osnoise tracer writes its records there. */
	void (*period)(void *ctx, int cpu, const struct osnoise_period *p);
	/* Called by the CPU's thread after each noise sample (NULL: none), with
	 * the gap's start (CLOCK_MONOTONIC ns), its length and the thread's
	 * involuntary switches since the previous sample, which can only have
	 * happened inside a gap (the loop makes no system call). The time the
	 * call takes is not noise: the next gap starts after it. */
	void (*noise)(void *ctx, int cpu, uint64_t start_ns, uint64_t gap_ns, uint64_t switches);
	void *ctx;
};

/* One period, as the kernel's osnoise record holds it (ns). */
struct osnoise_period {
	uint64_t runtime, noise, max_single, count;
	uint64_t nmi, irq, sirq, thread;
	bool irq_known;
};

/* The sums over the periods ended so far (written by the CPU's thread). */
struct osnoise_sum {
	uint64_t periods, runtime, noise, max_noise, max_single, count;
	uint64_t nmi, irq, sirq, thread;
	bool irq_known; /* /proc/interrupts had a column for the CPU */
};

struct osnoise_cpu {
	int cpu;
	struct osnoise_sum sum;
	struct lat_stats samples; /* every noise sample */
	struct osnoise *o;
	pthread_t th;
	bool started;
};

struct osnoise {
	struct osnoise_opts o;
	struct osnoise_cpu *cpu;
	unsigned n;
	int stop;
	int stop_cpu; /* the CPU that crossed a stop threshold, or -1 */
	bool fell_back;
};

int osnoise_start(struct osnoise *n, const struct osnoise_opts *o);
bool osnoise_stopped(const struct osnoise *n);
void osnoise_stop(struct osnoise *n);
void osnoise_free(struct osnoise *n);

#endif
