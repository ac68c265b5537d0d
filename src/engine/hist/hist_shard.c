/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-thread shards of a histogram's sums and hit count. The shared table
 * keeps the keys (so `size=` and `Dropped:` mean what they meant: one pool
 * of entries for every thread); a thread's values go to its own shard of
 * the sums with unlocked adds, and readers add the shards up.
 *
 * Ownership: a thread claims a free shard of a table with compare-and-swap
 * of its tid the first time it updates the table, maps the shard's sums if
 * no earlier owner did, and remembers it in a per-thread cache. A shard
 * keeps its sums when its thread exits (they are part of the totals); its
 * slot is taken over by a new thread once the owner is gone (tgkill says
 * ESRCH). So memory is at most HIST_SHARDS shards per table whatever the
 * number of threads; with more live writers than shards, the others add to
 * the shared sums with atomic adds, as before.
 *
 * Clear: it sets `clearing`, then membarrier(PRIVATE_EXPEDITED), then waits
 * for every shard's `busy` to be 0 and for the shared writers' `inflight`.
 * A writer stores busy + 1 and loads `clearing` with only a compiler
 * barrier between; the membarrier runs a full barrier on every CPU running
 * one of our threads, so either the writer's busy store is seen after it
 * (the clear waits) or the writer's load comes after it and sees
 * `clearing` (the writer backs off). Without membarrier (an old kernel, a
 * seccomp filter) the table has no shards and every writer takes the
 * shared path. */
#include <errno.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/hist/hist_shard.h"

__thread uint64_t uft_hist_shard_cache[HIST_SHARD_CACHE] __attribute__((tls_model("initial-exec")));

static uint64_t next_id;

static bool membarrier_register(void)
{
#ifdef HIST_UNDER_TSAN
	return true; /* writers fence with seq_cst atomics instead */
#else
	return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
}

static bool membarrier_run(void)
{
#ifdef HIST_UNDER_TSAN
	return true;
#else
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
		return true;
	/* A forked child may need to register again. */
	return membarrier_register() &&
	       syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
}

static size_t sums_bytes(const struct hist_table *t)
{
	size_t n = (size_t)t->max_elts * (t->n_vals ? t->n_vals : 1) * sizeof(uint64_t);
	size_t pg = 4096;
	return (n + pg - 1) / pg * pg;
}

void uft_hist_shards_init(struct hist_table *t, uint32_t n_vals)
{
	t->n_vals = n_vals;
	t->id = uft_fetch_add_relaxed(&next_id, 1) + 1;
	t->shards = NULL;
	t->shards_ok = false;
	if (!membarrier_register())
		return;
	t->shards = aligned_alloc(64, HIST_SHARDS * sizeof(*t->shards));
	if (!t->shards)
		return;
	memset(t->shards, 0, HIST_SHARDS * sizeof(*t->shards));
	t->shards_ok = true;
}

void uft_hist_shards_free(struct hist_table *t)
{
	if (!t->shards)
		return;
	for (uint32_t i = 0; i < HIST_SHARDS; i++)
		if (t->shards[i].sums)
			munmap(t->shards[i].sums, sums_bytes(t));
	free(t->shards);
	t->shards = NULL;
	t->shards_ok = false;
}

static bool thread_gone(int32_t tid)
{
	return syscall(SYS_tgkill, getpid(), tid, 0) < 0 && errno == ESRCH;
}

/* The shard's sums, mapped by the first owner. A signal handler of the same
 * thread may map them meanwhile: the first published mapping stays. */
