/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft top: a live view of running traced processes, refreshed every
 * interval: event rates per event and per thread, the busiest functions,
 * loss counters and hist tables (top_sample.c counts, top_view.c prints).
 *
 * The terminal view is plain ANSI (cursor home, erase to the end of line and
 * of screen) and termios for single keys: the frame is the same text as
 * batch mode's, no library is needed, and what a test captures from the
 * pane is what batch mode prints. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/top_view.h"

static const char usage[] =
    "usage: uft top [-p PID[,PID...] | -a] [-d SECS] [-n ITERATIONS] [-b]\n"
    "  A live view of traced processes: events per second per event and per\n"
    "  thread, the busiest functions under the function tracers or profiler,\n"
    "  lost events and the hist tables of enabled events. Reads without\n"
    "  consuming: recordings and trace_pipe readers see every event still.\n"
    "  -p PIDS    the processes (default: the only traceable one)\n"
    "  -a         every traceable process of the user, as they come and go\n"
    "  -d SECS    seconds between frames (default 1)\n"
    "  -n N       stop after N frames\n"
    "  -b         batch mode: plain text frames on standard output, no keys\n"
    "             (also when standard output is not a terminal)\n"
    "  keys: s or > sort by the next column (RATE, TOTAL, NAME), < the previous,\n"
    "        p pause (counting goes on), q quit\n";

struct top_opts {
	char *pids;
	bool all, batch;
	double every;
	long frames;
};

static int take(void *arg, int opt, char *val)
{
	struct top_opts *o = arg;
	static const struct cli c = {"uft top", usage, NULL, NULL, NULL};
	char *end;
	switch (opt) {
	case 'p':
		o->pids = val;
		break;
	case 'a':
		o->all = true;
		break;
	case 'b':
		o->batch = true;
		break;
	case 'd':
		errno = 0;
		o->every = strtod(val, &end);
		if (errno || end == val || *end || !isfinite(o->every) || o->every < 0.05 ||
		    o->every > 86400)
			return cli_error(&c, "-d %s: seconds from 0.05 to 86400", val);
		break;
	case 'n':
		if (!cli_long(val, 10, 1, 1000000000, &o->frames))
			return cli_error(&c, "-n %s: a number of frames from 1", val);
		break;
	}
	return CLI_OK;
}

/* ---- the terminal ---- */

static struct termios saved_tio;
static bool tio_saved;
static volatile sig_atomic_t quit_sig;

static void on_signal(int sig)
{
	quit_sig = sig;
}

static void term_raw(void)
{
	if (tcgetattr(STDIN_FILENO, &saved_tio) != 0)
		return;
	struct termios t = saved_tio;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0)
		tio_saved = true;
	fputs("\033[?25l", stdout); /* no cursor */
}

