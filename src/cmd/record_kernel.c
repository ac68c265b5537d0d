/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -e SYSTEM:EVENT of the kernel in uft record and uft stream (record_kernel.h). */
#define _GNU_SOURCE
#include "cmd/record_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/record_run.h"
#include "proctrace/proctrace.h"
#include "cmd/kernel_source.h"

/* The process tracer's events as "SYSTEM:NAME", sorted, made once. */
static char **proc_names;
static size_t nr_proc_names;

static int add_name(void *ctx, unsigned id, const char *system, const char *text, size_t len)
{
	size_t *cap = ctx;
	(void)id;
	const char *nl = memchr(text, '\n', len);
	if (len < 6 || !nl)
		return 0;
	if (nr_proc_names == *cap) {
		size_t n = *cap ? *cap * 2 : 256;
		char **a = realloc(proc_names, n * sizeof(*a));
		if (!a)
			return -1;
		proc_names = a;
		*cap = n;
	}
	if (asprintf(&proc_names[nr_proc_names], "%s:%.*s", system, (int)(nl - text - 6),
		     text + 6) < 0)
		return -1;
	nr_proc_names++;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* With -p process, its events are its own (the kernel backend's or ptrace's). */
static bool proc_event(const char *system, const char *name)
{
	static const struct pt_options every = {.categories = PT_ALL, .all_syscalls = true};
	static bool made;
	if (!made) {
		size_t cap = 0;
		made = true;
		pt_for_each_format(&every, add_name, &cap);
		qsort(proc_names, nr_proc_names, sizeof(*proc_names), cmp_name);
	}
	char key[256], *k = key;
	snprintf(key, sizeof(key), "%s:%s", system, name);
	return bsearch(&k, proc_names, nr_proc_names, sizeof(*proc_names), cmp_name) != NULL;
}

bool record_kernel_spec(const struct record_opts *o, const char *spec)
{
	return kernel_source_spec_matches(spec, o->popts.on ? proc_event : NULL);
}

bool record_kernel_only(const struct record_opts *o, const char *spec)
{
	/* a system named with a glob ("*:*", "s*:x") may be the program's too */
	size_t sys = strcspn(spec, ":");
	return strcspn(spec, "*?[") > sys && record_kernel_spec(o, spec);
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

const char *record_kernel_hint(const char *spec)
{
	static char hint[320];
	char why[256];
	/* tracefs unreadable: a SYSTEM:EVENT may have been the kernel's */
	if (!strchr(spec, ':') || spec[0] == '!' || pt_kernel_usable(why, sizeof(why)))
		return "";
	snprintf(hint, sizeof(hint), " (if it is a kernel event: %s)", why);
	return hint;
}
