/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft record: start a program with tracing on, collect its events (and those
 * of the processes it forks or execs) while it runs, and write trace.dat.
 *
 * Each traced process connects to a private socket and hands over its shared
 * region. The recorder drains regions on a timer and when a process asks (its
 * ring passed half full), and drains one last time when the connection closes
 * — which happens however the process ends, SIGKILL included. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "wire/clocks.h"
#include "wire/env_names.h"
#include "wire/record_proto.h"
#include "recorder/collect.h"
#include "cmd/commands.h"
#include "recorder/proc_syms.h"
#include "cmd/record_program.h"
#include "cmd/record_summary.h"

#define DRAIN_INTERVAL_MS 100

#define STOP_GRACE_MS 2000 /* how long a signalled program may take to end */
static char *bootconfig;   /* --bootconfig, absolute */

/* The last SIGINT or SIGTERM, how many came, and whether the last was sent
 * by a process (kill) rather than by the terminal, which signals the
 * program's process group itself. */
static volatile sig_atomic_t stop_sig, nr_signals, stop_by_process;

static void on_stop_signal(int sig, siginfo_t *si, void *uc)
{
	stop_sig = sig;
	stop_by_process = si->si_code <= 0; /* SI_USER, SI_QUEUE, SI_TKILL */
	nr_signals++;
}

static const char usage[] =
    "usage: uft record [-e EVENT [-f FILTER]]... [-p TRACER [-l GLOB]... [-n GLOB]... "
    "[-g FUNC]...\n"
    "                  [--max-graph-depth N] [--func-stack]] [-o FILE] [-b KB]\n"
    "                  [--subbuf-size KB] [-C CLOCK] [-M overwrite|discard]\n"
    "                  [--compression ALG] [--max-loss PCT] [--keep-running]\n"
    "                  [--bootconfig FILE] [-q] -- CMD [ARGS]\n"
    "  -e EVENT   SYSTEM:EVENT, SYSTEM:*, SYSTEM, EVENT or all (default all)\n"
    "  -f FILTER  filter the -e before it (the kernel's filter syntax)\n"
    "  -p TRACER  function or function_graph: trace the functions of CMD\n"
    "  -l GLOB    trace only the functions GLOB matches (set_ftrace_filter)\n"
    "  -n GLOB    do not trace the functions GLOB matches (set_ftrace_notrace)\n"
    "  -g FUNC    graph FUNC and what it calls (set_graph_function)\n"
    "  --max-graph-depth N  graph N levels deep at most (max_graph_depth)\n"
    "  --func-stack  a stack trace after every function (func_stack_trace)\n"
    "  -o FILE    output file (default trace.dat)\n"
    "  -b KB      buffer size per thread in KiB (default 1024)\n"
    "  --subbuf-size KB  sub-buffer (page) size in KiB, rounded up to a power of two\n"
    "             of 4 KiB pages, at most 512 (buffer_subbuf_size_kb; default 4)\n"
    "  -C CLOCK   trace clock: local global counter uptime perf mono mono_raw boot"
    " tai x86-tsc\n"
    "  -M MODE    overwrite (flight recorder, default) or discard (drop new events)\n"
    "  --compression ALG  zstd or zlib: a compressed trace.dat version 7;\n"
    "             none (default): version 6\n"
    "  --max-loss PCT  exit 3 when more than PCT percent of the events were lost\n"
    "  --keep-running  on SIGINT or SIGTERM stop recording and leave CMD running\n"
    "             (default: pass a signal sent to uft record on to CMD)\n"
    "  --bootconfig FILE  apply FILE's bootconfig tracing keys at the program's\n"
    "             start (UFT_BOOTCONFIG); without -e it enables no other event\n"
    "  -q         no summary\n";

static char *join_events(char *const *ev, int n)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		len += strlen(ev[i]) + 1;
	char *s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, ev[i]);
	}
	return s;
}

/* Function tracer settings for libuft, which writes them into the tree's
 * set_ftrace_filter, set_ftrace_notrace, set_graph_function, max_graph_depth
 * and current_tracer at start-up. */
