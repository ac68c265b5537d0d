/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internals of the tracefs tree shared by its files: instances, resolved
 * paths, the file table entries and the error log. */
#ifndef UFT_LIB_TFS_H
#define UFT_LIB_TFS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "runtime/core/buffer.h"
#include "runtime/tracefs/tracefs.h"

#define TFS_NAME_MAX 64
#define TFS_ERRLOG_MAX 8

struct tfs_err {
	uint64_t ts_ns;
	char *loc;
	char *cmd;
	char *msg;
	unsigned pos;
};

struct tfs_snapshot;

/* An instance: the top of the tree (buffer 0) or a directory under
 * instances/, each with its own buffer, events, options and error log. */
struct tfs_inst {
	char name[TFS_NAME_MAX]; /* "" for the top */
	uint32_t buffer;	 /* index in uft_buffers */
	uint64_t opts;		 /* option bits (tfs_options.c) */
	unsigned busy;		 /* open handles */
	struct tfs_err log[TFS_ERRLOG_MAX];
	unsigned log_n;	   /* entries in use */
	unsigned log_next; /* slot the next entry goes to */
	int *pids;	   /* set_event_pid */
	size_t nr_pids;
	bool pids_emptied; /* set_event_pid emptied by exiting threads: none match */
	int *no_pids;	   /* set_event_notrace_pid */
	size_t nr_no_pids;
	struct tfs_snapshot *snap; /* NULL: snapshot freed */
};

extern pthread_mutex_t tfs_lock;
/* Lets go of tfs_lock, after applying the thread joins and leaves that
 * found it taken (tracefs.c). Every holder lets go through it. */
void tfs_unlock(void);
extern struct tfs_inst *tfs_insts[UFT_MAX_BUFFERS]; /* [0] the top */

/* Directory kinds. */
enum tfs_dir {
	TFS_D_ROOT = 1,	  /* the top, or an instance's directory */
	TFS_D_INSTANCES,  /* instances/ */
	TFS_D_EVENTS,	  /* events/ */
	TFS_D_SYS,	  /* events/SYSTEM/ */
	TFS_D_EVENT,	  /* events/SYSTEM/EVENT/ */
	TFS_D_OPTIONS,	  /* options/ */
	TFS_D_PER_CPU,	  /* per_cpu/ */
	TFS_D_CPU,	  /* per_cpu/cpuN/ */
	TFS_D_TRACE_STAT, /* trace_stat/ (the top only) */
	TFS_D_OSNOISE,	  /* osnoise/ (the top only) */
	TFS_D_OSN_CPUS,	  /* osnoise/per_cpu/ */
	TFS_D_OSN_CPU,	  /* osnoise/per_cpu/cpuN/ */
};

struct tfs_file;

/* A resolved path. */
struct tfs_node {
	struct tfs_inst *inst;
	int dir;		     /* kind of the directory (the file's directory for files) */
	const struct tfs_file *file; /* NULL for a directory */
	char sys[TFS_NAME_MAX];
	char ev[TFS_NAME_MAX];
	int cpu; /* per_cpu/cpuN */
	int opt; /* options/NAME */
};

/* The text of a file with a show handler, as a read at open gives it
 * (malloc'd in *text, *len bytes; NULL on error). 0 or -errno. */
int tfs_render(const struct tfs_node *n, char **text, size_t *len);

struct uft_tfs_handle {
	struct tfs_node n;
	unsigned flags;
	char *data; /* content generated at open */
	size_t len;
	void *priv; /* file-specific state */
	int intr;
};

/* Where a file appears. */
enum {
	TFS_TOP_ONLY = 1u << 0,	  /* at the top only, not in instances */
	TFS_NOT_FTRACE = 1u << 1, /* not under events/ftrace/ (markers cannot be enabled) */
	/* with TFS_NOT_FTRACE: but under events/ftrace/print (the kernel lets
	 * trace_marker writes run triggers since 4.17) */
	TFS_FTRACE_PRINT = 1u << 2,
};

