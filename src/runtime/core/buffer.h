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

#include "wire/clocks.h"

#define UFT_MAX_BUFFERS 32 /* the global buffer and up to 31 instances */

struct uft_buffer {
	uint32_t gen;	      /* writers holding a ring of an older generation reopen */
	volatile uint32_t on; /* tracing_on */
	uint32_t ring_pages;  /* pages per thread ring */
	uint32_t mode;	      /* enum uft_buffer_mode */
	uint32_t clock;	      /* enum uft_clock */
	uint32_t in_use;      /* the buffer exists (always for 0) */
};

extern struct uft_buffer uft_buffers[UFT_MAX_BUFFERS];

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