struct tracer_opts {
	const char *tracer;
	const char *depth;
	bool func_stack;
	char *filter, *notrace, *graph; /* space-separated globs */
};

static int add_glob(char **list, const char *glob)
{
	if (!*glob || strpbrk(glob, " \t\n")) {
		fprintf(stderr, "uft record: bad function pattern '%s'\n", glob);
		return -1;
	}
	size_t old = *list ? strlen(*list) : 0;
	char *n = realloc(*list, old + strlen(glob) + 2);
	if (!n)
		return -1;
	if (old)
		n[old++] = ' ';
	strcpy(n + old, glob);
	*list = n;
	return 0;
}

static int check_tracer_opts(struct tracer_opts *t)
{
	if (!t->tracer && (t->graph || t->depth))
		t->tracer = "function_graph"; /* as -g asks for a graph */
	if (!t->tracer && (t->filter || t->notrace)) {
		fprintf(stderr, "uft record: -l and -n need -p function or function_graph\n");
		return -1;
	}
	if (t->tracer && strcmp(t->tracer, "function") != 0 &&
	    strcmp(t->tracer, "function_graph") != 0 && strcmp(t->tracer, "nop") != 0) {
		fprintf(stderr, "uft record: unknown tracer '%s' (function, function_graph, nop)\n",
			t->tracer);
		return -1;
	}
	if (t->func_stack && (!t->tracer || strcmp(t->tracer, "function") != 0)) {
		fprintf(stderr, "uft record: --func-stack needs -p function\n");
		return -1;
	}
	if (t->tracer && strcmp(t->tracer, "function_graph") != 0 && (t->graph || t->depth)) {
		fprintf(stderr, "uft record: -g and --max-graph-depth need -p function_graph\n");
		return -1;
	}
	return 0;
}

static void set_tracer_env(const struct tracer_opts *t)
{
	if (!t->tracer)
		return;
	setenv(UFT_ENV_TRACER, t->tracer, 1);
	if (t->filter)
		setenv(UFT_ENV_FTRACE_FILTER, t->filter, 1);
	if (t->notrace)
		setenv(UFT_ENV_FTRACE_NOTRACE, t->notrace, 1);
	if (t->graph)
		setenv(UFT_ENV_GRAPH_FUNCTION, t->graph, 1);
	if (t->depth)
		setenv(UFT_ENV_MAX_GRAPH_DEPTH, t->depth, 1);
	if (t->func_stack)
		setenv(UFT_ENV_FUNC_STACK, "1", 1);
}

static void free_tracer_opts(struct tracer_opts *t)
{
	free(t->filter);
	free(t->notrace);
	free(t->graph);
}

/* "SPEC\x1fFILTER" records separated by \x1e, as libuft reads UFT_FILTERS. */
static char *join_filters(char *const *ev, char *const *flt, int n)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		if (flt[i])
			len += strlen(ev[i]) + strlen(flt[i]) + 2;
	char *s = calloc(1, len), *p = s;
	if (!s)
		return NULL;
	for (int i = 0; i < n; i++)
		if (flt[i])
			p += sprintf(p, "%s%s\x1f%s", p == s ? "" : "\x1e", ev[i], flt[i]);
	return s;
}

#define MAX_EVENTS 256

struct record_opts {
	const char *out, *clock, *mode, *compression;
	struct tracer_opts topts;
	char *events[MAX_EVENTS];
	char *filters[MAX_EVENTS]; /* filters[i] applies to events[i] */
	int nr_events;
	long buffer_kb;
	long subbuf_kb;
	double max_loss; /* percent; below 0: no limit */
	bool quiet;
	bool keep_running;
	char **cmd;		/* the program and its arguments */
	char *path;		/* where cmd[0] was found */
	enum program_kind kind; /* and what it is */
	char *tmp_out;		/* the file written, renamed to out at the end */
};

static const struct cli record_cli;

