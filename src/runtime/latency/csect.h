/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The critical-section latency tracers irqsoff, preemptoff and
 * preemptirqsoff (docs/design/latency.md): when a section of one thread ends
 * (all signals unblocked again, or the outermost uft_critical_stop()), its
 * length is checked against tracing_max_latency (or tracing_thresh) and a
 * section that beats it keeps its own records in the buffer's max trace,
 * which `trace` then shows. One buffer at a time runs such a tracer, as in
 * the kernel. */
#ifndef UFT_LIB_CSECT_H
#define UFT_LIB_CSECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	UFT_CSECT_SIGS = 1u << 0,    /* irqsoff: every signal blocked */
	UFT_CSECT_CRIT = 1u << 1,    /* preemptoff: inside uft_critical_start/stop */
	UFT_CSECT_WAKE = 1u << 2,    /* wakeup: every woken thread (wakeup.c) */
	UFT_CSECT_WAKE_RT = 1u << 3, /* wakeup_rt: woken SCHED_FIFO/RR threads */
	/* preemptoff with options/lock-holdtime: a held pthread mutex is a
	 * critical section (never set without UFT_CSECT_CRIT) */
	UFT_CSECT_MUTEX = 1u << 4,
	UFT_CSECT_WAKE_DL = 1u << 5, /* wakeup_dl: woken SCHED_DEADLINE threads */
	UFT_CSECT_SECTIONS = UFT_CSECT_SIGS | UFT_CSECT_CRIT,
	UFT_CSECT_WAKES = UFT_CSECT_WAKE | UFT_CSECT_WAKE_RT | UFT_CSECT_WAKE_DL,
};

/* The kinds of section measured now; 0 when no such tracer is current (the
 * wrappers' one predicted branch). */
extern uint32_t uft_csect_type __attribute__((visibility("hidden")));

/* The calling thread's state changed (its mask, or its critical nesting):
 * `ip` is the wrapper's own function, `caller` the address it returns to. */
void uft_csect_update(uintptr_t ip, uintptr_t caller);

/* `kind`: what changed (UFT_CSECT_SIGS or UFT_CSECT_CRIT); nothing to do
 * unless a tracer measures that kind. */
static inline void uft_csect_hook(uint32_t kind, uintptr_t ip, uintptr_t caller)
{
	if (__builtin_expect((__atomic_load_n(&uft_csect_type, __ATOMIC_RELAXED) & kind) != 0, 0))
		uft_csect_update(ip, caller);
}

/* A pthread mutex was taken (rc 0) or is given back by the calling thread,
 * with lock-holdtime on: the wrappers call them after one predicted branch. */
void uft_csect_mutex_taken(uintptr_t ip, uintptr_t caller);
void uft_csect_mutex_given(uintptr_t ip, uintptr_t caller);
static inline bool uft_csect_mutex_on(void)
{
	return __builtin_expect(
	    (__atomic_load_n(&uft_csect_type, __ATOMIC_RELAXED) & UFT_CSECT_MUTEX) != 0, 0);
}
/* options/lock-holdtime of `buffer`. */
void uft_csect_set_mutex(uint32_t buffer, bool on);

/* display-graph and function-trace both set for `buffer`: a section's ends
 * are graph leaves, the max restarts and the max trace goes. */
void uft_csect_set_graph(uint32_t buffer, bool on);

/* One record of a max trace, as the thread's ring held it. */
struct uft_csect_rec {
	uint64_t ts;
	uint32_t cpu;
	uint32_t len;
	char *data;
};

/* What the latency header says of the section. */
struct uft_csect_info {
	uint64_t lat_ns;
	int32_t tid;
	char comm[17];
	uint32_t cpu;
	int uid;
	long nice, policy, rt_prio;
	uintptr_t start_ip, end_ip;
};

struct uft_csect_trace {
	struct uft_csect_info info;
	size_t n;
	struct uft_csect_rec *v;
	size_t mapped;			   /* 0, or the size of the one mapping holding it all */
	struct uft_csect_trace *next_free; /* csect.c's list of traces to free */
};

/* Makes `buffer` run the tracer of kinds `type` (0: none). The max latency
 * restarts at 0 and the max trace goes. -EBUSY when another buffer runs one. */
int uft_csect_set(uint32_t buffer, uint32_t type);
/* Whether `buffer` runs a section tracer now. */
bool uft_csect_owns(uint32_t buffer);
/* tracing_max_latency in µs, and its write (0 restarts the max). */
uint64_t uft_csect_max_us(uint32_t buffer);
void uft_csect_set_max_us(uint32_t buffer, uint64_t us);
/* Calls fn with the buffer's max trace (none: fn is not called) while no
 * thread can replace it; 1 when fn ran, else 0. */
int uft_csect_with_max(uint32_t buffer, void (*fn)(void *ctx, const struct uft_csect_trace *tr),
		       void *ctx);
/* `echo > trace` with a section tracer: the max trace goes (the kernel
 * clears its max buffer then); tracing_max_latency stays. */
void uft_csect_clear_trace(uint32_t buffer);
/* For the other max tracers (wakeup.c), one measure at a time: the buffer
 * and generation measured in now. */
uint32_t uft_csect_buffer(void);
uint32_t uft_csect_gen(void);
/* Whether a latency of delta ns is to be kept (tracing_max_latency, or
 * tracing_thresh when set), checked without the lock. */
bool uft_csect_wants(uint32_t buffer, uint64_t delta);
/* Offers tr (delta ns long, measured since generation gen) as the buffer's
 * max trace: kept when it still beats the max under the lock, else freed. */
void uft_csect_offer(uint32_t buffer, uint32_t gen, uint64_t delta, struct uft_csect_trace *tr);
void uft_csect_trace_free(struct uft_csect_trace *tr);
/* The calling thread's task line (comm, tid, CPU, uid, nice, policy). */
void uft_csect_describe(struct uft_csect_info *in);
/* Sends the top buffer's `trace` text to the recorder on sock when a max
 * tracer runs there (max_send.c, at the process's end). */
void uft_csect_send_max(int sock);
/* tracing_thresh in µs (tfs_core.c). */
extern unsigned long uft_tracing_thresh_us __attribute__((visibility("hidden")));

#endif
