/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The token syntax of set_ftrace_filter, set_ftrace_notrace,
 * set_graph_function and set_graph_notrace (Documentation/trace/ftrace.rst): `[!]GLOB`,
 * `[!]N` (a line of available_filter_functions), `[!][GLOB]:mod:[!]LIB`,
 * `[!]GLOB:COMMAND[:COUNT]` and `[!]GLOB:enable_event|disable_event:SYS:EVENT[:COUNT]`. */
#ifndef UFT_FTRACE_FILTER_H
#define UFT_FTRACE_FILTER_H

#include <stdbool.h>

enum uft_ff_cmd {
	UFT_FF_SELECT = -1, /* a plain selection, no command */
	UFT_FF_TRACEON,
	UFT_FF_TRACEOFF,
	UFT_FF_SNAPSHOT,
	UFT_FF_STACKTRACE,
	UFT_FF_ENABLE_EVENT,
	UFT_FF_DISABLE_EVENT,
	UFT_FF_DUMP,
	UFT_FF_CPUDUMP,
	UFT_FF_NR_CMDS,
};

#define UFT_FF_UNLIMITED (-1L)

struct uft_ff_token {
	bool remove;	    /* leading '!' */
	const char *func;   /* function glob ("*" for `:mod:LIB` alone) */
	const char *mod;    /* library glob, a leading '!' negating it; NULL: any object */
	unsigned long line; /* 1-based line of available_filter_functions; 0: none */
	int cmd;	    /* enum uft_ff_cmd */
	long count;	    /* the command's count; UFT_FF_UNLIMITED without one */
	const char *sys;    /* enable_event/disable_event: the target event; else NULL */
	const char *event;
};

/* Parses one token (no whitespace in it), in place: the strings point into
 * tok. 0, or -EINVAL for an unknown command, a bad count, an empty name, a
 * line number of 0 or an enable_event/disable_event without SYS:EVENT. */
int uft_ff_parse_token(char *tok, struct uft_ff_token *out);
const char *uft_ff_cmd_name(int cmd);

#endif