static int take_tracer_opt(struct tracer_opts *t, int opt, char *arg)
{
	long depth;
	switch (opt) {
	case 'p':
		t->tracer = arg;
		break;
	case 'l':
	case 'n':
	case 'g':
		if (add_glob(opt == 'l' ? &t->filter : opt == 'n' ? &t->notrace : &t->graph, arg))
			return CLI_USAGE;
		break;
	case 'S':
		t->func_stack = true;
		break;
	case 'D':
		if (!cli_long(arg, 10, 0, 100000, &depth))
			return cli_error(&record_cli, "bad graph depth '%s'", arg);
		t->depth = arg;
		break;
	}
	return CLI_OK;
}

static int take(void *opts, int opt, char *arg)
{
	struct record_opts *o = opts;
	switch (opt) {
	case 'e':
		if (o->nr_events < MAX_EVENTS)
			o->events[o->nr_events++] = arg;
		return CLI_OK;
	case 'f':
		if (o->nr_events == 0 || o->events[o->nr_events - 1][0] == '!')
			return cli_error(&record_cli, "-f must follow the -e it filters");
		o->filters[o->nr_events - 1] = arg;
		return CLI_OK;
	case 'o':
		o->out = arg;
		return CLI_OK;
	case 'b':
		if (!cli_long(arg, 0, 1, LONG_MAX, &o->buffer_kb))
			return cli_error(&record_cli, "bad buffer size '%s'", arg);
		/* The traced process makes its region hold UFT_SHM_MIN_RINGS rings
		 * of this size; one ring may not exceed UFT_SHM_MAX_RING_PAGES. */
		if (o->buffer_kb > (long)UFT_SHM_MAX_RING_PAGES * (UFT_SUBBUF_SIZE / 1024))
			return cli_error(&record_cli,
					 "buffer size %s KiB is larger than the %u KiB a thread "
					 "ring can have",
					 arg, UFT_SHM_MAX_RING_PAGES * (UFT_SUBBUF_SIZE / 1024));
		return CLI_OK;
	case 'U':
		/* The tree's buffer_subbuf_size_kb takes the same values. */
		if (!cli_long(arg, 10, 1, UFT_SUBBUF_MAX / 1024, &o->subbuf_kb))
			return cli_error(&record_cli, "bad sub-buffer size '%s' (1 to %u KiB)", arg,
					 UFT_SUBBUF_MAX / 1024);
		return CLI_OK;
	case 'C':
		if (uft_clock_by_name(arg) < 0)
			return cli_error(&record_cli, "unknown clock '%s'", arg);
		o->clock = arg;
		return CLI_OK;
	case 'M':
		if (strcmp(arg, "overwrite") != 0 && strcmp(arg, "discard") != 0)
			return cli_error(&record_cli, "mode must be overwrite or discard");
		o->mode = arg;
		return CLI_OK;
	case 'q':
		o->quiet = true;
		return CLI_OK;
	case 'X': {
		char *end;
		o->max_loss = strtod(arg, &end);
		if (end == arg || *end || !(o->max_loss >= 0 && o->max_loss <= 100))
			return cli_error(&record_cli,
					 "bad --max-loss '%s' (a percentage, 0 to 100)", arg);
		return CLI_OK;
	}
	case 'K':
		o->keep_running = true;
		return CLI_OK;
	case 'B':
		free(bootconfig);
		if (!(bootconfig = realpath(arg, NULL)))
			return cli_error(&record_cli, "--bootconfig: cannot find the file");
		return CLI_OK;
	case 'Z':
		if (strcmp(arg, "zstd") != 0 && strcmp(arg, "zlib") != 0 &&
		    strcmp(arg, "none") != 0)
			return cli_error(&record_cli, "compression must be zstd, zlib or none");
		o->compression = strcmp(arg, "none") == 0 ? NULL : arg;
		return CLI_OK;
	}
	return take_tracer_opt(&o->topts, opt, arg);
}

static const struct option record_longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"max-graph-depth", required_argument, NULL, 'D'},
    {"func-stack", no_argument, NULL, 'S'},
    {"compression", required_argument, NULL, 'Z'},
    {"subbuf-size", required_argument, NULL, 'U'},
    {"max-loss", required_argument, NULL, 'X'},
    {"keep-running", no_argument, NULL, 'K'},
    {"bootconfig", required_argument, NULL, 'B'},
    {NULL, 0, NULL, 0},
};
static const struct cli record_cli = {"uft record", usage,
				      "+e:f:o:b:C:M:qhp:l:n:g:", record_longopts, take};

