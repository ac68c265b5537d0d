/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft start: enable events (and set the buffer, clock and options) and turn
 * tracing on in a running process, without recording. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "cmd/start_check.h"
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

struct start_opts {
	struct live_args live;
	const char *kb, *clock;
	struct start_spec *ev; /* argc of each: no more can be given */
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
	case 'b': {
		long kb;
		if (!cli_long(arg, 10, 1, 1L << 40, &kb)) {
			fprintf(stderr, "uft start: -b %s: not a size in KiB\n", arg);
			return CLI_USAGE;
		}
		o->kb = arg;
		break;
	}
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

static int enable_one(struct live *l, const struct start_event *e)
{
	char tok[256];
	snprintf(tok, sizeof(tok), "%s:%s", e->sys, e->name);
	return live_put(l, "set_event", tok, UFT_TFS_APPEND);
}

/* A spec's filter: a whole system's through its own filter file, so the
 * process applies the kernel's semantics (the events that take it get it,
 * the others are logged in error_log); other events one by one, the same
 * way: those that take it get it, the others' refused write is logged. */
static int set_filters(struct live *l, const struct start_spec *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->nev && !rc; i++) {
		const struct start_event *e = &s->ev[i];
		char file[512];
		bool done = false;
		for (size_t k = 0; k < i && !done; k++)
			done = e->whole && strcmp(s->ev[k].sys, e->sys) == 0;
		if (done)
			continue;
		bool sys_file = false;
		for (size_t k = i; k < s->nev && e->whole && !sys_file; k++)
			sys_file = s->ev[k].takes && strcmp(s->ev[k].sys, e->sys) == 0;
		if (sys_file)
			snprintf(file, sizeof(file), "events/%s/filter", e->sys);
		else
			snprintf(file, sizeof(file), "events/%s/%s/filter", e->sys, e->name);
		if (e->takes || sys_file) {
			rc = live_put(l, file, s->filter, UFT_TFS_TRUNC);
		} else {
			/* Refused, as checked: the process logs it in error_log. */
			int r = live_write(l, file, s->filter, UFT_TFS_TRUNC);
			rc = r && r != -EINVAL ? live_put(l, file, s->filter, UFT_TFS_TRUNC) : 0;
		}
	}
	return rc;
}

/* The settings in order, once every argument was checked: a failure now is
 * the process's (exit status 1). */
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
		/* The filter first: no record gets in unfiltered meanwhile. */
		if (o->ev[i].filter)
			rc |= set_filters(l, &o->ev[i]);
		for (size_t k = 0; k < o->ev[i].nev && !rc; k++)
			rc |= enable_one(l, &o->ev[i].ev[k]);
	}
	if (!rc)
		rc |= live_put(l, "tracing_on", "1", UFT_TFS_TRUNC);
	return rc;
}

/* Every argument against the process, before anything is written. */
static int check(struct live *l, struct start_opts *o)
{
	int rc = start_check_clock(l, o->clock);
	if (!rc)
		rc = start_check_options(l, o->optv, o->nopt);
	if (!rc)
		rc = start_check_events(l, o->ev, o->nev);
	return rc;
}

int cmd_start(int argc, char **argv)
{
	struct start_opts o = {0};
	struct live l;
	int rc = parse(&o, argc, argv);
	if (rc == CLI_OK && (rc = live_args_open(&l, &o.live)) == 0) {
		rc = check(&l, &o);
		if (!rc)
			rc = run(&l, &o);
		live_close(&l);
	}
	start_specs_free(o.ev, o.nev);
	free(o.ev);
	free(o.optv);
	return rc;
}
