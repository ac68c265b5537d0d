/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The timerlat measurement: one thread per selected CPU, pinned, woken by an
 * absolute CLOCK_MONOTONIC timer every period; its latency is the wake-up
 * time minus the time the timer was set for (the kernel timerlat's thread
 * latency, seen from user space). */
#ifndef UFT_LATENCY_TIMERLAT_H
#define UFT_LATENCY_TIMERLAT_H

#include <stdbool.h>
#include <stdint.h>

#include "latency/lat_stats.h"
#include "latency/lat_thread.h"

struct timerlat_opts {
	const uint8_t *cpus; /* byte bitmap of nbits CPUs */
	unsigned nbits;
	uint64_t period_ns;
	struct lat_sched sched;
	uint64_t stop_ns; /* a latency above it stops every thread; 0: never */
	uint32_t hist_unit_ns, hist_bucket, hist_entries; /* entries 0: no histogram */
	/* Called by the CPU's thread after each wake-up (NULL: none): the
	 * runtime's timerlat tracer writes its records there. */
	void (*sample)(void *ctx, int cpu, uint64_t lat_ns);
	/* The kernel's IRQ context, seen from user space (0: not measured): the
	 * period is a POSIX timer that sends signal irq_signo to the CPU's
	 * thread, waiting in ppoll() with it unblocked; the handler's clock read
	 * is the IRQ latency, the thread's after ppoll() returns the thread
	 * latency. irq_sample gets the former, before sample gets the latter. */
	int irq_signo;
	void (*irq_sample)(void *ctx, int cpu, uint64_t lat_ns);
	void *ctx;
};

struct timerlat_cpu {
	int cpu;
	struct lat_stats st;
	struct lat_stats irq_st; /* with irq_signo */
	struct timerlat *t;
	pthread_t th;
	bool started;
};

struct timerlat {
	struct timerlat_opts o;
	struct timerlat_cpu *cpu;
	unsigned n;
	int stop;	/* set (WRITE_ONCE) to end the threads */
	int stop_cpu;	/* the CPU whose latency crossed stop_ns, or -1 */
	bool fell_back; /* the policy was refused: default policy instead */
};

/* The IRQ context for a thread of the caller's (the tree's timerlat_fd
 * readers): timerlat_irq_install() sets the handler of signo once, then
 * timerlat_irq_wait() arms a timer sending it to the calling thread for
 * next (CLOCK_MONOTONIC ns) and waits as the engine's threads do: 0 with the
 * handler's clock read in *irq_ns, or a negative errno (-ETIMEDOUT: no
 * handler ran within a second past next). */
int timerlat_irq_install(int signo);
int timerlat_irq_wait(int signo, uint64_t next, uint64_t *irq_ns);

/* Starts the threads; 0, or a negative errno with nothing left running. */
int timerlat_start(struct timerlat *t, const struct timerlat_opts *o);
/* Whether a threshold stopped it (t->stop_cpu says where). */
bool timerlat_stopped(const struct timerlat *t);
/* Ends and joins the threads; the statistics are then exact. */
void timerlat_stop(struct timerlat *t);
void timerlat_free(struct timerlat *t);

#endif
