/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Collecting events out of traced processes' shared regions into per-CPU,
 * time-ordered streams, with event ids made global across processes, and
 * writing them as a trace.dat file. Used by `uft record`. Events are packed
 * into file pages as they are drained and streamed to a spool file
 * (collect_pages.c): memory does not grow with the recording. */
#ifndef UFT_COLLECT_H
#define UFT_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "recorder/shm_check.h"
#include "wire/page.h"
#include "wire/ring_reader.h"
#include "wire/shm_layout.h"

struct tracedat_writer;

/* One ring's events on one CPU, in time order, packed into file pages: the
 * full ones in the spool (their offsets here), the open one in memory. */
struct collect_seg {
	uint64_t first_ts, last_ts;
	uint64_t events;
	uint64_t order;	 /* creation order: breaks ties between segments */
	uint64_t *pages; /* byte offsets in the spool */
	size_t nr_pages, cap;
	uint32_t page_size; /* the file's page size when it was opened */
	int cpu;
	uint8_t *page; /* the open page (NULL once closed) */
	struct uft_page_builder b;
	uint64_t pending_missed;
};

/* A run of the spool that pages are appended to through a buffer. */
struct collect_region {
	uint8_t *buf;  /* NULL until its first page */
	size_t used;   /* bytes in buf */
	uint64_t base; /* where the region starts in the spool */
	uint64_t len;  /* bytes written from base */
};

struct collect_ring {
	uint64_t off;		    /* ring offset in the region */
	struct uft_ring_cursor cur; /* its geometry: checked when first seen */
	uint64_t attributed;	    /* losses passed on with a delivered event */
	struct collect_seg *seg;    /* the segment of its last event */
	struct collect_seg **segs;  /* its open segments, one per CPU seen */
	size_t nr_segs, segs_cap;
	bool retired; /* drained after its thread exited and handed back */
	bool bad;     /* failed a check: never read again */
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
	uint64_t syms_scanned; /* CLOCK_MONOTONIC ns of the last maps scan */
	struct collect_ring *rings;
	uint32_t nr_rings;
	char comm[16];
};

struct collect_cpu {
	struct collect_seg **segs; /* the CPU's segments, owned here */
	size_t nr_segs, segs_cap;
	uint64_t total;	   /* events collected */
	uint64_t bytes;	   /* their payload bytes */
	uint64_t first_ts; /* oldest and newest timestamps */
	uint64_t last_ts;
	uint64_t overrun; /* events lost to overwrite, attributed here */
	uint64_t dropped; /* discard-mode drops, attributed to the ring's last CPU */
	uint64_t lost;	  /* events that could not be written at all */
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
	/* Block mode: full rings a writer waited on, and waits that ran out. */
	uint64_t block_waits;
	uint64_t block_timeouts;
};

struct collect {
	struct collect_proc **procs;
	size_t nr_procs;
	struct collect_cpu *cpus;
	int nr_cpus;
	uint64_t seq; /* segments opened */
	/* The spool: full pages of every segment, appended through a buffer. */
	const char *spool_path; /* a file on the output's file system (NULL: /tmp) */
	int spool_fd;		/* -1 until the first page */
	int spool_rd;		/* the spool, once the writer owns it */
	int spool_direct;	/* the spool opened again with O_DIRECT, or -1 */
	/* A region of the spool per CPU that can exist, then one for pages
	 * that do not fit theirs (collect_pages.c); one region for all when
	 * the file system cannot hold a file that large. */
	struct collect_region *regions;
	uint32_t nr_regions;
	uint64_t region_size; /* 0: one region */
	uint32_t room_region; /* where collect_spool_room last gave room */
	uint8_t *scratch;     /* a page, for a page copied into the spool's buffer
				 that must wait for its segment's open page */
	int io_error;	      /* the first failure to spool (-errno): the file is not written */
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
	/* The largest sub-buffer of any ring read: the trace.dat page size, so
	 * every record a ring held fits a page (0 until a ring is read). */
	uint32_t page_size;
	/* The file's time units, fixed by the first ring read: that ring's raw
	 * TSC cycles when it has them (the file says how to convert, TSC2NSEC
	 * and OFFSET options, so its pages are taken as they are), else the
	 * clock's ns. Other rings' times are converted into them. */
	int file_clock; /* COLLECT_CLOCK_* */
	struct uft_ring_clock fclk;
	/* The first TSC ring's conversion, whatever the file's units (the
	 * kernel's events are put on it: kernel_source.c). */
	struct uft_ring_clock rclk;
	uint64_t split_gap; /* a segment's pause limit (200 us) in file units */
	/* Set: each event goes to sink as it is read, with its global event
	 * id, instead of being held for a file (uft stream). Counted the same. */
	int (*sink)(void *ctx, uint32_t cpu, uint64_t ts, uint16_t id, const void *data,
		    uint32_t len, uint64_t missed);
	void *sink_ctx;
};

