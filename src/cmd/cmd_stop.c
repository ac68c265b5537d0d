/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft stop and uft restart: tracing_on 0 or 1 in a running process. */
#include <stddef.h>

#include "cmd/commands.h"
#include "cmd/live_args.h"
#include "wire/ctl_proto.h"

static int switch_tracing(int argc, char **argv, const char *value, const struct cli *cli)
{
	struct live l;
	int rc = live_args_simple(&l, cli, argc, argv);
	if (rc != CLI_OK)
		return rc;
	rc = live_put(&l, "tracing_on", value, UFT_TFS_TRUNC);
	live_close(&l);
	return rc;
}

int cmd_stop(int argc, char **argv)
{
	static const struct cli cli = {"uft stop", "usage: uft stop [-p PID] [-B INSTANCE]\n",
				       "p:B:h", NULL, NULL};
	return switch_tracing(argc, argv, "0", &cli);
}

int cmd_restart(int argc, char **argv)
{
	static const struct cli cli = {"uft restart", "usage: uft restart [-p PID] [-B INSTANCE]\n",
				       "p:B:h", NULL, NULL};
	return switch_tracing(argc, argv, "1", &cli);
}
