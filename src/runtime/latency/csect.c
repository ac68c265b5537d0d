/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The critical-section tracers' measurement and max tracking (csect.h).
 *
 * A thread's section starts when its state turns "in a section" (every
 * signal blocked for irqsoff, a critical nesting above 0 for preemptoff,
 * either for preemptirqsoff) and ends when it turns back. Both ends write a
 * function record (the wrapper <- its caller) into the tracer's buffer, so
 * the section's records in the thread's ring are the ones from its start
 * record to its end record, whatever the function tracing between them wrote.
 *
 * Max tracking, several threads at once: a finishing thread compares its
 * length with the max without a lock (a stale max only lets it go on), copies
 * its section's records out of its own ring with no lock held (only it writes
 * that ring), then takes max_lock and checks again: the max it replaces is
 * the one under the lock, so of two threads finishing together the longer
 * section wins whatever the order. The kernel's max_sequence also drops a
 * section during which another CPU recorded a max (that CPU's printing may
 * have disturbed it); threads here record into their own rings and disturb
 * nobody, so only the generation matters: a section that began before the
 * tracer was set or the max reset is not measured. */
#define _GNU_SOURCE
#include "runtime/latency/csect.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/trace_clock.h"
#include "runtime/ftrace/ftrace.h"
#include "util/atomics.h"
#include "wire/ring_reader.h"
#include <uft/critical.h>

uint32_t uft_csect_type;
static uint32_t csect_buffer;
static uint32_t csect_gen;

static pthread_mutex_t max_lock = PTHREAD_MUTEX_INITIALIZER;
static bool mutex_opt[UFT_MAX_BUFFERS]; /* options/lock-holdtime */
static bool graph_opt[UFT_MAX_BUFFERS]; /* display-graph with function-trace */
static uint64_t max_ns[UFT_MAX_BUFFERS];
static struct uft_csect_trace *max_tr[UFT_MAX_BUFFERS];

struct csect_thread {
	uint32_t gen; /* csect_gen the section started in */
	bool in;
	bool busy;	/* ending a section: a handler's mask change is not one */
	uint32_t depth; /* uft_critical_start nesting */
	uint32_t held;	/* pthread mutexes held, counted since generation held_gen */
	uint32_t held_gen;
	uint64_t t0;
	uintptr_t start_ip;
	uint64_t entries0; /* the ring's count before the start record */
};
static __thread struct csect_thread cs __attribute__((tls_model("initial-exec")));

/* A section's two ends read the TSC when it is usable (one instruction,
 * where a vDSO clock_gettime() costs several times more), else
 * CLOCK_MONOTONIC; the difference is made nanoseconds at the end. */
