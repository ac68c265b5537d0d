/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The environment variables that carry settings from the uft tool (or the
 * user) to libuft in a traced program, and the tool's own knobs: one name
 * each, so the two sides cannot drift apart. README.md lists them for users. */
#ifndef UFT_ENV_NAMES_H
#define UFT_ENV_NAMES_H

/* Set by `uft record` for the traced program. */
#define UFT_ENV_RECORD "UFT_RECORD"		    /* the recorder's socket path */
#define UFT_ENV_EVENTS "UFT_EVENTS"		    /* -e specs, enabled at start-up */
#define UFT_ENV_FILTERS "UFT_FILTERS"		    /* -f filters of those specs */
#define UFT_ENV_BUFFER_KB "UFT_BUFFER_KB"	    /* -b: ring size per thread */
#define UFT_ENV_SUBBUF_KB "UFT_SUBBUF_KB"	    /* --subbuf-size: page size */
#define UFT_ENV_CLOCK "UFT_CLOCK"		    /* -C: the trace clock */
#define UFT_ENV_MODE "UFT_MODE"			    /* overwrite or discard */
#define UFT_ENV_TRACER "UFT_TRACER"		    /* -p: the current tracer */
#define UFT_ENV_FTRACE_FILTER "UFT_FTRACE_FILTER"   /* -l */
#define UFT_ENV_FTRACE_NOTRACE "UFT_FTRACE_NOTRACE" /* -n */
#define UFT_ENV_GRAPH_FUNCTION "UFT_GRAPH_FUNCTION" /* -g */
#define UFT_ENV_MAX_GRAPH_DEPTH "UFT_MAX_GRAPH_DEPTH"
#define UFT_ENV_FUNC_STACK "UFT_FUNC_STACK"	/* --func-stack */
#define UFT_ENV_LIST_FORMATS "UFT_LIST_FORMATS" /* `uft list` of a program */
#define UFT_ENV_LIST_TRACERS "UFT_LIST_TRACERS" /* `uft list -t` of a program */

/* Read by libuft from the user's environment. */
#define UFT_ENV_CTL "UFT_CTL"				/* 0: no control socket */
#define UFT_ENV_TRACEFS "UFT_TRACEFS"			/* mount the tree here (FUSE) */
#define UFT_ENV_FUSE_LIB "UFT_FUSE_LIB"			/* the FUSE door library to load */
#define UFT_ENV_FUSE_ALLOW_OTHER "UFT_FUSE_ALLOW_OTHER" /* FUSE allow_other */
#define UFT_ENV_RUNDIR "UFT_RUNDIR"			/* where control sockets live */
#define UFT_ENV_ACCESS_GROUP "UFT_ACCESS_GROUP"		/* a group served besides the owner */
#define UFT_ENV_ACCESS "UFT_ACCESS"			/* what that group may do */
/* Read by libuft and the tools (src/util/debugfile.c spells it out: util is
 * below wire). */
#define UFT_ENV_DEBUG_ROOT "UFT_DEBUG_ROOT" /* instead of /usr/lib/debug */
#define UFT_ENV_BOOTCONFIG "UFT_BOOTCONFIG" /* a bootconfig file applied at start */
/* Read by libuft: dynamic_events lines (one a line) defined and enabled at
 * start, before main() (`uft record --probe`). */
#define UFT_ENV_PROBES "UFT_PROBES"

/* Read by libuft: 1 sends events defined at run time to the kernel too. */
#define UFT_ENV_USER_EVENTS_KERNEL "UFT_USER_EVENTS_KERNEL"

/* The tool's own knobs. */
#define UFT_ENV_SQLHIST_SEED "UFT_SQLHIST_SEED" /* sqlhist's random names */
/* Seconds before a progress line first shows (default 1; cmd/progress.c). */
#define UFT_ENV_PROGRESS_DELAY "UFT_PROGRESS_DELAY"

#endif
