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

/* Connects to -p PID, or to the only traceable process when pid is NULL.
 * Prints the reason and returns non-zero when it cannot. */
int live_open(struct live *l, const char *pid, const char *instance);
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
/* Parses [-p PID] [-B INSTANCE] [-h], and -X VALUE for one more option
 * letter X when extra is non-zero, then connects. Returns -1 when connected,
 * else the exit status to return (usage printed: 0 for -h, 2 for a mistake;
 * 1 when the process cannot be reached). */
int live_open_args(struct live *l, int argc, char **argv, const char *usage, char extra,
		   const char **extra_val);

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

/* `uft: WHAT: strerror`, returns 1. */
int live_fail(const char *what, int err);

#endif
