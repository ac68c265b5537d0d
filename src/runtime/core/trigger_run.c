/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Triggers firing in the traced thread. Everything here is async-signal-safe:
 * atomics on the trigger's count and on buffer and event flags, the stack
 * trace's own write, and histogram updates, which neither allocate nor wait.
 * Counts follow the kernel: a counted trigger spends a firing only when it
 * acts (traceon while tracing is off, ...). */
#include <errno.h>
#include <unistd.h>

#include "engine/hist/hist.h"
#include "runtime/core/trace_clock.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/trigger_run.h"
#include "util/atomics.h"

uint64_t uft_trig_snap_cut[UFT_MAX_BUFFERS];
uint64_t uft_trig_dump_cut[UFT_MAX_BUFFERS];
int uft_trig_dump_cpu[UFT_MAX_BUFFERS];
int uft_trig_dump_busy[UFT_MAX_BUFFERS];
int uft_trig_wake_fd = -1;

/* Spends one firing; false when none is left. */
static bool take_count(struct uft_trig *t)
{
	uint64_t c = READ_ONCE(t->count);
	for (;;) {
		if (c == 0)
			return false;
		if (c == UFT_TRIG_UNLIMITED)
			return true;
		if (uft_try_cmpxchg_relaxed(&t->count, &c, c - 1))
			return true;
	}
}

void uft_trig_set_tracing(uint32_t b, bool on)
{
	uft_store_seq_cst(&uft_buffers[b].on, on);
	if (b == 0)
		uft_buffer_update_fast();
}

/* Leaves a request for the tree: the time up to which it applies (now) in
 * `cut`, then a wake-up byte. The latest request wins: its time only moves
 * forward. */
static void request(uint32_t b, uint64_t *cut)
{
	uint64_t now = uft_buffer_now(&uft_buffers[b]);
	uint64_t mine = uft_writer_last_ts(b);
	if (mine > now)
		now = mine; /* this thread's clock, read on another CPU, ran ahead */
	uint64_t old = READ_ONCE(*cut);
	if (now == 0)
		now = 1; /* 0 means "no request" */
	while (old < now && !uft_try_cmpxchg_release(cut, &old, now))
		;
	int fd = smp_load_acquire(&uft_trig_wake_fd);
	if (fd >= 0) {
		int saved = errno;
		ssize_t w = write(fd, "s", 1); /* non-blocking; a full pipe wakes it anyway */
		(void)w;
		errno = saved;
	}
}

void uft_trig_request_snapshot(uint32_t b)
{
	request(b, &uft_trig_snap_cut[b]);
}

void uft_trig_request_dump(uint32_t b, int cpu)
{
	uft_trig_set_tracing(b, false); /* as the kernel's dump: it stays off */
	/* One dump at a time, as in the kernel: another asked for before the
	 * tree printed the first is dropped. */
	if (uft_xchg(&uft_trig_dump_busy[b], 1))
		return;
	WRITE_ONCE(uft_trig_dump_cpu[b], cpu);
	request(b, &uft_trig_dump_cut[b]);
}

static void run_one(struct uft_trig *t, void *ra)
{
	const struct uft_buffer *b = &uft_buffers[t->buffer];
	switch (t->cmd) {
	case UFT_TRIG_TRACEON:
	case UFT_TRIG_TRACEOFF: {
		bool on = t->cmd == UFT_TRIG_TRACEON;
		if (!READ_ONCE(b->on) == !on || !take_count(t))
			return;
		uft_trig_set_tracing(t->buffer, on);
		return;
	}
	case UFT_TRIG_ENABLE_EVENT:
	case UFT_TRIG_DISABLE_EVENT: {
		bool enable = t->cmd == UFT_TRIG_ENABLE_EVENT;
		uint32_t sd = READ_ONCE(t->target->soft_disabled);
		if (enable == !sd || !take_count(t))
			return;
		WRITE_ONCE(t->target->soft_disabled, !enable);
		return;
	}
	case UFT_TRIG_ENABLE_HIST:
	case UFT_TRIG_DISABLE_HIST: {
		/* Every firing counts, as the kernel's: the target's hist
		 * triggers are resumed or paused whatever their state. */
		if (!take_count(t))
			return;
		const struct uft_trig_list *l = smp_load_acquire(&t->target->list);
		for (uint32_t i = 0; l && i < l->nr; i++)
			if (l->t[i]->hist)
				uft_hist_set_paused(l->t[i]->hist, t->cmd == UFT_TRIG_DISABLE_HIST);
		return;
	}
	case UFT_TRIG_SNAPSHOT:
		if (take_count(t))
			uft_trig_request_snapshot(t->buffer);
		return;
	case UFT_TRIG_STACKTRACE:
		if (take_count(t))
			uft_stack_record(t->buffer, ra);
		return;
	}
}

