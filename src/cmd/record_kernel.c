/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -e SYSTEM:EVENT of the kernel in uft record and uft stream (record_kernel.h). */
#define _GNU_SOURCE
#include "cmd/record_kernel.h"

#include <stdio.h>

#include "cmd/record_run.h"
#include "recorder/kernel_source.h"

/* With -p process, its events are its own (the kernel backend's or ptrace's). */
static bool proc_event(const char *system, const char *name)
{
	char spec[256];
	snprintf(spec, sizeof(spec), "%s:%s", system, name);
	return proc_spec_matches(spec);
}

bool record_kernel_spec(const struct record_opts *o, const char *spec)
{
	return kernel_source_spec_matches(spec, o->popts.on ? proc_event : NULL);
}

int record_kernel_open(struct recording *r)
{
	const struct record_opts *o = r->o;
	struct kernel_source_opts ko = {
	    .events = o->events,
	    .filters = o->filters,
	    .nr_events = o->nr_events,
	    .exclude = o->popts.on ? proc_event : NULL,
	    .clock = o->clock,
	};
	char err[2048];
	if (kernel_source_new(&r->ks, &ko, &r->c, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", o->cli->name, err);
		return CLI_USAGE;
	}
	return CLI_OK;
}
