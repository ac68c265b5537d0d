/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Interrupt counts of one CPU from /proc/interrupts and /proc/softirqs: the
 * user-space stand-in for the kernel osnoise's interference counters (the
 * counts are per CPU, over a window, not per noise sample). */
#ifndef UFT_LATENCY_CPU_IRQS_H
#define UFT_LATENCY_CPU_IRQS_H

#include <stdint.h>
#include <stdio.h>

struct cpu_irqs {
	uint64_t nmi;  /* the NMI row */
	uint64_t irq;  /* every other row with per-CPU counts */
	uint64_t sirq; /* all softirq vectors */
};

/* Reads cpu's counts; 0, or -1 when a file is unreadable or has no column
 * for cpu (the counts are then zero). */
int cpu_irqs_read(int cpu, struct cpu_irqs *out);
/* The same from open files (for tests); either may be NULL. */
int cpu_irqs_parse(FILE *interrupts, FILE *softirqs, int cpu, struct cpu_irqs *out);

#endif