void uft_trig_run_early(const struct uft_trig_list *l, void *ra)
{
	for (uint32_t i = 0; i < l->nr; i++)
		run_one(l->t[i], ra);
}

/* snapshot() actions of histograms fired by the record being committed
 * (bit per buffer): taken after the commit, as a snapshot trigger, so the
 * record is in the snapshot. Saved and restored around each record's
 * triggers, so a signal handler's record keeps its own. */
static __thread uint32_t hist_snaps __attribute__((tls_model("initial-exec")));
/* What post[] holds for them: an unlimited snapshot trigger per buffer. */
static struct uft_trig hist_snap_post[UFT_MAX_BUFFERS] = {
    [0 ... UFT_MAX_BUFFERS - 1] = {.cmd = UFT_TRIG_SNAPSHOT, .count = UFT_TRIG_UNLIMITED}};

static __attribute__((constructor)) void hist_snap_init(void)
{
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
		hist_snap_post[b].buffer = b;
}

void uft_trig_hist_snapshot(uint32_t b)
{
	if (b < UFT_MAX_BUFFERS)
		hist_snaps |= 1u << b;
}

/* The writer of the record a histogram takes: its name and, for a stack
 * key, where its own frames end. */
struct writer_ctx {
	const char *comm;
	void *ra;
};

static const char *own_comm(void *ctx, int pid)
{
	(void)pid; /* a live record's pid is always the writing thread's */
	return ((const struct writer_ctx *)ctx)->comm;
}

static uint32_t own_stack(void *ctx, uint64_t *pcs, uint32_t max)
{
	return uft_stack_capture(((const struct writer_ctx *)ctx)->ra, pcs, max);
}

/* One record into a histogram: the table takes any number of writers
 * without a lock (src/engine/hist/hist_map.c). */
static void run_hist(struct uft_trig *t, const void *rec, uint32_t len, uint64_t ts, uint32_t cpu,
		     const char *comm, void *ra)
{
	struct writer_ctx w = {comm, ra};
	struct uft_hist_comm c = {own_comm, &w, own_stack};
	/* common_timestamp in nanoseconds, the rings' raw TSC converted */
	if (uft_buffer_raw_tsc(&uft_buffers[t->buffer]))
		ts = uft_tsc_to_ns(ts);
	uft_hist_update(t->hist, rec, len, ts, cpu, &c);
}

unsigned uft_trig_run_cond(const struct uft_trig_list *l, const void *rec, uint32_t len,
			   uint64_t ts, uint32_t cpu, const char *comm, void *ra,
			   struct uft_trig **post)
{
	unsigned n = 0;
	uint32_t outer = hist_snaps;
	hist_snaps = 0;
	for (uint32_t i = 0; i < l->nr; i++) {
		struct uft_trig *t = l->t[i];
		if (t->cmd == UFT_TRIG_HIST) {
			run_hist(t, rec, len, ts, cpu, comm, ra);
			continue;
		}
		if (t->filter && !uft_filter_match(t->filter, rec, len, cpu, comm))
			continue;
		if (t->cmd == UFT_TRIG_EPROBE) {
			uft_eprobe_fire(t->eprobe, t->buffer, rec, len, comm);
			continue;
		}
		if (t->cmd == UFT_TRIG_TRACEOFF || t->cmd == UFT_TRIG_SNAPSHOT ||
		    t->cmd == UFT_TRIG_STACKTRACE) {
			if (n < UFT_TRIG_MAX_POST)
				post[n++] = t;
			continue;
		}
		run_one(t, NULL);
	}
	uint32_t mine = hist_snaps;
	hist_snaps = outer;
	for (uint32_t b = 0; mine && b < UFT_MAX_BUFFERS && n < UFT_TRIG_MAX_POST; b++)
		if (mine & (1u << b))
			post[n++] = &hist_snap_post[b];
	return n;
}

void uft_trig_run_post(struct uft_trig *const *post, unsigned n, void *ra)
{
	/* The kernel records the stack and takes the snapshot before its
	 * traceoff, which alone waits for the commit. */
	for (unsigned i = 0; i < n; i++)
		if (post[i]->cmd != UFT_TRIG_TRACEOFF)
			run_one(post[i], ra);
	for (unsigned i = 0; i < n; i++)
		if (post[i]->cmd == UFT_TRIG_TRACEOFF)
			run_one(post[i], ra);
}
