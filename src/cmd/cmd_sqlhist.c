/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `uft sqlhist`: an SQL statement to the commands that build its histogram
 * or synthetic event (docs/design/hist.md, "sqlhist"). Events resolve against a
 * trace.dat's formats (-i), a running process's tree (-p) or a tracefs
 * directory (-t); the commands are printed, or written to the process (-e). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wire/ctl_proto.h"
#include "engine/format/format_parse.h"
#include "engine/sqlhist/sqlhist.h"
#include "cmd/commands.h"
#include "cmd/cli.h"
#include "cmd/live_args.h"
#include "report/sqlhist_file.h"
#include "tracedat/trace_file.h"
#include "wire/env_names.h"

#define KERNEL_TRACEFS "/sys/kernel/tracing"

static const char usage[] =
    "usage: uft sqlhist [OPTIONS] [SQL]\n"
    "Prints the commands that build the SQL statement's histogram (no JOIN) or\n"
    "synthetic event (JOIN), resolving its events against:\n"
    "  -i FILE     the formats of a trace.dat (uft's or the kernel's)\n"
    "  -p PID      a running process's tree; commands print as 'uft ctl -p PID'\n"
    "  -t DIR      a tracefs directory (DIR/events/SYS/EV/format); also the\n"
    "              directory printed (default " KERNEL_TRACEFS ", read when\n"
    "              neither -i nor -p is given)\n"
    "options:\n"
    "  -e          also execute on the process (-p PID, or the only traceable one);\n"
    "              with -i, apply the statement to the file's records and print\n"
    "              the synthetic event's records (JOIN) or the histogram\n"
    "  -n NAME     synthetic event name (default Anonymous)\n"
    "  -i FILE -e [--hist SPEC] SQL [-n NAME SQL]...\n"
    "              several statements, applied in order (a later one may read an\n"
    "              earlier one's synthetic event); --hist prints the histogram\n"
    "              of hist trigger SPEC on the last one's synthetic event\n"
    "  -f FILE     read the statement from FILE ('-': standard input)\n"
    "  -m VAR      act when column VAR hits a new maximum (onmax)\n"
    "  -c VAR      act when column VAR changes (onchange)\n"
    "  -s          snapshot() instead of trace() (with -m or -c)\n"
    "  -T          trace() and snapshot() (with -m or -c)\n"
    "  -S F1,F2    save() these end-event fields (with -m or -c)\n"
    "  -B NAME     the instance NAME (statements without JOIN)\n"
    "  --seed N    the statement's random number (0-32767) instead of a random\n"
    "              one; also the " UFT_ENV_SQLHIST_SEED " environment variable\n";

/* The events resolved so far, owned here for the translator. */
struct found {
	char *system;
	struct uft_format_parsed p;
	struct uft_sql_event ev;
};

struct source {
	struct trace_file *tf; /* -i */
	struct live *l;	       /* -p */
	const char *dir;       /* -t, or the kernel's */
	struct found found[4];
	int nr;
};

static int keep(struct source *s, const char *system, const char *text, size_t len,
		const struct uft_sql_event **ev)
{
	struct found *f;

	if (s->nr == 4)
		return -ENOSPC;
	f = &s->found[s->nr];
	if (uft_format_parse(text, len, &f->p))
		return -EINVAL;
	if (!(f->system = strdup(system))) {
		uft_format_parsed_free(&f->p);
		return -ENOMEM;
	}
	f->ev = (struct uft_sql_event){f->system, f->p.name, f->p.fields, f->p.nr_fields};
	*ev = &s->found[s->nr++].ev;
	return 0;
}

/* Whether a format text names event ev (its "name:" line). */
static bool names(const char *text, const char *ev)
{
	const char *p = strstr(text, "name: ");
	size_t n = strlen(ev);
	return p && (p == text || p[-1] == '\n') && !strncmp(p + 6, ev, n) &&
	       (p[6 + n] == '\n' || !p[6 + n]);
}

static int from_file(struct source *s, const char *system, const char *ev,
		     const struct uft_sql_event **out)
{
	const struct tracedat *td = s->tf->td;
	const struct tracedat_format *hit = NULL;
	size_t nr = td->nr_ftrace + td->nr_events;
	int n = 0;

	for (size_t i = 0; i < nr; i++) {
		const struct tracedat_format *f =
		    i < td->nr_ftrace ? &td->ftrace[i] : &td->events[i - td->nr_ftrace];
		if ((!system || !strcmp(system, f->system)) && names(f->text, ev) && !n++)
			hit = f;
	}
	if (n != 1)
		return n ? -EEXIST : -ENOENT;
	return keep(s, hit->system, hit->text, hit->len, out);
}

