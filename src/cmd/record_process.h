/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `-p process` for uft record and uft stream: the process tracer
 * (src/proctrace/) run in a thread of its own beside the collecting loop,
 * its events selected (-e), filtered (-f) and put into the collector as a
 * pseudo-source (recorder/collect_local.h). */
#ifndef UFT_RECORD_PROCESS_H
#define UFT_RECORD_PROCESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "recorder/collect.h"

struct record_opts;

/* The process tracer's options, as given. */
struct proc_opts {
	bool on;	      /* -p process */
	unsigned no;	      /* PT_* categories turned off */
	const char *syscalls; /* --syscalls SET */
	const char *uid_glob, *comm_glob;
	long pid;	     /* -P / --follow; 0 with follow: every process */
	bool follow;	     /* -P or --follow was given */
	int backend;	     /* enum pt_backend (--backend) */
	char *libuft_events; /* the -e specs for libuft, comma-separated */
	bool libuft_wanted;  /* some -e names no process tracer event */
	char *name_buf[2];   /* a name for the attached process */
};

/* The process tracer's long options (codes above 255) and their help. */
#define PROC_OPT_NO_LIFECYCLE 0x180
#define PROC_OPT_NO_SYSCALLS 0x181
#define PROC_OPT_NO_SIGNALS 0x182
#define PROC_OPT_UID 0x183
#define PROC_OPT_COMM 0x184
#define PROC_OPT_SYSCALLS 0x185
#define PROC_OPT_FOLLOW 0x186
#define PROC_OPT_BACKEND 0x187
/* clang-format off */
#define PROC_LONGOPTS                                                                              \
	{"no-lifecycle", no_argument, NULL, PROC_OPT_NO_LIFECYCLE},                                \
	{"no-syscalls", no_argument, NULL, PROC_OPT_NO_SYSCALLS},                                  \
	{"no-signals", no_argument, NULL, PROC_OPT_NO_SIGNALS},                                    \
	{"uid", required_argument, NULL, PROC_OPT_UID},                                            \
	{"comm", required_argument, NULL, PROC_OPT_COMM},                                          \
	{"syscalls", required_argument, NULL, PROC_OPT_SYSCALLS},                                  \
	{"follow", required_argument, NULL, PROC_OPT_FOLLOW},                                      \
	{"backend", required_argument, NULL, PROC_OPT_BACKEND}
/* clang-format on */
#define PROC_USAGE                                                                                 \
	"  -p process  trace CMD's (or PID's) lifecycle, syscalls and signals, any program\n"      \
	"  -P PID, --follow PID  with -p process: follow a running process and its children\n"     \
	"             (0: every process the user may trace; the kernel backend when usable)\n"     \
	"  --no-lifecycle --no-syscalls --no-signals  leave out a kind of process event\n"         \
	"  --syscalls SET  only these syscalls: names, %file %net %process %signal %memory,\n"     \
	"             !name to leave one out (a launched CMD stops only for these)\n"              \
	"  --uid GLOB, --comm GLOB  events of the threads whose uid or comm match\n"               \
	"  --backend ptrace|kernel  ptrace (default, any user) or the kernel's own events\n"       \
	"             from a private tracefs instance (root or a tracing group)\n"

/* A process tracer option (or -P): CLI_OK, an exit status, or 1 when not one. */
int proc_take_opt(struct record_opts *o, int opt, char *arg);
/* The checks of -p process with the other options; `has_cmd` whether a
 * command was given. CLI_OK or CLI_USAGE. */
int proc_check_opts(struct record_opts *o, bool has_cmd);
/* Whether an -e spec names an event the process tracer can produce. */
bool proc_spec_matches(const char *spec);

struct proc_tracer;

/* Starts the tracer thread on the command (o->cmd) or o->popts.pid, with
 * its formats registered in c; the launched command inherits the
 * environment as it is now; `held` (optional) gets a launched command's pid
 * before it runs. NULL after a message (exit status 2). */
struct proc_tracer *proc_tracer_start(const struct record_opts *o, struct collect *c,
				      void (*held)(void *ctx, pid_t pid), void *held_ctx);
/* The collector's lock: the tracer thread puts its events under it. */
void proc_tracer_lock(struct proc_tracer *t);
void proc_tracer_unlock(struct proc_tracer *t);
/* Whether the tracer has ended (every tracee gone, or detached). */
bool proc_tracer_done(struct proc_tracer *t);
/* The traced process's pid. */
pid_t proc_tracer_pid(const struct proc_tracer *t);
/* Whether the launched command stops only for a syscall set (a seccomp
 * filter it keeps for life: a first stop request is not a detach). */
bool proc_tracer_seccomp(const struct proc_tracer *t);
/* Async-signal-safe: stop tracing (detach; see pt_request_stop()). */
void proc_tracer_request_stop(void);
/* Waits for the thread; *status the command's wait status, *running
 * whether it (or the attached process) was left running. */
void proc_tracer_finish(struct proc_tracer *t, int *status, bool *running);
/* The process events kept in the last run (for the summary). */
uint64_t proc_tracer_kept(void);

#endif