struct tfs_file {
	const char *name;
	int dir;
	unsigned mode;
	unsigned where;
	/* The text a read returns, generated at open (tfs_lock held). */
	int (*show)(const struct tfs_node *n, FILE *out);
	/* One write: buf is a NUL-terminated copy (tfs_lock held). Returns 0
	 * (all written), a count of bytes taken, or -errno. */
	int (*write)(const struct tfs_node *n, char *buf, size_t len, unsigned oflags);
	/* At open, after the checks (tfs_lock held): O_TRUNC effects, state. */
	int (*open)(struct uft_tfs_handle *h);
	/* Streaming reads (pipes); called without tfs_lock. */
	ssize_t (*read)(struct uft_tfs_handle *h, char *buf, size_t len);
	int (*poll)(struct uft_tfs_handle *h);
	/* poll(2)'s events for the file (POLLIN, POLLPRI ...), when they are
	 * more than "readable" (hist). With peek, what a poll would report,
	 * changing nothing; else the poll itself. Without tfs_lock. */
	unsigned (*poll_events)(struct uft_tfs_handle *h, bool peek);
	/* Reads of the text generated at open, for a file that may generate it
	 * again when read from offset 0 (hist); without tfs_lock. */
	ssize_t (*read_at)(struct uft_tfs_handle *h, char *buf, size_t len, uint64_t off);
	void (*release)(struct uft_tfs_handle *h);
};

/* File tables, each ended by an entry without a name. */
extern const struct tfs_file tfs_core_files[];
extern const struct tfs_file tfs_event_files[];
extern const struct tfs_file tfs_trace_files[];
extern const struct tfs_file tfs_option_files[];
extern const struct tfs_file tfs_marker_files[];
extern const struct tfs_file tfs_trigger_files[];
extern const struct tfs_file tfs_hist_files[];
extern const struct tfs_file tfs_ftrace_pid_files[];
extern const struct tfs_file tfs_synth_files[];
extern const struct tfs_file tfs_user_files[];
/* tfs_user.c: dynamic_events' user-event lines (`u:`, `-:` of one) and
 * their listing. */
bool tfs_user_owns(const char *line);
int tfs_user_line(char *line);
void tfs_user_show(FILE *out);
extern const struct tfs_file tfs_probe_files[];
extern const struct tfs_file tfs_ftrace_files[];
extern const struct tfs_file tfs_cpumask_files[];
extern const struct tfs_file tfs_fprofile_files[];
extern const struct tfs_file tfs_fstack_files[];
extern const struct tfs_file tfs_osnoise_files[];

/* Probe definitions (tfs_probe.c): whether a dynamic_events line is a
 * probe's (not a synthetic event's), running one line written to a file
 * (src: enum uft_probe_src), and the listing of that file. */
bool tfs_probe_owns(const char *line);
int tfs_probe_line(char *line, int src);
void tfs_probe_show(FILE *out, int src);

/* Tracers (tfs_ftrace.c): the instance's current tracer ("nop", "function",
 * "function_graph"); switching clears the buffer; -EINVAL for an unknown
 * name or one the instance cannot run. */
const char *tfs_tracer_name(const struct tfs_inst *in);
int tfs_set_tracer(struct tfs_inst *in, const char *name);
int tfs_show_available_tracers(const struct tfs_node *n, FILE *out);
/* The stack tracer and the function profiler on or off (tfs_ftrace.c,
 * which patches the functions they want); the profiler is refused (-EBUSY)
 * while the graph tracer runs, and the graph tracer while it does; turned
 * on, it starts from zero counts. */
bool tfs_ftrace_stack_enabled(void);
int tfs_ftrace_stack_enable(bool on);
bool tfs_ftrace_profile_enabled(void);
int tfs_ftrace_profile_enable(bool on, bool graph_time);
/* An instance goes away: its tracer, filters, commands and pids with it. */
void tfs_ftrace_instance_gone(struct tfs_inst *in);

/* Options (tfs_options.c). */
int tfs_option_count(void);
const char *tfs_option_name(int i);
int tfs_option_find(const char *name);
bool tfs_opt(const struct tfs_inst *in, const char *name);
int tfs_option_set(struct tfs_inst *in, int i, bool on);
uint64_t tfs_option_defaults(void);

/* error_log (tfs_errlog.c). */
void tfs_log_error(struct tfs_inst *in, const char *loc, const char *cmd, const char *msg,
		   unsigned pos);
