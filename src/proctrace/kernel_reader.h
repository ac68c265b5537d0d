/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The raw pages of a tracefs instance: its per-CPU trace_pipe_raw files
 * opened non-blocking and read one sub-buffer at a time, each record of a
 * known kernel id copied into a merge (kernel_merge.c) under a local id. */
#ifndef UFT_PT_KERNEL_READER_H
#define UFT_PT_KERNEL_READER_H

#include <stdint.h>

#include "proctrace/kernel_backend.h"

struct pt_kreader {
	int ncpu, *fd; /* fd[c] < 0: the CPU has no file */
	uint32_t subbuf;
	uint8_t *page;
	uint64_t *missed; /* per CPU: events the kernel lost (a sub-buffer's
			   * missed count, 1 when it has none), until taken */
};

/* Opens dir's per_cpu/cpuN/trace_pipe_raw; -1 out of memory. */
int pt_kreader_open(struct pt_kreader *r, const char *dir);
/* Reads every page the kernel has for each CPU; a record whose kernel id
 * map[] turns into a non-zero local id goes into m. */
void pt_kreader_drain(struct pt_kreader *r, const uint16_t *map, struct pt_kmerge *m);
void pt_kreader_close(struct pt_kreader *r);

#endif
