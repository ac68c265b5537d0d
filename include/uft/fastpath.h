/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The inline fast path of generated event writers.
 *
 * The common case — a thread writing at nesting level 0 (in a signal handler
 * too, as long as it interrupted no write), an event recorded into the global buffer only and
 * without a filter, the record fits the current page, same CPU as the last record, a delta that
 * needs no time extend, the default local clock — is done inline with plain loads and stores on
 * the thread's level-0 ring state. Every other case returns NULL and the caller goes through
 * uft_reserve()/uft_commit().
 *
 * The structures below are the part of libuft's per-thread state this code
 * reads, and struct uft_event_state (uft/event.h) is what it reads of an event:
 * their layout is ABI (UFT_FAST_ABI) and libuft checks it at build time. */
#ifndef UFT_FASTPATH_H
#define UFT_FASTPATH_H

#include <stdatomic.h>
#include <stdint.h>
#include <uft/event.h>
#include <uft/export.h>

#if defined(__x86_64__) && defined(__GLIBC__) && __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#include <x86intrin.h>
/* UFT_HAVE_FAST_PATH: the inline path exists here (else it always fails). */
#define UFT_HAVE_FAST_PATH 1
#endif

/**
 * UFT_FAST_ABI - version of the layout of the structures below
 *
 * The layouts of struct uft_fast_tls and of struct uft_event_state
 * (uft/event.h), and what a call site reads into them: since 7, a UFT_TRACE
 * site writes inline while its state's fast_type is non-zero, which the
 * runtime allows only once it has checked the site's layout. The symbols uft_fast and
 * uft_fast_epoch stand for carry it in their names, so code built against another layout fails to
 * load instead of writing through the wrong offsets.
 */
#define UFT_FAST_ABI 7

/**
 * uft_fast - the calling thread's fast-path state (struct uft_fast_tls)
 */
#define uft_fast uft_fast_abi7
/**
 * uft_fast_epoch - the global buffer's fast-path generation, 0 while closed
 */
#define uft_fast_epoch uft_fast_epoch_abi7

/**
 * struct uft_fast_ring - a thread's level-0 ring, as the writer keeps it
 *
 * The fields are described where they are declared.
 */
struct uft_fast_ring {
	char *page;	  /* current page, NULL before the thread's first event */
	uint32_t tail;	  /* data bytes committed in the page */
	uint32_t cpu;	  /* CPU of the last record */
	uint64_t last_ts; /* timestamp of the last record */
	uint64_t entries; /* events committed */
};

/**
 * struct uft_fast_tls - the part of a thread's writer state the inline path reads
 *
 * The fields are described where they are declared.
 */
struct uft_fast_tls {
	uint32_t nest;	       /* trace writes in progress on this thread */
	uint32_t in_signal;    /* signal handlers running */
	uint32_t sigs_blocked; /* every signal blocked */
	int32_t tid;
	uint32_t epoch; /* uft_fast_epoch when lv0 was opened */
	uint32_t pad;
	/* Bytes 2-7 of a level-0 record's common fields, bytes 0-1 (common_type)
	 * zero: the flags for in_signal and sigs_blocked, preempt_count 0, the tid.
	 * Kept in step with those fields by whatever changes them. */
	uint64_t common;
	/* The TSC the inline path read before it found the event needs the cold
	 * path, for that path to use instead of reading it again; 0 when none. */
	uint64_t tsc_hint;
	struct uft_fast_ring lv0;
};

/* Non-zero while the fast path may write into the global buffer: tracing on,
 * rings holding raw TSC cycles (the local clock on a usable TSC), rseq giving
 * the CPU. It is the buffer's generation, so a thread whose level-0 ring
 * belongs to an older one (before a resize or a clock change) takes the full
 * path, which opens a new ring. */
extern UFT_EXPORT __thread struct uft_fast_tls uft_fast __attribute__((tls_model("initial-exec")));
extern UFT_EXPORT volatile uint32_t uft_fast_epoch;

/**
 * struct uft_fast_rsv - a fast reservation, from uft_fast_reserve()
 * @ts: the record's timestamp (raw TSC); after a failure, the TSC read
 * @tail: the page tail once committed
 */
struct uft_fast_rsv {
	uint64_t ts;
	uint32_t tail;
};

/**
 * uft_fast_reserve_at() - reserve a record inline, with a given timestamp
 * @type: the record's type (the event id); 0 refuses
 * @tsc: its timestamp, a raw TSC value
 * @len: the record's size, common header included
 * @rsv: the reservation, filled here
 *
 * The common header is filled. Follow with uft_fast_commit() or
 * uft_fast_discard(). On failure @rsv->ts still holds @tsc, for
 * uft_fast_hint().
 *
 * Return: the record, or NULL when the case is not the common one and the
 * caller must go through uft_reserve().
 */
