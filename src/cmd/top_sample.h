/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `uft top` samples of running traced processes, once per interval.
 *
 * Counting consumes nothing and changes nothing in the process: its shared
 * region (the memfd named uft-PID) is mapped read-only through
 * /proc/PID/fd, each thread ring's writer sequence (uft_ring_written: exact,
 * one page copied) gives the events per thread, and the records still in the
 * rings, peeked as the `trace` file reads them, give the events per event and
 * the functions the function tracers enter. The tree is read through the
 * control socket for the tracer's name, the function profiler's
 * trace_stat/functionN and the hist files of enabled events with a hist
 * trigger (design/recording.md, "uft top"). */
#ifndef UFT_TOP_SAMPLE_H
#define UFT_TOP_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "client/live.h"
#include "recorder/proc_syms.h"
#include "recorder/shm_check.h"
#include "tracedat/kallsyms.h"

struct top_row {
	char *name;	       /* SYSTEM:EVENT, a thread's comm, a function */
	int pid, tid;	       /* thread rows */
	uint64_t delta, total; /* in the last interval, since top began */
	uint64_t time_ns;      /* function rows of the profiler: time spent in them */
};

struct top_table {
	struct top_row *v;
	size_t n, cap;
};

/* Loss counters of a process, summed over its buffers and rings as the
 * tree's per_cpu/cpuN/stats sums them. */
struct top_loss {
	uint64_t overrun;  /* overwritten before read (overwrite mode) */
	uint64_t dropped;  /* refused on a full buffer (discard mode), or no ring */
	uint64_t lost;	   /* unwritable: nesting too deep, record too large */
	uint64_t waits;	   /* block mode: a writer waited for the recorder */
	uint64_t timeouts; /* ... and the wait ran out */
};

struct top_ring;
struct top_prof;

struct top_proc {
	pid_t pid;
	char comm[17];
	struct live l;
	/* The region, read-only; region_err says why not when it is not. */
	bool have_region;
	char region_err[160];
	struct shm_region reg;
	struct top_ring *rings;
	size_t nr_rings;
	int32_t *id_row; /* event id -> events row + 1 */
	/* Function addresses -> functions row + 1 (open addressing). */
	uint64_t *fa_addr;
	int32_t *fa_row;
	size_t fa_cap, fa_n;
	struct proc_syms *syms;
	struct uft_ksyms ks;
	bool syms_scanned; /* this interval */
	struct top_prof *prof;
	size_t nr_prof, cap_prof;
	struct top_loss loss, loss_first;
	char tracer[32];
	bool tracing_on, profiling;
	char *hists; /* the hist tables of this interval's frame */
	uint64_t events_delta, events_total;
	size_t threads;
	bool exited;
	bool baseline; /* the next sample only sets the counters' start */
};

struct top {
	struct top_proc **procs;
	size_t n;
	struct top_table events, threads, funcs;
	double interval; /* seconds the last sample covered */
	unsigned frame;	 /* samples shown so far */
	bool partial;	 /* some events were overwritten or consumed unseen */
};

/* Connects to pid (0: the only traceable process) and maps its region: 0,
 * or the exit status after saying why not (2: no such traced process;
 * nothing said when quiet). */
int top_add(struct top *t, pid_t pid, bool quiet);
/* Drops process i. */
void top_remove(struct top *t, size_t i);
/* One interval's counts into the tables (deltas reset first); a process's
 * first sample after top_add only takes its counters' start. */
void top_sample(struct top *t, double interval);
/* Whether the process has exited (gone, or a zombie). */
bool top_proc_exited(const struct top_proc *p);
void top_free(struct top *t);
/* One line of trace_stat/functionN: the function's name (its first 30
 * characters, as the file prints it), its hits and total time. False for
 * the header lines and anything else. */
bool top_stat_line(const char *line, char name[31], uint64_t *hits, uint64_t *time_ns);

#endif
