/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tokens of the function tracers' selection files. */
#include "engine/trigger/ftrace_filter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const cmd_names[UFT_FF_NR_CMDS] = {"traceon",    "traceoff",	    "snapshot",
						      "stacktrace", "enable_event", "disable_event",
						      "dump",	    "cpudump"};

const char *uft_ff_cmd_name(int cmd)
{
	return cmd >= 0 && cmd < UFT_FF_NR_CMDS ? cmd_names[cmd] : "";
}

/* A whole unsigned decimal number. */
static int parse_number(const char *s, unsigned long *out)
{
	if (*s < '0' || *s > '9')
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int uft_ff_parse_token(char *tok, struct uft_ff_token *out)
{
	memset(out, 0, sizeof(*out));
	out->cmd = UFT_FF_SELECT;
	out->count = UFT_FF_UNLIMITED;
	out->remove = tok[0] == '!';
	tok += out->remove;
	char *colon = strchr(tok, ':');
	if (colon && strncmp(colon, ":mod:", 5) == 0) {
		*colon = 0;
		out->mod = colon + 5;
		out->func = *tok ? tok : "*";
		if (!*out->mod || (out->mod[0] == '!' && !out->mod[1]))
			return -EINVAL;
		return 0;
	}
	out->func = tok;
	if (colon) {
		*colon = 0;
		char *cmd = colon + 1, *param = strchr(cmd, ':');
		if (param)
			*param++ = 0;
		for (int k = 0; k < UFT_FF_NR_CMDS; k++)
			if (strcmp(cmd, cmd_names[k]) == 0)
				out->cmd = k;
		if (out->cmd == UFT_FF_SELECT || !*tok)
			return -EINVAL;
		if (out->cmd == UFT_FF_ENABLE_EVENT || out->cmd == UFT_FF_DISABLE_EVENT) {
			/* SYS:EVENT, then the count if any */
			char *ev = param ? strchr(param, ':') : NULL;
			if (!ev || ev == param || !ev[1])
				return -EINVAL;
			*ev++ = 0;
			out->sys = param;
			out->event = ev;
			param = strchr(ev, ':');
			if (param)
				*param++ = 0;
			if (!*ev)
				return -EINVAL;
		}
		/* A removal names the probe only: its count, as the file lists
		 * it (count=N, unlimited) or as written, is not read. */
		if (param && !out->remove) {
			unsigned long v;
			if (parse_number(param, &v) || v > (unsigned long)__LONG_MAX__)
				return -EINVAL;
			out->count = (long)v;
		}
		return 0;
	}
	if (!*tok)
		return -EINVAL;
	if (tok[0] >= '0' && tok[0] <= '9') { /* no C function name starts with a digit */
		if (parse_number(tok, &out->line) || out->line == 0)
			return -EINVAL;
	}
	return 0;
}