static uint64_t now_ticks(void)
{
	if (__builtin_expect(uft_tsc.usable, 1))
		return uft_arch_cycles();
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t ticks_to_ns(uint64_t d)
{
	if (!uft_tsc.usable)
		return d;
	return (uint64_t)(((unsigned __int128)d * uft_tsc.mult) >> uft_tsc.shift);
}

/* The thread's level-0 ring of the buffer (NULL before its first record). */
static struct uft_wring *own_wring(uint32_t b)
{
	struct uft_tls *t = &uft_tls;
	if (b == 0)
		return &t->lv[0];
	return t->xb ? &t->xb[b - 1][0] : NULL;
}

static uint64_t own_entries(uint32_t b)
{
	struct uft_wring *w = own_wring(b);
	return w && w->r ? w->entries : 0;
}

static bool report(uint32_t b, uint64_t delta)
{
	unsigned long th = READ_ONCE(uft_tracing_thresh_us);
	if (th)
		return delta >= (uint64_t)th * 1000;
	return delta > READ_ONCE(max_ns[b]);
}

void uft_csect_trace_free(struct uft_csect_trace *tr)
{
	if (!tr)
		return;
	if (tr->mapped) { /* one mapping, taken in a signal handler */
		munmap(tr, tr->mapped);
		return;
	}
	for (size_t i = 0; i < tr->n; i++)
		free(tr->v[i].data);
	free(tr->v);
	free(tr);
}

/* A trace given up inside a signal handler: a mapped one is unmapped there,
 * a malloc'd one (the max it replaced) waits on this list for the next
 * offer or reset made outside a handler. */
static struct uft_csect_trace *deferred;

static void trace_drop(struct uft_csect_trace *tr)
{
	if (!tr)
		return;
	if (tr->mapped || !READ_ONCE(uft_tls.in_signal)) {
		uft_csect_trace_free(tr);
		return;
	}
	struct uft_csect_trace *head = READ_ONCE(deferred);
	do
		tr->next_free = head;
	while (!uft_try_cmpxchg_release(&deferred, &head, tr));
}

static void free_deferred(void)
{
	if (READ_ONCE(uft_tls.in_signal) || !READ_ONCE(deferred))
		return;
	struct uft_csect_trace *l = uft_xchg(&deferred, NULL);
	while (l) {
		struct uft_csect_trace *n = l->next_free;
		uft_csect_trace_free(l);
		l = n;
	}
}

/* Copying the last `want` records of the ring: a first pass counts them.
 * In a signal handler, where malloc() must not run, a second pass sums
 * their sizes and the copy goes into one anonymous mapping (mmap() and
 * munmap() are system calls). */
struct cap {
	struct uft_csect_trace *tr;
	uint64_t seen, skip, want;
	bool counting, sizing;
	size_t bytes; /* sizing: the kept records' bytes, 8-aligned each */
	char *arena;  /* the mapping's data part, NULL: malloc */
	int err;
};

static int cap_one(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		   uint64_t missed)
{
	struct cap *c = ctx;
	(void)missed;
	if (c->counting) {
		c->seen++;
		return 0;
	}
	if (c->sizing) {
		if (c->seen++ >= c->skip && c->seen - c->skip <= c->want)
			c->bytes += ((size_t)len + 7) & ~(size_t)7;
		return 0;
	}
	if (c->seen++ < c->skip || c->tr->n >= c->want)
		return 0;
	char *copy;
	if (c->arena) {
		copy = c->arena;
		c->arena += ((size_t)len + 7) & ~(size_t)7;
	} else {
		copy = malloc(len ? len : 1);
	}
	if (!copy) {
		c->err = -ENOMEM;
		return 1;
	}
	memcpy(copy, data, len);
	c->tr->v[c->tr->n++] = (struct uft_csect_rec){ts, cpu, len, copy};
	return 0;
}

/* capture() in a signal handler: the trace, its records and their data
 * in one mapping. */
static struct uft_csect_trace *capture_mapped(struct uft_wring *w, uint64_t want)
{
	struct cap c = {NULL, 0, 0, want, true, false, 0, NULL, 0};
	if (w && w->r && want) {
		uft_writer_flush_self();
		uft_ring_peek(w->r, cap_one, &c);
	}
	c.skip = c.seen > want ? c.seen - want : 0;
	c.want = c.seen - c.skip;
	c.counting = false;
	c.sizing = true;
	c.seen = 0;
	if (c.want)
		uft_ring_peek(w->r, cap_one, &c);
	size_t head = (sizeof(struct uft_csect_trace) + 7) & ~(size_t)7;
	size_t size = head + c.want * sizeof(struct uft_csect_rec) + c.bytes;
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	struct uft_csect_trace *tr = m;
	tr->mapped = size;
	tr->v = (struct uft_csect_rec *)((char *)m + head);
	if (!c.want)
		return tr;
	c.tr = tr;
	c.arena = (char *)tr->v + c.want * sizeof(struct uft_csect_rec);
	c.sizing = false;
	c.seen = 0;
	uft_ring_peek(w->r, cap_one, &c);
	return tr;
}

/* The section's records: the last `want` ones of the thread's ring. */
static struct uft_csect_trace *capture(uint32_t b, uint64_t want)
{
	if (READ_ONCE(uft_tls.in_signal))
		return capture_mapped(own_wring(b), want);
	struct uft_csect_trace *tr = calloc(1, sizeof(*tr));
	if (!tr)
		return NULL;
	struct uft_wring *w = own_wring(b);
	if (!w || !w->r || !want)
		return tr;
	uft_writer_flush_self();
	struct cap c = {tr, 0, 0, want, true, false, 0, NULL, 0};
	uft_ring_peek(w->r, cap_one, &c);
	c.skip = c.seen > want ? c.seen - want : 0;
	c.want = c.seen - c.skip;
	tr->v = calloc(c.want ? c.want : 1, sizeof(*tr->v));
	if (!tr->v)
		return tr;
	c.counting = false;
	c.seen = 0;
	uft_ring_peek(w->r, cap_one, &c);
	return tr;
}

void uft_csect_describe(struct uft_csect_info *in)
{
	in->tid = uft_tls.tid ? uft_tls.tid : (int32_t)gettid();
	if (prctl(PR_GET_NAME, in->comm) != 0)
		in->comm[0] = 0;
	in->comm[16] = 0;
	int cpu = sched_getcpu();
	in->cpu = cpu < 0 ? 0 : (uint32_t)cpu;
	in->uid = (int)getuid();
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, 0);
	in->nice = errno ? 0 : nice;
	int pol = sched_getscheduler(0);
	in->policy = pol < 0 ? 0 : pol;
	struct sched_param sp;
	in->rt_prio = sched_getparam(0, &sp) == 0 ? sp.sched_priority : 0;
}

