/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft show: a running process's trace (a snapshot of it), trace_pipe
 * streamed until interrupted, the snapshot, or one of a few status files. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "wire/ctl_proto.h"

static const char usage[] =
    "usage: uft show [-p PID] [-B INSTANCE] [-c CPU] [-s] [--pipe]\n"
    "                [--tracing_on] [--current_tracer] [--buffer_size]\n"
    "                [--buffer_total_size] [--options]\n"
    "  Prints the process's trace file (a snapshot; --pipe streams trace_pipe\n"
    "  until interrupted; -s the snapshot; -c one CPU's), or the named file.\n";

enum { O_PIPE = 256, O_ON, O_TRACER, O_SIZE, O_TOTAL, O_OPTIONS };

struct show_opts {
	struct live_args live;
	const char *cpu;
	const char *file;
	bool pipe;
};

static int take(void *opts, int opt, char *arg)
{
	static const char *const files[] = {
	    [O_ON - O_ON] = "tracing_on",	  [O_TRACER - O_ON] = "current_tracer",
	    [O_SIZE - O_ON] = "buffer_size_kb",	  [O_TOTAL - O_ON] = "buffer_total_size_kb",
	    [O_OPTIONS - O_ON] = "trace_options",
	};
	struct show_opts *o = opts;
	if (live_args_take(&o->live, opt, arg))
		return CLI_OK;
	if (opt == 'c') {
		long cpu;
		if (!cli_long(arg, 10, 0, 4095, &cpu)) {
			fprintf(stderr, "uft show: bad cpu '%s'\n", arg);
			return CLI_USAGE;
		}
		o->cpu = arg;
	} else if (opt == 's') {
		o->file = "snapshot";
	} else if (opt == O_PIPE) {
		o->pipe = true;
		o->file = "trace_pipe";
	} else if (opt >= O_ON && opt <= O_OPTIONS) {
		o->file = files[opt - O_ON];
	}
	return CLI_OK;
}

static int parse(struct show_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {{"pid", required_argument, NULL, 'p'},
						 {"pipe", no_argument, NULL, O_PIPE},
						 {"snapshot", no_argument, NULL, 's'},
						 {"cpu", required_argument, NULL, 'c'},
						 {"tracing_on", no_argument, NULL, O_ON},
						 {"current_tracer", no_argument, NULL, O_TRACER},
						 {"buffer_size", no_argument, NULL, O_SIZE},
						 {"buffer_total_size", no_argument, NULL, O_TOTAL},
						 {"options", no_argument, NULL, O_OPTIONS},
						 {"help", no_argument, NULL, 'h'},
						 {0}};
	static const struct cli cli = {"uft show", usage, "p:B:c:sh", longopts, take};
	int first;
	o->file = "trace";
	int rc = cli_parse(&cli, o, argc, argv, &first);
	if (rc == CLI_OK && first != argc)
		rc = cli_usage_error(&cli);
	return rc;
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
}

static int stream_pipe(struct live *l, const char *file)
{
	char path[256];
	int h = uft_ctl_open(l->c, live_path(l, file, path, sizeof(path)), UFT_TFS_READ);
	if (h < 0)
		return live_fail(path, h);
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	uft_ctl_set_interrupt_flag(l->c, &interrupted);
	static char buf[UFT_CTL_MAX_IO];
	int rc = 0;
	while (!interrupted) {
		ssize_t n = uft_ctl_read(l->c, h, buf, sizeof(buf), 0);
		if (n == -EINTR || n == -ECONNRESET || n == 0)
			break;
		if (n < 0) {
			rc = live_fail(path, (int)n);
			break;
		}
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n || fflush(stdout) != 0)
			break;
	}
	uft_ctl_release(l->c, h);
	return rc;
}

static int print_file(struct live *l, const char *file)
{
	int err;
	size_t len;
	char *text = live_cat(l, file, &len, &err);
	if (!text)
		return live_fail(file, err);
	fwrite(text, 1, len, stdout);
	free(text);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	struct show_opts o = {{NULL, NULL}, NULL, NULL, false};
	int rc = parse(&o, argc, argv);
	if (rc != CLI_OK)
		return rc;
	char cpufile[64];
	const char *file = o.file;
	if (o.cpu) {
		snprintf(cpufile, sizeof(cpufile), "per_cpu/cpu%s/%s", o.cpu, file);
		file = cpufile;
	}
	struct live l;
	rc = live_args_open(&l, &o.live);
	if (rc)
		return rc;
	/* A CPU the process lacks, or a file its tree lacks, is refused. */
	char path[256];
	struct uft_tfs_stat st;
	int err = uft_ctl_stat(l.c, live_path(&l, file, path, sizeof(path)), &st);
	if (err && live_refused(err)) {
		if (o.cpu)
			fprintf(stderr, "uft show: -c %s: the process has no CPU %s\n", o.cpu,
				o.cpu);
		else
			live_fail(path, err);
		live_close(&l);
		return CLI_USAGE;
	}
	rc = o.pipe ? stream_pipe(&l, file) : print_file(&l, file);
	live_close(&l);
	return rc;
}