static int parse(struct record_opts *o, int argc, char **argv)
{
	int first;
	int rc = cli_parse(&record_cli, o, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	if (first >= argc)
		return cli_usage_error(&record_cli);
	if (check_tracer_opts(&o->topts) != 0)
		return CLI_USAGE;
	o->cmd = argv + first;
	return CLI_OK;
}

/* The private socket the traced processes connect to, in a new directory. */
struct rendezvous {
	char dir[32];
	struct sockaddr_un sa;
	int lsock;
};

static int listen_private(struct rendezvous *rv)
{
	snprintf(rv->dir, sizeof(rv->dir), "/tmp/uft-record.XXXXXX");
	if (!mkdtemp(rv->dir)) {
		perror("uft record: mkdtemp");
		return -1;
	}
	rv->sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	snprintf(rv->sa.sun_path, sizeof(rv->sa.sun_path), "%s/sock", rv->dir);
	rv->lsock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (rv->lsock < 0 || bind(rv->lsock, (struct sockaddr *)&rv->sa, sizeof(rv->sa)) != 0 ||
	    listen(rv->lsock, 64) != 0) {
		perror("uft record: socket");
		rmdir(rv->dir);
		return -1;
	}
	return 0;
}

static void close_private(struct rendezvous *rv)
{
	close(rv->lsock);
	unlink(rv->sa.sun_path);
	rmdir(rv->dir);
}

/* The recording: the collector, and what the traced processes said. */
struct recording {
	struct collect c;
	const struct record_opts *o;
	pid_t child;
	pid_t checked;	 /* the process whose settings were checked, 0: none yet */
	bool child_seen; /* the child's first image has registered */
	bool refused;	 /* the checked process could not apply them: stopped */
};

/* Which process's settings must all apply: the first with events or
 * functions to patch, and the program itself when a function tracer is
 * asked for (so one built without the patchable entry is named before it
 * runs). */
static bool check_this(struct recording *r, pid_t pid, uint32_t flags)
{
	bool first_image = pid == r->child && !r->child_seen;
	if (pid == r->child)
		r->child_seen = true;
	if (r->checked)
		return false;
	const char *tracer = r->o->topts.tracer;
	bool fn = tracer && strcmp(tracer, "nop") != 0;
	if ((flags & UFT_HELLO_TRACEABLE) || (fn && first_image)) {
		r->checked = pid;
		return true;
	}
	return false;
}

static int accept_proc(struct recording *r, int lsock)
{
	struct collect *c = &r->c;
	int s = accept4(lsock, NULL, NULL, SOCK_CLOEXEC);
	if (s < 0)
		return -1;
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0 ||
	    (cred.uid != getuid() && cred.uid != 0)) {
		close(s);
		return -1;
	}
	struct uft_hello hello = {0};
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&hello, sizeof(hello)};
	struct msghdr msg = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf)};
	ssize_t n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC);
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int memfd = -1;
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&memfd, CMSG_DATA(cm), sizeof(int));
	/* An older libuft sends the message without flags. */
	bool ok = (n == sizeof(hello) && hello.magic == UFT_HELLO2_MAGIC) ||
		  (n >= UFT_HELLO_V1_SIZE && hello.magic == UFT_HELLO_MAGIC);
	if (!ok || memfd < 0) {
		if (memfd >= 0)
			close(memfd);
		close(s);
		return -1;
	}
	if (hello.magic == UFT_HELLO_MAGIC)
		hello.flags = 0;
	char comm[17];
	memcpy(comm, hello.comm, 16);
	comm[16] = 0;
	uint64_t unsealed = c->refused[SHM_DROP_UNSEALED];
	/* The kernel's word for the pid, not the message's: its /proc is read. */
	int rc = collect_add_proc(c, cred.pid, memfd, s, comm);
	close(memfd);
	if (rc != 0) {
		/* Not recorded; the others go on. */
		fprintf(stderr, "uft record: process %d: %s: %s\n", (int)cred.pid,
			c->refused[SHM_DROP_UNSEALED] != unsealed
			    ? "refused, its memfd is not sealed"
			    : "cannot map its buffers",
			strerror(-rc));
		close(s);
		return -1;
	}
	/* The process waits for this before writing its first event. */
	char ack = check_this(r, cred.pid, hello.flags) ? UFT_ACK_CHECK : UFT_ACK_GO;
	if (send(s, &ack, 1, MSG_NOSIGNAL) != 1)
		return -1;
	return 0;
}

