/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -p and -B of the live commands. */
#include "cmd/live_args.h"

#include <stddef.h>

bool live_args_take(struct live_args *a, int opt, char *arg)
{
	if (opt == 'p')
		a->pid = arg;
	else if (opt == 'B')
		a->instance = arg;
	else
		return false;
	return true;
}

int live_args_open(struct live *l, const struct live_args *a)
{
	long pid = 0;
	if (a->pid && !cli_pid("uft", a->pid, &pid))
		return CLI_USAGE;
	return live_open(l, pid, a->instance);
}

static int take_simple(void *opts, int opt, char *arg)
{
	return live_args_take(opts, opt, arg) ? CLI_OK : CLI_USAGE;
}

int live_args_simple(struct live *l, const struct cli *cli, int argc, char **argv)
{
	struct cli c = *cli;
	struct live_args a = {NULL, NULL};
	int first;
	c.take = take_simple;
	int rc = cli_parse(&c, &a, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	if (first != argc)
		return cli_usage_error(cli);
	rc = live_args_open(l, &a);
	return rc ? rc : CLI_OK;
}
