/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft start: enable events (and set the buffer, clock and options) and turn
 * tracing on in a running process, without recording. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "wire/ctl_proto.h"

static const char usage[] =
    "usage: uft start [-p PID] [-B INSTANCE] [-e EVENT [-f FILTER]]... [-b KB]\n"
    "                 [-C CLOCK] [-O OPTION]...\n"
    "  Enables the events (only those given: others are disabled first) and\n"
    "  turns tracing on in a running process, without recording.\n"
    "  -e EVENT   SYSTEM:EVENT, SYSTEM:*, SYSTEM, EVENT or all (globs allowed)\n"
    "  -f FILTER  filter of the events of the -e before it\n"
    "  -b KB      buffer size per thread ring, in KiB\n"
    "  -C CLOCK   trace clock (local, global, mono, ...)\n"
    "  -O OPTION  trace option (NAME or noNAME)\n"
    "  -B NAME    act on instance NAME\n";

struct event_arg {
	const char *spec;
	const char *filter; /* NULL: none */
};

struct start_opts {
	struct live_args live;
	const char *kb, *clock;
	struct event_arg *ev; /* argc of each: no more can be given */
	const char **optv;
	size_t nev, nopt;
};

static int take(void *opts, int opt, char *arg)
{
	struct start_opts *o = opts;
	if (live_args_take(&o->live, opt, arg))
		return CLI_OK;
	switch (opt) {
	case 'e':
		o->ev[o->nev++].spec = arg;
		break;
	case 'f':
		if (!o->nev) {
			fprintf(stderr, "uft: -f needs an -e before it\n");
			return CLI_USAGE;
		}
		o->ev[o->nev - 1].filter = arg;
		break;
	case 'b':
		o->kb = arg;
		break;
	case 'C':
		o->clock = arg;
		break;
	case 'O':
		o->optv[o->nopt++] = arg;
		break;
	}
	return CLI_OK;
}

static int parse(struct start_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"pid", required_argument, NULL, 'p'}, {"help", no_argument, NULL, 'h'}, {0}};
	static const struct cli cli = {"uft start", usage, "p:B:e:f:b:C:O:h", longopts, take};
	o->ev = calloc((size_t)argc, sizeof(*o->ev));
	o->optv = calloc((size_t)argc, sizeof(*o->optv));
	if (!o->ev || !o->optv)
		return 1;
	int first;
	int rc = cli_parse(&cli, o, argc, argv, &first);
	if (rc == CLI_OK && first != argc)
		rc = cli_usage_error(&cli);
	return rc;
}

static int set_filter(struct live *l, const char *sys, const char *ev, void *ctx)
{
	char file[256];
	snprintf(file, sizeof(file), "events/%s/%s/filter", sys, ev);
	return live_put(l, file, ctx, UFT_TFS_TRUNC);
}

static int enable_one(struct live *l, const char *sys, const char *ev, void *ctx)
{
	char tok[256];
	snprintf(tok, sizeof(tok), "%s:%s", sys, ev);
	return live_put(l, "set_event", tok, UFT_TFS_APPEND);
}

/* The settings in order, stopping at the first refusal. */
static int run(struct live *l, const struct start_opts *o)
{
	int rc = 0;
	if (o->kb)
		rc |= live_put(l, "buffer_size_kb", o->kb, UFT_TFS_TRUNC);
	if (o->clock && !rc)
		rc |= live_put(l, "trace_clock", o->clock, UFT_TFS_TRUNC);
	for (size_t i = 0; i < o->nopt && !rc; i++)
		rc |= live_put(l, "trace_options", o->optv[i], UFT_TFS_TRUNC);
	if (o->nev && !rc)
		rc |= live_put(l, "set_event", "", UFT_TFS_TRUNC);
	for (size_t i = 0; i < o->nev && !rc; i++) {
		const char *spec = o->ev[i].spec;
		/* The filter first: no record gets in unfiltered meanwhile. */
		if (o->ev[i].filter)
			rc |= live_for_events(l, spec, set_filter, (void *)o->ev[i].filter);
		if (!rc)
			rc |= live_for_events(l, spec, enable_one, NULL);
	}
	if (!rc)
		rc |= live_put(l, "tracing_on", "1", UFT_TFS_TRUNC);
	return rc;
}

int cmd_start(int argc, char **argv)
{
	struct start_opts o = {0};
	struct live l;
	int rc = parse(&o, argc, argv);
	if (rc == CLI_OK)
		rc = live_args_open(&l, &o.live) ? 1 : CLI_OK;
	if (rc == CLI_OK) {
		rc = run(&l, &o);
		live_close(&l);
	}
	free(o.ev);
	free(o.optv);
	return rc;
}
