/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* timerlat and osnoise as tracers of the process's tree (osn_tracer.h): the
 * engine's threads (src/latency/) measure, and their per-sample and
 * per-period callbacks write the kernel's records into the tracer's buffer.
 * A stop threshold crossed turns that buffer's tracing off and keeps what it
 * holds, as the kernel's stop_tracing_us does; the threads go on measuring
 * until the tracer changes. */
#define _GNU_SOURCE
#include "runtime/latency/osn_tracer.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "latency/osn_detect.h"
#include "latency/osnoise.h"
#include "latency/timerlat.h"
#include "runtime/core/buffer.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/latency/csect.h"
#include "runtime/latency/osn_events.h"
#include "util/atomics.h"

struct uft_osn_cfg uft_osn_cfg = {
    .period_us = 1000000,
    .runtime_us = 1000000,
    .timerlat_period_us = 1000,
    .options = UFT_OSN_OPT_DEFAULTS,
};

/* ---- records: the kernel's struct osnoise_entry and timerlat_entry ---- */

struct osn_rec {
	struct uft_common_entry common;
	uint64_t noise, runtime, max_sample; /* us */
	uint32_t hw_count, nmi_count, irq_count, softirq_count, thread_count;
};
struct tl_rec {
	struct uft_common_entry common;
	uint32_t seqnum;
	int32_t context;	/* 0 irq, 1 thread, 2 user-ret */
	uint64_t timer_latency; /* ns */
};