/* A process's report of the settings it could not apply: messages that
 * start with E (error) or W (warning), each after a \x1e. */
static void take_report(struct recording *r, struct collect_proc *p, char *text)
{
	bool checked = p->pid == r->checked;
	for (char *m = strtok(text, "\x1e"); m; m = strtok(NULL, "\x1e")) {
		bool error = m[0] == 'E';
		if (!*m++)
			continue;
		if (checked && error)
			r->refused = true;
		fprintf(stderr, "uft record: ");
		if (!checked)
			fprintf(stderr, "process %d (%s): ", (int)p->pid, p->comm);
		fprintf(stderr, "%s%s", error && checked ? "" : "warning: ", m);
	}
}

/* Reads what each process with input sent: a report, a request to drain,
 * or its end. */
static void serve_conns(struct recording *r, const struct pollfd *pfd, size_t nfds)
{
	static char buf[UFT_MSG_REPORT_MAX + 1];
	struct collect *c = &r->c;
	for (size_t i = 0; i + 1 < nfds; i++) {
		struct collect_proc *p = c->procs[i];
		if (p->conn < 0 || !pfd[1 + i].revents)
			continue;
		ssize_t n = recv(p->conn, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (n > 0 && buf[0] == UFT_MSG_REPORT) {
			buf[n] = 0;
			take_report(r, p, buf + 1);
		} else if (n > 0) {
			collect_drain(c, p, false);
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			/* The process is gone (exit, exec, crash, kill). */
			collect_drain(c, p, true);
			close(p->conn);
			p->conn = -1;
		}
	}
}

static long ms_since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* Every open region, each DRAIN_INTERVAL_MS. */
static void drain_on_time(struct collect *c, struct timespec *last)
{
	if (ms_since(last) < DRAIN_INTERVAL_MS)
		return;
	for (size_t i = 0; i < c->nr_procs; i++)
		if (c->procs[i]->conn >= 0)
			collect_drain(c, c->procs[i], false);
	clock_gettime(CLOCK_MONOTONIC, last);
}

/* After SIGINT or SIGTERM: whether to stop collecting now. A signal sent
 * to uft record (not by the terminal, which signals the program too) is
 * passed on unless --keep-running; the program then has STOP_GRACE_MS to
 * end before it is left running; a second signal stops at once. */
static bool stop_now(struct recording *r, struct timespec *since, bool *stopping)
{
	if (!nr_signals)
		return false;
	if (!*stopping) {
		*stopping = true;
		clock_gettime(CLOCK_MONOTONIC, since);
		if (r->o->keep_running)
			return true;
		if (stop_by_process)
			kill(r->child, stop_sig);
	}
	return nr_signals > 1 || ms_since(since) >= STOP_GRACE_MS;
}

/* Collects until the program has exited and every traced process is gone,
 * or a signal stops the recording; *status is the program's wait status
 * and *running whether it was left running. */
static void collect_until_done(struct recording *r, int lsock, int *status, bool *running)
{
	struct collect *c = &r->c;
	bool child_done = false, stopping = false;
	struct timespec last, stop_since;
	clock_gettime(CLOCK_MONOTONIC, &last);
	for (;;) {
		size_t nfds = 1 + c->nr_procs;
		struct pollfd pfd[nfds];
		size_t open_conns = 0;
		pfd[0] = (struct pollfd){.fd = lsock, .events = POLLIN};
		for (size_t i = 0; i < c->nr_procs; i++) {
			pfd[1 + i] = (struct pollfd){.fd = c->procs[i]->conn, .events = POLLIN};
			open_conns += c->procs[i]->conn >= 0;
		}
		if (!child_done && waitpid(r->child, status, WNOHANG) == r->child)
			child_done = true;
		/* After a refusal, the rest of a process tree goes too. */
		if (r->refused && !child_done && r->checked != r->child && !stopping) {
			kill(r->child, SIGTERM);
			stopping = true;
			clock_gettime(CLOCK_MONOTONIC, &stop_since);
		}
		if (child_done && (open_conns == 0 || stopping))
			break;
		if (stop_now(r, &stop_since, &stopping))
			break;
		int rc = poll(pfd, nfds, child_done || stopping ? 20 : DRAIN_INTERVAL_MS);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0 && (pfd[0].revents & POLLIN)) {
			while (accept_proc(r, lsock) == 0)
				;
		}
		if (rc > 0)
			serve_conns(r, pfd, nfds);
		drain_on_time(c, &last);
	}
	*running = !child_done;
	for (size_t i = 0; i < c->nr_procs; i++) {
		if (c->procs[i]->conn >= 0) {
			collect_drain(c, c->procs[i], true);
			close(c->procs[i]->conn);
			c->procs[i]->conn = -1;
		}
	}
}

