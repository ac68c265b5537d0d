/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grace periods for what control writes replace (docs/design/reclamation.md).
 *
 * Read side: a writer brackets every use of a published pointer (a target
 * list and what hangs off it: filters, triggers, hists, lists) with
 * uft_grace_enter()/uft_grace_exit(), plain stores to its own record. The
 * inline fast path loads no such pointer and is left alone.
 *
 * Update side, why it is safe: the control path unpublishes p (a release
 * store), then calls membarrier(PRIVATE_EXPEDITED), which runs a full
 * barrier on every CPU running one of the process's threads and one of its
 * own. A reader's "depth = 1; load pointer" is a store then a load with only
 * a compiler barrier between them; the membarrier stands in for the fence
 * the reader lacks. After it, for each thread either its depth store is
 * visible here (the section started before: we wait until it is left,
 * depth 0 or seq moved), or its next section's loads come after the barrier
 * and see the new pointer. Leaving is a release store, so the section's loads
 * of p are done before depth 0 or the new seq is seen (acquire here), and
 * p may then be freed. A thread not in the list when it is scanned claimed
 * its record (a compare-and-swap, a full barrier) after the scan began, so
 * it too sees the new pointer.
 *
 * Threads that exited free their record and never block; a record whose
 * thread is gone without saying so is passed (tgkill says ESRCH). A thread
 * stuck inside a section (a handler that never returns) makes the control
 * path wait once the pending list is full, so memory stays bounded.
 * Without membarrier nothing is freed (the old behaviour: kept forever). */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/grace.h"

__thread struct uft_grace_rec *uft_grace_me __attribute__((tls_model("initial-exec")));
const void *volatile uft_grace_fast_filter[1u << 16];

static struct uft_grace_rec *recs; /* every record, newest first */

/* Deferred frees. Past GRACE_MAX_PENDING the control path waits. */
#define GRACE_MAX_PENDING 64
struct grace_item {
	void *p;
	void (*fn)(void *);
	int32_t owner; /* the thread whose control operation unpublished it */
	bool sealed;   /* that operation is over: p is unpublished */
};
static pthread_mutex_t grace_lock = PTHREAD_MUTEX_INITIALIZER;
static struct grace_item pending[GRACE_MAX_PENDING];
static uint32_t nr_pending;
static uint32_t nr_sealed;
static uint64_t nr_freed, nr_kept;
static int mb_state; /* 0: not tried, 1: usable, -1: not available */

static bool thread_gone(int32_t tid)
{
	return tid <= 0 || (syscall(SYS_tgkill, getpid(), tid, 0) == -1 && errno == ESRCH);
}

static struct uft_grace_rec *claim(int32_t tid, bool dead_too)
{
	for (struct uft_grace_rec *r = smp_load_acquire(&recs); r; r = r->next) {
		int32_t old = READ_ONCE(r->tid);
		if (old && !(dead_too && !READ_ONCE(r->depth) && thread_gone(old)))
			continue;
		if (uft_try_cmpxchg(&r->tid, &old, tid))
			return r;
	}
	return NULL;
}

struct uft_grace_rec *uft_grace_register(void)
{
	int32_t tid = (int32_t)syscall(SYS_gettid);
	struct uft_grace_rec *r = claim(tid, false);
	if (!r)
		r = claim(tid, true);
	if (!r) {
		/* mmap, not malloc: this may run in a signal handler. */
		size_t sz = 4096, n = sz / sizeof(*r);
		struct uft_grace_rec *c =
		    mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c == MAP_FAILED)
			return NULL;
		c[0].tid = tid;
		for (size_t i = 1; i < n; i++)
			c[i].next = &c[i - 1];
		struct uft_grace_rec *head = smp_load_acquire(&recs);
		do
			c[0].next = head;
		while (!uft_try_cmpxchg(&recs, &head, &c[n - 1]));
		r = &c[0];
	}
	WRITE_ONCE(r->depth, 0);
	uft_grace_me = r;
	return r;
}

void uft_grace_thread_exit(void)
{
	struct uft_grace_rec *r = uft_grace_me;
	if (!r)
		return;
	uft_grace_me = NULL;
	smp_store_release(&r->depth, 0);
	smp_store_release(&r->tid, 0);
}

