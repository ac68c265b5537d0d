/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's timerlat and osnoise tracers in a process's own tree: the
 * measuring threads of src/latency/ run inside the process and write the
 * kernel's ftrace:timerlat and ftrace:osnoise records into the buffer whose
 * current_tracer names them; the osnoise/ directory holds their knobs
 * (docs/design/latency.md, "timerlat and osnoise in the tree"). */
#ifndef UFT_LIB_OSN_TRACER_H
#define UFT_LIB_OSN_TRACER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define UFT_ID_OSNOISE 17
#define UFT_ID_TIMERLAT 18
/* The signal of timerlat's per-thread timers (its handler is the IRQ
 * context; docs/design/latency.md): next to the ftrace stop signal. */
#define UFT_TIMERLAT_SIG (SIGRTMAX - 2)

enum { UFT_OSN_NONE, UFT_OSN_TIMERLAT, UFT_OSN_OSNOISE };

/* Registers the two records' events (tracefs.c at start-up). */
void uft_osn_events_init(void);
/* Makes `buffer` run kind (UFT_OSN_*; NONE: it leaves): the threads start
 * with the first buffer and stop with the last; buffers running the same
 * one share them and each gets every record. -EBUSY when another buffer
 * runs the other one (one workload at a time, as the kernel's), else 0 or
 * -errno with nothing running. */
int uft_osn_set(uint32_t buffer, int kind);
/* -EBUSY when another buffer than `buffer` runs the other of the two. */
int uft_osn_claim(uint32_t buffer, int kind);
/* The record's text after the line's prefix (false: not one of the two). */
bool uft_osn_render(FILE *f, const void *data, uint32_t len);
/* The tracers' own column header after "# tracer: NAME\n#\n". */
void uft_osn_header(FILE *f, int kind);
/* The osnoise/ knobs (microseconds), as the kernel's defaults; changed
 * under tfs_lock, then uft_osn_restart() applies them. */
#define UFT_OSN_MAX_CPUS 1024
struct uft_osn_cfg {
	uint8_t cpus[UFT_OSN_MAX_CPUS / 8]; /* osnoise/cpus */
	uint64_t period_us, runtime_us;
	uint64_t stop_us, stop_total_us;
	uint64_t timerlat_period_us;
	uint64_t print_stack;
	uint32_t options; /* UFT_OSN_OPT_* */
};
enum {
	UFT_OSN_OPT_WORKLOAD = 1u << 0,
	UFT_OSN_OPT_PANIC_ON_STOP = 1u << 1,
	UFT_OSN_OPT_PREEMPT_DISABLE = 1u << 2,
	UFT_OSN_OPT_IRQ_DISABLE = 1u << 3,
	UFT_OSN_OPT_DEFAULTS = UFT_OSN_OPT_WORKLOAD,
};
extern struct uft_osn_cfg uft_osn_cfg __attribute__((visibility("hidden")));
/* osnoise/cpus starts as every CPU of the machine. */
void uft_osn_cfg_init(void);
/* The running tracer's threads start again with the knobs' new values. */
int uft_osn_restart(void);
/* osnoise/per_cpu/cpuN/timerlat_fd: open (-EINVAL unless timerlat runs
 * with NO_OSNOISE_WORKLOAD, -EBUSY when the CPU's file is open), each read
 * one activation (returns 0 bytes, or -errno), release. */
int uft_osn_fd_open(int cpu);
ssize_t uft_osn_fd_read(int cpu);
void uft_osn_fd_release(int cpu);
/* Which of the two a tracer name is (UFT_OSN_NONE: neither). */
int uft_osn_kind(const char *tracer);

#endif