/* The systems holding ev: "SYS:EV" lines of available_events (live), or the
 * directories of DIR/events that have it. */
static int systems(struct source *s, const char *ev, char ***out, size_t *n)
{
	char **v = NULL;
	*n = 0;
	if (s->l) {
		int err;
		char *all = live_cat(s->l, "/available_events", NULL, &err), *save = NULL;
		if (!all)
			return err;
		for (char *line = strtok_r(all, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *c = strchr(line, ':');
			if (!c || strcmp(c + 1, ev))
				continue;
			char **nv = realloc(v, (*n + 1) * sizeof(*v));
			if (!nv)
				break;
			v = nv;
			v[(*n)++] = strndup(line, (size_t)(c - line));
		}
		free(all);
	} else {
		char path[4096];
		snprintf(path, sizeof(path), "%s/events", s->dir);
		DIR *d = opendir(path);
		if (!d)
			return -errno;
		for (struct dirent *e; (e = readdir(d));) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", s->dir, e->d_name,
				 ev);
			if (access(path, R_OK))
				continue;
			char **nv = realloc(v, (*n + 1) * sizeof(*v));
			if (!nv)
				break;
			v = nv;
			v[(*n)++] = strdup(e->d_name);
		}
		closedir(d);
	}
	*out = v;
	return 0;
}

static char *read_format(struct source *s, const char *system, const char *ev, size_t *len,
			 int *err)
{
	char path[4096];

	if (s->l) {
		snprintf(path, sizeof(path), "/events/%s/%s/format", system, ev);
		return live_cat(s->l, path, len, err);
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", s->dir, system, ev);
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	if (!f) {
		*err = errno == ENOENT ? -ENOENT : -errno;
		return NULL;
	}
	ssize_t n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		*err = -EIO;
		return NULL;
	}
	*len = (size_t)n;
	return text;
}

static int lookup(void *ctx, const char *system, const char *ev, const struct uft_sql_event **out)
{
	struct source *s = ctx;
	char **sys = NULL, *text;
	size_t nsys = 0, len = 0;
	int rc = 0;

	if (s->tf)
		return from_file(s, system, ev, out);
	if (!system) {
		rc = systems(s, ev, &sys, &nsys);
		if (!rc && nsys != 1)
			rc = nsys ? -EEXIST : -ENOENT;
		if (!rc)
			system = sys[0];
	}
	if (!rc) {
		text = read_format(s, system, ev, &len, &rc);
		if (text)
			rc = keep(s, system, text, len, out);
		free(text);
	}
	for (size_t i = 0; i < nsys; i++)
		free(sys[i]);
	free(sys);
	return rc;
}

/* 'TEXT' for the shell. */
static void quoted(FILE *f, const char *text)
{
	fputc('\'', f);
	for (; *text; text++)
		if (*text == '\'')
			fputs("'\\''", f);
		else
			fputc(*text, f);
	fputc('\'', f);
}

static const char *path_of(const struct uft_sql_cmd *c, const char *instance, char *buf, size_t len)
{
	if (!instance || !strcmp(c->file, "dynamic_events"))
		return c->file;
	snprintf(buf, len, "instances/%s/%s", instance, c->file);
	return buf;
}

static void print_cmds(const struct uft_sql_out *out, const char *pid, const char *dir,
		       const char *instance)
{
	char buf[4096];

	for (int i = 0; i < out->nr; i++) {
		const char *path = path_of(&out->cmd[i], instance, buf, sizeof(buf));
		if (pid && !dir) {
			printf("uft ctl -p %s write -a %s ", pid, path);
			quoted(stdout, out->cmd[i].text);
		} else {
			fputs("echo ", stdout);
			quoted(stdout, out->cmd[i].text);
			printf(" >> %s/%s", dir ? dir : KERNEL_TRACEFS, path);
		}
		putchar('\n');
	}
}

/* Writes the commands in order; on a refusal prints the error_log's last
 * entry and removes what was installed. Returns the exit status. */
