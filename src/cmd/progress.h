/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A one-line progress display on standard error for long work (uft record,
 * uft report): shown only on a terminal, redrawn in place about twice a
 * second, erased at the end, so that nothing of it reaches a file or a
 * pipe. */
#ifndef UFT_PROGRESS_H
#define UFT_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress {
	bool on;	  /* standard error is a terminal and the command wants it */
	bool shown;	  /* a line is on the screen */
	const char *name; /* leads the line: "uft record" */
	double start;	  /* CLOCK_MONOTONIC seconds */
	double last;	  /* of the last line */
};

/* on: whether the command wants a display; it is then shown only when
 * standard error is a terminal. */
void progress_init(struct progress *p, const char *name, bool on);
double progress_elapsed(const struct progress *p);
/* Whether a line is due: half a second after the last, and the first once
 * `delay` seconds have passed (no flicker for short work; UFT_PROGRESS_DELAY
 * says how many instead). */
bool progress_due(struct progress *p, double delay);
/* Draws "NAME: TEXT" over the previous line. */
void progress_line(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erases the line, if one is shown. */
void progress_end(struct progress *p);
/* n bytes as "512 B", "12.3 KiB", "4.5 MiB", "1.2 GiB". */
void progress_bytes(char *buf, size_t cap, uint64_t n);

#endif
