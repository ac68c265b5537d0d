/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A recorded trace.dat run through hist triggers and synthetic events as
 * the kernel runs them live: synthetic events defined by name, hist
 * triggers attached to the file's events or to synthetic ones, variables
 * shared between them, onmatch actions generating synthetic records that
 * in turn feed the synthetic events' triggers. Records are taken in global
 * time order; generated records carry the time, CPU and common header of
 * the record whose trigger generated them. */
#ifndef UFT_REPLAY_H
#define UFT_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uft/event.h>

#include "tracedat/trace_file.h"

/* An event hist triggers and statements can name: one of the file's, or a
 * synthetic event defined here. */
struct replay_event {
	const char *system;
	const char *name;
	unsigned id;
	const struct uft_field *fields; /* common fields excluded */
	uint32_t nr_fields;
};

/* A synthetic record generated during the run. */
struct replay_rec {
	const void *cause; /* the file's record that started the chain */
	uint64_t ts;
	int cpu;
	uint32_t len;
	uint8_t *data;
};

struct replay;

/* `prog` prefixes messages written to err ("uft report"). NULL on ENOMEM. */
struct replay *replay_new(struct trace_file *tf, const char *prog, FILE *err);
void replay_free(struct replay *r);

/* Defines a synthetic event from a synthetic_events line, or a
 * dynamic_events "s:" line. 0, or -errno with the kernel's message (and a
 * caret) on err. */
int replay_synth(struct replay *r, const char *line);

/* Adds a hist trigger: "SYSTEM:EVENT:SPEC" or "EVENT:SPEC" (the event
 * unique then), SPEC with or without "hist:". Triggers run in the order
 * they were added, as the kernel runs an event's trigger list. 0, or
 * -errno with the engine's message on err. */
int replay_hist(struct replay *r, const char *arg);
/* The same on a named event; spec as for uft_hist_create(). */
int replay_hist_on(struct replay *r, const char *system, const char *event, const char *spec);

/* The event (system NULL: the name alone, unique among the file's events
 * and the synthetic ones). 0 with *out set, -ENOENT, -EEXIST (name in
 * several systems), -EINVAL (unreadable format) or -ENOMEM. */
int replay_event(struct replay *r, const char *system, const char *name,
		 const struct replay_event **out);

/* Feeds every record of the file to the triggers. With `keep`, the
 * synthetic records generated are kept (replay_records()). 0, or -errno. */
int replay_run(struct replay *r, bool keep);
const struct replay_rec *replay_records(const struct replay *r, size_t *nr);

/* Prints every trigger's `hist` text, in order, separated by a blank
 * line as the kernel's hist file separates one event's triggers. */
int replay_print_hists(struct replay *r, FILE *out);
/* Prints the `hist` text of the i-th trigger added. */
int replay_print_hist(struct replay *r, size_t i, FILE *out);
/* Number of hist triggers added. */
size_t replay_nr_hists(const struct replay *r);

/* Hands the synthetic events' formats to the file's libtraceevent handle,
 * so their records print through their print fmt. 0 or -errno. */
int replay_register_formats(struct replay *r);

#endif
