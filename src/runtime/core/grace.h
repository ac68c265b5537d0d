/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grace periods: freeing what a control write replaced once no writer can
 * still be reading it (docs/design/reclamation.md). */
#ifndef UFT_GRACE_H
#define UFT_GRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/atomics.h"
#include "util/util.h"

/* One thread's read-side state. Records live in never-unmapped chunks, so
 * the control path may read any of them at any time; a thread's record is
 * reused by a later thread once it has exited. */
struct uft_grace_rec {
	uint32_t depth; /* read-side sections entered and not left (signal handlers nest) */
	uint32_t seq;	/* outermost sections left */
	int32_t tid;	/* owner; 0 while free */
	uint32_t pad;
	struct uft_grace_rec *next; /* every record, pushed once */
};

extern __thread struct uft_grace_rec *uft_grace_me __attribute__((tls_model("initial-exec")));

/* The calling thread's record, claimed on first use (async-signal-safe:
 * mmap and compare-and-swap, never malloc). NULL if none could be mapped:
 * reclamation then stops for good, which is safe. */
struct uft_grace_rec *uft_grace_register(void);

/* Enter and leave a read-side section: everything a writer loads from a
 * published pointer (targets, filters, triggers, hists, lists) between the
 * two stays valid. Plain loads and stores of the thread's own record; the
 * control side's membarrier supplies the ordering the stores lack. */
static inline void uft_grace_enter(void)
{
	struct uft_grace_rec *r = uft_grace_me;
	if (unlikely(!r) && !(r = uft_grace_register()))
		return;
	WRITE_ONCE(r->depth, r->depth + 1);
	barrier();
}

static inline void uft_grace_exit(void)
{
	struct uft_grace_rec *r = uft_grace_me;
	if (unlikely(!r || !r->depth))
		return;
	uint32_t d = r->depth - 1;
	/* The section's loads are done before the control side may see it
	 * left, by either store (plain stores on x86). */
	if (!d)
		smp_store_release(&r->seq, r->seq + 1);
	smp_store_release(&r->depth, d);
}

/* True while the calling thread is inside a read-side section. */
static inline bool uft_grace_inside(void)
{
	struct uft_grace_rec *r = uft_grace_me;
	return r && r->depth;
}

/* The calling thread leaves for good: its record becomes free. */
void uft_grace_thread_exit(void);

/* Control path only (never a writer or a signal handler). Queues p to be
 * freed with fn once every thread that could have loaded it has left its
 * section. p must be unpublished before the calling thread's next
 * uft_grace_reclaim(). Bounded: once full, the call waits for a grace
 * period. p == NULL is ignored. */
void uft_grace_defer(void *p, void (*fn)(void *));
/* Ends the calling thread's control operation: what it deferred is
 * unpublished now. Frees it after a grace period: a short wait unless `wait`
 * (then as long as it takes); what is not freed now is freed later. */
void uft_grace_reclaim(bool wait);
/* Makes fork() wait for a control operation in progress, so a child never
 * inherits a held grace lock. Called first at start-up, before any other
 * pthread_atfork() of the runtime. */
void uft_grace_fork_setup(void);
/* Deferred and not yet freed; freed so far (for tests). */
uint64_t uft_grace_pending(void);
uint64_t uft_grace_freed(void);

/* The filter each event id's fast reservation uses, kept beside the
 * event state's so that uft__fast_filter_pass() can check, inside its
 * section, that the filter it was handed is still the published one. */
extern const void *volatile uft_grace_fast_filter[1u << 16];

#endif
