/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft record: start a program with tracing on, collect its events (and those
 * of the processes it forks or execs) while it runs, and write trace.dat.
 * The launch and the collecting are record_run.c's, shared with uft stream. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/record_run.h"
#include "cmd/record_summary.h"
#include "recorder/collect.h"

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

struct file_opts {
	struct record_opts r;
	const char *out, *compression;
	char *tmp_out; /* the file written, renamed to out at the end */
};

static const struct cli record_cli;

static int take(void *opts, int opt, char *arg)
{
	struct file_opts *o = opts;
	switch (opt) {
	case 'o':
		o->out = arg;
		return CLI_OK;
	case 'Z':
		if (strcmp(arg, "zstd") != 0 && strcmp(arg, "zlib") != 0 &&
		    strcmp(arg, "none") != 0)
			return cli_error(&record_cli, "compression must be zstd, zlib or none");
		o->compression = strcmp(arg, "none") == 0 ? NULL : arg;
		return CLI_OK;
	}
	int rc = record_take_opt(&o->r, opt, arg);
	return rc == 1 ? CLI_USAGE : rc;
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

static int parse(struct file_opts *o, int argc, char **argv)
{
	int first;
	int rc = cli_parse(&record_cli, o, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	return record_check_opts(&o->r, argc, argv, first);
}

/* A file beside the output to write to, so that nothing is left at the
 * output's name unless the recording is written whole. */
static int make_tmp_out(struct file_opts *o)
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

/* Writes the file and the summary; returns the exit status. */
static int finish(struct recording *r, struct file_opts *o)
{
	struct collect *c = &r->c;
	int rc = record_check_end(r);
	if (rc >= 0)
		return rc;
	uint64_t size = 0;
	rc = collect_write(c, o->tmp_out, &size);
	if (rc == 0 && rename(o->tmp_out, o->out) != 0)
		rc = -errno;
	if (rc != 0) {
		fprintf(stderr, "uft record: writing %s: %s\n", o->out, strerror(-rc));
		return 1;
	}
	if (!o->r.quiet)
		record_print_summary(c, o->out, size);
	return record_status(r);
}

static void setup(void *ctx, struct collect *c)
{
	const struct file_opts *o = ctx;
	c->compression = o->compression;
}

int cmd_record(int argc, char **argv)
{
	struct file_opts o = {.out = "trace.dat", .r = {.cli = &record_cli, .max_loss = -1}};
	int rc = parse(&o, argc, argv);
	if (rc == CLI_OK)
		rc = record_preflight(&o.r);
	if (rc == CLI_OK && make_tmp_out(&o) != 0)
		rc = CLI_USAGE;
	if (rc == CLI_OK) {
		struct recording r;
		rc = record_run(&r, &o.r, NULL, setup, &o);
		if (rc == 0) {
			rc = finish(&r, &o);
			collect_free(&r.c);
		}
	}
	if (o.tmp_out)
		unlink(o.tmp_out); /* renamed away when written */
	free(o.tmp_out);
	record_opts_free(&o.r);
	return rc;
}
