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
#include "cmd/record_progress.h"
#include "cmd/record_summary.h"
#include "recorder/collect.h"
#include "recorder/net_send.h"

static const char usage[] =
    "usage: uft record [-e EVENT [-f FILTER]]... [-p TRACER [-l GLOB]... [-n GLOB]... "
    "[-g FUNC]...\n"
    "                  [-p process [-P PID] [--syscalls SET] [--no-lifecycle] ...]\n"
    "                  [--max-graph-depth N] [--func-stack]] [-o FILE] [-b KB]\n"
    "                  [--subbuf-size KB] [-C CLOCK] [-M block|overwrite|discard]\n"
    "                  [--compression ALG] [--max-loss PCT] [--keep-running]\n"
    "                  [--bootconfig FILE] [--probe DEF]... [-N HOST:PORT] [-q] -- CMD "
    "[ARGS]\n" RECORD_USAGE_EVENTS "  -o FILE    output file (default trace.dat)\n"
    "  -N HOST:PORT  send the recording to a trace-cmd listen collector\n"
    "             (no local file unless -o is given)\n"
    "  --compression ALG  zstd or zlib: a compressed trace.dat version 7;\n"
    "             none (default): version 6\n" RECORD_USAGE_END(
	"recording", "record") "  -q         no summary\n"
			       "uft record's -b is 8192 with -p function or function_graph.\n";

struct file_opts {
	struct record_opts r;
	const char *out, *compression;
	char *tmp_out;	      /* the file written, renamed to out at the end */
	const char *net_spec; /* -N */
	bool out_given;
	struct net_send net;
	char *net_dir; /* -N without -o: where the file is made before it is sent */
};

static const struct cli record_cli;

static int take(void *opts, int opt, char *arg)
{
	struct file_opts *o = opts;
	switch (opt) {
	case 'o':
		o->out = arg;
		o->out_given = true;
		return CLI_OK;
	case 'N':
		if (net_send_parse(&o->net, arg) != 0)
			return cli_error(&record_cli, "bad -N '%s' (HOST:PORT)", arg);
		o->net_spec = arg;
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
    RECORD_LONGOPTS,
    {"compression", required_argument, NULL, 'Z'},
    {NULL, 0, NULL, 0},
};
static const struct cli record_cli = {"uft record", usage,
				      "+e:f:o:b:C:M:qhp:l:n:g:P:N:", record_longopts, take};

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
	const char *shown = o->out;
	char label[300];
	if (o->net_spec) {
		char err[512];
		if (net_send_file(&o->net, o->out, err, sizeof(err)) != 0) {
			fprintf(stderr, "uft record: -N %s: %s%s\n", o->net_spec, err,
				o->out_given ? "" : " (nothing kept)");
			return 1;
		}
		snprintf(label, sizeof(label), "sent to trace-cmd listen at %s (protocol v%d)",
			 o->net_spec, o->net.proto);
		if (!o->out_given)
			shown = label;
		else if (!o->r.quiet)
			printf("%s\n", label);
	}
	if (!o->r.quiet) {
		record_print_summary(c, shown, size);
		if (o->r.popts.on)
			printf("process tracer: %llu events\n",
			       (unsigned long long)proc_tracer_kept());
		if (r->kernel_kept)
			printf("kernel events: %llu\n", (unsigned long long)r->kernel_kept);
	}
	return record_status(r);
}

/* -N: the collector is reached before anything runs; without -o the file
 * is made in a private temporary directory and removed once sent. */
static int net_open(struct file_opts *o)
{
	if (o->compression) {
		fprintf(stderr, "uft record: -N sends an uncompressed trace.dat (version 6); "
				"drop --compression\n");
		return -1;
	}
	char err[512];
	if (net_send_connect(&o->net, err, sizeof(err)) != 0) {
		fprintf(stderr, "uft record: -N %s: %s\n", o->net_spec, err);
		return -1;
	}
	if (o->out_given)
		return 0;
	const char *tmp = getenv("TMPDIR");
	char *out = NULL;
	if (asprintf(&o->net_dir, "%s/uft-net.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0 ||
	    !mkdtemp(o->net_dir) || asprintf(&out, "%s/trace.dat", o->net_dir) < 0) {
		fprintf(stderr, "uft record: temporary directory: %s\n", strerror(errno));
		free(o->net_dir);
		o->net_dir = NULL;
		return -1;
	}
	o->out = out;
	return 0;
}

static void setup(void *ctx, struct collect *c)
{
	const struct file_opts *o = ctx;
	c->compression = o->compression;
	c->spool_path = o->tmp_out; /* pages spooled beside the output */
}

int cmd_record(int argc, char **argv)
{
	/* A file is the whole run: writers wait for the recorder rather than
	 * overwrite (docs/design/recording.md, "Losing nothing"). */
	struct file_opts o = {.out = "trace.dat",
			      .net = {.fd = -1},
			      .r = {.cli = &record_cli, .max_loss = -1, .mode = "block"}};
	int rc = parse(&o, argc, argv);
	/* The function tracers write tens of millions of events a second: a
	 * ring that holds more of them makes a writer wait for the recorder
	 * less often, and each wait costs a scheduling round trip
	 * (docs/design/recording.md, "Losing nothing"). */
	const char *tr = o.r.topts.tracer;
	if (rc == CLI_OK && !o.r.buffer_kb && tr &&
	    (strcmp(tr, "function") == 0 || strcmp(tr, "function_graph") == 0))
		o.r.buffer_kb = RECORD_FTRACE_BUFFER_KB;
	if (rc == CLI_OK)
		rc = record_preflight(&o.r);
	if (rc == CLI_OK && o.net_spec && net_open(&o) != 0)
		rc = 1;
	if (rc == CLI_OK && make_tmp_out(&o) != 0)
		rc = CLI_USAGE;
	if (rc == CLI_OK) {
		struct recording r;
		struct record_progress rp;
		record_progress_init(&rp, &r.c, !o.r.quiet);
		const struct record_output out = {record_progress_drained, &rp};
		rc = record_run(&r, &o.r, &out, setup, &o);
		if (rc == 0) {
			rc = finish(&r, &o);
			collect_free(&r.c);
		}
	}
	if (o.tmp_out)
		unlink(o.tmp_out); /* renamed away when written */
	free(o.tmp_out);
	net_send_close(&o.net);
	if (o.net_dir) {
		unlink(o.out);
		rmdir(o.net_dir);
		free((char *)o.out);
		free(o.net_dir);
	}
	record_opts_free(&o.r);
	return rc;
}
