/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options every live command takes (-p PID, -B INSTANCE) and the
 * connection they ask for. */
#ifndef UFT_LIVE_ARGS_H
#define UFT_LIVE_ARGS_H

#include <stdbool.h>

#include "client/live.h"
#include "cmd/cli.h"

struct live_args {
	const char *pid;      /* NULL: the only traceable process */
	const char *instance; /* NULL: the top */
};

/* Takes -p or -B into a; false for any other option. */
bool live_args_take(struct live_args *a, int opt, char *arg);
/* Connects as a says. Returns 0, or the exit status after saying why not
 * (live_open's; 2 for a bad pid, checked when used as the others are). */
int live_args_open(struct live *l, const struct live_args *a);
/* The commands with no options but -p, -B and -h (cli->take unused): parses
 * argv, which must have no operands, and connects. Returns CLI_OK when
 * connected, else the exit status. */
int live_args_simple(struct live *l, const struct cli *cli, int argc, char **argv);

#endif
