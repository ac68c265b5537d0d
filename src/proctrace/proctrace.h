/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's engine (design/process-tracer.md): follows a command
 * or a running process tree with ptrace and hands each lifecycle, syscall and
 * signal event to the caller as a complete record in the kernel's layout, with
 * the kernel's format text for each event id. The caller (the recorder, a
 * stream printer, the tests) owns storage and output. */
#ifndef UFT_PROCTRACE_H
#define UFT_PROCTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proctrace/syscall_table.h"

enum {
	PT_LIFECYCLE =
	    1, /* sched:sched_process_{fork,exec,exit}, process:{clone_flags,exit_status} */
	PT_SYSCALLS = 2, /* raw_syscalls:sys_{enter,exit}, syscalls:sys_{enter,exit}_NAME */
	PT_SIGNALS = 4,	 /* signal:signal_{generate,deliver} */
	PT_ALL = 7,
};

/* Where an event's CPU comes from (design/process-tracer.md, CPU). */
enum pt_cpu_mode {
	PT_CPU_TRACEE, /* the tracee's last CPU, /proc/TID/stat read through a kept fd */
	PT_CPU_TRACER, /* the tracer's CPU at the stop: free, but not the tracee's */
};

/* Which mechanism follows the process (design/process-tracer.md, "Choosing a
 * backend"). AUTO is ptrace: it needs no privilege and carries uft's
 * process:* events; the caller asks for the kernel one. */
enum pt_backend {
	PT_BACKEND_AUTO,
	PT_BACKEND_PTRACE, /* PTRACE_SEIZE and a seccomp filter */
	PT_BACKEND_KERNEL, /* the kernel's events from a private tracefs instance */
};

/* Receives one event: a whole record (struct uft_common_entry first, with
 * common_type = a local id of pt_format_text() and common_pid = the tracee's
 * thread id), the trace clock's time of the stop and a CPU. Non-zero stops
 * the run (the tracees are detached). */
typedef int (*pt_emit_fn)(void *ctx, uint32_t cpu, uint64_t ts, const void *record, uint32_t len);

struct pt_options {
	unsigned categories; /* PT_* bits */
	bool all_syscalls;   /* else only `syscalls` stop the tracee */
	struct pt_sysset syscalls;
	const char *comm_glob; /* events of threads whose comm matches; NULL: all */
	const char *uid_glob;  /* the same on the real uid in decimal; NULL: all */
	enum pt_cpu_mode cpu_mode;
	/* pt_launch: the file to run, as found by the caller (NULL: argv[0],
	 * searched along PATH, each try traced). The command inherits the
	 * caller's environment as it is at pt_launch. */
	const char *exec_path;
	pt_emit_fn emit;
	/* Optional: a thread's comm when it is first seen and after each exec
	 * (for trace.dat's cmdlines, as the recorder's set_comm() keeps them). */
	void (*comm)(void *ctx, pid_t tid, const char *comm);
	/* Optional: n events of `cpu` the kernel lost (kernel backend: its
	 * buffer overwritten before they were read). */
	void (*lost)(void *ctx, uint32_t cpu, uint64_t n);
	void *ctx;
	enum pt_backend backend;
	/* Optional: a launched command's pid while it is held before its exec
	 * (the recorder follows it in the kernel's events too). */
	void (*held)(void *held_ctx, pid_t pid);
	void *held_ctx;
};

struct pt_session;

/* Whether the kernel backend can run here (tracefs with writable instances:
 * root or a tracing group); if not, the reason in why. */
bool pt_kernel_usable(char *why, size_t len);

/* Runs argv[0] (PATH searched) under the tracer: the child waits until it is
 * seized, installs the syscall set's seccomp filter, then execs. NULL with a
 * message in err when it could not start. */
struct pt_session *pt_launch(const struct pt_options *o, char *const argv[], char *err,
			     size_t errlen);
/* Seizes every thread of a running process (no EXITKILL: the process
 * outlives the tracer). errno-style failures are explained in err:
 * ESRCH no such process, EPERM not ours or already traced. pid 0 follows
 * every process the caller may trace but its own: the kernel backend all
 * of them, new ones included; ptrace those running now and their
 * children (see pt_follow_counts). */
struct pt_session *pt_attach(const struct pt_options *o, pid_t pid, char *err, size_t errlen);
/* After pt_attach(0) with ptrace: the processes seized and those that
 * could not be (not ours, already traced); 0 and 0 with the kernel backend. */
void pt_follow_counts(const struct pt_session *s, unsigned *followed, unsigned *refused);
/* Follows the tracees until none is left or pt_request_stop(). Returns the
 * launched command's wait status (0 when attached), -1 on a tracer error. */
int pt_run(struct pt_session *s);
/* Async-signal-safe: no more events; the loop detaches every tracee, leaving
 * each running (or stopped if it was in a group-stop), and returns. A launched
 * command with a syscall set is instead followed silently until it ends (its
 * filter would fail the selected calls without a tracer); a second request
 * detaches it anyway. */
void pt_request_stop(struct pt_session *s);
void pt_free(struct pt_session *s);
/* The launched command's pid, or the attached process's. */
pid_t pt_leader(const struct pt_session *s);

/* Local event ids: fixed ones below PT_ID_SYSCALL_BASE, then one pair per
 * syscall number (enter = base + 2 nr, exit = base + 2 nr + 1). */
enum {
	PT_ID_FORK = 1,
	PT_ID_EXEC,
	PT_ID_EXIT,
	PT_ID_CLONE_FLAGS,
	PT_ID_EXIT_STATUS,
	PT_ID_RAW_ENTER,
	PT_ID_RAW_EXIT,
	PT_ID_SIG_GENERATE,
	PT_ID_SIG_DELIVER,
	PT_ID_FIXED_END,
	PT_ID_SYSCALL_BASE = 100,
	PT_ID_END = PT_ID_SYSCALL_BASE + 2 * PT_MAX_SYSCALL,
};

/* The kernel's `format` text of local id `id` ("name: ...\nID: id\nformat:\n..."),
 * its system in *system. Returns the text's length (as snprintf), -1 if the id
 * names no event. No text is longer than PT_FORMAT_MAX. */
#define PT_FORMAT_MAX 32768
int pt_format_text(unsigned id, const char **system, char *buf, size_t len);
/* Calls fn for every event the options can produce (to register them up front). */
int pt_for_each_format(const struct pt_options *o,
		       int (*fn)(void *ctx, unsigned id, const char *system, const char *text,
				 size_t len),
		       void *ctx);

#endif
