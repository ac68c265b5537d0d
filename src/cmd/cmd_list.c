/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft list: the events (and formats) of a trace.dat file or of a program.
 * A program is asked by running it with UFT_LIST_FORMATS: libuft reports the
 * events of every loaded object and exits before main runs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/record_program.h"
#include "report/output.h"
#include "tracedat/tracedat.h"
#include "util/util.h"
#include "wire/env_names.h"

struct list_item {
	char *system;
	char *name;
	char *format;
	size_t len;
};

struct list {
	struct list_item *v;
	size_t n;
};

static int add_item(struct list *l, const char *system, const char *format, size_t len)
{
	if (len < 7 || strncmp(format, "name: ", 6) != 0)
		return 0;
	const char *nl = memchr(format, '\n', len);
	if (!nl)
		return 0;
	void *m = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	if (!m)
		return -ENOMEM;
	l->v = m;
	struct list_item *it = &l->v[l->n++];
	it->system = strdup(system);
	it->name = strndup(format + 6, (size_t)(nl - format - 6));
	it->format = strndup(format, len);
	it->len = len;
	return it->system && it->name && it->format ? 0 : -ENOMEM;
}

static void free_list(struct list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].system);
		free(l->v[i].name);
		free(l->v[i].format);
	}
	free(l->v);
}

static int from_file(struct list *l, const char *path)
{
	char err[256];
	struct tracedat *td = tracedat_open(path, err, sizeof(err));
	if (!td) {
		fprintf(stderr, "uft list: %s\n", err); /* err names the file */
		return -1;
	}
	for (size_t i = 0; i < td->nr_ftrace; i++)
		add_item(l, "ftrace", td->ftrace[i].text, td->ftrace[i].len);
	for (size_t i = 0; i < td->nr_events; i++)
		add_item(l, td->events[i].system, td->events[i].text, td->events[i].len);
	tracedat_free(td);
	return 0;
}

/* Runs the program with `var` naming a pipe it writes its answer to and
 * exits before main; returns what it wrote (malloc'd, *len bytes) or NULL. */
