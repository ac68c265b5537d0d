/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Events of other tasks written into the tree (wire/inject_proto.h): what
 * `uft ns --kernel-events` takes from the kernel for the program's events
 * of the same name. Each record is checked as hostile input (its length,
 * its event, every __data_loc inside it) and then goes through the event's
 * own write path, so enable state, filters, set_event_pid, triggers, hists
 * and synthetic events treat it as one of the program's records. Its
 * common_pid stays the kernel task's; its name is kept in a table like the
 * kernel's saved_cmdlines for .execname, COMM and the trace's comm-pid
 * column; its time moves onto the ring's TSC where the ring counts raw
 * cycles (the default local clock), else it is the time it is written.
 * sched_process_fork and sched_process_exit of other tasks do what the
 * kernel's do for event-fork: the child joins the lists its parent is on,
 * an exiting task leaves them. docs/design/tracefs.md, "Kernel events of
 * other tasks". */
#define _GNU_SOURCE
#include "runtime/tracefs/tfs_inject.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/trace_clock.h"
#include "runtime/tracefs/tracefs.h"
#include "util/atomics.h"
#include "wire/ctl_proto.h"
#include "wire/inject_proto.h"
#include <uft/fastpath.h>
#include <uft/uft.h>

__thread const char *uft_inject_comm;

/* ---- the names of other tasks ---- */

#define SAVED_COMMS 1024 /* the kernel's saved_cmdlines keeps 128 by default */

static struct {
	int pid;
	char comm[16];
} saved[SAVED_COMMS];
static pthread_mutex_t saved_lock = PTHREAD_MUTEX_INITIALIZER;

static void save_comm(int pid, const char comm[16])
{
	pthread_mutex_lock(&saved_lock);
	unsigned i = (unsigned)pid % SAVED_COMMS;
	saved[i].pid = pid;
	memcpy(saved[i].comm, comm, 16);
	pthread_mutex_unlock(&saved_lock);
}

void tfs_inject_comms(void (*fn)(void *ctx, int pid, const char *comm), void *ctx)
{
	pthread_mutex_lock(&saved_lock);
	for (unsigned i = 0; i < SAVED_COMMS; i++)
		if (saved[i].pid > 0)
			fn(ctx, saved[i].pid, saved[i].comm);
	pthread_mutex_unlock(&saved_lock);
}

/* ---- refusals ---- */

/* The batch's reply counts what was taken (uft ns prints sent, taken and
 * refused); the first refusal of each reason is logged in error_log. */
static void refuse(unsigned reason, const char *msg)
{
	static uint32_t said;
	uint32_t bit = 1u << reason;
	if (!(uft_fetch_or_release(&said, bit) & bit))
		uft_tracefs_log_refusal("kernel event", msg);
}

enum { R_HEADER, R_EVENT, R_LENGTH, R_DATA_LOC };

/* ---- the events a batch names ---- */

struct ev_slot {
	uint16_t id;
	const struct uft_event *desc;
	int fork_parent, fork_child, exit_pid; /* field offsets, -1: none */
};

struct ev_table {
	struct ev_slot *v;
	size_t n, cap;
};

static int field_at(const struct uft_event *d, const char *name)
{
	for (uint32_t i = 0; i < d->nr_fields; i++) {
		const struct uft_field *f = &d->fields[i];
		if (strcmp(f->name, name) == 0 && f->kind == UFT_FIELD_SCALAR && f->size == 4 &&
		    f->offset + 4 <= d->fixed_size)
			return (int)f->offset;
	}
	return -1;
}

static int collect(void *ctx, const struct uft_reg_view *v)
{
	struct ev_table *t = ctx;
	const struct uft_event *d = v->desc;
	/* Only events a program defines with UFT_EVENT: the markers, synthetic
	 * events and printf-style events have writers of their own. */
	if (!d || d->style != UFT_STYLE_STRUCT || strcmp(v->system, "ftrace") == 0 ||
	    strcmp(v->system, "synthetic") == 0)
		return 0;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		void *p = realloc(t->v, cap * sizeof(*t->v));
		if (!p)
			return 1;
		t->v = p;
		t->cap = cap;
	}
	bool sched = strcmp(v->system, "sched") == 0;
	struct ev_slot *s = &t->v[t->n++];
	*s = (struct ev_slot){v->id, d, -1, -1, -1};
	if (sched && strcmp(v->name, "sched_process_fork") == 0) {
		s->fork_parent = field_at(d, "parent_pid");
		s->fork_child = field_at(d, "child_pid");
	} else if (sched && strcmp(v->name, "sched_process_exit") == 0) {
		s->exit_pid = field_at(d, "pid");
	}
	return 0;
}

