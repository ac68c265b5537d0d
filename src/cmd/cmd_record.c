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

#define DRAIN_INTERVAL_MS 100

static volatile sig_atomic_t got_sigint, got_sigterm, nr_signals;
static char *bootconfig; /* --bootconfig, absolute */

static void on_sigint(int sig)
{
	got_sigint = 1;
	if (sig == SIGTERM)
		got_sigterm = 1;
	nr_signals++;
}

static const char usage[] =
    "usage: uft record [-e EVENT [-f FILTER]]... [-p TRACER [-l GLOB]... [-n GLOB]... "
    "[-g FUNC]...\n"
    "                  [--max-graph-depth N] [--func-stack]] [-o FILE] [-b KB]\n"
    "                  [--subbuf-size KB] [-C CLOCK] [-M overwrite|discard]\n"
    "                  [--compression ALG] [--bootconfig FILE] [-q] -- CMD [ARGS]\n"
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
    "  --bootconfig FILE  apply FILE's bootconfig tracing keys at the program's\n"
    "             start (UFT_BOOTCONFIG); without -e it enables no other event\n"
    "  -q         no summary\n";

static int accept_proc(struct collect *c, int lsock)
{
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
	struct uft_hello hello;
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&hello, sizeof(hello)};
	struct msghdr msg = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf)};
	ssize_t n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC);
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int memfd = -1;
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&memfd, CMSG_DATA(cm), sizeof(int));
	if (n != sizeof(hello) || hello.magic != UFT_HELLO_MAGIC || memfd < 0) {
		if (memfd >= 0)
			close(memfd);
		close(s);
		return -1;
	}
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
	if (send(s, "k", 1, MSG_NOSIGNAL) != 1)
		return -1;
	return 0;
}

/* What the traced processes' memory held that failed a check (stderr: it
 * is worth a look even with -q). */
static void print_refused(const struct collect *c)
{
	for (int i = 0; i < SHM_DROP_NR; i++)
		if (c->refused[i])
			fprintf(stderr, "uft record: dropped from traced memory: %llu %s\n",
				(unsigned long long)c->refused[i], shm_drop_name((enum shm_drop)i));
}

static void print_summary(struct collect *c, const char *path, uint64_t size)
{
	for (int i = 0; i < c->nr_cpus; i++) {
		struct collect_cpu *s = &c->cpus[i];
		printf("CPU%d: %llu events, %llu overrun, %llu dropped", i,
		       (unsigned long long)s->total, (unsigned long long)s->overrun,
		       (unsigned long long)s->dropped);
		if (s->lost)
			printf(", %llu lost", (unsigned long long)s->lost);
		printf("\n");
	}
	struct collect_totals *t = &c->totals;
	printf("total: %llu events written, %llu recorded, %llu overrun, %llu dropped",
	       (unsigned long long)t->written, (unsigned long long)t->recorded,
	       (unsigned long long)t->overrun, (unsigned long long)t->dropped);
	if (t->lost)
		printf(", %llu lost", (unsigned long long)t->lost);
	printf("\n%s: %llu bytes, %zu process%s\n", path, (unsigned long long)size, c->nr_procs,
	       c->nr_procs == 1 ? "" : "es");
}

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
	bool quiet;
	char **cmd; /* the program and its arguments */
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
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(o->cmd[0], o->cmd);
	fprintf(stderr, "uft record: cannot run %s: %s\n", o->cmd[0], strerror(errno));
	_exit(127);
}

/* Reads what each process with input sent: a request to drain, or its end. */
static void serve_conns(struct collect *c, const struct pollfd *pfd, size_t nfds)
{
	for (size_t i = 0; i + 1 < nfds; i++) {
		struct collect_proc *p = c->procs[i];
		if (p->conn < 0 || !pfd[1 + i].revents)
			continue;
		char buf[64];
		ssize_t n = recv(p->conn, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0) {
			collect_drain(c, p, false);
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			/* The process is gone (exit, exec, crash, kill). */
			collect_drain(c, p, true);
			close(p->conn);
			p->conn = -1;
		}
	}
}

