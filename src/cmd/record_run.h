/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `uft record` and `uft stream` share: their common options, the
 * checks before the program runs, its launch with libuft, the check of its
 * settings before main, and the loop that collects its events until it
 * ends or a signal stops it. What they do with the events differs: a
 * record_output says what. */
#ifndef UFT_RECORD_RUN_H
#define UFT_RECORD_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "cmd/cli.h"
#include "cmd/record_process.h"
#include "cmd/record_program.h"
#include "recorder/collect.h"

#define RECORD_MAX_EVENTS 256

struct kernel_source;

/* The options record and stream share: their help lines (the first and
 * last of the program's option list) and getopt_long's entries. */
#define RECORD_USAGE_EVENTS                                                                        \
	"  -e EVENT   SYSTEM:EVENT, SYSTEM:*, SYSTEM, EVENT or all (default all)\n"                \
	"  -f FILTER  filter the -e before it (the kernel's filter syntax)\n"                      \
	"  -p TRACER  function or function_graph: trace the functions of CMD; process: below\n"    \
	"  -l GLOB    trace only the functions GLOB matches (set_ftrace_filter)\n"                 \
	"  -n GLOB    do not trace the functions GLOB matches (set_ftrace_notrace)\n"              \
	"  -g FUNC    graph FUNC and what it calls (set_graph_function)\n"                         \
	"  --max-graph-depth N  graph N levels deep at most (max_graph_depth)\n"                   \
	"  --func-stack  a stack trace after every function (func_stack_trace)\n"                  \
	"  -b KB      buffer size per thread in KiB (default 1024)\n"                              \
	"  --subbuf-size KB  sub-buffer (page) size in KiB, rounded up to a power of two\n"        \
	"             of 4 KiB pages, at most 512 (buffer_subbuf_size_kb; default 4)\n"            \
	"  -C CLOCK   trace clock: local global counter uptime perf mono mono_raw boot"            \
	" tai x86-tsc\n"                                                                           \
	"  -M MODE    block (record's default: a writer whose buffer is full waits for\n"          \
	"             the recorder, at most 1 s, then overwrites), overwrite (flight\n"            \
	"             recorder; stream's default) or discard (drop new events)\n" PROC_USAGE
#define RECORD_USAGE_END(VERB, CMDNAME)                                                            \
	"  --max-loss PCT  exit 3 when more than PCT percent of the events were lost\n"            \
	"  --keep-running  on SIGINT or SIGTERM stop " VERB " and leave CMD running\n"             \
	"             (default: pass a signal sent to uft " CMDNAME " on to CMD)\n"                \
	"  --bootconfig FILE  apply FILE's bootconfig tracing keys at the program's\n"             \
	"             start (UFT_BOOTCONFIG); without -e it enables no other event\n"              \
	"  --probe DEF  define the probe DEF (dynamic_events grammar: p: r: f: e:) before\n"       \
	"             main and record its event; repeatable; without -e no other event\n"
#define RECORD_OPT_PROBE 0x1a0
/* clang-format off */
#define RECORD_LONGOPTS                                                                            \
	{"help", no_argument, NULL, 'h'},                                                          \
	{"max-graph-depth", required_argument, NULL, 'D'},                                         \
	{"func-stack", no_argument, NULL, 'S'},                                                    \
	{"subbuf-size", required_argument, NULL, 'U'},                                             \
	{"max-loss", required_argument, NULL, 'X'},                                                \
	{"keep-running", no_argument, NULL, 'K'},                                                  \
	{"bootconfig", required_argument, NULL, 'B'},                                              \
	{"probe", required_argument, NULL, RECORD_OPT_PROBE},                                      \
	PROC_LONGOPTS
/* clang-format on */

/* Function tracer settings for libuft, which writes them into the tree's
 * set_ftrace_filter, set_ftrace_notrace, set_graph_function, max_graph_depth
 * and current_tracer at start-up. */
/* uft record's ring per thread with -p function or function_graph and no
 * -b (KiB); libuft's own default, 1024, otherwise. */
#define RECORD_FTRACE_BUFFER_KB 8192

struct tracer_opts {
	const char *tracer;
	const char *depth;
	bool func_stack;
	char *filter, *notrace, *graph; /* space-separated globs */
};

struct record_opts {
	const struct cli *cli; /* its name leads every message */
	const char *clock, *mode;
	struct tracer_opts topts;
	struct proc_opts popts; /* -p process */
	char *events[RECORD_MAX_EVENTS];
	char *filters[RECORD_MAX_EVENTS]; /* filters[i] applies to events[i] */
	bool kernel[RECORD_MAX_EVENTS];	  /* events[i] is the kernel's alone, not libuft's */
	int nr_events;
	long buffer_kb;
	long subbuf_kb;
	double max_loss; /* percent; below 0: no limit */
	bool quiet;
	bool keep_running;
	char **cmd;		/* the program and its arguments */
	char *bootconfig;	/* --bootconfig, absolute */
	char *probes;		/* --probe definitions, one a line (UFT_PROBES) */
	char *path;		/* where cmd[0] was found */
	enum program_kind kind; /* and what it is */
	FILE *info;		/* where the program's end is told: stdout or stderr */
};

/* What is done with the collected events besides holding them for a file:
 * `drained` after every drain of all traced processes (each 100 ms) and,
 * with `final`, after the last drains. */
struct record_output {
	void (*drained)(void *ctx, bool final);
	void *ctx;
};

/* The recording: the collector, and what the traced processes said. */
struct recording {
	struct collect c;
	const struct record_opts *o;
	const struct record_output *out; /* NULL: nothing besides */
	pid_t child;
	struct proc_tracer *pt;	  /* -p process: the tracer thread */
	struct kernel_source *ks; /* the kernel's events an -e names, NULL: none */
	uint64_t kernel_kept;	  /* the kernel's events recorded (for the summary) */
	pid_t checked;		  /* the process whose settings were checked, 0: none yet */
	bool child_seen;	  /* the child's first image has registered */
	bool refused;		  /* the checked process could not apply them: stopped */
	bool running;		  /* the program was left running */
	int status;		  /* its wait status */
};

/* One of the shared options (-e -f -b --subbuf-size -C -M -q --max-loss
 * --keep-running -p -l -n -g --max-graph-depth --func-stack): CLI_OK, an
 * exit status, or 1 for an option that is not one of them. */
int record_take_opt(struct record_opts *o, int opt, char *arg);
/* The checks of the options together, the command from the operands at
 * `first`: CLI_OK or CLI_USAGE. */
int record_check_opts(struct record_opts *o, int argc, char **argv, int first);
/* Everything that can be checked before the program runs: CLI_OK or CLI_USAGE. */
int record_preflight(struct record_opts *o);
void record_opts_free(struct record_opts *o);

/* Starts the program and collects until it ends, every traced process is
 * gone, or a signal stops it; r->c then holds everything collected. 0, or
 * 1 when the program could not be started (r->c is not set up), 2 when the
 * process tracer could not start or attach (said why). `setup`
 * runs on the collector before anything is collected. */
int record_run(struct recording *r, const struct record_opts *o, const struct record_output *out,
	       void (*setup)(void *ctx, struct collect *c), void *ctx);
/* The checks after the end: an exit status when there is nothing to write
 * (a refusal before main, a program that could not be started), else -1;
 * warns of a process that did not register and an -e that matched nothing. */
int record_check_end(const struct recording *r);
/* The lost events, the program's end and the exit status. */
int record_status(const struct recording *r);

#endif