static volatile uint16_t osn_gate, tl_gate;
static const struct uft_field osn_fields[] = {
    {"u64", "noise", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"u64", "runtime", 16, 8, 0, UFT_FIELD_SCALAR, 0},
    {"u64", "max_sample", 24, 8, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "hw_count", 32, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "nmi_count", 36, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "irq_count", 40, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "softirq_count", 44, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "thread_count", 48, 4, 0, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field tl_fields[] = {
    {"unsigned int", "seqnum", 8, 4, 0, UFT_FIELD_SCALAR, 0},
    {"int", "context", 12, 4, 1, UFT_FIELD_SCALAR, 0},
    {"u64", "timer_latency", 16, 8, 0, UFT_FIELD_SCALAR, 0},
};
static struct uft_event osn_ev = {
    .magic = UFT_EVENT_MAGIC,
    .style = UFT_STYLE_STRUCT,
    .gate = &osn_gate,
    .system = "ftrace",
    .name = "osnoise",
    .fields = osn_fields,
    .nr_fields = sizeof(osn_fields) / sizeof(osn_fields[0]),
    .fixed_size = sizeof(struct osn_rec),
    .print_fmt = "\"noise:%llu\\tmax_sample:%llu\\thw:%u\\tnmi:%u\\tirq:%u\\tsoftirq:%u\\tthread:%u"
		 "\\n\", REC->noise, REC->max_sample, REC->hw_count, REC->nmi_count, "
		 "REC->irq_count, REC->softirq_count, REC->thread_count",
    .file = __FILE__,
    .line = __LINE__,
};
static struct uft_event tl_ev = {
    .magic = UFT_EVENT_MAGIC,
    .style = UFT_STYLE_STRUCT,
    .gate = &tl_gate,
    .system = "ftrace",
    .name = "timerlat",
    .fields = tl_fields,
    .nr_fields = sizeof(tl_fields) / sizeof(tl_fields[0]),
    .fixed_size = sizeof(struct tl_rec),
    .print_fmt = "\"seq:%u\\tcontext:%d\\ttimer_latency:%llu\\n\", REC->seqnum, REC->context, "
		 "REC->timer_latency",
    .file = __FILE__,
    .line = __LINE__,
};

void uft_osn_events_init(void)
{
	uft_registry_add_fixed(&osn_ev, UFT_ID_OSNOISE);
	uft_registry_add_fixed(&tl_ev, UFT_ID_TIMERLAT);
	uft_osn_noise_events_init();
}

/* ---- the running tracer ---- */

static pthread_mutex_t osn_lock = PTHREAD_MUTEX_INITIALIZER;
static int cur_kind;
static uint32_t cur_mask; /* the buffers running cur_kind (one bit each) */

/* The lowest buffer of a non-empty mask. */
static inline uint32_t first_buffer(uint32_t mask)
{
	return (uint32_t)__builtin_ctz(mask);
}
static bool running; /* threads started (not with NO_OSNOISE_WORKLOAD) */
static struct timerlat tl;
static struct osnoise on;
static __thread uint32_t seqnum;
static __thread bool named, irq_done; /* this activation's irq record written */

/* The kernel's thread names, set before the thread's first record so the
 * buffer's comm is it. */
static void name_thread(const char *kind, int cpu)
{
	if (named)
		return;
	char name[16];
	snprintf(name, sizeof(name), "%s/%d", kind, cpu);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	named = true;
}

/* A stop threshold crossed: every buffer running the tracer stops, as the
 * kernel's osnoise_stop_tracing() stops every instance registered. */
static void stop_tracing(uint32_t mask)
{
	for (uint32_t m = mask; m; m &= m - 1) {
		uint32_t b = first_buffer(m);
		uft_store_seq_cst(&uft_buffers[b].on, 0);
		if (b == 0)
			uft_buffer_update_fast();
	}
}

static void tl_write_seq(uint32_t b, uint32_t seq, int32_t context, uint64_t lat_ns)
{
	struct tl_rec r;
	memset(&r, 0, sizeof(r));
	r.common.type = UFT_ID_TIMERLAT;
	r.seqnum = seq;
	r.context = context;
	r.timer_latency = lat_ns;
	for (uint32_t m = b; m; m &= m - 1)
		uft_write_to_buffer(first_buffer(m), &tl_ev, &r, sizeof(r), NULL, 0);
}

static void tl_write(uint32_t b, int32_t context, uint64_t lat_ns)
{
	tl_write_seq(b, seqnum, context, lat_ns);
}

/* The stack from the measuring thread's loop outwards (the frames above
 * the caller's). */
static __attribute__((noinline)) void record_stack(uint32_t b)
{
	for (uint32_t m = b; m; m &= m - 1)
		uft_stack_record(first_buffer(m), __builtin_return_address(0));
}

/* The activation's first record, from the handler's clock read: the
 * kernel's context irq, with its own limit, stop_tracing_us; crossing it
 * stops tracing there, after the stack when print_stack asks for it at
 * that latency (the kernel's timerlat_irq()). The kernel compares whole
 * microseconds with >=, as here. */
static void tl_irq_sample(void *ctx, int cpu, uint64_t lat_ns)
{
	(void)ctx;
	name_thread("timerlat", cpu);
	uint32_t b = READ_ONCE(cur_mask);
	++seqnum;
	irq_done = true;
	tl_write(b, 0, lat_ns);
	uint64_t stop = READ_ONCE(uft_osn_cfg.stop_us), ps = READ_ONCE(uft_osn_cfg.print_stack);
	if (stop && lat_ns / 1000 >= stop) {
		if (ps && stop <= ps)
			record_stack(b);
		stop_tracing(b);
	}
}

static void tl_sample(void *ctx, int cpu, uint64_t lat_ns)
{
	(void)ctx;
	name_thread("timerlat", cpu);
	uint32_t b = READ_ONCE(cur_mask);
	if (!irq_done)
		++seqnum; /* no irq record (the signal was lost): a new activation */
	irq_done = false;
	tl_write(b, 1, lat_ns);
	/* print_stack: the kernel's stack record after the thread record of
	 * an activation above it. What the kernel saves is the IRQ-time stack
	 * of the code the timer interrupted; here it is the measuring thread's
	 * own, from its wait (the code that delayed it ran elsewhere). */
	uint64_t ps = READ_ONCE(uft_osn_cfg.print_stack);
	if (ps && lat_ns / 1000 >= ps)
		record_stack(b);
	/* the thread latency's limit, as the kernel's stop_tracing_total_us */
	uint64_t stop = READ_ONCE(uft_osn_cfg.stop_total_us);
	if (stop && lat_ns / 1000 >= stop)
		stop_tracing(b);
}

static void osn_period(void *ctx, int cpu, const struct osnoise_period *p)
{
	(void)ctx;
	name_thread("osnoise", cpu);
	uint32_t b = READ_ONCE(cur_mask);
	struct osn_rec r;
	memset(&r, 0, sizeof(r));
	r.common.type = UFT_ID_OSNOISE;
	r.noise = p->noise / 1000;
	r.runtime = p->runtime / 1000;
	r.max_sample = p->max_single / 1000;
	r.nmi_count = (uint32_t)p->nmi;
	r.irq_count = (uint32_t)p->irq;
	r.softirq_count = (uint32_t)p->sirq;
	r.thread_count = (uint32_t)p->thread;
	for (uint32_t m = b; m; m &= m - 1)
		uft_write_to_buffer(first_buffer(m), &osn_ev, &r, sizeof(r), NULL, 0);
	/* the period's total, at its end as the kernel's (the single sample's
	 * limit is checked at the sample, osn_noise()) */
	uint64_t total = READ_ONCE(uft_osn_cfg.stop_total_us);
	if (total && p->noise > total * 1000)
		stop_tracing(b);
}

/* Each noise sample, as the kernel's osnoise:sample_threshold; its
 * interference count is the thread's preemptions inside the gap (the
 * interrupts in it cannot be told from user space). */
static void osn_noise(void *ctx, int cpu, uint64_t start, uint64_t gap, uint64_t switches)
{
	(void)ctx;
	name_thread("osnoise", cpu);
	uint32_t b = READ_ONCE(cur_mask);
	for (uint32_t m = b; m; m &= m - 1)
		uft_osn_sample_threshold(first_buffer(m), start, gap, switches);
	/* stop_tracing_us: at the sample, after its event, as the kernel's */
	uint64_t stop = READ_ONCE(uft_osn_cfg.stop_us);
	if (stop && gap > stop * 1000)
		stop_tracing(b);
}

static unsigned nr_cpu_bits(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	if (n < 1)
		n = 1;
	return n > UFT_OSN_MAX_CPUS ? UFT_OSN_MAX_CPUS : (unsigned)n;
}

static void stop_locked(void)
{
	if (!running)
		return;
	if (cur_kind == UFT_OSN_TIMERLAT) {
		timerlat_stop(&tl);
		timerlat_free(&tl);
	} else {
		osnoise_stop(&on);
		osnoise_free(&on);
	}
	running = false;
}

static int start_locked(void)
{
	const struct uft_osn_cfg *c = &uft_osn_cfg;
	if (!(c->options & UFT_OSN_OPT_WORKLOAD))
		return 0; /* the workload is the user's (NO_OSNOISE_WORKLOAD) */
	int rc;
	if (cur_kind == UFT_OSN_TIMERLAT) {
		struct timerlat_opts o = {
		    .cpus = c->cpus,
		    .nbits = nr_cpu_bits(),
		    .period_ns = c->timerlat_period_us * 1000,
		    .sched = {SCHED_FIFO, 95}, /* the kernel's timerlat threads */
		    .sample = tl_sample,
		    .irq_signo = UFT_TIMERLAT_SIG,
		    .irq_sample = tl_irq_sample,
		};
		rc = timerlat_start(&tl, &o);
	} else {
		struct osnoise_opts o = {
		    .cpus = c->cpus,
		    .nbits = nr_cpu_bits(),
		    .period_ns = c->period_us * 1000,
		    .runtime_ns = c->runtime_us * 1000,
		    .thresh_ns = (uint64_t)READ_ONCE(uft_tracing_thresh_us) * 1000,
		    .sched = {SCHED_OTHER, 0},
		    .period = osn_period,
		    .noise = osn_noise,
		};
		rc = osnoise_start(&on, &o);
	}
	running = rc == 0;
	return rc;
}

/* A fork child has none of its parent's threads: they are forgotten (never
 * joined), and the child measures once its tracer is set again. */
static void after_fork_child(void)
{
	pthread_mutex_init(&osn_lock, NULL);
	if (!running)
		return;
	if (cur_kind == UFT_OSN_TIMERLAT) {
		for (unsigned i = 0; i < tl.n; i++)
			tl.cpu[i].started = false;
		timerlat_free(&tl);
	} else {
		for (unsigned i = 0; i < on.n; i++)
			on.cpu[i].started = false;
		osnoise_free(&on);
	}
	running = false;
	cur_kind = UFT_OSN_NONE;
}

static void cfg_init(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	pthread_atfork(NULL, NULL, after_fork_child);
	unsigned n = nr_cpu_bits();
	for (unsigned i = 0; i < n; i++)
		uft_osn_cfg.cpus[i / 8] |= (uint8_t)(1u << i % 8);
}

int uft_osn_set(uint32_t buffer, int kind)
{
	uint32_t bit = 1u << buffer;
	pthread_mutex_lock(&osn_lock);
	cfg_init();
	int rc = 0;
	if (!kind) {
		/* the buffer leaves; the threads stop with the last one */
		if (cur_mask & bit) {
			WRITE_ONCE(cur_mask, cur_mask & ~bit);
			if (!cur_mask) {
				stop_locked();
				cur_kind = UFT_OSN_NONE;
			}
		}
	} else if (cur_kind && cur_kind != kind && (cur_mask & ~bit)) {
		rc = -EBUSY; /* the other one runs elsewhere: one workload */
	} else if (cur_kind == kind && (cur_mask & ~bit)) {
		/* another instance of the same tracer shares the threads and
		 * gets their records too, as the kernel's registered instances */
		WRITE_ONCE(cur_mask, cur_mask | bit);
	} else {
		stop_locked();
		cur_kind = kind;
		WRITE_ONCE(cur_mask, bit);
		rc = start_locked();
		if (rc) {
			cur_kind = UFT_OSN_NONE;
			WRITE_ONCE(cur_mask, 0);
		}
	}
	pthread_mutex_unlock(&osn_lock);
	return rc;
}

int uft_osn_claim(uint32_t buffer, int kind)
{
	pthread_mutex_lock(&osn_lock);
	int rc = cur_kind && cur_kind != kind && (cur_mask & ~(1u << buffer)) ? -EBUSY : 0;
	pthread_mutex_unlock(&osn_lock);
	return rc;
}

int uft_osn_restart(void)
{
	pthread_mutex_lock(&osn_lock);
	int rc = 0;
	if (cur_kind) {
		stop_locked();
		rc = start_locked();
	}
	pthread_mutex_unlock(&osn_lock);
	return rc;
}

void uft_osn_cfg_init(void)
{
	pthread_mutex_lock(&osn_lock);
	cfg_init();
	pthread_mutex_unlock(&osn_lock);
}

int uft_osn_kind(const char *tracer)
{
	if (strcmp(tracer, "timerlat") == 0)
		return UFT_OSN_TIMERLAT;
	if (strcmp(tracer, "osnoise") == 0)
		return UFT_OSN_OSNOISE;
	return UFT_OSN_NONE;
}

/* ---- osnoise/per_cpu/cpuN/timerlat_fd: the workload left to user space ---- */

/* One reader per CPU, as the kernel's osn_var->pid. */
static struct {
	bool open, reading, sampling;
	uint32_t count;
	uint64_t abs_period; /* ns */
} fd_cpu[UFT_OSN_MAX_CPUS];

int uft_osn_fd_open(int cpu)
{
	if (cpu < 0 || cpu >= UFT_OSN_MAX_CPUS)
		return -EINVAL;
	pthread_mutex_lock(&osn_lock);
	int rc = 0;
	/* timerlat set and NO_OSNOISE_WORKLOAD, as the kernel asks */
	if (cur_kind != UFT_OSN_TIMERLAT || (uft_osn_cfg.options & UFT_OSN_OPT_WORKLOAD))
		rc = -EINVAL;
	else if (fd_cpu[cpu].open)
		rc = -EBUSY;
	else
		rc = timerlat_irq_install(UFT_TIMERLAT_SIG);
	if (rc == 0) {
		memset(&fd_cpu[cpu], 0, sizeof(fd_cpu[cpu]));
		fd_cpu[cpu].open = true;
	}
	pthread_mutex_unlock(&osn_lock);
	return rc;
}

void uft_osn_fd_release(int cpu)
{
	pthread_mutex_lock(&osn_lock);
	memset(&fd_cpu[cpu], 0, sizeof(fd_cpu[cpu]));
	pthread_mutex_unlock(&osn_lock);
}

/* The kernel's timerlat_fd_read(): the return from the previous activation
 * (user-ret), then the wait for the next period and its irq and thread
 * records. The waiting thread is the tree's (the door's) and the reader
 * resumes when the read returns: it is pinned to the CPU for the wait, so
 * the records carry the CPU as the kernel's do. */
ssize_t uft_osn_fd_read(int cpu)
{
	if (uft_xchg(&fd_cpu[cpu].reading, true))
		return -EBUSY; /* one read at a time on a CPU's file */
	uint32_t b = READ_ONCE(cur_mask);
	uint64_t period = READ_ONCE(uft_osn_cfg.timerlat_period_us) * 1000;
	uint64_t now = lat_now_ns(), total = READ_ONCE(uft_osn_cfg.stop_total_us);
	if (fd_cpu[cpu].sampling) {
		uint64_t diff = now - fd_cpu[cpu].abs_period;
		tl_write_seq(b, fd_cpu[cpu].count, 2, diff);
		if (total && diff / 1000 >= total)
			stop_tracing(b);
	} else {
		fd_cpu[cpu].abs_period = now;
		fd_cpu[cpu].sampling = true;
	}
	cpu_set_t was, one;
	bool pinned = sched_getaffinity(0, sizeof(was), &was) == 0;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pinned = pinned && sched_setaffinity(0, sizeof(one), &one) == 0;
	uint64_t next = fd_cpu[cpu].abs_period + period;
	while (next < now)
		next += period;
	fd_cpu[cpu].abs_period = next;
	uint32_t seq = ++fd_cpu[cpu].count;
	uint64_t irq;
	int rc = timerlat_irq_wait(UFT_TIMERLAT_SIG, next, &irq);
	now = lat_now_ns();
	if (pinned)
		sched_setaffinity(0, sizeof(was), &was);
	if (rc == 0) {
		uint64_t stop = READ_ONCE(uft_osn_cfg.stop_us);
		tl_write_seq(b, seq, 0, irq - next);
		if (stop && (irq - next) / 1000 >= stop)
			stop_tracing(b);
		tl_write_seq(b, seq, 1, now - next);
		if (total && (now - next) / 1000 >= total)
			stop_tracing(b);
	}
	uft_store_seq_cst(&fd_cpu[cpu].reading, false);
	return rc == -ETIMEDOUT ? 0 : rc;
}

/* ---- text ---- */

bool uft_osn_render(FILE *f, const void *data, uint32_t len)
{
	const struct uft_common_entry *e = data;
	if (len < sizeof(*e))
		return false;
	if (e->type == UFT_ID_TIMERLAT && len >= sizeof(struct tl_rec)) {
		struct tl_rec r;
		memcpy(&r, data, sizeof(r));
		static const char *const ctx[] = {"irq", "thread", "user-ret"};
		const char *c = r.context >= 0 && r.context < 3 ? ctx[r.context] : "?";
		fprintf(f, "#%-5u context %6s timer_latency %9llu ns", r.seqnum, c,
			(unsigned long long)r.timer_latency);
		return true;
	}
	if (e->type == UFT_ID_OSNOISE && len >= sizeof(struct osn_rec)) {
		struct osn_rec r;
		memcpy(&r, data, sizeof(r));
		uint64_t e5 = osn_available_e5(r.runtime, r.noise);
		fprintf(f, "%llu %10llu %3llu.%05llu %7llu", (unsigned long long)r.runtime,
			(unsigned long long)r.noise, (unsigned long long)(e5 / 100000),
			(unsigned long long)(e5 % 100000), (unsigned long long)r.max_sample);
		fprintf(f, " %6u %6u %6u %6u %6u", r.hw_count, r.nmi_count, r.irq_count,
			r.softirq_count, r.thread_count);
		return true;
	}
	return false;
}

/* The kernel's headers (non-RT), byte for byte: the osnoise one prints its
 * "%%" as the kernel's seq_puts() does. */
void uft_osn_header(FILE *f, int kind)
{
	if (kind == UFT_OSN_OSNOISE)
		fputs("#                                _-----=> irqs-off\n"
		      "#                               / _----=> need-resched\n"
		      "#                              | / _---=> hardirq/softirq\n"
		      "#                              || / _--=> preempt-depth\n"
		      "#                              ||| / _-=> migrate-disable                   "
		      "      MAX\n"
		      "#                              |||| /     delay                             "
		      "      SINGLE      Interference counters:\n"
		      "#                              |||||               RUNTIME      NOISE  %% "
		      "OF CPU  NOISE    +-----------------------------+\n"
		      "#           TASK-PID      CPU# |||||   TIMESTAMP    IN US       IN US  "
		      "AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD\n"
		      "#              | |         |   |||||      |           |             |    |  "
		      "          |      |      |      |      |      |\n",
		      f);
	else
		fputs("#                                _-----=> irqs-off\n"
		      "#                               / _----=> need-resched\n"
		      "#                              | / _---=> hardirq/softirq\n"
		      "#                              || / _--=> preempt-depth\n"
		      "#                              ||| / _-=> migrate-disable\n"
		      "#                              |||| /     delay\n"
		      "#                              |||||            ACTIVATION\n"
		      "#           TASK-PID      CPU# |||||   TIMESTAMP   ID            CONTEXT    "
		      "             LATENCY\n"
		      "#              | |         |   |||||      |         |                  |    "
		      "                   |\n",
		      f);
}
