/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Annotated critical sections: the user-space meaning of the kernel's
 * preempt_disable()/preempt_enable() for the preemptoff and preemptirqsoff
 * tracers (docs/design/latency.md). Calls nest, counted per thread like
 * preempt_count: a section runs from the outermost start to the matching
 * outermost stop. With no such tracer current a call costs a thread-local
 * increment and one predicted branch. */
#ifndef UFT_CRITICAL_H
#define UFT_CRITICAL_H

#include <uft/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * uft_critical_start - enters a critical section of the calling thread
 */
UFT_EXPORT void uft_critical_start(void);
/**
 * uft_critical_stop - leaves it; the outermost stop ends the section
 */
UFT_EXPORT void uft_critical_stop(void);

#ifdef __cplusplus
}
#endif

#endif