/* The exit status for the program's wait status. */
static int program_status(const struct record_opts *o, int status, bool running)
{
	if (running)
		return 0;
	if (WIFSIGNALED(status)) {
		if (!o->quiet)
			printf("%s: killed by signal %d\n", o->cmd[0], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Writes the file and the summary; returns the exit status. */
static int finish(struct recording *r, int status, bool running)
{
	struct collect *c = &r->c;
	const struct record_opts *o = r->o;
	if (r->refused) {
		fprintf(stderr, "uft record: nothing recorded: %s was stopped before main\n",
			o->cmd[0]);
		return CLI_USAGE;
	}
	if (c->nr_procs == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return 127; /* the program could not be started */
	if (c->nr_procs == 0)
		fprintf(stderr, "uft record: no process registered (%s did not load libuft)\n",
			o->cmd[0]);
	for (int i = 0; i < o->nr_events; i++)
		if (o->events[i][0] != '!' && c->nr_procs && !collect_spec_matches(c, o->events[i]))
			fprintf(stderr, "uft record: no event matches '%s'\n", o->events[i]);
	uint64_t size = 0;
	int rc = collect_write(c, o->tmp_out, &size);
	if (rc == 0 && rename(o->tmp_out, o->out) != 0)
		rc = -errno;
	if (rc != 0) {
		fprintf(stderr, "uft record: writing %s: %s\n", o->out, strerror(-rc));
		return 1;
	}
	if (!o->quiet)
		record_print_summary(c, o->out, size);
	record_print_refused(c);
	record_print_loss(c, o->buffer_kb, o->mode && strcmp(o->mode, "discard") == 0);
	if (running && !o->quiet)
		printf("%s (pid %d) left running\n", o->cmd[0], (int)r->child);
	int st = program_status(o, status, running);
	if (o->max_loss >= 0 && record_loss(c).pct > o->max_loss) {
		fprintf(stderr, "uft record: more than %g%% lost (--max-loss)\n", o->max_loss);
		return 3;
	}
	return st;
}

/* In the child: the settings for libuft, then the program. */
static void __attribute__((noreturn)) exec_traced(const struct record_opts *o, const char *sock)
{
	char *ev = join_events(o->events, o->nr_events);
	setenv(UFT_ENV_RECORD, sock, 1);
	/* As trace-cmd: a function tracer without -e records no events. */
	bool fn = o->topts.tracer && strcmp(o->topts.tracer, "nop") != 0;
	setenv(UFT_ENV_EVENTS, o->nr_events ? ev : fn || bootconfig ? "!all" : "all", 1);
	if (bootconfig)
		setenv(UFT_ENV_BOOTCONFIG, bootconfig, 1);
	if (o->buffer_kb) {
		char b[32];
		snprintf(b, sizeof(b), "%ld", o->buffer_kb);
		setenv(UFT_ENV_BUFFER_KB, b, 1);
	}
	if (o->subbuf_kb) {
		char b[32];
		snprintf(b, sizeof(b), "%ld", o->subbuf_kb);
		setenv(UFT_ENV_SUBBUF_KB, b, 1);
	}
	if (o->clock)
		setenv(UFT_ENV_CLOCK, o->clock, 1);
	if (o->mode)
		setenv(UFT_ENV_MODE, o->mode, 1);
	char *fl = join_filters(o->events, o->filters, o->nr_events);
	if (fl && *fl)
		setenv(UFT_ENV_FILTERS, fl, 1);
	set_tracer_env(&o->topts);
	program_preload(o->kind);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execv(o->path, o->cmd);
	fprintf(stderr, "uft record: cannot run %s: %s\n", o->cmd[0], strerror(errno));
	_exit(127);
}

/* Starts the program with the recorder listening; returns its pid or -1. */
static pid_t start(const struct record_opts *o, struct rendezvous *rv)
{
	if (listen_private(rv) != 0)
		return -1;
	struct sigaction sact = {.sa_sigaction = on_stop_signal, .sa_flags = SA_SIGINFO};
	sigaction(SIGINT, &sact, NULL);
	sigaction(SIGTERM, &sact, NULL);
	pid_t child = fork();
	if (child < 0)
		perror("uft record: fork");
	if (child == 0)
		exec_traced(o, rv->sa.sun_path);
	return child;
}

/* A file beside the output to write to, so that nothing is left at the
 * output's name unless the recording is written whole. */
static int make_tmp_out(struct record_opts *o)
{
	struct stat st;
	if (stat(o->out, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "uft record: %s: %s\n", o->out, strerror(EISDIR));
		return -1;
	}
	const char *slash = strrchr(o->out, '/');
	int dirlen = slash ? (int)(slash - o->out + 1) : 0;
	if (asprintf(&o->tmp_out, "%.*s.%s.XXXXXX", dirlen, o->out, o->out + dirlen) < 0)
		return -1;
	int fd = mkstemp(o->tmp_out);
	if (fd < 0) {
		fprintf(stderr, "uft record: cannot write %s: %s\n", o->out, strerror(errno));
		free(o->tmp_out);
		o->tmp_out = NULL;
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* as a file created at the output's name */
	close(fd);
	return 0;
}

/* Everything that can be checked before the program runs. */
static int preflight(struct record_opts *o)
{
	o->path = program_find(o->cmd[0]);
	if (!o->path) {
		fprintf(stderr, "uft record: %s: %s\n", o->cmd[0],
			errno == ENOENT && !strchr(o->cmd[0], '/') ? "command not found"
								   : strerror(errno));
		return CLI_USAGE;
	}
	o->kind = program_inspect(o->path);
	if (o->kind == PROGRAM_STATIC) {
		fprintf(stderr,
			"uft record: %s is statically linked without libuft, which cannot be "
			"loaded into it: link it with libuft (-luft, or libuft.a), or build it "
			"dynamically\n",
			o->cmd[0]);
		return CLI_USAGE;
	}
	return make_tmp_out(o) == 0 ? CLI_OK : CLI_USAGE;
}

static int run(struct record_opts *o)
{
	struct rendezvous rv;
	pid_t child = start(o, &rv);
	if (child < 0)
		return 1;
	struct recording r = {.o = o, .child = child};
	collect_init(&r.c);
	r.c.clock_id = o->clock ? uft_clock_by_name(o->clock) : -1;
	r.c.compression = o->compression;
	/* Function records are named from the processes' symbol tables. */
	if (o->topts.tracer && strcmp(o->topts.tracer, "nop") != 0)
		r.c.syms = proc_syms_new();
	int status = 0;
	bool running = false;
	collect_until_done(&r, rv.lsock, &status, &running);
	close_private(&rv);
	int rc = finish(&r, status, running);
	collect_free(&r.c);
	return rc;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {.out = "trace.dat", .max_loss = -1};
	int rc = parse(&o, argc, argv);
	if (rc == CLI_OK)
		rc = preflight(&o);
	if (rc == CLI_OK)
		rc = run(&o);
	if (o.tmp_out)
		unlink(o.tmp_out); /* renamed away when written */
	free(o.tmp_out);
	free(o.path);
	free_tracer_opts(&o.topts);
	return rc;
}
