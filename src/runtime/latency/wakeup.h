/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wakeup and wakeup_rt tracers (docs/design/latency.md): the time from
 * a thread making another runnable, as libuft sees it (a condition variable
 * signalled or broadcast, a semaphore posted, a futex woken, an eventfd or a
 * pipe written), to the woken thread returning
 * from its wait. Each wait and wake names its object (the condition
 * variable's, semaphore's or futex word's address, or a key of a pipe or an
 * eventfd, io_wake_interpose.c): the waker stamps the object's slot, the
 * woken thread reads the stamp when its wait returns. The longest is kept as
 * the buffer's max trace through csect.c, which also owns the choice of
 * buffer and the generation. */
#ifndef UFT_LIB_WAKEUP_H
#define UFT_LIB_WAKEUP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <uft/event.h>

#include "runtime/latency/csect.h"

/* ftrace:context_switch and ftrace:wakeup, the kernel's ctx_switch_entry
 * (x86-64), with the kernel's ids 2 and 3. */
#define UFT_ID_CTX_SWITCH 2
#define UFT_ID_WAKEUP 3

struct uft_rec_ctx {
	struct uft_common_entry common;
	uint32_t prev_pid;
	uint32_t next_pid;
	uint32_t next_cpu;
	uint8_t prev_prio;
	uint8_t prev_state; /* task_state_index: 0 R, 1 S */
	uint8_t next_prio;
	uint8_t next_state;
};
_Static_assert(sizeof(struct uft_rec_ctx) == 24, "ctx_switch_entry");

/* One wait of the calling thread, from its start to its return. */
struct uft_wait {
	uintptr_t obj;
	uintptr_t ra; /* where the wait returns to: the top of its stack trace */
	uint64_t t0;  /* CLOCK_MONOTONIC ns before the wait */
	uint32_t gen;
	bool on;
};

/* Whether a wakeup tracer is current: the wrappers' one predicted branch. */
static inline bool uft_wake_on(void)
{
	return __builtin_expect(
	    (__atomic_load_n(&uft_csect_type, __ATOMIC_RELAXED) & UFT_CSECT_WAKES) != 0, 0);
}

/* The calling thread wakes one waiter of obj, or with `all` every one. */
void uft_wake_note(uintptr_t obj, bool all);
/* The calling thread starts waiting on obj (`ra`: the wrapper's return
 * address); the end gets whether the wait returned because of a wake (not a
 * timeout or an error). */
void uft_wait_begin(struct uft_wait *w, uintptr_t obj, uintptr_t ra);
void uft_wait_end(struct uft_wait *w, bool woken);

/* Registers the two events (once, with the tree's other ftrace events). */
void uft_wakeup_events_init(void);
/* The kernel's text of a context_switch or wakeup record:
 * " %7d:%3d:%c %s [%03d] %7d:%3d:%c %s"; false for any other record. */
bool uft_wake_render(FILE *f, const void *data, uint32_t len);

#endif
