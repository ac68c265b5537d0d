/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Trace buffer settings and the fast path's epoch. */
#include "runtime/core/buffer.h"

#include "wire/shm_layout.h"
#include "runtime/core/trace_clock.h"
#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "util/util.h"
#include <string.h>
#include <uft/fastpath.h>

struct uft_buffer uft_buffers[UFT_MAX_BUFFERS] = {
    [0] = {.gen = 1,
	   .on = 1,
	   .ring_pages = 256,
	   .mode = UFT_MODE_OVERWRITE,
	   .clock = UFT_CLOCK_LOCAL,
	   .in_use = 1,
	   .cpumask = {[0 ... UFT_CPU_WORDS - 1] = ~0ull}},
};

/* Set by the writer once it knows whether rseq gives the CPU. */
bool uft_fast_cpu_ok;

bool uft_buffer_raw_tsc(const struct uft_buffer *b)
{
	return b->clock == UFT_CLOCK_LOCAL && uft_tsc.usable;
}

uint64_t uft_buffer_now(const struct uft_buffer *b)
{
	if (likely(uft_buffer_raw_tsc(b)))
		return uft_arch_cycles();
	return uft_clock_read_slow((enum uft_clock)b->clock);
}

void uft_buffer_reset_cpus(struct uft_buffer *b)
{
	for (unsigned i = 0; i < UFT_CPU_WORDS; i++)
		WRITE_ONCE(b->cpumask[i], ~0ull);
	memset(b->cpu_pages, 0, sizeof(b->cpu_pages));
	WRITE_ONCE(b->masked, 0);
	WRITE_ONCE(b->stacktrace, 0);
}

uint32_t uft_buffer_cpu_pages(const struct uft_buffer *b, uint32_t cpu)
{
	uint32_t p = cpu < UFT_BUFFER_MAX_CPUS ? READ_ONCE(b->cpu_pages[cpu]) : 0;
	return p ? p : READ_ONCE(b->ring_pages);
}

uint32_t uft_subbuf_from_kb(unsigned long kb)
{
	if (kb == 0 || kb > UFT_SUBBUF_MAX / 1024u)
		return 0;
	uint32_t size = UFT_SUBBUF_SIZE;
	while (size < kb * 1024u)
		size <<= 1;
	return size;
}

uint32_t uft_buffer_ring_slots(const struct uft_buffer *b, uint32_t cpu, uint32_t subbuf)
{
	uint32_t per = subbuf / UFT_SUBBUF_SIZE;
	uint32_t n = (uft_buffer_cpu_pages(b, cpu) + per - 1) / per;
	return n < 2 ? 2 : n;
}

/* The tree and traceon/traceoff triggers (in any thread, in signal handlers
 * too) call this concurrently: each caller checks after its store that the
 * state it computed from is still current, so the last store is right. */
void uft_buffer_update_fast(void)
{
	struct uft_buffer *b = &uft_buffers[0];
	for (;;) {
		uint32_t on = uft_load_seq_cst(&b->on);
		uint32_t gen = uft_load_seq_cst(&b->gen);
		/* The inline path checks neither the CPU mask nor the
		 * stacktrace option: it stays closed while either applies. */
		uint32_t slow = uft_load_seq_cst(&b->masked) | uft_load_seq_cst(&b->stacktrace);
		uint32_t epoch = uft_fast_cpu_ok && on && !slow && uft_buffer_raw_tsc(b) ? gen : 0;
		uft_store_seq_cst(&uft_fast_epoch, epoch);
		if (uft_load_seq_cst(&b->on) == on && uft_load_seq_cst(&b->gen) == gen &&
		    (uft_load_seq_cst(&b->masked) | uft_load_seq_cst(&b->stacktrace)) == slow)
			return;
	}
}

void uft_buffer_new_generation(unsigned idx)
{
	struct uft_buffer *b = &uft_buffers[idx];
	uint32_t g = uft_load_seq_cst(&b->gen) + 1;
	if (g == 0)
		g = 1; /* 0 means "fast path off" to the epoch */
	uft_store_seq_cst(&b->gen, g);
	if (idx == 0)
		uft_buffer_update_fast();
}
