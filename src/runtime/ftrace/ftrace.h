/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Function tracing by patching (the kernel's dynamic ftrace, in user space).
 * Code built with -fpatchable-function-entry=5 starts every function with a
 * 5-byte NOP sled listed in the object's __patchable_function_entries
 * section. ftrace_sites.c finds the sleds, names them and builds their stubs,
 * ftrace_patch.c turns the selected ones into calls or jumps to
 * ftrace_tramp.S and back with every other thread stopped, ftrace_hooks.c
 * (and ftrace_fast.c, the graph tracer's common case) writes the records and
 * ftrace_unwind.c keeps C++ exceptions working under the graph tracer. */
#ifndef UFT_LIB_FTRACE_H
#define UFT_LIB_FTRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

#define UFT_FTRACE_SLED UFT_ARCH_SLED /* bytes: one call */
#define UFT_FTRACE_MAX_OBJS 1024      /* loaded objects with sleds */

/* One sled. What the tracers want of it is one bit per buffer, written by the
 * tree under its lock and read by the hooks with relaxed loads. */
struct uft_ftrace_site {
	uintptr_t addr;	  /* the sled */
	uintptr_t func;	  /* the function's entry (its symbol's address) */
	const char *name; /* the function's name */
	uint8_t orig[UFT_FTRACE_SLED];
	uint8_t patched;	   /* enum uft_ftrace_sled: what the sled holds */
	uint8_t graph_start;	   /* in set_graph_function */
	uint8_t graph_skip;	   /* in set_graph_notrace */
	uint8_t touched;	   /* ever patched (touched_functions) */
	uint32_t fn_mask;	   /* buffers the function tracer writes */
	uint32_t graph_mask;	   /* buffers the graph tracer writes */
	uint32_t probe;		   /* buffers with a function command on it */
	uint8_t want;		   /* UFT_WANT_*: the stack tracer, the profiler */
	struct uft_prof_cnt *prof; /* the profiler's counts, one per CPU */
};

/* What the tracers that write no records want of a site (its `want`). */
enum {
	UFT_WANT_STACK = 1,
	UFT_WANT_PROF = 2,
	UFT_WANT_DPROBE = 4, /* entry probes (ftrace_probe.c) */
	UFT_WANT_RPROBE = 8, /* return probes: the return hooked */
};

/* The function profiler's counts of one function on one CPU (trace_stat/
 * functionN): hits, and the time spent in it and its square (ns). */
struct uft_prof_cnt {
	uint64_t hits, time, time2;
};

/* What a sled holds. A function only traced by the function tracer (or
 * with a function command) calls uft_ftrace_caller, which returns into its
 * body. A function under the graph tracer jumps to its own stub, which calls
 * uft_ftrace_graph_caller, then calls the body, so that every return goes
 * where the processor's return prediction expects (see ftrace_tramp.S). */
enum uft_ftrace_sled { UFT_SLED_NOP, UFT_SLED_CALL, UFT_SLED_STUB };

/* Stubs: 16 bytes each after a 16-byte header on each 4 KiB page of an
 * object's stub area, the header holding the page's first site. */
#define UFT_FTRACE_STUB UFT_ARCH_STUB
#define UFT_FTRACE_STUB_PAGE 4096
#define UFT_FTRACE_STUBS_PER_PAGE (UFT_FTRACE_STUB_PAGE / UFT_FTRACE_STUB - 1)

/* A loaded object with sleds. Its sites are sorted by address and never move
 * or go away (the hooks read them without a lock). */
struct uft_ftrace_obj {
	char *path;	  /* the file */
	const char *mod;  /* its name in available_filter_functions; NULL: the program */
	uintptr_t base;	  /* load bias */
	uintptr_t lo, hi; /* range of its sleds */
	uintptr_t stub;	  /* jumps to the trampolines within reach of the sleds */
	uintptr_t stubs;  /* the first page of its sites' stubs */
	struct uft_ftrace_site *sites;
	uint32_t nr;
	bool gone; /* unloaded since it was scanned: never patched again */
};

extern struct uft_ftrace_obj uft_ftrace_objs[UFT_FTRACE_MAX_OBJS];
extern uint32_t uft_ftrace_nr_objs; /* published with a release store */

/* Adds the sleds of objects loaded since the last scan and marks unloaded
 * ones gone. Returns the number of usable sites or -errno. */
int uft_ftrace_scan(void);
/* Bumped (release) after an object is marked gone: a site found before is
 * to be looked up again. */
extern uint32_t uft_ftrace_sites_gen;
/* The stub of a site, and the site of the address a stub's first call
 * returns to. */
uintptr_t uft_ftrace_stub_of(const struct uft_ftrace_obj *o, const struct uft_ftrace_site *s);
static inline struct uft_ftrace_site *uft_ftrace_stub_site(uintptr_t ret)
{
	uintptr_t page = ret & ~(uintptr_t)(UFT_FTRACE_STUB_PAGE - 1);
	struct uft_ftrace_site *first = *(struct uft_ftrace_site **)page;
	return first + ((ret - page) / UFT_FTRACE_STUB - 1);
}
/* The site whose call returns to `ret`, or NULL. Lock-free. */
__attribute__((visibility("hidden"))) struct uft_ftrace_site *uft_ftrace_site_at(uintptr_t ret);

/* Patches or restores every site whose wish changed (any mask set), with the
 * other threads stopped while none is inside a hook; with `sync` the threads
 * are stopped even when no site changes, so that on return no hook is still
 * acting on what the masks said before, and `stopped` (if not NULL) runs
 * while they are: it must not allocate or lock. 0 or -errno (-EBUSY: a
 * thread could not be stopped; nothing changed). */
int uft_ftrace_apply(bool sync, void (*stopped)(void *ctx), void *ctx);
/* Inside `stopped`: the interrupted contexts (ucontext_t) of the threads
 * stopped in the stop handler, NULL for one stopped as it left a hook; the
 * count. A context may be changed: the thread resumes with it. */
size_t uft_ftrace_stopped_contexts(void ***ucs);
/* Moves a signal context whose program counter is strictly inside a sled
 * to the sled's end (which skips only NOPs, or one traced call): a thread
 * must never resume between gcc's one-byte NOPs once they may have become
 * a call. For every handler that returns to an interrupted context. */
__attribute__((visibility("hidden"))) void uft_ftrace_skip_sled(void *uc);
/* Whether the calling thread is inside a hook (for the stop handler). */
bool uft_ftrace_in_hook(void);
/* Called by the hooks as they leave: stops the thread if it was signaled
 * to stop while inside (ftrace_patch.c). */
extern __thread uint32_t uft_ftrace_stop_pending
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
__attribute__((visibility("hidden"))) void uft_ftrace_stop_now(void);
static inline void uft_ftrace_stop_point(void)
{
	if (__builtin_expect(uft_ftrace_stop_pending != 0, 0))
		uft_ftrace_stop_now();
}
/* Marks the calling thread as inside a hook (so it traces nothing, e.g. a
 * traced function libc calls while the patcher has the others stopped);
 * returns the previous mark for uft_ftrace_unhold(). */
uint32_t uft_ftrace_hold(void);
void uft_ftrace_unhold(uint32_t prev);

/* set_ftrace_pid of each buffer: NULL (every thread) or the tids. A hook
 * reads a list inside a grace section (runtime/core/grace.h); a replaced
 * list is freed after a grace period. */
struct uft_ftrace_pids {
	uint32_t nr;
	int32_t tid[];
};
extern struct uft_ftrace_pids *uft_ftrace_pids[32] __attribute__((visibility("hidden")));
/* set_ftrace_notrace_pid of each buffer: NULL, or the tids never traced. */
extern struct uft_ftrace_pids *uft_ftrace_no_pids[32] __attribute__((visibility("hidden")));
/* The buffers with either list set (bit per buffer): a hook opens a grace
 * section and loads the lists only for those. */
extern uint32_t uft_ftrace_pid_bufs __attribute__((visibility("hidden")));
/* The buffers whose func_stack_trace option is set: the function tracer
 * follows each record with the call's stack. */
extern uint32_t uft_ftrace_fn_stack __attribute__((visibility("hidden")));
/* max_graph_depth (0: unlimited) and the number of set_graph_function sites
 * (0: every function starts a graph). */
extern uint32_t uft_ftrace_max_depth __attribute__((visibility("hidden")));
extern uint32_t uft_ftrace_graph_starts __attribute__((visibility("hidden")));

/* A function command's site was hit (tfs_ftrace.c runs the commands); `ra`
 * is the return address into the trampoline, where a stack trace starts.
 * Called inside a grace section: the command list it reads is freed after
 * a grace period once replaced. */
void uft_ftrace_probe_hit(const struct uft_ftrace_site *s, uint32_t buffers, void *ra);

/* The function profiler (ftrace_profile.c): on while set; graph-time off
 * leaves out the time of profiled callees; the number of CPUs counted
 * (a CPU beyond counts as the last). */
extern uint32_t uft_ftrace_prof_on __attribute__((visibility("hidden")));
extern uint32_t uft_ftrace_prof_graph_time __attribute__((visibility("hidden")));
extern uint32_t uft_ftrace_prof_cpus __attribute__((visibility("hidden")));

/* The stack tracer (ftrace_stack.c): on while set; the deepest stack seen
 * (stack_max_size, bytes) and its call chain, written under `lock` (a
 * writer that finds it taken skips its sample, a reader waits). */
#define UFT_STACK_MAX_ENTRIES 128
struct uft_stack_max {
	uint32_t lock;
	uint32_t nr;
	uint64_t size;
	uintptr_t pc[UFT_STACK_MAX_ENTRIES];   /* [0] the traced function */
	uint32_t depth[UFT_STACK_MAX_ENTRIES]; /* bytes from the stack's top */
};
extern uint32_t uft_ftrace_stack_on __attribute__((visibility("hidden")));
extern struct uft_stack_max uft_ftrace_stack_max __attribute__((visibility("hidden")));

/* Called by the long jumps: a jump out of a signal handler that interrupted
 * the hooks leaves them. */
void uft_ftrace_after_jump(void);
/* Puts every hooked return address of the thread back (before a stack is
 * unwound); those calls get no exit record. */
void uft_ftrace_unhook_returns(void);

/* A thread exits: its shadow stack goes back to a pool. */
void uft_ftrace_thread_exit(void);

/* Registers the ftrace events function, funcgraph_entry and funcgraph_exit. */
void uft_ftrace_events_init(void);
/* One function record (ip <- parent) into a buffer, outside the hooks: the
 * section tracers' start and end lines (runtime/latency/csect.c). Returns
 * the record's TSC when the inline path wrote it, else 0. */
uint64_t uft_ftrace_write_fn(uint32_t buffer, uintptr_t ip, uintptr_t parent);

/* A leaf graph call of ip (entry and exit, no time) into a buffer: the
 * section tracers' ends with display-graph. */
void uft_ftrace_write_leaf(uint32_t buffer, uintptr_t ip);

/* The signal that stops threads while sleds change. */
#define UFT_FTRACE_STOP_SIG (SIGRTMAX - 1)

#endif