void tfs_log_clear(struct tfs_inst *in);
int tfs_log_show(const struct tfs_inst *in, FILE *out);

/* Instances (tracefs.c). */
int tfs_nr_cpus(void);
/* Strips trailing whitespace in place; returns the new length. */
size_t tfs_strip(char *s, size_t len);
/* Parses a whole unsigned decimal number; -EINVAL if it is not one. */
int tfs_parse_ulong(const char *s, unsigned long *out);

/* events/ (tfs_events.c): re-installs an instance's filters after its
 * set_event_pid list changed. */
int tfs_events_refresh_pids(const struct tfs_inst *in);
/* event-fork: `child`, made by `parent`, joins the instance's set_event_pid
 * and set_event_notrace_pid where `parent` is listed; an exiting thread
 * leaves them. */
void tfs_events_follow(struct tfs_inst *in, int parent, int child);
void tfs_events_forget(struct tfs_inst *in, int tid);
/* function-fork: `child`, made by `parent`, joins the instance's
 * set_ftrace_pid and set_ftrace_notrace_pid where `parent` is listed; an
 * exiting thread leaves them. */
void tfs_ftrace_follow(const struct tfs_inst *in, int32_t parent, int32_t child);
void tfs_ftrace_forget(const struct tfs_inst *in, int32_t tid);
/* An instance goes: its set_ftrace_pid and set_ftrace_notrace_pid lists go. */
void tfs_ftrace_pids_reset(uint32_t b);
/* Patches the sleds again after a change of what they are to hold (the
 * func_stack_trace option). */
int tfs_ftrace_repatch(void);
/* display-graph of a section tracer's buffer switched: its calls are
 * patched in the graph's form or back, the buffer and the max restart. */
int tfs_ftrace_display_graph(struct tfs_inst *in, bool on);
/* Tells pthread_create whether any instance has event-fork or
 * function-fork set. */
void tfs_follow_refresh(void);

/* Buffer contents (tfs_trace.c). */
struct uft_ring;
#define TFS_ALL_BUFFERS UINT32_MAX
typedef void (*tfs_ring_fn)(void *ctx, struct uft_ring *r, uint32_t slot);
/* Calls fn for each live or drained-but-unread ring of a buffer (or of all). */
void tfs_for_each_ring(uint32_t buffer, tfs_ring_fn fn, void *ctx);
void tfs_trace_clear(uint32_t buffer);
/* Sets buffer's trace clock c (a valid clock) as a trace_clock write does;
 * the buffer restarts empty, even when c is its clock already. */
int tfs_set_clock(uint32_t buffer, int c);
void tfs_snapshot_free(struct tfs_inst *in);
/* Empties the snapshot, leaving it allocated if it was. */
void tfs_snapshot_empty(struct tfs_inst *in);
/* In a forked child: forgets the consuming readers' positions. */
void tfs_trace_after_fork(uint32_t buffer);
/* The snapshot becomes the buffer's records up to `cut` (ring units), which
 * leave the buffer; later ones stay (a snapshot trigger's request). */
int tfs_snapshot_until(struct tfs_inst *in, uint64_t cut);
/* Allocates an empty snapshot if there is none (a snapshot trigger's
 * registration, as the kernel's). */
int tfs_snapshot_alloc(struct tfs_inst *in);
/* The dump and cpudump function commands: the kernel's ftrace_dump() of the
 * records up to `cut` on f, in latency format between its rulers. A dump
 * (cpu < 0) consumes them; a cpudump prints that CPU's and leaves every
 * record in place (a thread's ring holds several CPUs' records). */
void tfs_dump_until(struct tfs_inst *in, uint64_t cut, int cpu, FILE *f);

/* Triggers (tfs_triggers.c): takes the snapshots triggers asked for (tfs_lock
 * held; every tree call does it first); forgets the snapshot thread in a
 * forked child. */
void tfs_triggers_service(void);
/* Starts the thread that serves snapshot requests (tfs_lock held). */
void tfs_triggers_start_thread(void);
void tfs_triggers_after_fork(void);
/* A parsed hist command written to a trigger file (tfs_hist.c). */
struct uft_trig_spec;
int tfs_hist_write(const struct tfs_node *n, const struct uft_trig_spec *sp);

#endif
