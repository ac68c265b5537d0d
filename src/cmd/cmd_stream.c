/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft stream: trace-cmd stream's twin. Starts a program as uft record does
 * (record_run.c: the same options, checks before main and preload) and
 * prints its events on standard output as they are collected, in the
 * kernel's trace_pipe lines, instead of writing a file. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/record_run.h"
#include "cmd/stream_print.h"

static const char usage[] =
    "usage: uft stream [-e EVENT [-f FILTER]]... [-p TRACER [-l GLOB]... [-n GLOB]... "
    "[-g FUNC]...\n"
    "                  [-p process [-P PID] [--syscalls SET] [--no-lifecycle] ...]\n"
    "                  [--max-graph-depth N] [--func-stack]] [-b KB] [--subbuf-size KB]\n"
    "                  [-C CLOCK] [-M overwrite|discard|block] [--max-loss PCT] [--keep-running]\n"
    "                  [--bootconfig FILE] [--probe DEF]... [-q] -- CMD [ARGS]\n"
    "  prints the events of CMD as trace_pipe lines while it runs (no file)\n" RECORD_USAGE_EVENTS
	RECORD_USAGE_END(
	    "streaming",
	    "stream") "  -q         nothing on standard error but errors and the loss\n";

static const struct cli stream_cli;

static int take(void *opts, int opt, char *arg)
{
	int rc = record_take_opt(opts, opt, arg);
	return rc == 1 ? CLI_USAGE : rc;
}

static const struct option stream_longopts[] = {
    RECORD_LONGOPTS,
    {NULL, 0, NULL, 0},
};
static const struct cli stream_cli = {"uft stream", usage,
				      "+e:f:b:C:M:qhp:l:n:g:P:", stream_longopts, take};

static struct stream_print *printer;

static void setup(void *ctx, struct collect *c)
{
	const struct record_opts *o = ctx;
	const char *t = o->topts.tracer;
	printer = stream_print_new(c, stdout, t && strcmp(t, "function_graph") == 0);
}

static void drained(void *ctx, bool final)
{
	if (printer)
		stream_print_drained(printer, final);
}

static const struct record_output to_stdout = {drained, NULL};

int cmd_stream(int argc, char **argv)
{
	struct record_opts o = {.cli = &stream_cli, .max_loss = -1, .info = stderr};
	int first;
	int rc = cli_parse(&stream_cli, &o, argc, argv, &first);
	if (rc == CLI_OK)
		rc = record_check_opts(&o, argc, argv, first);
	if (rc == CLI_OK)
		rc = record_preflight(&o);
	if (rc == CLI_OK) {
		struct recording r;
		rc = record_run(&r, &o, &to_stdout, setup, &o);
		if (rc == 0) {
			if (!printer) {
				fprintf(stderr, "uft stream: out of memory\n");
				rc = 1;
			} else {
				rc = record_check_end(&r);
				if (rc < 0)
					rc = record_status(&r);
			}
			stream_print_free(printer);
			collect_free(&r.c);
		}
	}
	record_opts_free(&o);
	return rc;
}