static void section_end(uint32_t b, uint32_t gen, uint64_t delta, uintptr_t end_ip)
{
	if (!report(b, delta))
		return;
	/* The kernel's closing <stack trace> of the thread ending a max
	 * section (check_critical_timing's __trace_stack): from the function
	 * that ended it. */
	char stack[UFT_STACK_REC_SIZE];
	uft_stack_fill(stack, end_ip);
	uft_stack_write(b, stack);
	/* The records from the start record to the stack record. */
	uint64_t end = own_entries(b);
	struct uft_csect_trace *tr = capture(b, end >= cs.entries0 ? end - cs.entries0 : end);
	if (tr) {
		tr->info.lat_ns = delta;
		tr->info.start_ip = cs.start_ip;
		tr->info.end_ip = end_ip;
		uft_csect_describe(&tr->info);
	}
	uft_csect_offer(b, gen, delta, tr);
}

void uft_csect_offer(uint32_t b, uint32_t gen, uint64_t delta, struct uft_csect_trace *tr)
{
	/* A signal handler may have interrupted this thread holding the lock
	 * (reading its own trace): it does not wait, and the section is lost. */
	if (READ_ONCE(uft_tls.in_signal)) {
		if (pthread_mutex_trylock(&max_lock) != 0) {
			trace_drop(tr);
			return;
		}
	} else {
		free_deferred();
		pthread_mutex_lock(&max_lock);
	}
	if (READ_ONCE(csect_gen) == gen && report(b, delta)) {
		WRITE_ONCE(max_ns[b], delta);
		struct uft_csect_trace *old = max_tr[b];
		max_tr[b] = tr;
		tr = old;
	}
	pthread_mutex_unlock(&max_lock);
	trace_drop(tr);
}

uint32_t uft_csect_buffer(void)
{
	return READ_ONCE(csect_buffer);
}

uint32_t uft_csect_gen(void)
{
	return READ_ONCE(csect_gen);
}

bool uft_csect_wants(uint32_t b, uint64_t delta)
{
	return report(b, delta);
}

/* A section's start or end line: `ip <-caller` as the function tracer's,
 * or with display-graph the graph's leaf call of ip, as the kernel's
 * __trace_function(). Returns the record's TSC when known, else 0. */
static uint64_t end_record(uint32_t b, uintptr_t ip, uintptr_t caller)
{
	if (!READ_ONCE(graph_opt[b]))
		return uft_ftrace_write_fn(b, ip, caller);
	uint64_t t = now_ticks();
	uft_ftrace_write_leaf(b, ip);
	return uft_tsc.usable ? t : 0;
}

void uft_csect_update(uintptr_t ip, uintptr_t caller)
{
	struct uft_tls *t = &uft_tls;
	if (cs.busy || t->notrace)
		return;
	uint32_t type = READ_ONCE(uft_csect_type);
	uint32_t gen = READ_ONCE(csect_gen);
	uint32_t b = READ_ONCE(csect_buffer);
	bool held = (type & UFT_CSECT_MUTEX) && cs.held && cs.held_gen == gen;
	bool now = ((type & UFT_CSECT_SIGS) && READ_ONCE(t->sigs_blocked)) ||
		   ((type & UFT_CSECT_CRIT) && (cs.depth || held));
	bool was = cs.in && cs.gen == gen;
	if (now == was)
		return;
	cs.busy = true;
	if (now) {
		cs.in = true;
		cs.gen = gen;
		cs.start_ip = caller;
		cs.entries0 = own_entries(b);
		/* the record's own TSC when it has one: no second read */
		uint64_t ts = end_record(b, ip, caller);
		cs.t0 = ts && uft_tsc.usable ? ts : now_ticks();
	} else {
		cs.in = false;
		uint64_t t1 = end_record(b, ip, caller);
		if (!t1 || !uft_tsc.usable)
			t1 = now_ticks();
		section_end(b, gen, ticks_to_ns(t1 - cs.t0), caller);
	}
	cs.busy = false;
}

void uft_critical_start(void)
{
	if (cs.depth++ == 0)
		uft_csect_hook(UFT_CSECT_CRIT, (uintptr_t)&uft_critical_start,
			       (uintptr_t)__builtin_return_address(0));
}

void uft_critical_stop(void)
{
	if (!cs.depth)
		return; /* unbalanced: nothing to end */
	if (--cs.depth == 0)
		uft_csect_hook(UFT_CSECT_CRIT, (uintptr_t)&uft_critical_stop,
			       (uintptr_t)__builtin_return_address(0));
}

