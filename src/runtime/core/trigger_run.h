/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event triggers at event time: what the registry publishes for the writer
 * and what runs in the traced thread when a triggering event is hit. That
 * code may run inside a signal handler: no lock, no malloc, atomics only. */
#ifndef UFT_LIB_TRIGGER_H
#define UFT_LIB_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/filter/filter.h"
#include "engine/hist/hist.h"
#include "engine/trigger/trigger.h"
#include "runtime/core/buffer.h"
#include "util/atomics.h"

/* State of one event in one buffer that event time may change: allocated
 * once per event, never freed, so a trigger can point at its target. */
struct uft_evstate {
	/* The kernel's SOFT_DISABLED: the event's hook runs (for its triggers)
	 * but its records are not kept. Meaningful while the event is in soft
	 * mode (it has triggers or is the target of enable/disable_event). */
	uint32_t soft_disabled;
	/* The event's trigger list in the buffer (what its writer follows),
	 * for enable_hist/disable_hist aimed at it. */
	struct uft_trig_list *list;
};

/* The internal trigger an enabled eprobe puts on its source event
 * (kernel/trace/trace_eprobe.c): it needs the record, is never listed in
 * the trigger file, and writes the eprobe's record (ftrace/eprobe.c). */
#define UFT_TRIG_EPROBE 64

/* Writes the record of eprobe `probe` in buffer b from its source's record
 * (rec, len; comm the writer's name or NULL). ftrace/eprobe.c. */
void uft_eprobe_fire(void *probe, uint32_t b, const void *rec, uint32_t len, const char *comm);

/* An installed trigger. Replaced lists may still be read by a writer, so a
 * removed trigger is retired, never freed. */
struct uft_trig {
	int cmd; /* enum uft_trig_cmd */
	uint32_t buffer;
	uint64_t count;			 /* UFT_TRIG_UNLIMITED, or firings left */
	const struct uft_filter *filter; /* NULL: every hit */
	char *filter_text;
	struct uft_evstate *target; /* enable/disable_event, enable/disable_hist */
	const char *tsys, *tname;   /* its names (the registry's, never freed) */
	/* hist: the table, its own filter inside; lock-free for any number of
	 * writers, signal handlers included. */
	struct uft_hist *hist;
	void *eprobe; /* UFT_TRIG_EPROBE: its struct uft_dprobe */
};

/* The triggers of one event in one buffer, in install order, immutable. */
struct uft_trig_list {
	/* The kernel's TRIGGER_COND: some trigger needs the record (a filter)
	 * or runs after it (traceoff), so all run once the record is built.
	 * Otherwise all run before anything is reserved. */
	bool cond;
	bool needs_comm; /* some filter or histogram reads the thread's name */
	bool has_hist;
	uint32_t nr;
	struct uft_trig *t[];
};

/* Runs every trigger of a list that needs no record (cond false). `ra` is
 * the address the event's writer called libuft from (stack traces start
 * after it). */
void uft_trig_run_early(const struct uft_trig_list *l, void *ra);

/* The cond case: runs the triggers whose filter matches the record now,
 * except those that act after the record is committed (stacktrace,
 * snapshot, traceoff) and the snapshots hist snapshot() actions asked for,
 * which go to `post` (room for UFT_TRIG_MAX_POST). ra as for
 * uft_trig_run_early (a histogram's stack key starts after it).
 * Returns how many went there; uft_trig_run_post() runs them, traceoff
 * last. */
#define UFT_TRIG_MAX_POST 4 /* a list acts in one buffer: one snapshot of histograms */
unsigned uft_trig_run_cond(const struct uft_trig_list *l, const void *rec, uint32_t len,
			   uint64_t ts, uint32_t cpu, const char *comm, void *ra,
			   struct uft_trig **post);
void uft_trig_run_post(struct uft_trig *const *post, unsigned n, void *ra);

/* Snapshot requests: a snapshot trigger cannot copy the buffer where it
 * runs, so it leaves the time of its firing (in the buffer's ring units) and
 * a wake-up byte; the tree takes the snapshot of everything up to that time
 * (tfs_triggers.c). 0: no request. */
extern uint64_t uft_trig_snap_cut[UFT_MAX_BUFFERS];
/* A hist snapshot() action fired in the record being committed: the
 * snapshot of buffer b is asked for after the commit (post[] of
 * uft_trig_run_cond). Async-signal-safe. */
void uft_trig_hist_snapshot(uint32_t b);
/* Write end of the pipe that wakes the tree's snapshot thread, -1 if none. */
extern int uft_trig_wake_fd;

/* The inline path of an event whose global-buffer triggers are all plain
 * histograms (uft_hist_plain: no filter, time, CPU, name or action): the
 * record is written by the fast reservation, the histograms are updated on
 * it in place, then it is committed unless soft-disabled or filtered out.
 * Published, tagged with bit 0, as the event state's fast_filter, which
 * uft__fast_filter_pass() hands here; immutable, retired as a list. */
struct uft_trig_fast {
	const struct uft_filter *filter; /* the event's filter, NULL if none */
	const struct uft_evstate *st;	 /* its soft-disable flag */
	uint32_t nr;
	struct uft_hist *h[];
};

#define UFT_TRIG_FAST_TAG 1u

/* Runs the histograms of f on a record the calling thread reserved
 * through the fast path; true to keep it (not soft-disabled), then the
 * caller tests f->filter. Inside a read-side section (grace.h). */
static inline bool uft_trig_fast_run(const struct uft_trig_fast *f, const void *rec, uint32_t len)
{
	for (uint32_t i = 0; i < f->nr; i++)
		uft_hist_update_plain(f->h[i], rec, len);
	return !READ_ONCE(f->st->soft_disabled);
}

/* Asks the tree for a snapshot of buffer b up to now (signal-safe). */
void uft_trig_request_snapshot(uint32_t b);
/* The function commands dump and cpudump: tracing in buffer b stops now and
 * the tree prints the buffer up to now on stderr (tfs_triggers.c), all of it
 * or (cpu >= 0) that CPU's records. Signal-safe; 0 in the cut: no request. */
extern uint64_t uft_trig_dump_cut[UFT_MAX_BUFFERS];
extern int uft_trig_dump_cpu[UFT_MAX_BUFFERS];
extern int uft_trig_dump_busy[UFT_MAX_BUFFERS]; /* asked for, not printed yet */
void uft_trig_request_dump(uint32_t b, int cpu);
/* traceon/traceoff of buffer b, from any thread or signal handler. */
void uft_trig_set_tracing(uint32_t b, bool on);

#endif