enum { COLLECT_CLOCK_UNSET, COLLECT_CLOCK_TSC, COLLECT_CLOCK_NS };

void collect_init(struct collect *c);
/* A time in ns of the recording's clock in the file's units (what
 * collect_seg_add takes), and back. */
uint64_t collect_ts_from_ns(struct collect *c, uint64_t ns);
uint64_t collect_ts_to_ns(const struct collect *c, uint64_t ts);
/* Counts one event stored for CPU s at ts (file units): the CPU's stats and
 * the summary's `recorded`. */
void collect_count_stored(struct collect *c, struct collect_cpu *s, uint64_t ts, uint32_t len);
void collect_free(struct collect *c);
/* Maps a region received from a process after checking it (a refusal is
 * counted in c->refused); 0 or -errno. */
int collect_add_proc(struct collect *c, pid_t pid, int memfd, int conn, const char *comm);
/* Imports new formats and events of one process (`final`: the process is
 * gone, read the last partial pages and account its rings). */
void collect_drain(struct collect *c, struct collect_proc *p, bool final);
/* Whether an -e spec names any event the traced processes defined. */
bool collect_spec_matches(const struct collect *c, const char *spec);
/* collect_pages.c: a segment for events of CPU `cpu` (owned by `cs`); an
 * event appended to it (0; 1 if no page holds it; or -errno); its open page
 * written out; and, at the end, every segment closed and the spool handed
 * to the writer, then each CPU's pages added in time order. */
struct collect_seg *collect_seg_new(struct collect *c, struct collect_cpu *cs, int cpu);
int collect_seg_add(struct collect *c, struct collect_seg *s, uint64_t ts, const void *data,
		    uint32_t len, uint64_t missed);
int collect_seg_close(struct collect *c, struct collect_seg *s);
/* A ring page taken whole (`page`, `size` bytes, `commit` data bytes, `n`
 * records from `first` to `last`, its ids already global, `missed` lost
 * before it): the segment's open page is written out, then this one. */
int collect_seg_add_page(struct collect *c, struct collect_seg *s, uint8_t *page, uint32_t size,
			 uint32_t commit, uint64_t missed, uint64_t first, uint64_t last,
			 uint64_t n);
/* Where the spool's next page of `cpu` goes in its buffer (room for
 * c->page_size bytes): a ring page copied there and added with
 * collect_seg_add_page to a segment of that CPU is not copied again. NULL
 * on failure. */
uint8_t *collect_spool_room(struct collect *c, int cpu);
/* `page` itself, or a copy of it when it lies where the spool's next page
 * goes (before anything else is spooled); NULL if no copy can be made. */
uint8_t *collect_spool_unplace(struct collect *c, uint8_t *page, uint32_t size);
void collect_seg_free(struct collect_seg *s);
int collect_pages_done(struct collect *c, struct tracedat_writer *w);
int collect_write_cpu_pages(struct collect *c, struct tracedat_writer *w, int cpu,
			    uint32_t page_size);
/* For collect_local.c (a source that is not a process): a format's global
 * id, as a process's would get; a pid's comm; CPU `cpu`'s stream. */
uint16_t collect_global_id(struct collect *c, const char *system, const char *text, size_t len,
			   uint16_t local);
void collect_set_comm(struct collect *c, int pid, const char *comm);
struct collect_cpu *collect_cpu_stream(struct collect *c, uint32_t cpu);
/* Writes everything collected as trace.dat; 0 or -errno. */
int collect_write(struct collect *c, const char *path, uint64_t *file_size);

#endif
