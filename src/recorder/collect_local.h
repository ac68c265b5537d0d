/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A pseudo-source of the collector: events the recorder makes itself (the
 * process tracer's) rather than reads from a traced process's rings. Its
 * formats get global ids as a process's do, and each record goes into a
 * per-CPU segment of its own (or to the collector's sink), so the file's
 * pages merge it with the processes' events by time. Records must come in
 * time order per CPU. */
#ifndef UFT_COLLECT_LOCAL_H
#define UFT_COLLECT_LOCAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "recorder/collect.h"

struct collect_local {
	struct collect *c;
	uint16_t *id_map;	   /* local id -> global id (0 = unknown) */
	struct collect_seg **segs; /* the open segment per CPU, NULL: none */
	uint32_t nr_segs;
	uint64_t stored; /* records kept */
	uint64_t lost;	 /* records that could not be stored */
};

int collect_local_init(struct collect_local *l, struct collect *c);
/* Registers a format text ("name: ...\nID: N\nformat:...") of local id
 * `id` in `system`: 0, or -1 when the text does not parse or no id is left. */
int collect_local_format(struct collect_local *l, uint16_t id, const char *system, const char *text,
			 size_t len);
/* Stores one record (struct uft_common_entry first, common_type a local
 * id; rewritten to the global id). 0 when kept, 1 when it was counted lost
 * (unknown id, a CPU that cannot exist, no page holds it), -errno on a
 * failure to spool (also kept in c->io_error). */
int collect_local_put(struct collect_local *l, uint32_t cpu, uint64_t ts, void *record,
		      uint32_t len);
/* n events of `cpu` lost before they reached the recorder (the kernel
 * overwrote them): counted as written and overrun, as a ring's. */
void collect_local_overrun(struct collect_local *l, uint32_t cpu, uint64_t n);
/* A thread's comm for the file's cmdlines. */
void collect_local_comm(struct collect_local *l, pid_t pid, const char *comm);
/* No more records: the open pages go to the spool. */
void collect_local_close(struct collect_local *l);
void collect_local_free(struct collect_local *l);

#endif