static void term_restore(void)
{
	if (tio_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	tio_saved = false;
	fputs("\033[?25h", stdout);
	fflush(stdout);
}

static void window(int *rows, int *cols)
{
	struct winsize ws;
	*rows = 24;
	*cols = 80;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* The frame's first lines, each cut to the window and erased to its end. */
static void paint(const char *text)
{
	int rows, cols;
	window(&rows, &cols);
	fputs("\033[H", stdout);
	const char *s = text;
	for (int row = 0; row < rows - 1 && *s; row++) {
		size_t n = strcspn(s, "\n");
		fwrite(s, 1, n < (size_t)cols ? n : (size_t)cols, stdout);
		fputs("\033[K\n", stdout);
		s += n + (s[n] == '\n');
	}
	fputs("\033[J", stdout);
	fflush(stdout);
}

/* ---- the loop ---- */

struct run {
	struct top t;
	struct top_view v;
	const struct top_opts *o;
	bool tty;
	char notes[1024]; /* -a: processes gone since the last frame */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show(struct run *r)
{
	r->v.notes = r->notes[0] ? r->notes : NULL;
	if (!r->tty) {
		top_render(stdout, &r->t, &r->v);
		fputc('\n', stdout);
		fflush(stdout);
		return;
	}
	int rows, cols;
	window(&rows, &cols);
	r->v.max_rows = rows > 30 ? (rows - 14) / 3 : 5;
	char *text = NULL;
	size_t len;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	top_render(m, &r->t, &r->v);
	fclose(m);
	paint(text);
	free(text);
}

/* A key: true to quit. */
static bool key(struct run *r, char c)
{
	switch (c) {
	case 'q':
	case 'Q':
		return true;
	case 's':
	case '>':
		r->v.sort = (r->v.sort + 1) % TOP_SORT_NR;
		break;
	case '<':
		r->v.sort = (r->v.sort + TOP_SORT_NR - 1) % TOP_SORT_NR;
		break;
	case 'p':
	case ' ':
		r->v.paused = !r->v.paused;
		break;
	default:
		return false;
	}
	show(r);
	return false;
}

/* Waits until `until` (monotonic seconds), taking keys: true to quit. */
static bool wait_until(struct run *r, double until)
{
	for (;;) {
		if (quit_sig)
			return true;
		double left = until - now_s();
		if (left <= 0)
			return false;
		struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
		int n = poll(&pfd, r->tty ? 1 : 0, (int)(left * 1000) + 1);
		if (n <= 0 || !(pfd.revents & POLLIN))
			continue;
		char buf[16];
		ssize_t got = read(STDIN_FILENO, buf, sizeof(buf));
		if (got <= 0) {
			r->tty = r->tty && got < 0; /* end of input: no more keys */
			continue;
		}
		for (ssize_t i = 0; i < got; i++)
			if (key(r, buf[i]))
				return true;
	}
}

/* -a: the processes that came since the last frame; those gone are
 * dropped with a note. */
static void follow_all(struct run *r)
{
	struct top *t = &r->t;
	for (size_t i = 0; i < t->n;) {
		if (!top_proc_exited(t->procs[i])) {
			i++;
			continue;
		}
		size_t len = strlen(r->notes);
		snprintf(r->notes + len, sizeof(r->notes) - len, "process %d (%s) exited\n",
			 (int)t->procs[i]->pid, t->procs[i]->comm);
		top_remove(t, i);
	}
	pid_t *pids;
	size_t n;
	if (uft_ctl_list_pids(&pids, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		bool known = pids[i] == getpid();
		for (size_t k = 0; k < t->n && !known; k++)
			known = t->procs[k]->pid == pids[i];
		if (!known)
			top_add(t, pids[i], true);
	}
	free(pids);
}

/* The first process of -p that has exited, or NULL. */
static const struct top_proc *exited(const struct top *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (top_proc_exited(t->procs[i]))
			return t->procs[i];
	return NULL;
}

static int run_loop(struct run *r)
{
	double last = now_s(), next = last + r->o->every;
	top_sample(&r->t, 0);
	for (;;) {
		if (wait_until(r, next))
			return 0;
		const struct top_proc *gone = r->o->all ? NULL : exited(&r->t);
		double now = now_s();
		top_sample(&r->t, now - last);
		last = now;
		next += r->o->every;
		if (next < now)
			next = now + r->o->every;
		r->t.frame++;
		if (!r->v.paused || gone)
			show(r);
		r->notes[0] = 0;
		if (gone) {
			if (r->tty)
				term_restore();
			fprintf(stderr, "uft top: process %d (%s) exited\n", (int)gone->pid,
				gone->comm);
			return 0;
		}
		if (r->o->frames && r->t.frame >= (unsigned)r->o->frames)
			return 0;
		if (r->o->all)
			follow_all(r);
	}
}

/* -p's list, each connected: CLI_OK or the exit status. */
static int add_pids(struct top *t, const struct top_opts *o)
{
	if (o->all) {
		pid_t *pids;
		size_t n;
		if (uft_ctl_list_pids(&pids, &n) < 0)
			n = 0, pids = NULL;
		for (size_t i = 0; i < n; i++)
			if (pids[i] != getpid())
				top_add(t, pids[i], true);
		free(pids);
		if (!t->n) {
			fprintf(stderr, "uft top: no traceable process found\n");
			return 2;
		}
		return CLI_OK;
	}
	if (!o->pids)
		return top_add(t, 0, false) ? 2 : CLI_OK;
	char *list = strdup(o->pids), *save = NULL;
	int rc = list ? CLI_OK : 1;
	for (char *s = list ? strtok_r(list, ",", &save) : NULL; s && rc == CLI_OK;
	     s = strtok_r(NULL, ",", &save)) {
		long pid;
		if (!cli_pid("uft top", s, &pid)) {
			rc = 2;
			break;
		}
		bool dup = false;
		for (size_t k = 0; k < t->n; k++)
			dup |= t->procs[k]->pid == pid;
		if (!dup && top_add(t, (pid_t)pid, false) != 0)
			rc = 2;
	}
	if (list && !t->n && rc == CLI_OK)
		rc = 2;
	free(list);
	return rc;
}

int cmd_top(int argc, char **argv)
{
	static const struct cli cli = {"uft top", usage, "p:ad:n:bh", NULL, take};
	struct top_opts o = {.every = 1};
	int first;
	int rc = cli_parse(&cli, &o, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	if (first != argc)
		return cli_usage_error(&cli);
	if (o.all && o.pids)
		return cli_error(&cli, "-p and -a: one or the other");
	struct run r = {.o = &o};
	r.v.every = o.every;
	rc = add_pids(&r.t, &o);
	if (rc != CLI_OK) {
		top_free(&r.t);
		return rc;
	}
	r.tty = !o.batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
	r.v.keys = r.tty;
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (r.tty) {
		term_raw();
		fputs("\033[H\033[2J", stdout);
		fflush(stdout);
	}
	rc = run_loop(&r);
	if (r.tty)
		term_restore();
	top_free(&r.t);
	return rc;
}
