/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's osnoise:* events (sample_threshold, nmi_noise, irq_noise,
 * softirq_noise, thread_noise) in the process's tree. */
#ifndef UFT_LIB_OSN_EVENTS_H
#define UFT_LIB_OSN_EVENTS_H

#include <stdint.h>

/* Registers the five events (at start-up, with the tracers' records). */
void uft_osn_noise_events_init(void);
/* One osnoise:sample_threshold record into `buffer` when the event is
 * enabled there: the gap's start (CLOCK_MONOTONIC ns), its length (ns) and
 * the interferences counted in it. */
void uft_osn_sample_threshold(uint32_t buffer, uint64_t start_ns, uint64_t duration_ns,
			      uint64_t interference);

#endif