static const struct ev_slot *find(const struct ev_table *t, uint16_t id)
{
	size_t lo = 0, hi = t->n; /* the registry visits in id order */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->v[mid].id == id)
			return &t->v[mid];
		if (t->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- time ---- */

/* CLOCK_MONOTONIC and the TSC read together, once a batch. */
struct now {
	uint64_t mono, tsc;
};

static void take_now(struct now *n)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	n->tsc = uft_arch_cycles();
	n->mono = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The TSC reading at `mono` (a hint only rings of raw cycles take). */
static uint64_t tsc_at(const struct now *n, uint64_t mono)
{
	if (!uft_tsc.usable || !uft_tsc.mult || mono >= n->mono)
		return n->tsc;
	unsigned __int128 d = (unsigned __int128)(n->mono - mono) << uft_tsc.shift;
	uint64_t cyc = (uint64_t)(d / uft_tsc.mult);
	return cyc < n->tsc ? n->tsc - cyc : 1;
}

/* ---- writing ---- */

/* Writes the record to every buffer that takes it; whether one did. */
static bool write_one(const struct ev_slot *s, const uint8_t *rec, uint32_t len, uint64_t tsc)
{
	bool any = false;
	struct uft_tls *t = &uft_tls;
	/* A door thread never traces; these writes are on purpose. */
	uint32_t nest = t->nest, notrace = t->notrace;
	t->notrace = 0;
	t->nest = 0;
	struct uft_rsv rsv;
	t->tsc_hint = tsc;
	for (uint8_t *r = uft_reserve(&rsv, s->desc, len); r; r = uft_reserve_next(&rsv)) {
		/* The tree's flags and nesting level stay (0: no signal);
		 * common_pid and the fields are the kernel task's. */
		memcpy(r + 4, rec + 4, len - 4);
		uft_commit(&rsv);
		t->tsc_hint = tsc;
		any = true;
	}
	t->tsc_hint = 0;
	t->nest = nest;
	t->notrace = notrace;
	return any;
}

static void follow(const struct ev_slot *s, const uint8_t *rec)
{
	int32_t a, b;
	if (s->fork_parent >= 0 && s->fork_child >= 0) {
		memcpy(&a, rec + s->fork_parent, 4);
		memcpy(&b, rec + s->fork_child, 4);
		if (a > 0 && b > 0)
			uft_tracefs_thread_created(a, b);
	} else if (s->exit_pid >= 0) {
		memcpy(&a, rec + s->exit_pid, 4);
		if (a > 0)
			uft_tracefs_thread_exits(a);
	}
}

int64_t uft_tracefs_inject(const uint8_t *buf, size_t len)
{
	struct ev_table tab = {0};
	uft_registry_visit(collect, &tab);
	struct now now;
	take_now(&now);
	int64_t taken = 0;
	size_t pos = 0;
	struct uft_inject_hdr h;
	const uint8_t *rec;
	int rc;
	while ((rc = uft_inject_next(buf, len, &pos, &h, &rec)) == 1) {
		uint16_t type;
		memcpy(&type, rec, 2);
		const struct ev_slot *s = find(&tab, type);
		if (!s) {
			refuse(R_EVENT, "no event of the program has the record's id");
			continue;
		}
		if (h.len < s->desc->fixed_size || h.len > UFT_CTL_MAX_IO) {
			refuse(R_LENGTH, "a record's length does not fit its event");
			continue;
		}
		if (!uft_inject_locs_ok(s->desc->fields, s->desc->nr_fields, s->desc->fixed_size,
					rec, h.len)) {
			refuse(R_DATA_LOC, "a record's __data_loc points outside it");
			continue;
		}
		int32_t pid;
		memcpy(&pid, rec + 4, 4);
		char comm[17];
		memcpy(comm, h.comm, 16);
		comm[16] = 0;
		follow(s, rec);
		uft_inject_comm = comm;
		/* Only a task whose record some buffer took is named, as the
		 * kernel saves a cmdline when it records: the tasks every
		 * filter drops would push the traced ones out of the table. */
		if (write_one(s, rec, h.len, tsc_at(&now, h.mono_ns)) && pid > 0 && comm[0])
			save_comm(pid, h.comm);
		uft_inject_comm = NULL;
		taken++;
	}
	if (rc < 0) /* the rest of the message, which cannot be framed */
		refuse(R_HEADER, "a record's header is cut short or its length past the message");
	free(tab.v);
	return taken;
}
