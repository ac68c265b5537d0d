/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A running process's tracefs tree, for the live commands (start, stop,
 * restart, show, reset, extract, stat): whole-file reads and one-command
 * writes through the control socket, relative to an instance. */
#ifndef UFT_LIVE_H
#define UFT_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "client/ctl_client.h"

struct live {
	struct uft_ctl_conn *c;
	const char *instance; /* NULL: the top */
	char pidstr[24];
};

/* Connects to process pid, or to the only traceable process when pid is 0.
 * Returns 0, or prints the reason and returns the exit status: 2 when the
 * pid or instance is refused (no such process, not traced, no such
 * instance, none or several to choose from), 1 when the connection fails. */
int live_open(struct live *l, long pid, const char *instance);
void live_close(struct live *l);

/* PATH of the instance ("trace" -> "instances/NAME/trace"); "/FILE" is the
 * top's file whatever the instance. */
const char *live_path(const struct live *l, const char *file, char *buf, size_t cap);
/* The whole file, NUL terminated (malloc'd; *len without the NUL), or NULL
 * with the error in *err. */
char *live_cat(struct live *l, const char *file, size_t *len, int *err);
/* One write of text into a file opened with `flags` (UFT_TFS_TRUNC or
 * UFT_TFS_APPEND). Returns 0 or -errno. */
int live_write(struct live *l, const char *file, const char *text, unsigned flags);
/* live_write, or says why not on standard error (with the error_log's last
 * entry when the tree logged one). Returns 0 or 1. */
int live_put(struct live *l, const char *file, const char *text, unsigned flags);

/* Calls fn for each "SYSTEM:EVENT" of available_events that spec selects,
 * until one returns non-zero; says so when none matches. Returns 0 or 1. */
typedef int (*live_event_fn)(struct live *l, const char *sys, const char *ev, void *ctx);
int live_for_events(struct live *l, const char *spec, live_event_fn fn, void *ctx);

/* Names of a directory of the tree, for uft_ctl_readdir. */
struct live_names {
	char **v;
	size_t n;
	bool dirs_only; /* keep directories only */
};

int live_names_add(void *ctx, const char *name, int type);
void live_names_free(struct live_names *ns);
/* The names in a directory of the tree (the instance's with a relative path). */
int live_readdir(struct live *l, const char *dir, struct live_names *ns);

/* Whether the tree's error err refuses what was asked (a path, a value:
 * nothing was done, exit status 2) rather than the connection failing
 * (lost, broken or interrupted: exit status 1). */
bool live_refused(int err);

/* `uft: WHAT: strerror`, returns 1. */
int live_fail(const char *what, int err);

#endif
