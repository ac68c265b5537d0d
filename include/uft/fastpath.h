/* The inline fast path of generated event writers.
 *
 * The common case — a thread writing outside any signal handler, an event
 * recorded into the global buffer only and without a filter, the record fits the current page, same
 * CPU as the last record, a delta that needs no time extend, the default local clock — is done
 * inline with plain loads and stores on the thread's level-0 ring state. Every other case returns
 * NULL and the caller goes through uft_reserve()/uft_commit().
 *
 * The structures below are the part of libuft's per-thread state this code
 * reads: their layout is ABI (UFT_FAST_ABI) and libuft checks it at build time. */
#ifndef UFT_FASTPATH_H
#define UFT_FASTPATH_H

#include <stdatomic.h>
#include <stdint.h>
#include <uft/event.h>

#if defined(__x86_64__) && defined(__GLIBC__) && __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#include <x86intrin.h>
#define UFT_HAVE_FAST_PATH 1
#endif

#define UFT_FAST_ABI 2

/* The symbols carry the ABI version, so code built against another layout
 * fails to load instead of writing through the wrong offsets. */
#define uft_fast uft_fast_abi2
#define uft_fast_epoch uft_fast_epoch_abi2

/* Level-0 ring of a thread, as the writer keeps it. */
struct uft_fast_ring {
	char *page;	  /* current page, NULL before the thread's first event */
	uint32_t tail;	  /* data bytes committed in the page */
	uint32_t cpu;	  /* CPU of the last record */
	uint64_t last_ts; /* timestamp of the last record */
	uint64_t entries; /* events committed */
};

struct uft_fast_tls {
	uint32_t nest;	       /* trace writes in progress on this thread */
	uint32_t in_signal;    /* signal handlers running */
	uint32_t sigs_blocked; /* every signal blocked */
	int32_t tid;
	uint32_t epoch; /* uft_fast_epoch when lv0 was opened */
	uint32_t pad;
	struct uft_fast_ring lv0;
};

/* Non-zero while the fast path may write into the global buffer: tracing on,
 * rings holding raw TSC cycles (the local clock on a usable TSC), rseq giving
 * the CPU. It is the buffer's generation, so a thread whose level-0 ring
 * belongs to an older one (before a resize or a clock change) takes the full
 * path, which opens a new ring. */
extern __thread struct uft_fast_tls uft_fast __attribute__((tls_model("initial-exec")));
extern volatile uint32_t uft_fast_epoch;

struct uft_fast_rsv {
	uint64_t ts;
	uint32_t tail;
};

static inline __attribute__((always_inline)) void *
uft_fast_reserve(const struct uft_event *ev, uint32_t len, struct uft_fast_rsv *rsv)
{
#ifdef UFT_HAVE_FAST_PATH
	/* The timestamp first: its latency overlaps the checks below. */
	uint64_t tsc = __rdtsc();
	struct uft_fast_tls *t = &uft_fast;
	struct uft_fast_ring *w = &t->lv0;
	uint32_t size = 8u + ((len + 7u) & ~7u); /* aligned record: header, length, payload */
	if (__builtin_expect((t->nest | t->in_signal | t->sigs_blocked) != 0 ||
				 t->epoch != uft_fast_epoch || ev->slow,
			     0))
		return (void *)0;
	t->nest = 1;
	atomic_signal_fence(memory_order_seq_cst);
	char *page = w->page;
	uint32_t tail = w->tail;
	uint64_t ts = tsc; /* rings hold raw cycles; readers convert */
	uint32_t cpu;
	__asm__ volatile("movl %%fs:(%1), %0" : "=r"(cpu) : "r"(__rseq_offset + 4));
	uint64_t delta = ts - w->last_ts;
	/* 4080 data bytes per page; deltas must fit the header's 27 bits. */
	if (__builtin_expect(delta > ((1u << 27) - 1) || cpu != w->cpu || tail + size > 4080u, 0)) {
		atomic_signal_fence(memory_order_seq_cst);
		t->nest = 0;
		return (void *)0;
	}
	char *p = page + 16 + tail;
	*(uint64_t *)p = (delta << 5) | ((uint64_t)(((len + 7u) & ~7u) + 4u) << 32);
	char *rec = p + 8;
	if (len & 7)
		*(uint64_t *)(rec + (len & ~7u)) = 0; /* no stale bytes in the rounding */
	/* common_type, flags 0, preempt_count 0, common_pid */
	*(uint64_t *)rec = (uint64_t)ev->id | ((uint64_t)(uint32_t)t->tid << 32);
	rsv->tail = tail + size;
	rsv->ts = ts;
	return rec;
#else
	(void)ev;
	(void)len;
	(void)rsv;
	return (void *)0;
#endif
}

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
