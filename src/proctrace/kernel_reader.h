/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The raw pages of a tracefs instance: its per-CPU trace_pipe_raw files
 * opened non-blocking and read one sub-buffer at a time, each record of a
 * known kernel id copied into a merge (kernel_merge.c) under a local id.
 * The kernel's losses are counted here for both of its users (the process
 * tracer's kernel backend and the recorder's kernel source): a sub-buffer's
 * missed-events count as the pages are read, and at the end what the
 * instance's per_cpu/cpuN/stats count beyond them. */
#ifndef UFT_PT_KERNEL_READER_H
#define UFT_PT_KERNEL_READER_H

#include <stdint.h>

#include "proctrace/kernel_backend.h"

struct pt_kreader {
	char dir[512];
	int ncpu, *fd; /* fd[c] < 0: the CPU has no file */
	uint32_t subbuf;
	uint8_t *page;
	uint64_t *missed;  /* per CPU: events lost, not yet taken */
	uint64_t *counted; /* per CPU: every event counted lost so far */
};

/* Opens dir's per_cpu/cpuN/trace_pipe_raw; -1 out of memory. */
int pt_kreader_open(struct pt_kreader *r, const char *dir);
/* Reads every page the kernel has for each CPU; a record whose kernel id
 * map[] turns into a non-zero local id goes into m. A page the kernel
 * overwrote others before counts its missed events (1 when it has no
 * count). */
void pt_kreader_drain(struct pt_kreader *r, const uint16_t *map, struct pt_kmerge *m);
/* At the end, after the last drain: what the instance's stats count as lost
 * (overrun, commit overrun, dropped) beyond what the pages said. */
void pt_kreader_stats(struct pt_kreader *r);
/* The events of `cpu` counted lost since the last take. */
uint64_t pt_kreader_take_lost(struct pt_kreader *r, int cpu);
void pt_kreader_close(struct pt_kreader *r);

#endif
