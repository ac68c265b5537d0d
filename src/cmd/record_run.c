/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The part of `uft record` that `uft stream` shares: options, checks, the
 * launch and the collecting loop.
 *
 * Each traced process connects to a private socket and hands over its shared
 * region. The recorder drains regions on a timer and when a process asks (its
 * ring passed half full), and drains one last time when the connection closes
 * — which happens however the process ends, SIGKILL included. */
#define _GNU_SOURCE
#include "engine/probe/probe.h"
#include "cmd/record_run.h"

#include <errno.h>
#include <fcntl.h>
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

#include "cmd/record_kernel.h"
#include "cmd/record_summary.h"
#include "cmd/kernel_source.h"
#include "recorder/proc_syms.h"
#include "wire/clocks.h"
#include "wire/env_names.h"
#include "wire/record_proto.h"

#define DRAIN_INTERVAL_MS 100

#define STOP_GRACE_MS 2000 /* how long a signalled program may take to end */

/* The last SIGINT or SIGTERM, how many came, and whether the last was sent
 * by a process (kill) rather than by the terminal, which signals the
 * program's process group itself. */
static volatile sig_atomic_t stop_sig, nr_signals, stop_by_process;

static void on_stop_signal(int sig, siginfo_t *si, void *uc)
{
	stop_sig = sig;
	stop_by_process = si->si_code <= 0; /* SI_USER, SI_QUEUE, SI_TKILL */
	nr_signals++;
	proc_tracer_request_stop(); /* -p process: detach */
}

/* The -e specs for libuft: not those of kernel events ("!all" if none is left). */
static char *join_events(char *const *ev, const bool *kernel, int n)
{
	size_t len = 8;
	for (int i = 0; i < n; i++)
		len += strlen(ev[i]) + 1;
	char *s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (kernel[i])
			continue;
		if (*s)
			strcat(s, ",");
		strcat(s, ev[i]);
	}
	if (!*s)
		strcpy(s, "!all");
	return s;
}