static char *ask_program(char **argv, const char *var, size_t *len_out)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return NULL;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		int fd = dup(fds[1]); /* without close-on-exec */
		char v[16];
		snprintf(v, sizeof(v), "%d", fd);
		setenv(var, v, 1);
		unsetenv(UFT_ENV_RECORD);
		char *path = program_find(argv[0]);
		if (path)
			program_preload(program_inspect(path));
		execvp(argv[0], argv);
		fprintf(stderr, "uft list: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	size_t cap = 0, len = 0;
	char *buf = NULL;
	ssize_t n;
	for (;;) {
		if (uft_array_reserve(buf, cap, len + 1, 1 << 16)) {
			free(buf);
			buf = NULL;
			break;
		}
		if ((n = read(fds[0], buf + len, cap - len)) <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	int status;
	waitpid(pid, &status, 0);
	if (buf && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		free(buf);
		buf = NULL;
	}
	*len_out = len;
	return buf;
}

static int from_program(struct list *l, char **argv)
{
	size_t len;
	char *buf = ask_program(argv, UFT_ENV_LIST_FORMATS, &len);
	if (!buf)
		return -1;
	if (len == 0)
		fprintf(stderr, "uft list: %s has no uft events\n", argv[0]);
	size_t off = 0;
	while (off + 4 <= len) {
		uint32_t total;
		memcpy(&total, buf + off, 4);
		off += 4;
		if (total > len - off)
			break;
		const char *sys = buf + off;
		size_t slen = strnlen(sys, total);
		if (slen < total)
			add_item(l, sys, sys + slen + 1, total - slen - 1);
		off += total;
	}
	free(buf);
	return 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct list_item *x = a, *y = b;
	int c = strcmp(x->system, y->system);
	return c ? c : strcmp(x->name, y->name);
}

static const char usage[] =
    "usage: uft list [-e [REGEX]] [-F] [--full] [-t] (-i FILE | PROGRAM [ARGS])\n"
    "  -e [REGEX]  events (system:event) matching REGEX\n"
    "  -F          with the format of each event\n"
    "  --full      with the whole format, print fmt included\n"
    "  -t          tracers (of PROGRAM: those it can run)\n"
    "  -i FILE     events of a trace.dat file\n";

struct list_opts {
	const char *file, *regex;
	bool events, tracers;
	unsigned flags;
	int argc; /* for -e's optional operand */
	char **argv;
};

static int take(void *opts, int opt, char *arg)
{
	struct list_opts *o = opts;
	switch (opt) {
	case 'e':
		/* -e REGEX as well as -eREGEX, when an operand is left after it */
		o->events = true;
		if (arg)
			o->regex = arg;
		else if (optind < o->argc && o->argv[optind][0] != '-' &&
			 (o->file || optind + 1 < o->argc))
			o->regex = o->argv[optind++];
		break;
	case 'F':
		o->flags |= UFT_LIST_FORMAT;
		break;
	case 'U':
		o->flags |= UFT_LIST_FULL | UFT_LIST_FORMAT;
		break;
	case 't':
		o->tracers = true;
		break;
	case 'i':
		o->file = arg;
		break;
	}
	return CLI_OK;
}

static const struct option longopts[] = {
    {"full", no_argument, NULL, 'U'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const struct cli cli = {"uft list", usage, "+e::Fti:h", longopts, take};

static void print_list(struct list *l, const regex_t *re, unsigned flags)
{
	qsort(l->v, l->n, sizeof(*l->v), cmp_item);
	for (size_t i = 0; i < l->n; i++) {
		char full[512];
		snprintf(full, sizeof(full), "%s:%s", l->v[i].system, l->v[i].name);
		if (re && regexec(re, full, 0, NULL, 0) != 0)
			continue;
		uft_list_event(stdout, l->v[i].system, l->v[i].name, l->v[i].format, l->v[i].len,
			       flags);
	}
}

/* Whether execvp would find the program: one it would not is refused
 * before anything runs. 0 or -errno. */
static int program_found(const char *prog)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? 0 : -errno;
	const char *path = getenv("PATH");
	int err = -ENOENT;
	for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		char full[4096];
		snprintf(full, sizeof(full), "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
		if (access(full, X_OK) == 0)
			return 0;
		if (errno == EACCES)
			err = -EACCES;
		p += n + (p[n] == ':');
	}
	return err;
}

/* The arguments checked before a program runs or a file is read. */
static int check(const struct list_opts *o, int argc, char **argv, int first, regex_t *re)
{
	/* -t alone lists uft's tracers; anything else needs a file or a program. */
	if (!o->file && (!o->tracers || o->events) && first >= argc)
		return cli_usage_error(&cli);
	if (first < argc) {
		int err = program_found(argv[first]);
		if (err) {
			fprintf(stderr, "uft list: cannot run %s: %s\n", argv[first],
				strerror(-err));
			return CLI_USAGE;
		}
	}
	if (o->regex && regcomp(re, o->regex, REG_EXTENDED | REG_NOSUB) != 0) {
		fprintf(stderr, "uft list: bad regular expression '%s'\n", o->regex);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* What the options ask, once checked. Returns the exit status. */
static int list(const struct list_opts *po, int argc, char **argv, int first, const regex_t *re)
{
	const struct list_opts o = *po;
	if (o.tracers && first < argc) {
		/* The program's own: function tracers only if it has functions
		 * built to be patched. */
		size_t len;
		char *t = ask_program(argv + first, UFT_ENV_LIST_TRACERS, &len);
		if (!t || !len) {
			fprintf(stderr,
				"uft list: %s did not list its tracers (a static program without "
				"libuft?)\n",
				argv[first]);
			free(t);
			return 1;
		}
		fwrite(t, 1, len, stdout);
		free(t);
		if (!o.events && !o.file)
			return 0;
	} else if (o.tracers) {
		/* what uft has */
		printf("timerlat osnoise function_graph wakeup_dl wakeup_rt wakeup preemptirqsoff "
		       "preemptoff irqsoff function nop\n");
		if (!o.events && !o.file)
			return 0;
	}
	struct list l = {0};
	/* A file that is not a readable trace.dat is a refused argument. */
	if ((o.file ? from_file(&l, o.file) : from_program(&l, argv + first)) != 0) {
		free_list(&l);
		return o.file ? CLI_USAGE : 1;
	}
	print_list(&l, re, o.flags);
	free_list(&l);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = {.argc = argc, .argv = argv};
	int first;
	int rc = cli_parse(&cli, &o, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	regex_t re;
	rc = check(&o, argc, argv, first, &re);
	if (rc != CLI_OK)
		return rc;
	rc = list(&o, argc, argv, first, o.regex ? &re : NULL);
	if (o.regex)
		regfree(&re);
	return rc;
}