static int execute(struct live *l, const struct uft_sql_out *out)
{
	int i, rc = 0;

	for (i = 0; i < out->nr; i++) {
		const struct uft_sql_cmd *c = &out->cmd[i];
		bool top = !strcmp(c->file, "dynamic_events");
		rc = live_write(l, top ? "/dynamic_events" : c->file, c->text, UFT_TFS_APPEND);
		if (rc)
			break;
	}
	if (!rc)
		return 0;
	fprintf(stderr, "uft sqlhist: process %s refused %s: %s: %s\n", l->pidstr, out->cmd[i].file,
		out->cmd[i].text, strerror(-rc));
	int err;
	char *log = live_cat(l, "error_log", NULL, &err);
	if (log && *log) {
		/* The last entry: its last three lines. */
		size_t len = strlen(log);
		while (len && log[len - 1] == '\n')
			len--;
		char *p = log + len;
		for (int lines = 0; p > log; p--)
			if (p[-1] == '\n' && ++lines == 3)
				break;
		fprintf(stderr, "%.*s\n", (int)(log + len - p), p);
	}
	free(log);
	while (i-- > 0) {
		const struct uft_sql_cmd *c = &out->cmd[i];
		char *undo = NULL;
		bool top = !strcmp(c->file, "dynamic_events");
		if (asprintf(&undo, top ? "-:%s" : "!%s", top ? out->synth : c->text) < 0)
			break;
		if (live_write(l, top ? "/dynamic_events" : c->file, undo, UFT_TFS_APPEND))
			fprintf(stderr, "uft sqlhist: could not remove: %s\n", undo);
		free(undo);
	}
	return 1;
}

static char *read_all(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *text = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = strdup("");
	}
	if (f != stdin)
		fclose(f);
	return text;
}

static void show_error(const char *sql, const struct uft_sql_error *e)
{
	sqlhist_show_error(stderr, sql, e);
}

/* -i FILE -e: "SQL [-n NAME SQL]..." applied to the file. */
static int on_file(const char *file, const struct uft_sql_opts *o, const char *name, int argc,
		   char **argv, const char *hist)
{
	struct sqlhist_stmt *st = calloc((size_t)argc, sizeof(*st));
	size_t n = 0;
	int rc = 2;

	if (!st)
		return 1;
	for (int i = 0; i < argc;) {
		if (n && !(i + 2 < argc && !strcmp(argv[i], "-n"))) {
			fprintf(stderr, "uft sqlhist: after a statement: -n NAME SQL, found '%s'\n",
				argv[i]);
			goto out;
		}
		if (n) {
			name = argv[i + 1];
			i += 2;
		}
		st[n++] = (struct sqlhist_stmt){name, argv[i++]};
	}
	struct trace_file tf;
	char why[256];
	if (trace_file_open(&tf, file, why, sizeof(why))) {
		fprintf(stderr, "uft sqlhist: %s: %s\n", file, why);
		rc = 2;
		goto out;
	}
	rc = sqlhist_file(&tf, st, n, o, hist, stdout, stderr);
	trace_file_close(&tf);
out:
	free(st);
	return rc;
}

struct sqlhist_opts {
	struct uft_sql_opts o;
	struct live_args live; /* -p, -B */
	const char *file, *dir, *sqlfile, *seed, *hist;
	bool exec;
	int nargs; /* the operands */
	char **args;
};

static int take(void *opts, int opt, char *arg)
{
	struct sqlhist_opts *s = opts;
	if (live_args_take(&s->live, opt, arg))
		return CLI_OK;
	switch (opt) {
	case 'i':
		s->file = arg;
		break;
	case 't':
		s->dir = arg;
		break;
	case 'n':
		s->o.name = arg;
		break;
	case 'e':
		s->exec = true;
		break;
	case 'f':
		s->sqlfile = arg;
		break;
	case 'm':
		s->o.onmax = arg;
		break;
	case 'c':
		s->o.onchange = arg;
		break;
	case 's':
		s->o.snapshot = true;
		break;
	case 'T':
		s->o.trace_snapshot = true;
		break;
	case 'S':
		s->o.save = arg;
		break;
	case 'R':
		s->seed = arg;
		break;
	case 'H':
		s->hist = arg;
		break;
	}
	return CLI_OK;
}

static const struct option longopts[] = {{"seed", required_argument, NULL, 'R'},
					 {"hist", required_argument, NULL, 'H'},
					 {"help", no_argument, NULL, 'h'},
					 {NULL, 0, NULL, 0}};
static const struct cli cli = {"uft sqlhist", usage, "+i:p:t:B:n:ef:m:c:sTS:h", longopts, take};