/* Mutex holds nest like critical sections; a count of another generation
 * (before the tracer, the option or the max was set) starts again at 0, so
 * a mutex taken before and given back after is never an unbalanced end. */
void uft_csect_mutex_taken(uintptr_t ip, uintptr_t caller)
{
	uint32_t gen = READ_ONCE(csect_gen);
	if (cs.held_gen != gen) {
		cs.held_gen = gen;
		cs.held = 0;
	}
	if (cs.held++ == 0 && !cs.busy)
		uft_csect_hook(UFT_CSECT_CRIT, ip, caller);
}

void uft_csect_mutex_given(uintptr_t ip, uintptr_t caller)
{
	if (cs.held_gen != READ_ONCE(csect_gen) || !cs.held)
		return;
	if (--cs.held == 0 && !cs.busy)
		uft_csect_hook(UFT_CSECT_CRIT, ip, caller);
}

static uint32_t with_mutex(uint32_t buffer, uint32_t type)
{
	return (type & UFT_CSECT_CRIT) && mutex_opt[buffer] ? type | UFT_CSECT_MUTEX : type;
}

void uft_csect_set_mutex(uint32_t buffer, bool on)
{
	pthread_mutex_lock(&max_lock);
	mutex_opt[buffer] = on;
	uint32_t cur = READ_ONCE(uft_csect_type);
	if (cur && csect_buffer == buffer) {
		WRITE_ONCE(csect_gen, csect_gen + 1);
		WRITE_ONCE(uft_csect_type, with_mutex(buffer, cur & ~UFT_CSECT_MUTEX));
	}
	pthread_mutex_unlock(&max_lock);
}

void uft_csect_set_graph(uint32_t buffer, bool on)
{
	pthread_mutex_lock(&max_lock);
	WRITE_ONCE(graph_opt[buffer], on);
	/* The kernel's irqsoff_display_graph(): the max restarts (the caller
	 * empties the buffer), and a running section is not measured. */
	WRITE_ONCE(max_ns[buffer], 0);
	WRITE_ONCE(csect_gen, csect_gen + 1);
	struct uft_csect_trace *old = max_tr[buffer];
	max_tr[buffer] = NULL;
	pthread_mutex_unlock(&max_lock);
	uft_csect_trace_free(old);
	free_deferred();
}

int uft_csect_set(uint32_t buffer, uint32_t type)
{
	if (type) /* a section's end takes its stack, maybe in a handler */
		uft_stack_prepare();
	pthread_mutex_lock(&max_lock);
	uint32_t cur = READ_ONCE(uft_csect_type);
	if (cur && csect_buffer != buffer) {
		pthread_mutex_unlock(&max_lock);
		return type ? -EBUSY : 0;
	}
	WRITE_ONCE(csect_buffer, buffer);
	WRITE_ONCE(csect_gen, csect_gen + 1);
	WRITE_ONCE(max_ns[buffer], 0);
	struct uft_csect_trace *old = max_tr[buffer];
	max_tr[buffer] = NULL;
	WRITE_ONCE(uft_csect_type, with_mutex(buffer, type));
	pthread_mutex_unlock(&max_lock);
	uft_csect_trace_free(old);
	free_deferred();
	return 0;
}

bool uft_csect_owns(uint32_t buffer)
{
	return READ_ONCE(uft_csect_type) && READ_ONCE(csect_buffer) == buffer;
}

uint64_t uft_csect_max_us(uint32_t buffer)
{
	return READ_ONCE(max_ns[buffer]) / 1000;
}

void uft_csect_set_max_us(uint32_t buffer, uint64_t us)
{
	pthread_mutex_lock(&max_lock);
	WRITE_ONCE(max_ns[buffer], us * 1000);
	if (!us) /* sections already running compare with the new start */
		WRITE_ONCE(csect_gen, csect_gen + 1);
	pthread_mutex_unlock(&max_lock);
}

void uft_csect_clear_trace(uint32_t buffer)
{
	pthread_mutex_lock(&max_lock);
	struct uft_csect_trace *old = max_tr[buffer];
	max_tr[buffer] = NULL;
	pthread_mutex_unlock(&max_lock);
	uft_csect_trace_free(old);
	free_deferred();
}

int uft_csect_with_max(uint32_t buffer, void (*fn)(void *ctx, const struct uft_csect_trace *tr),
		       void *ctx)
{
	pthread_mutex_lock(&max_lock);
	const struct uft_csect_trace *tr = max_tr[buffer];
	if (tr)
		fn(ctx, tr);
	pthread_mutex_unlock(&max_lock);
	return tr != NULL;
}