static inline __attribute__((always_inline)) void *
uft_fast_reserve_at(uint64_t type, uint64_t tsc, uint32_t len, struct uft_fast_rsv *rsv)
{
#ifdef UFT_HAVE_FAST_PATH
	struct uft_fast_tls *t = &uft_fast;
	struct uft_fast_ring *w = &t->lv0;
	uint32_t size = 8u + ((len + 7u) & ~7u); /* aligned record: header, length, payload */
	/* A relaxed atomic load (a plain one on x86): the tree changes the epoch
	 * while threads write. */
	if (__builtin_expect(type == 0 || t->nest != 0 ||
				 t->epoch != __atomic_load_n(&uft_fast_epoch, __ATOMIC_RELAXED),
			     0)) {
		rsv->ts = tsc;
		return (void *)0;
	}
	t->nest = 1;
	atomic_signal_fence(memory_order_seq_cst);
	char *page = w->page;
	uint32_t tail = w->tail;
	uint64_t ts = tsc; /* rings hold raw cycles; readers convert */
	uint32_t cpu;
	__asm__ volatile("movl %%fs:4(%1), %0" : "=r"(cpu) : "r"(__rseq_offset));
	uint64_t delta = ts - w->last_ts;
	/* 4080 data bytes per page; deltas must fit the header's 27 bits. */
	if (__builtin_expect(delta > ((1u << 27) - 1) || cpu != w->cpu || tail + size > 4080u, 0)) {
		atomic_signal_fence(memory_order_seq_cst);
		t->nest = 0;
		rsv->ts = tsc;
		return (void *)0;
	}
	char *p = page + 16 + tail;
	/* The line 512 bytes on, for writing: in a ring larger than the cache,
	 * which a consumer on another CPU read last, its ownership arrives before
	 * the stores that need it. Issued for every record: cheaper than the test
	 * for a new line (interleaved runs: 3 ints -0.5 ns). */
	__asm__ volatile("prefetchw %0" : : "m"(*(p + 512)));
	/* type_len 0 and the delta, then the length word (payload and itself) */
	*(uint32_t *)p = (uint32_t)delta << 5;
	*(uint32_t *)(p + 4) = ((len + 7u) & ~7u) + 4u;
	char *rec = p + 8;
	if (len & 7)
		*(uint64_t *)(rec + (len & ~7u)) = 0; /* no stale bytes in the rounding */
	/* common_type, flags, preempt_count 0, common_pid */
	*(uint64_t *)rec = type | t->common;
	rsv->tail = tail + size;
	rsv->ts = ts;
	return rec;
#else
	(void)type;
	(void)tsc;
	(void)len;
	rsv->ts = 0;
	return (void *)0;
#endif
}

/**
 * uft_fast_reserve_type() - reserve a record inline, stamped now
 * @type: the record's type (the event id); 0 refuses
 * @len: the record's size, common header included
 * @rsv: the reservation, filled here
 *
 * The TSC is read first, so its latency overlaps the checks.
 *
 * Return: as uft_fast_reserve_at().
 */
static inline __attribute__((always_inline)) void *
uft_fast_reserve_type(uint64_t type, uint32_t len, struct uft_fast_rsv *rsv)
{
#ifdef UFT_HAVE_FAST_PATH
	return uft_fast_reserve_at(type, __rdtsc(), len, rsv);
#else
	return uft_fast_reserve_at(type, 0, len, rsv);
#endif
}

/**
 * uft_fast_hint() - hand a failed fast reservation's TSC to the cold path
 * @rsv: the failed reservation
 *
 * The cold path called next stamps its record with it instead of reading
 * the TSC again.
 */
static inline __attribute__((always_inline)) void uft_fast_hint(const struct uft_fast_rsv *rsv)
{
	uft_fast.tsc_hint = rsv->ts;
}

/**
 * uft_fast_take_hint() - take the TSC uft_fast_hint() left, in the cold path
 *
 * Return: the hint, or 0 if none; either way it is used up.
 */
static inline __attribute__((always_inline)) uint64_t uft_fast_take_hint(void)
{
	uint64_t h = uft_fast.tsc_hint;
	uft_fast.tsc_hint = 0;
	return h;
}

/**
 * uft_fast_rehint() - hand the cold path's TSC on to uft_reserve()
 * @tsc: what uft_fast_take_hint() returned (0: none)
 *
 * The library stamps the record uft_reserve() reserves next with it, if
 * it reserves one at once, instead of reading the TSC again (a slow
 * instruction under some hypervisors); uft_reserve() uses it up.
 */
static inline __attribute__((always_inline)) void uft_fast_rehint(uint64_t tsc)
{
	uft_fast.tsc_hint = tsc;
}

/**
 * uft_fast_reserve() - reserve an event's record inline, stamped now
 * @st: the event's state; its fast_type is the event's id while it is enabled
 *      for the global buffer alone without a filter, else 0 (refused)
 * @len: the record's size, common header included
 * @rsv: the reservation, filled here
 *
 * Return: as uft_fast_reserve_at().
 */
static inline __attribute__((always_inline)) void *
uft_fast_reserve(const struct uft_event_state *st, uint32_t len, struct uft_fast_rsv *rsv)
{
	/* A relaxed atomic load (one mov): the registry changes it meanwhile. */
	return uft_fast_reserve_type(__atomic_load_n(&st->fast_type, __ATOMIC_RELAXED), len, rsv);
}

/**
 * uft_fast_discard() - abandon a fast reservation
 *
 * For a record a filter rejected: it takes no space.
 */
static inline __attribute__((always_inline)) void uft_fast_discard(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	uft_fast.nest = 0;
}

/**
 * uft_fast_commit() - make a fast reservation's record part of the ring
 * @rsv: the reservation, its record filled
 *
 * Publishes the page's new tail with a release store.
 */
static inline __attribute__((always_inline)) void uft_fast_commit(const struct uft_fast_rsv *rsv)
{
	struct uft_fast_tls *t = &uft_fast;
	struct uft_fast_ring *w = &t->lv0;
	w->tail = rsv->tail;
	w->last_ts = rsv->ts;
	w->entries++;
	atomic_store_explicit((_Atomic uint64_t *)(w->page + 8), rsv->tail, memory_order_release);
	atomic_signal_fence(memory_order_seq_cst);
	t->nest = 0;
}

#endif