/* The options, checked against each other; the seed drawn when not given. */
static int parse(struct sqlhist_opts *s, int argc, char **argv)
{
	s->seed = getenv(UFT_ENV_SQLHIST_SEED);
	int first;
	int rc = cli_parse(&cli, s, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	s->nargs = argc - first;
	s->args = argv + first;
	long seed;
	if (s->seed && !cli_long(s->seed, 10, 0, 32767, &seed))
		return cli_error(&cli, "bad seed '%s' (0-32767)", s->seed);
	s->o.rand =
	    s->seed ? (unsigned)seed : (unsigned)(time(NULL) ^ (getpid() * 2654435761u)) % 32768u;
	if (s->file && s->live.pid)
		return cli_error(&cli, "-i and -p exclude each other");
	if (s->file && s->exec && (s->live.instance || s->dir))
		return cli_error(&cli, "-i FILE -e runs over the file: -B and -t do not apply");
	if (s->hist && !(s->file && s->exec))
		return cli_error(&cli, "--hist goes with -i FILE -e");
	return CLI_OK;
}

/* -i FILE -e: the statements over the file's records. */
static int run_on_file(const struct sqlhist_opts *s)
{
	if (s->sqlfile && !s->nargs) {
		char *text = read_all(s->sqlfile);
		if (!text) {
			fprintf(stderr, "uft sqlhist: %s: %s\n", s->sqlfile, strerror(errno));
			return 2;
		}
		int rc = on_file(s->file, &s->o, s->o.name, 1, &text, s->hist);
		free(text);
		return rc;
	}
	return on_file(s->file, &s->o, s->o.name, s->nargs, s->args, s->hist);
}

/* Where the statement's events resolve: the file, the process or the
 * directory. Returns 0, or the exit status after a message (2: the file,
 * pid or instance is refused). */
static int open_source(struct source *src, const struct sqlhist_opts *s, struct trace_file *tf,
		       struct live *l)
{
	if (s->file) {
		char why[256];
		if (trace_file_open(tf, s->file, why, sizeof(why))) {
			fprintf(stderr, "uft sqlhist: %s: %s\n", s->file, why);
			return 2;
		}
		src->tf = tf;
	} else if (s->live.pid || s->exec) {
		int rc = live_args_open(l, &s->live);
		if (rc)
			return rc;
		src->l = l;
	}
	return 0;
}

static void close_source(struct source *src)
{
	if (src->tf)
		trace_file_close(src->tf);
	if (src->l)
		live_close(src->l);
	for (int i = 0; i < src->nr; i++) {
		uft_format_parsed_free(&src->found[i].p);
		free(src->found[i].system);
	}
}

/* One statement translated, printed and, with -e, executed. */
static int translate(const struct sqlhist_opts *s, const char *sql)
{
	struct source src = {.dir = s->dir ? s->dir : KERNEL_TRACEFS};
	struct trace_file tf;
	struct live l;
	struct uft_sql_error e = {0};
	struct uft_sql_out out = {0};
	struct uft_sql *q = NULL;
	int rc = 1;

	if (uft_sql_parse(sql, &q, &e)) {
		show_error(sql, &e);
		rc = 2;
	} else if (s->live.instance && q->has_join) {
		rc = cli_error(&cli, "-B: only statements without JOIN go to an instance");
	} else if ((rc = open_source(&src, s, &tf, &l)) == 0) {
		if (uft_sql_translate(q, &s->o, lookup, &src, &out, &e)) {
			show_error(sql, &e);
			rc = 2;
		} else {
			print_cmds(&out, src.l ? l.pidstr : NULL, s->dir, s->live.instance);
			rc = s->exec ? execute(&l, &out) : 0;
		}
	}
	close_source(&src);
	uft_sql_out_free(&out);
	uft_sql_free(q);
	return rc;
}

int cmd_sqlhist(int argc, char **argv)
{
	struct sqlhist_opts s = {0};
	int rc = parse(&s, argc, argv);
	if (rc != CLI_OK)
		return rc;
	if (s.file && s.exec && (s.sqlfile ? !s.nargs : s.nargs))
		return run_on_file(&s);
	if ((s.sqlfile != NULL) == (s.nargs > 0) || s.nargs > 1) {
		fprintf(stderr, "uft sqlhist: give one statement (or -f FILE)\n");
		return cli_usage_error(&cli);
	}
	char *sql = s.sqlfile ? read_all(s.sqlfile) : strdup(s.args[0]);
	if (!sql) {
		fprintf(stderr, "uft sqlhist: %s: %s\n", s.sqlfile, strerror(errno));
		return 2;
	}
	rc = translate(&s, sql);
	free(sql);
	return rc;
}
