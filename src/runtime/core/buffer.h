/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Trace buffers: the global one (index 0) and one per instance. A buffer is a
 * set of per-thread rings in the process's shared region plus the settings
 * its writers follow (size, mode, clock, tracing_on). Writers open a ring of a
 * buffer on their first event into it and open a new one when the buffer's
 * generation moves on (a new size, mode or clock). */
#ifndef UFT_LIB_BUFFER_H
#define UFT_LIB_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "util/atomics.h"
#include "wire/clocks.h"
#include "wire/shm_layout.h"

#define UFT_MAX_BUFFERS 32 /* the global buffer and up to 31 instances */
/* CPUs that tracing_cpumask and per-CPU ring sizes can name: a CPU above
 * is always traced and takes the buffer's size. */
#define UFT_BUFFER_MAX_CPUS 256
#define UFT_CPU_WORDS (UFT_BUFFER_MAX_CPUS / 64)

struct uft_buffer {
	uint32_t gen;	      /* writers holding a ring of an older generation reopen */
	volatile uint32_t on; /* tracing_on */
	uint32_t ring_pages;  /* pages per thread ring */
	uint32_t mode;	      /* enum uft_buffer_mode */
	uint32_t clock;	      /* enum uft_clock */
	uint32_t in_use;      /* the buffer exists (always for 0) */
	/* tracing_cpumask: records made on a CPU whose bit is clear are not
	 * kept. Writers look at the mask only while `masked` says it leaves
	 * out a CPU, and the fast path is off then (uft_buffer_update_fast). */
	volatile uint32_t masked;
	uint64_t cpumask[UFT_CPU_WORDS];
	/* options/stacktrace: each event record is followed by a stack record;
	 * the fast path is off while set. */
	volatile uint32_t stacktrace;
	/* per_cpu/cpuN/buffer_size_kb: the pages of a ring opened on CPU N;
	 * 0 means ring_pages. */
	uint32_t cpu_pages[UFT_BUFFER_MAX_CPUS];
	/* buffer_subbuf_size_kb in bytes: the page size of rings opened from
	 * now on; 0 means UFT_SUBBUF_SIZE. ring_pages and cpu_pages count
	 * 4 KiB of memory whatever this is. */
	uint32_t subbuf_size;
};

extern struct uft_buffer uft_buffers[UFT_MAX_BUFFERS];

/* Resets a buffer's CPU mask (all CPUs), per-CPU sizes and stacktrace. */
void uft_buffer_reset_cpus(struct uft_buffer *b);
/* Pages of a ring of `b` opened on `cpu`. */
uint32_t uft_buffer_cpu_pages(const struct uft_buffer *b, uint32_t cpu);
/* The sub-buffer size of rings opened now. */
static inline uint32_t uft_buffer_subbuf(const struct uft_buffer *b)
{
	uint32_t s = READ_ONCE(b->subbuf_size);
	return s ? s : UFT_SUBBUF_SIZE;
}
/* A sub-buffer size asked in KiB as the kernel takes it: rounded up to a
 * power of two number of 4 KiB pages, 1 to 128 of them; 0 if out of range. */
uint32_t uft_subbuf_from_kb(unsigned long kb);
/* Page slots of a ring of `b` opened on `cpu` with `subbuf`-byte pages: the
 * memory buffer_size_kb sets, rounded up to whole slots, at least two. */
uint32_t uft_buffer_ring_slots(const struct uft_buffer *b, uint32_t cpu, uint32_t subbuf);
/* Whether records made on `cpu` are kept (tracing_cpumask). */
static inline bool uft_buffer_cpu_traced(const struct uft_buffer *b, uint32_t cpu)
{
	return cpu >= UFT_BUFFER_MAX_CPUS || (READ_ONCE(b->cpumask[cpu / 64]) >> (cpu % 64) & 1);
}

/* Moves the buffer to a new generation after a settings change; the global
 * buffer's fast path follows it (uft_fast_epoch). */
void uft_buffer_new_generation(unsigned idx);
/* Recomputes whether the inline fast path may write into the global buffer. */
void uft_buffer_update_fast(void);
/* A timestamp in the units the buffer's rings hold (raw TSC cycles for the
 * local clock on a usable TSC). */
uint64_t uft_buffer_now(const struct uft_buffer *b);
/* Whether the buffer's rings hold raw TSC cycles. */
bool uft_buffer_raw_tsc(const struct uft_buffer *b);

#endif