static bool membarrier_ok(void)
{
	if (mb_state == 0) {
		long rc = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
		mb_state = rc == 0 ? 1 : -1;
	}
	if (mb_state < 0)
		return false;
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
		return true;
	/* A forked child may need to register again. */
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
	    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
		return true;
	mb_state = -1;
	return false;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Waits until r's thread is outside the section it may be in now; gives up
 * after budget_ns unless budget_ns is 0. */
static bool wait_left(struct uft_grace_rec *r, uint64_t budget_ns)
{
	if (!smp_load_acquire(&r->depth))
		return true;
	uint32_t seq = smp_load_acquire(&r->seq);
	int32_t tid = READ_ONCE(r->tid);
	uint64_t start = now_ns();
	for (unsigned spin = 0;; spin++) {
		if (!smp_load_acquire(&r->depth) || smp_load_acquire(&r->seq) != seq ||
		    READ_ONCE(r->tid) != tid)
			return true;
		if (spin % 64 == 63 && thread_gone(tid))
			return true;
		if (budget_ns && now_ns() - start > budget_ns)
			return false;
		if (spin < 16) {
			sched_yield();
		} else {
			struct timespec ts = {0, spin < 1000 ? 50000 : 1000000};
			nanosleep(&ts, NULL);
		}
	}
}

/* One grace period: true once every other thread has left the sections it
 * was in. Called with grace_lock held. */
static bool grace_period(uint64_t budget_ns)
{
	if (!membarrier_ok())
		return false;
	struct uft_grace_rec *self = uft_grace_me;
	for (struct uft_grace_rec *r = smp_load_acquire(&recs); r; r = r->next)
		if (r != self && !wait_left(r, budget_ns))
			return false;
	return true;
}

/* Frees the sealed items (a grace period passed after they were sealed,
 * hence after they were unpublished). Called with grace_lock held. */
static void free_sealed(void)
{
	struct grace_item done[GRACE_MAX_PENDING];
	uint32_t n = 0, k = 0;
	for (uint32_t i = 0; i < nr_pending; i++) {
		if (pending[i].sealed)
			done[n++] = pending[i];
		else
			pending[k++] = pending[i];
	}
	nr_pending = k;
	nr_sealed = 0;
	nr_freed += n;
	for (uint32_t i = 0; i < n; i++)
		done[i].fn(done[i].p);
}

void uft_grace_defer(void *p, void (*fn)(void *))
{
	if (!p)
		return;
	pthread_mutex_lock(&grace_lock);
	/* Full: wait for what earlier control operations unpublished. The
	 * calling thread inside a section of its own (a trigger's action)
	 * could be holding it: nothing is freed then. */
	if (nr_pending == GRACE_MAX_PENDING && nr_sealed && !uft_grace_inside() && grace_period(0))
		free_sealed();
	if (nr_pending == GRACE_MAX_PENDING) {
		nr_kept++;
		pthread_mutex_unlock(&grace_lock);
		return; /* kept for good rather than freed under a reader */
	}
	pending[nr_pending++] = (struct grace_item){p, fn, (int32_t)syscall(SYS_gettid), false};
	pthread_mutex_unlock(&grace_lock);
}

void uft_grace_reclaim(bool wait)
{
	pthread_mutex_lock(&grace_lock);
	int32_t me = (int32_t)syscall(SYS_gettid);
	for (uint32_t i = 0; i < nr_pending; i++) {
		if (!pending[i].sealed && pending[i].owner == me) {
			pending[i].sealed = true;
			nr_sealed++;
		}
	}
	/* Readers leave their sections within microseconds: usually the period
	 * passes at once and nothing stays pending. */
	if (nr_sealed && !uft_grace_inside() && grace_period(wait ? 0 : 2000000))
		free_sealed();
	pthread_mutex_unlock(&grace_lock);
}

/* fork() copies grace_lock as it is: held by another thread, it would stay
 * held in the child, whose first control write would then wait forever. The
 * fork waits for the control operation in progress instead. In the child the
 * other threads' records are free: their threads are not there. Registered
 * before any other handler of the runtime: its lock is taken after theirs
 * and given back before their parent and child handlers run, which may end
 * a control operation (uft_grace_reclaim). */
static void lock_for_fork(void)
{
	pthread_mutex_lock(&grace_lock);
}

static void unlock_in_parent(void)
{
	pthread_mutex_unlock(&grace_lock);
}

static void unlock_in_child(void)
{
	for (struct uft_grace_rec *r = recs; r; r = r->next) {
		if (r != uft_grace_me) {
			r->depth = 0;
			r->tid = 0;
		}
	}
	pthread_mutex_unlock(&grace_lock);
}

void uft_grace_fork_setup(void)
{
	pthread_atfork(lock_for_fork, unlock_in_parent, unlock_in_child);
}

uint64_t uft_grace_pending(void)
{
	pthread_mutex_lock(&grace_lock);
	uint64_t n = nr_pending;
	pthread_mutex_unlock(&grace_lock);
	return n;
}

uint64_t uft_grace_freed(void)
{
	pthread_mutex_lock(&grace_lock);
	uint64_t n = nr_freed;
	pthread_mutex_unlock(&grace_lock);
	return n;
}
