/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft start's arguments checked against a running process before anything
 * is written: the events each -e selects, each -f compiled against the
 * formats of those events (the kernel's multi-event semantics: the filter
 * goes to the events that take it), -C against trace_clock, -O against
 * trace_options and options/. */
#ifndef UFT_START_CHECK_H
#define UFT_START_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "client/live.h"

/* One event an -e selects. */
struct start_event {
	char *sys, *name;
	bool takes; /* its format takes the -f filter (true without one) */
	bool whole; /* the spec selects every event of its system */
};

/* An -e and its -f, with what the process says of them. */
struct start_spec {
	const char *spec;
	const char *filter; /* NULL: none */
	struct start_event *ev;
	size_t nev;
};

/* Fills every spec's events and checks its filter. Returns 0, or the exit
 * status after the message: 2 when an argument is refused (no event
 * matches, no event takes the filter: its error with the caret, as the
 * kernel's error_log shows it), 1 when the process could not be read. */
int start_check_events(struct live *l, struct start_spec *specs, size_t n);
/* Whether the process knows the clock and the options (NAME or noNAME);
 * the same returns as start_check_events. */
int start_check_clock(struct live *l, const char *clock);
int start_check_options(struct live *l, const char *const *optv, size_t n);
void start_specs_free(struct start_spec *specs, size_t n);

#endif
