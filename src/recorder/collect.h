/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Collecting events out of traced processes' shared regions into per-CPU,
 * time-ordered streams, with event ids made global across processes, and
 * writing them as a trace.dat file. Used by `uft record`. */
#ifndef UFT_COLLECT_H
#define UFT_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "recorder/shm_check.h"
#include "wire/ring_reader.h"
#include "wire/shm_layout.h"

struct collect_ring {
	uint64_t off;		    /* ring offset in the region */
	struct uft_ring_cursor cur; /* its geometry: checked when first seen */
	uint64_t attributed;	    /* losses passed on with a delivered event */
	bool retired;		    /* drained after its thread exited and handed back */
	bool bad;		    /* failed a check: never read again */
};

struct collect_proc {
	pid_t pid;
	int conn; /* record socket connection, -1 once closed */
	struct uft_shm_header *hdr;
	size_t map_len;
	struct shm_region reg; /* the header as checked (shm_check.h) */
	bool formats_bad;      /* the formats area failed a check: read no more */
	uint64_t formats_seen; /* bytes of the formats area already imported */
	uint16_t *id_map;      /* local id -> global id (0 = unknown) */
	struct collect_ring *rings;
	uint32_t nr_rings;
	char comm[16];
};

struct collect_event {
	uint64_t ts;
	uint64_t seq; /* arrival order: keeps equal timestamps stable */
	uint64_t data_off;
	uint32_t len;
	uint32_t missed_before;
};

/* A sorted run of one CPU's events spilled to its temporary file. */
struct collect_run {
	uint64_t off;
	uint64_t count;
};

struct collect_cpu {
	struct collect_event *ev; /* events held in memory (payloads in the arena) */
	size_t nr, cap;
	uint64_t total;	   /* events collected, spilled ones included */
	uint64_t bytes;	   /* their payload bytes */
	uint64_t first_ts; /* oldest and newest timestamps */
	uint64_t last_ts;
	uint64_t overrun; /* events lost to overwrite, attributed here */
	uint64_t dropped; /* discard-mode drops, attributed to the ring's last CPU */
	uint64_t lost;	  /* events that could not be written at all */
	int spill_fd;	  /* -1 until the first spill */
	uint64_t spill_len;
	struct collect_run *runs;
	size_t nr_runs;
};

struct collect_format {
	char *system;
	char *name;
	char *body; /* format text after the ID line */
	uint16_t id;
};

struct collect_totals {
	uint64_t written;
	uint64_t recorded;
	uint64_t overrun;
	uint64_t dropped;
	uint64_t lost;
};

struct collect {
	struct collect_proc **procs;
	size_t nr_procs;
	struct collect_cpu *cpus;
	int nr_cpus;
	char *arena;
	size_t arena_len, arena_cap;
	uint64_t seq;
	struct collect_format *formats;
	size_t nr_formats;
	struct {
		int pid;
		char comm[16];
	} * comms;
	size_t nr_comms;
	struct collect_totals totals;
	/* What a traced process's memory held that failed a check, by reason. */
	uint64_t refused[SHM_DROP_NR];
	uint32_t max_cpus; /* CPUs that can exist: an event on another is refused */
	int clock_id;
	/* "zstd" or "zlib": a compressed version 7 file; NULL or "none": version 6. */
	const char *compression;
	/* Function symbols of the traced processes, for kallsyms (NULL: only
	 * the marker's symbol is written). */
	struct proc_syms *syms;
	/* Memory for held events before they are sorted and spilled to disk, so
	 * a long recording needs disk, not memory (UFT_RECORD_SPILL_MB). */
	size_t spill_limit;
	/* The largest sub-buffer of any ring read: the trace.dat page size, so
	 * every record a ring held fits a page (0 until a ring is read). */
	uint32_t page_size;
	/* Set: each event goes to sink as it is read, with its global event
	 * id, instead of being held for a file (uft stream). Counted the same. */
	int (*sink)(void *ctx, uint32_t cpu, uint64_t ts, uint16_t id, const void *data,
		    uint32_t len, uint64_t missed);
	void *sink_ctx;
};

void collect_init(struct collect *c);
void collect_free(struct collect *c);
/* Maps a region received from a process after checking it (a refusal is
 * counted in c->refused); 0 or -errno. */
int collect_add_proc(struct collect *c, pid_t pid, int memfd, int conn, const char *comm);
/* Imports new formats and events of one process (`final`: the process is
 * gone, read the last partial pages and account its rings). */
void collect_drain(struct collect *c, struct collect_proc *p, bool final);
/* Whether an -e spec names any event the traced processes defined. */
bool collect_spec_matches(const struct collect *c, const char *spec);
/* Sorts the held events of every CPU and appends them to its spill file as a
 * run; 0 or -errno. (collect_spill.c) */
int collect_spill(struct collect *c);
/* Feeds one CPU's events in time order to `fn`, from memory or merged from
 * its spilled runs; stops at the first non-zero return. */
int collect_each_event(struct collect *c, int cpu,
		       int (*fn)(void *ctx, const struct collect_event *e, const void *data),
		       void *ctx);
/* Writes everything collected as trace.dat; 0 or -errno. */
int collect_write(struct collect *c, const char *path, uint64_t *file_size);

#endif
