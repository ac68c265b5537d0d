/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The writer's side of a table's per-thread shards (hist_shard.c): finding
 * the calling thread's shard, entering and leaving it, adding to it. */
#ifndef UFT_HIST_SHARD_H
#define UFT_HIST_SHARD_H

#include "engine/hist/hist_impl.h"
#include "util/atomics.h"
#include "util/util.h"

#if defined(__SANITIZE_THREAD__)
#define HIST_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HIST_UNDER_TSAN 1
#endif
#endif

/* Per thread, the shard of the last tables it updated: one word per slot,
 * table id << 8 | shard index, so a signal handler that replaces a slot
 * between two of the thread's instructions never leaves it half written. */
#define HIST_SHARD_CACHE 16
#define HIST_SHARD_NONE 0xff /* shard index: none was free, the shared sums serve */
extern __thread uint64_t uft_hist_shard_cache[HIST_SHARD_CACHE]
    __attribute__((tls_model("initial-exec")));

struct hist_shard *uft_hist_shard_claim(struct hist_table *t);

/* The calling thread's shard of t, claimed on first use; NULL when every
 * shard has a live owner (the shared sums then serve). */
static inline struct hist_shard *uft_hist_shard(struct hist_table *t)
{
	uint64_t v = uft_hist_shard_cache[t->id % HIST_SHARD_CACHE];
	if (likely(v >> 8 == t->id))
		return likely((v & 0xff) != HIST_SHARD_NONE) ? &t->shards[v & 0xff] : NULL;
	return uft_hist_shard_claim(t);
}

/* Forgets that t had no shard for this thread, so that its next update
 * looks again (called now and then from the shared path). */
static inline void uft_hist_shard_retry(const struct hist_table *t)
{
	uint64_t *slot = &uft_hist_shard_cache[t->id % HIST_SHARD_CACHE];
	if (*slot >> 8 == t->id)
		*slot = 0;
}

/* Adds v to a word only this thread and its signal handlers write: one
 * unlocked instruction, which a signal cannot split. Under ThreadSanitizer
 * and on other machines an atomic add, which says the same. */
static inline void hist_local_add(uint64_t *p, uint64_t v)
{
#if defined(__x86_64__) && !defined(HIST_UNDER_TSAN)
	__asm__ volatile("addq %1, %0" : "+m"(*p) : "er"(v));
#else
	uft_fetch_add_relaxed(p, v);
#endif
}

/* Enters an update on shard s: false while a clear keeps writers out. A
 * plain store and load: the clear's membarrier stands in for the fence
 * between them (hist_shard.c). A handler that interrupts between the load
 * and the store of the count has put it back when it returns. */
static inline bool hist_shard_enter(const struct hist_table *t, struct hist_shard *s)
{
#ifdef HIST_UNDER_TSAN
	uft_fetch_add(&s->busy, 1);
	if (!uft_load_seq_cst(&t->clearing))
		return true;
	uft_fetch_sub_release(&s->busy, 1);
	return false;
#else
	WRITE_ONCE(s->busy, s->busy + 1);
	barrier();
	if (!READ_ONCE(t->clearing))
		return true;
	smp_store_release(&s->busy, s->busy - 1);
	return false;
#endif
}

static inline void hist_shard_exit(struct hist_shard *s)
{
#ifdef HIST_UNDER_TSAN
	uft_fetch_sub_release(&s->busy, 1);
#else
	smp_store_release(&s->busy, s->busy - 1);
#endif
}

#endif