static int add_glob(const char *name, char **list, const char *glob)
{
	if (!*glob || strpbrk(glob, " \t\n")) {
		fprintf(stderr, "%s: bad function pattern '%s'\n", name, glob);
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

static int check_tracer_opts(const char *name, struct tracer_opts *t)
{
	if (!t->tracer && (t->graph || t->depth))
		t->tracer = "function_graph"; /* as -g asks for a graph */
	if (!t->tracer && (t->filter || t->notrace)) {
		fprintf(stderr, "%s: -l and -n need -p function or function_graph\n", name);
		return -1;
	}
	static const char *const known[] = {"function",	  "function_graph", "nop",    "irqsoff",
					    "preemptoff", "preemptirqsoff", "wakeup", "wakeup_rt",
					    "wakeup_dl",  "timerlat",	    "osnoise"};
	bool found = !t->tracer;
	for (size_t i = 0; !found && i < sizeof(known) / sizeof(known[0]); i++)
		found = strcmp(t->tracer, known[i]) == 0;
	if (!found) {
		fprintf(stderr,
			"%s: unknown tracer '%s' (function, function_graph, nop, irqsoff, "
			"preemptoff, preemptirqsoff, wakeup, wakeup_rt, wakeup_dl, timerlat, "
			"osnoise)\n",
			name, t->tracer);
		return -1;
	}
	if (t->func_stack && (!t->tracer || strcmp(t->tracer, "function") != 0)) {
		fprintf(stderr, "%s: --func-stack needs -p function\n", name);
		return -1;
	}
	if (t->tracer && strcmp(t->tracer, "function_graph") != 0 && (t->graph || t->depth)) {
		fprintf(stderr, "%s: -g and --max-graph-depth need -p function_graph\n", name);
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
static char *join_filters(char *const *ev, char *const *flt, const bool *kernel, int n)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		if (flt[i])
			len += strlen(ev[i]) + strlen(flt[i]) + 2;
	char *s = calloc(1, len), *p = s;
	if (!s)
		return NULL;
	for (int i = 0; i < n; i++)
		if (flt[i] && !kernel[i])
			p += sprintf(p, "%s%s\x1f%s", p == s ? "" : "\x1e", ev[i], flt[i]);
	return s;
}

static int take_tracer_opt(const struct cli *cli, struct tracer_opts *t, int opt, char *arg)
{
	long depth;
	switch (opt) {
	case 'p':
		t->tracer = arg;
		break;
	case 'l':
	case 'n':
	case 'g':
		if (add_glob(cli->name,
			     opt == 'l'	  ? &t->filter
			     : opt == 'n' ? &t->notrace
					  : &t->graph,
			     arg))
			return CLI_USAGE;
		break;
	case 'S':
		t->func_stack = true;
		break;
	case 'D':
		if (!cli_long(arg, 10, 0, 100000, &depth))
			return cli_error(cli, "bad graph depth '%s'", arg);
		t->depth = arg;
		break;
	default:
		return 1;
	}
	return CLI_OK;
}

static int any_sym(void *ctx, const char *lib, const char *sym, uint64_t *addr)
{
	(void)ctx;
	(void)lib;
	(void)sym;
	*addr = 0;
	return 0;
}

/* --probe: the grammar checked before anything runs, with the kernel's
 * message and caret as the tree's error_log would give them. What needs
 * the program (its symbols, an eprobe's source event) is checked there,
 * before main. */
static int probe_check(const struct cli *cli, const char *def)
{
	const char *w = def + strspn(def, " \t");
	if (*w == 'e' || (*w == '-' && w[1] == ':'))
		return *w == '-' ? cli_error(cli, "--probe: a definition, not a deletion") : 0;
	struct uft_probe_env env = {.src = UFT_PROBE_SRC_DYNAMIC, .sym_addr = any_sym};
	struct uft_probe_cmd c;
	struct uft_probe_error e = {0};
	memset(&c, 0, sizeof(c));
	int rc = uft_probe_parse(def, &env, &c, &e);
	if (rc == 0 && c.op != UFT_PROBE_OP_CREATE)
		rc = -EINVAL;
	if (rc) {
		if (e.msg && e.cmd)
			fprintf(stderr, "%s: --probe: %s: error: %s\n  Command: %s\n%*s^\n",
				cli->name, e.loc, e.msg, e.cmd, (int)(e.pos + 11), "");
		else
			fprintf(stderr, "%s: --probe '%s': %s\n", cli->name, def, strerror(-rc));
	}
	uft_probe_error_free(&e);
	uft_probe_cmd_free(&c);
	return rc;
}

int record_take_opt(struct record_opts *o, int opt, char *arg)
{
	const struct cli *cli = o->cli;
	if (opt == 'p' && strcmp(arg, "process") == 0) {
		o->popts.on = true;
		return CLI_OK;
	}
	int prc = proc_take_opt(o, opt, arg);
	if (prc != 1)
		return prc;
	switch (opt) {
	case 'e':
		if (o->nr_events < RECORD_MAX_EVENTS)
			o->events[o->nr_events++] = arg;
		return CLI_OK;
	case 'f':
		if (o->nr_events == 0 || o->events[o->nr_events - 1][0] == '!')
			return cli_error(cli, "-f must follow the -e it filters");
		o->filters[o->nr_events - 1] = arg;
		return CLI_OK;
	case 'b':
		if (!cli_long(arg, 0, 1, LONG_MAX, &o->buffer_kb))
			return cli_error(cli, "bad buffer size '%s'", arg);
		/* The traced process makes its region hold UFT_SHM_MIN_RINGS rings
		 * of this size; one ring may not exceed UFT_SHM_MAX_RING_PAGES. */
		if (o->buffer_kb > (long)UFT_SHM_MAX_RING_PAGES * (UFT_SUBBUF_SIZE / 1024))
			return cli_error(cli,
					 "buffer size %s KiB is larger than the %u KiB a thread "
					 "ring can have",
					 arg, UFT_SHM_MAX_RING_PAGES * (UFT_SUBBUF_SIZE / 1024));
		return CLI_OK;
	case 'U':
		/* The tree's buffer_subbuf_size_kb takes the same values. */
		if (!cli_long(arg, 10, 1, UFT_SUBBUF_MAX / 1024, &o->subbuf_kb))
			return cli_error(cli, "bad sub-buffer size '%s' (1 to %u KiB)", arg,
					 UFT_SUBBUF_MAX / 1024);
		return CLI_OK;
	case 'C':
		if (uft_clock_by_name(arg) < 0)
			return cli_error(cli, "unknown clock '%s'", arg);
		o->clock = arg;
		return CLI_OK;
	case 'M':
		if (strcmp(arg, "overwrite") != 0 && strcmp(arg, "discard") != 0 &&
		    strcmp(arg, "block") != 0)
			return cli_error(cli, "mode must be block, overwrite or discard");
		o->mode = arg;
		return CLI_OK;
	case 'q':
		o->quiet = true;
		return CLI_OK;
	case 'X': {
		char *end;
		o->max_loss = strtod(arg, &end);
		if (end == arg || *end || !(o->max_loss >= 0 && o->max_loss <= 100))
			return cli_error(cli, "bad --max-loss '%s' (a percentage, 0 to 100)", arg);
		return CLI_OK;
	}
	case 'K':
		o->keep_running = true;
		return CLI_OK;
	case RECORD_OPT_PROBE: {
		/* One line each: a definition cannot hold a newline. */
		if (!*arg || strchr(arg, '\n'))
			return cli_error(cli, "--probe: one definition without a newline");
		if (probe_check(cli, arg) != 0)
			return CLI_USAGE;
		char *all;
		if (asprintf(&all, "%s%s%s", o->probes ? o->probes : "", o->probes ? "\n" : "",
			     arg) < 0)
			return CLI_USAGE;
		free(o->probes);
		o->probes = all;
		return CLI_OK;
	}
	case 'B':
		free(o->bootconfig);
		if (!(o->bootconfig = realpath(arg, NULL)))
			return cli_error(cli, "--bootconfig %s: %s", arg, strerror(errno));
		return CLI_OK;
	}
	return take_tracer_opt(cli, &o->topts, opt, arg);
}

/* The private socket the traced processes connect to, in a new directory. */
struct rendezvous {
	char dir[32];
	struct sockaddr_un sa;
	int lsock;
};

static int listen_private(const char *name, struct rendezvous *rv)
{
	snprintf(rv->dir, sizeof(rv->dir), "/tmp/uft-record.XXXXXX");
	if (!mkdtemp(rv->dir)) {
		fprintf(stderr, "%s: mkdtemp: %s\n", name, strerror(errno));
		return -1;
	}
	rv->sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	snprintf(rv->sa.sun_path, sizeof(rv->sa.sun_path), "%s/sock", rv->dir);
	rv->lsock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (rv->lsock < 0 || bind(rv->lsock, (struct sockaddr *)&rv->sa, sizeof(rv->sa)) != 0 ||
	    listen(rv->lsock, 64) != 0) {
		fprintf(stderr, "%s: socket: %s\n", name, strerror(errno));
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

/* -p process: the collector is shared with the tracer thread. */
static void lock(struct recording *r)
{
	proc_tracer_lock(r->pt);
}

static void unlock(struct recording *r)
{
	proc_tracer_unlock(r->pt);
}

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
	lock(r);
	int rc = collect_add_proc(c, cred.pid, memfd, s, comm);
	unlock(r);
	close(memfd);
	if (rc != 0) {
		/* Not recorded; the others go on. */
		fprintf(stderr, "%s: process %d: %s: %s\n", r->o->cli->name, (int)cred.pid,
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
		fprintf(stderr, "%s: ", r->o->cli->name);
		if (!checked)
			fprintf(stderr, "process %d (%s): ", (int)p->pid, p->comm);
		fprintf(stderr, "%s%s", error && checked ? "" : "warning: ", m);
	}
}

/* A process's max trace (UFT_MSG_LATENCY): the memfd's text, kept for the
 * file. */
static void take_latency(struct recording *r, int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size <= 0 || st.st_size > (1 << 30))
		return;
	char *text = malloc((size_t)st.st_size);
	size_t got = 0;
	while (text && got < (size_t)st.st_size) {
		ssize_t k = pread(fd, text + got, (size_t)st.st_size - got, (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (!text || got != (size_t)st.st_size) {
		free(text);
		return;
	}
	lock(r);
	free(r->c.latency);
	r->c.latency = text;
	r->c.latency_len = got;
	unlock(r);
}

/* One message of a process, with the descriptor it may carry (-1: none). */
static ssize_t recv_msg(int conn, char *buf, size_t len, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {buf, len};
	struct msghdr msg = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf)};
	*fd = -1;
	ssize_t n = recvmsg(conn, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	struct cmsghdr *cm = n >= 0 ? CMSG_FIRSTHDR(&msg) : NULL;
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return n;
}

/* Reads what each process with input sent: a report, a max trace, a
 * request to drain, or its end. */
static void serve_conns(struct recording *r, const struct pollfd *pfd, size_t nfds)
{
	static char buf[UFT_MSG_REPORT_MAX + 1];
	struct collect *c = &r->c;
	for (size_t i = 0; i + 1 < nfds; i++) {
		struct collect_proc *p = c->procs[i];
		if (p->conn < 0 || !pfd[1 + i].revents)
			continue;
		int fd;
		ssize_t n = recv_msg(p->conn, buf, sizeof(buf) - 1, &fd);
		if (fd >= 0) {
			if (n > 0 && buf[0] == UFT_MSG_LATENCY)
				take_latency(r, fd);
			close(fd);
			continue;
		}
		if (n > 0 && buf[0] == UFT_MSG_REPORT) {
			buf[n] = 0;
			take_report(r, p, buf + 1);
		} else if (n > 0) {
			lock(r);
			collect_drain(c, p, false);
			unlock(r);
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			/* The process is gone (exit, exec, crash, kill). */
			lock(r);
			collect_drain(c, p, true);
			unlock(r);
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
static void drain_on_time(struct recording *r, struct timespec *last)
{
	struct collect *c = &r->c;
	if (ms_since(last) < DRAIN_INTERVAL_MS)
		return;
	lock(r);
	for (size_t i = 0; i < c->nr_procs; i++)
		if (c->procs[i]->conn >= 0)
			collect_drain(c, c->procs[i], false);
	kernel_source_drain(r->ks, false);
	if (r->out)
		r->out->drained(r->out->ctx, false);
	unlock(r);
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
	if (r->pt) {
		/* The tracer detaches (or serves a filtered command to its end, a
		 * second signal detaching it anyway): collecting ends with it. */
		if (!*stopping) {
			clock_gettime(CLOCK_MONOTONIC, since);
			if (proc_tracer_seccomp(r->pt) && nr_signals == 1)
				fprintf(stderr,
					"%s: %s is followed to its end: its seccomp filter needs "
					"its tracer (interrupt again to detach it; its selected "
					"syscalls then fail with ENOSYS)\n",
					r->o->cli->name, r->o->cmd[0]);
		}
		*stopping = true;
		return false;
	}
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
static void collect_until_done(struct recording *r, int lsock)
{
	int *status = &r->status;
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
		if (r->pt)
			child_done = proc_tracer_done(r->pt);
		else if (!child_done && waitpid(r->child, status, WNOHANG) == r->child)
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
		drain_on_time(r, &last);
	}
	r->running = !child_done;
	if (r->pt) {
		if (!child_done)
			proc_tracer_request_stop();
		proc_tracer_finish(r->pt, &r->status, &r->running);
		r->pt = NULL;
	}
	for (size_t i = 0; i < c->nr_procs; i++) {
		if (c->procs[i]->conn >= 0) {
			collect_drain(c, c->procs[i], true);
			close(c->procs[i]->conn);
			c->procs[i]->conn = -1;
		}
	}
	/* The kernel wrote the program's events as they happened: all are in. */
	kernel_source_drain(r->ks, true);
	r->kernel_kept = kernel_source_kept(r->ks);
	kernel_source_free(r->ks);
	r->ks = NULL;
	if (r->out)
		r->out->drained(r->out->ctx, true);
}

/* The exit status for the program's wait status. */
static int program_status(const struct record_opts *o, int status, bool running)
{
	FILE *info = o->info ? o->info : stdout;
	if (running)
		return 0;
	if (WIFSIGNALED(status)) {
		if (!o->quiet)
			fprintf(info, "%s: killed by signal %d\n", o->cmd[0], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* The settings for libuft in the environment (the child's, or, with -p
 * process, uft's own, which the launched command inherits). */
static void set_traced_env(const struct record_opts *o, const char *sock)
{
	char *ev = join_events(o->events, o->kernel, o->nr_events);
	setenv(UFT_ENV_RECORD, sock, 1);
	/* As trace-cmd: a function tracer without -e records no events. */
	bool fn = o->topts.tracer && strcmp(o->topts.tracer, "nop") != 0;
	if (o->popts.on) {
		/* The process tracer is a tracer too; its -e are not libuft's. */
		const char *le = o->popts.libuft_events;
		setenv(UFT_ENV_EVENTS, le && *le ? le : "!all", 1);
		fn = true;
		free(ev);
		ev = NULL;
	}
	/* Likewise a bootconfig file or probes: they say what is traced. */
	if (!o->popts.on)
		setenv(UFT_ENV_EVENTS,
		       o->nr_events			  ? ev
		       : fn || o->bootconfig || o->probes ? "!all"
							  : "all",
		       1);
	free(ev);
	if (o->bootconfig)
		setenv(UFT_ENV_BOOTCONFIG, o->bootconfig, 1);
	if (o->probes)
		setenv(UFT_ENV_PROBES, o->probes, 1);
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
	char *fl = join_filters(o->events, o->filters, o->kernel, o->nr_events);
	if (fl && *fl)
		setenv(UFT_ENV_FILTERS, fl, 1);
	free(fl);
	set_tracer_env(&o->topts);
	/* The process tracer needs no libuft: it is loaded for events of its own. */
	if (!o->popts.on || o->popts.libuft_wanted)
		program_preload(o->kind);
}

/* In the child: the settings for libuft, then the program. */
static void __attribute__((noreturn)) exec_traced(const struct record_opts *o, const char *sock)
{
	set_traced_env(o, sock);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execv(o->path, o->cmd);
	fprintf(stderr, "%s: cannot run %s: %s\n", o->cli->name, o->cmd[0], strerror(errno));
	_exit(127);
}

/* Starts the program with the recorder listening; returns its pid or -1.
 * With kernel events, the child waits before its exec until its pid is in
 * the instance's set_event_pid and the events are on. */
static pid_t start(const struct record_opts *o, struct rendezvous *rv, struct kernel_source *ks)
{
	int go[2] = {-1, -1};
	if (listen_private(o->cli->name, rv) != 0)
		return -1;
	if (ks && pipe2(go, O_CLOEXEC) != 0) {
		fprintf(stderr, "%s: pipe: %s\n", o->cli->name, strerror(errno));
		close_private(rv);
		return -1;
	}
	struct sigaction sact = {.sa_sigaction = on_stop_signal, .sa_flags = SA_SIGINFO};
	sigaction(SIGINT, &sact, NULL);
	sigaction(SIGTERM, &sact, NULL);
	pid_t child = fork();
	if (child < 0)
		fprintf(stderr, "%s: fork: %s\n", o->cli->name, strerror(errno));
	if (child == 0) {
		char b;
		if (ks && read(go[0], &b, 1) != 1)
			_exit(127);
		exec_traced(o, rv->sa.sun_path);
	}
	if (ks) {
		int rc = child > 0 ? kernel_source_follow(ks, child, false) : 0;
		if (rc)
			fprintf(stderr, "%s: kernel events: set_event_pid: %s\n", o->cli->name,
				strerror(-rc));
		/* a child not followed is not released: it exits 127 */
		if (!rc && child > 0 && write(go[1], "g", 1) != 1)
			rc = -EPIPE;
		close(go[0]);
		close(go[1]);
	}
	return child;
}

/* Everything that can be checked before the program runs. */
int record_preflight(struct record_opts *o)
{
	if (o->popts.on && o->popts.follow)
		return CLI_OK;
	o->path = program_find(o->cmd[0]);
	if (!o->path) {
		fprintf(stderr, "%s: %s: %s\n", o->cli->name, o->cmd[0],
			errno == ENOENT && !strchr(o->cmd[0], '/') ? "command not found"
								   : strerror(errno));
		return CLI_USAGE;
	}
	o->kind = program_inspect(o->path);
	if (o->kind == PROGRAM_STATIC && !o->popts.on) {
		fprintf(stderr,
			"%s: %s is statically linked without libuft, which cannot be "
			"loaded into it: link it with libuft (-luft, or libuft.a), or build it "
			"dynamically\n",
			o->cli->name, o->cmd[0]);
		return CLI_USAGE;
	}
	return CLI_OK;
}

int record_check_opts(struct record_opts *o, int argc, char **argv, int first)
{
	bool follow = o->popts.on && o->popts.follow;
	if (first >= argc && !follow)
		return cli_usage_error(o->cli);
	if (check_tracer_opts(o->cli->name, &o->topts) != 0)
		return CLI_USAGE;
	if (o->popts.on && o->topts.tracer) {
		fprintf(stderr,
			"%s: -p process cannot be combined with -l, -n, -g or the "
			"function tracers' options\n",
			o->cli->name);
		return CLI_USAGE;
	}
	/* The -e of kernel events are recorded from the kernel (record_kernel.c). */
	for (int i = 0; i < o->nr_events; i++)
		o->kernel[i] = record_kernel_only(o, o->events[i]);
	if (proc_check_opts(o, first < argc) != CLI_OK)
		return CLI_USAGE;
	o->cmd = argv + first;
	if (follow) {
		/* What the messages call the attached process. */
		char path[64], comm[32] = "";
		snprintf(path, sizeof(path), "/proc/%ld/comm", o->popts.pid);
		FILE *f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		if (f)
			fclose(f);
		if (asprintf(&o->popts.name_buf[0], "%s", *comm ? comm : "process") < 0)
			return CLI_USAGE;
		o->cmd = o->popts.name_buf;
	}
	return CLI_OK;
}

void record_opts_free(struct record_opts *o)
{
	free(o->path);
	free(o->bootconfig);
	free(o->probes);
	free_tracer_opts(&o->topts);
	free(o->popts.libuft_events);
	free(o->popts.name_buf[0]);
}

/* The kernel's events of the process tree the tracer follows. */
static void follow_kernel(struct recording *r, pid_t pid, bool threads)
{
	int rc = kernel_source_follow(r->ks, pid, threads);
	if (rc)
		fprintf(stderr, "%s: kernel events: set_event_pid: %s\n", r->o->cli->name,
			strerror(-rc));
}

static void follow_held(void *ctx, pid_t pid)
{
	follow_kernel(ctx, pid, false);
}

/* -p process: the tracer thread launches or attaches, the collecting loop
 * serves the processes that load libuft beside it. */
static int record_run_process(struct recording *r, struct rendezvous *rv,
			      void (*setup)(void *ctx, struct collect *c), void *ctx)
{
	const struct record_opts *o = r->o;
	if (listen_private(o->cli->name, rv) != 0)
		return 1;
	struct sigaction sact = {.sa_sigaction = on_stop_signal, .sa_flags = SA_SIGINFO};
	sigaction(SIGINT, &sact, NULL);
	sigaction(SIGTERM, &sact, NULL);
	if (!o->popts.follow)
		set_traced_env(o, rv->sa.sun_path);
	collect_init(&r->c);
	if (setup)
		setup(ctx, &r->c);
	if (record_kernel_open(r) != CLI_OK) {
		close_private(rv);
		collect_free(&r->c);
		return CLI_USAGE;
	}
	r->pt = proc_tracer_start(o, &r->c, r->ks ? follow_held : NULL, r);
	if (!r->pt) {
		kernel_source_free(r->ks);
		close_private(rv);
		collect_free(&r->c);
		return CLI_USAGE;
	}
	r->child = proc_tracer_pid(r->pt);
	if (r->ks && o->popts.follow)
		follow_kernel(r, r->child, true);     /* 0: every process */
	if (o->popts.follow && r->child && !o->quiet) /* 0: every process, said there */
		fprintf(stderr, "%s: following process %d\n", o->cli->name, (int)r->child);
	collect_until_done(r, rv->lsock);
	close_private(rv);
	return 0;
}

int record_run(struct recording *r, const struct record_opts *o, const struct record_output *out,
	       void (*setup)(void *ctx, struct collect *c), void *ctx)
{
	struct rendezvous rv;
	*r = (struct recording){.o = o, .out = out};
	if (o->popts.on)
		return record_run_process(r, &rv, setup, ctx);
	collect_init(&r->c);
	r->c.clock_id = o->clock ? uft_clock_by_name(o->clock) : -1;
	/* Function records are named from the processes' symbol tables. */
	if (o->topts.tracer && strcmp(o->topts.tracer, "nop") != 0)
		r->c.syms = proc_syms_new();
	if (setup)
		setup(ctx, &r->c);
	/* Refused (a kernel filter, a clock) before anything runs. */
	if (record_kernel_open(r) != CLI_OK) {
		collect_free(&r->c);
		return CLI_USAGE;
	}
	r->child = start(o, &rv, r->ks);
	if (r->child < 0) {
		kernel_source_free(r->ks);
		collect_free(&r->c);
		return 1;
	}
	collect_until_done(r, rv.lsock);
	close_private(&rv);
	return 0;
}

/* Whether an -e named no event of any process recorded. */
static bool spec_unmatched(const struct recording *r, int i)
{
	const char *spec = r->o->events[i];
	return spec[0] != '!' && strcmp(spec, "all") != 0 && r->c.nr_procs &&
	       !collect_spec_matches(&r->c, spec);
}

int record_check_end(const struct recording *r)
{
	const struct collect *c = &r->c;
	const struct record_opts *o = r->o;
	const char *name = o->cli->name;
	if (r->refused) {
		fprintf(stderr, "%s: nothing recorded: %s was stopped before main\n", name,
			o->cmd[0]);
		return CLI_USAGE;
	}
	if (c->nr_procs == 0 && !o->popts.on && WIFEXITED(r->status) &&
	    WEXITSTATUS(r->status) == 127)
		return 127; /* the program could not be started */
	if (c->nr_procs == 0 && !o->popts.on)
		fprintf(stderr, "%s: no process registered (%s did not load libuft)\n", name,
			o->cmd[0]);
	for (int i = 0; i < o->nr_events; i++)
		if (spec_unmatched(r, i))
			fprintf(stderr, "%s: no event matches '%s'%s\n", name, o->events[i],
				record_kernel_hint(o->events[i]));
	return -1;
}

int record_status(const struct recording *r)
{
	const struct collect *c = &r->c;
	const struct record_opts *o = r->o;
	record_print_refused(o->cli->name, c);
	record_print_loss(o->cli->name, c, o->buffer_kb, o->mode);
	if (r->running && !o->quiet)
		fprintf(o->info ? o->info : stdout, "%s (pid %d) left running\n", o->cmd[0],
			(int)r->child);
	int st = program_status(o, r->status, r->running);
	/* What was asked for is not in the recording: a failure. */
	for (int i = 0; i < o->nr_events && st == 0; i++)
		if (spec_unmatched(r, i))
			st = 1;
	if (o->max_loss >= 0 && record_loss(c).pct > o->max_loss) {
		fprintf(stderr, "%s: more than %g%% lost (--max-loss)\n", o->cli->name,
			o->max_loss);
		return 3;
	}
	return st;
}