/* Every open region, each DRAIN_INTERVAL_MS. */
static void drain_on_time(struct collect *c, struct timespec *last)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = (now.tv_sec - last->tv_sec) * 1000 + (now.tv_nsec - last->tv_nsec) / 1000000;
	if (ms < DRAIN_INTERVAL_MS)
		return;
	for (size_t i = 0; i < c->nr_procs; i++)
		if (c->procs[i]->conn >= 0)
			collect_drain(c, c->procs[i], false);
	*last = now;
}

/* Collects until the program has exited and every traced process is gone
 * (an interrupt stops waiting for stragglers); returns its wait status. */
static int collect_until_done(struct collect *c, int lsock, pid_t child)
{
	int status = 0;
	bool child_done = false;
	struct timespec last;
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
		if (!child_done && waitpid(child, &status, WNOHANG) == child)
			child_done = true;
		if (child_done && (open_conns == 0 || got_sigint))
			break;
		/* SIGTERM meant for the recorder ends the program too (a terminal's
		 * SIGINT reached it already), and its last events are collected;
		 * a second signal stops waiting for anyone. */
		if (got_sigterm == 1 && !child_done) {
			kill(child, SIGTERM);
			got_sigterm = 2;
		}
		if (nr_signals > 1)
			break;
		int rc = poll(pfd, nfds, child_done ? 20 : DRAIN_INTERVAL_MS);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0 && (pfd[0].revents & POLLIN)) {
			while (accept_proc(c, lsock) == 0)
				;
		}
		if (rc > 0)
			serve_conns(c, pfd, nfds);
		drain_on_time(c, &last);
	}
	for (size_t i = 0; i < c->nr_procs; i++) {
		if (c->procs[i]->conn >= 0) {
			collect_drain(c, c->procs[i], true);
			close(c->procs[i]->conn);
			c->procs[i]->conn = -1;
		}
	}
	return status;
}

/* Writes the file and the summary; returns the exit status. */
static int finish(struct collect *c, const struct record_opts *o, int status)
{
	if (c->nr_procs == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return 127; /* the program could not be started */
	if (c->nr_procs == 0)
		fprintf(stderr, "uft record: no process registered (is %s linked with libuft?)\n",
			o->cmd[0]);
	for (int i = 0; i < o->nr_events; i++)
		if (o->events[i][0] != '!' && c->nr_procs && !collect_spec_matches(c, o->events[i]))
			fprintf(stderr, "uft record: no event matches '%s'\n", o->events[i]);
	uint64_t size = 0;
	int rc = collect_write(c, o->out, &size);
	if (rc != 0) {
		fprintf(stderr, "uft record: writing %s: %s\n", o->out, strerror(-rc));
		return 1;
	}
	if (!o->quiet)
		print_summary(c, o->out, size);
	print_refused(c);
	if (WIFSIGNALED(status)) {
		if (!o->quiet)
			printf("%s: killed by signal %d\n", o->cmd[0], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Starts the program with the recorder listening; returns its pid or -1. */
static pid_t start(const struct record_opts *o, struct rendezvous *rv)
{
	if (listen_private(rv) != 0)
		return -1;
	struct sigaction sact = {.sa_handler = on_sigint};
	sigaction(SIGINT, &sact, NULL);
	sigaction(SIGTERM, &sact, NULL);
	pid_t child = fork();
	if (child < 0)
		perror("uft record: fork");
	if (child == 0)
		exec_traced(o, rv->sa.sun_path);
	return child;
}

static int run(struct record_opts *o)
{
	struct rendezvous rv;
	pid_t child = start(o, &rv);
	if (child < 0)
		return 1;
	struct collect c;
	collect_init(&c);
	c.clock_id = o->clock ? uft_clock_by_name(o->clock) : -1;
	c.compression = o->compression;
	/* Function records are named from the processes' symbol tables. */
	if (o->topts.tracer && strcmp(o->topts.tracer, "nop") != 0)
		c.syms = proc_syms_new();
	int status = collect_until_done(&c, rv.lsock, child);
	close_private(&rv);
	int rc = finish(&c, o, status);
	collect_free(&c);
	return rc;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {.out = "trace.dat"};
	int rc = parse(&o, argc, argv);
	if (rc == CLI_OK)
		rc = run(&o);
	free_tracer_opts(&o.topts);
	return rc;
}
