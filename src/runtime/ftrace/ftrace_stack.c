/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The stack tracer at run time (the kernel's check_stack): at each traced
 * call, the thread's stack in use is the distance from its top to the
 * call's return address slot; a new maximum takes the call chain (the
 * unwinder's return addresses, each then found on the stack to give its
 * depth, as the kernel does), from the traced function up. Signal handlers
 * are left out (the kernel leaves out interrupt stacks): they may run on
 * an alternate stack and must not unwind. */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/ftrace/ftrace_shadow.h"
#include "util/atomics.h"

uint32_t uft_ftrace_stack_on;
struct uft_stack_max uft_ftrace_stack_max;

extern void *__libc_stack_end;

/* The top of the calling thread's stack (1: not known). The main thread's
 * is where the program started (its arguments and environment above are
 * not the program's stack); another's, its pthread stack's end. */
static uintptr_t stack_top(struct uft_tls *t)
{
	if (t->tid ? t->tid == getpid() : gettid() == getpid())
		return (uintptr_t)__libc_stack_end;
	pthread_attr_t a;
	void *addr = NULL;
	size_t size = 0;
	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return 1;
	int rc = pthread_attr_getstack(&a, &addr, &size);
	pthread_attr_destroy(&a);
	return rc == 0 && addr ? (uintptr_t)addr + size : 1;
}

/* Fills m from the chain above `ra`, the traced function's entry `ip`
 * being at slot[-1] (where the sled's call put it). It reads the stack's
 * words one by one, the frames' redzones too: not instrumented by ASan. */
__attribute__((no_sanitize("address"))) static void
save_chain(struct uft_stack_max *m, uintptr_t top, uintptr_t *slot, uintptr_t ip, void *ra)
{
	uint64_t pcs[UFT_STACK_MAX_ENTRIES];
	uint32_t n = uft_stack_capture(ra, pcs, UFT_STACK_MAX_ENTRIES);
	uint32_t x = 0;
	m->pc[x] = ip;
	m->depth[x++] = (uint32_t)(top - (uintptr_t)(slot - 1));
	const uintptr_t *p = slot, *end = (const uintptr_t *)top;
	for (uint32_t i = 0; i < n && x < UFT_STACK_MAX_ENTRIES; i++) {
		if (pcs[i] == ip)
			continue; /* the sled's own return, entry 0 */
		/* Each return address at its place on the stack, searched
		 * above the previous one's; one not found is left out. */
		for (const uintptr_t *q = p; q < end; q++) {
			if (*q != pcs[i])
				continue;
			m->pc[x] = *q;
			m->depth[x++] = (uint32_t)(top - (uintptr_t)q);
			p = q + 1;
			break;
		}
	}
	m->nr = x;
}

void uft_ftrace_stack_check(struct uft_tls *t, struct fstack *st, uintptr_t *slot, uintptr_t ip,
			    void *ra)
{
	if (!READ_ONCE(uft_ftrace_stack_on) || !st || t->in_signal)
		return;
	uintptr_t top = st->stack_top;
	if (__builtin_expect(!top, 0))
		top = st->stack_top = stack_top(t);
	if ((uintptr_t)slot >= top)
		return; /* not on the thread's stack */
	uint64_t size = top - (uintptr_t)(slot - 1);
	struct uft_stack_max *m = &uft_ftrace_stack_max;
	if (size <= READ_ONCE(m->size))
		return;
	uint32_t free_ = 0;
	if (!uft_try_cmpxchg_acquire(&m->lock, &free_, 1))
		return; /* another thread is saving its own */
	if (size > m->size) {
		save_chain(m, top, slot, ip, ra);
		WRITE_ONCE(m->size, size);
	}
	smp_store_release(&m->lock, 0);
}