static bool map_sums(struct hist_table *t, struct hist_shard *s)
{
	if (smp_load_acquire(&s->sums))
		return true;
	void *p =
	    mmap(NULL, sums_bytes(t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return false;
	uint64_t *none = NULL;
	if (!__atomic_compare_exchange_n(&s->sums, &none, (uint64_t *)p, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		munmap(p, sums_bytes(t));
	return true;
}

/* Remembers s (NULL: none) as the calling thread's shard of t. */
static void cache_put(const struct hist_table *t, const struct hist_shard *s)
{
	uint64_t idx = s ? (uint64_t)(s - t->shards) : HIST_SHARD_NONE;
	WRITE_ONCE(uft_hist_shard_cache[t->id % HIST_SHARD_CACHE], t->id << 8 | idx);
}

/* The slow path of uft_hist_shard(): async-signal-safe (system calls and
 * compare-and-swap; errno kept). */
struct hist_shard *uft_hist_shard_claim(struct hist_table *t)
{
	if (!READ_ONCE(t->shards_ok))
		return NULL;
	int saved = errno;
	int32_t me = (int32_t)syscall(SYS_gettid);
	struct hist_shard *got = NULL;

	/* Ours already (the cache slot went to another table meanwhile). */
	for (uint32_t i = 0; i < HIST_SHARDS && !got; i++)
		if (READ_ONCE(t->shards[i].owner) == me)
			got = &t->shards[i];
	for (uint32_t i = 0; i < HIST_SHARDS && !got; i++) {
		int32_t o = 0;
		if (uft_try_cmpxchg_acq_rel(&t->shards[i].owner, &o, me))
			got = &t->shards[i];
	}
	/* A dead owner's shard: its sums stay, the slot is ours. A thread dead
	 * inside an update left busy behind: nobody is in there now. */
	for (uint32_t i = 0; i < HIST_SHARDS && !got; i++) {
		int32_t o = READ_ONCE(t->shards[i].owner);
		if (o && o != me && thread_gone(o) &&
		    uft_try_cmpxchg_acq_rel(&t->shards[i].owner, &o, me)) {
			got = &t->shards[i];
			smp_store_release(&got->busy, 0);
		}
	}
	if (got && !map_sums(t, got))
		got = NULL; /* keep the slot: a later update may map it */
	/* None: the shared path, without this search on every update until
	 * uft_hist_shard_retry(). */
	cache_put(t, got);
	errno = saved;
	return got;
}

/* Called with t->clearing set: waits until no writer is inside a shard.
 * false when writers could not be fenced: the table stops using shards
 * (the wait then only covers writers whose busy store was already seen). */
bool uft_hist_shards_quiesce(struct hist_table *t)
{
	if (!t->shards)
		return true;
	bool fenced = membarrier_run();
	if (!fenced)
		WRITE_ONCE(t->shards_ok, false); /* new updates take the shared path */
	for (uint32_t i = 0; i < HIST_SHARDS; i++) {
		struct hist_shard *s = &t->shards[i];
		for (unsigned spin = 0; uft_load_seq_cst(&s->busy); spin++) {
			int32_t o = READ_ONCE(s->owner);
			if (spin % 64 == 63 && o && thread_gone(o))
				break;
			sched_yield();
		}
	}
	return fenced;
}

/* With the writers kept out: the shards' sums and hits to 0. */
void uft_hist_shards_clear(struct hist_table *t)
{
	if (!t->shards)
		return;
	for (uint32_t i = 0; i < HIST_SHARDS; i++) {
		struct hist_shard *s = &t->shards[i];
		uint64_t *sums = smp_load_acquire(&s->sums);
		if (sums)
			memset(sums, 0, (size_t)t->max_elts * t->n_vals * sizeof(*sums));
		WRITE_ONCE(s->hits, 0);
	}
}

uint64_t uft_hist_shards_hits(const struct hist_table *t)
{
	uint64_t n = 0;
	for (uint32_t i = 0; t->shards && i < HIST_SHARDS; i++)
		n += READ_ONCE(t->shards[i].hits);
	return n;
}

/* Adds the shards' sums of the first n words to out. */
void uft_hist_shards_add_sums(const struct hist_table *t, uint64_t *out, size_t n)
{
	for (uint32_t i = 0; t->shards && i < HIST_SHARDS; i++) {
		const uint64_t *sums = smp_load_acquire(&t->shards[i].sums);
		for (size_t k = 0; sums && k < n; k++)
			out[k] += READ_ONCE(sums[k]);
	}
}
