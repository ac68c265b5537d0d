/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event trigger commands (Documentation/trace/events.rst, "Event
 * triggers"): parsing one write
 * to an events/SYSTEM/EVENT/trigger file and printing an installed trigger
 * the way the kernel's file lists it. Pure text work, no runtime state, so
 * the tools and the fuzzer use it too. */
#ifndef UFT_TRIGGER_H
#define UFT_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum uft_trig_cmd {
	UFT_TRIG_TRACEON,
	UFT_TRIG_TRACEOFF,
	UFT_TRIG_SNAPSHOT,
	UFT_TRIG_STACKTRACE,
	UFT_TRIG_ENABLE_EVENT,
	UFT_TRIG_DISABLE_EVENT,
	UFT_TRIG_HIST,	       /* the histogram engine parses the rest (engine/hist/hist.h) */
	UFT_TRIG_ENABLE_HIST,  /* :SYS:EVENT: resume the event's hist triggers */
	UFT_TRIG_DISABLE_HIST, /* ... pause them */
	UFT_TRIG_NR_CMDS,
};

/* The kernel keeps the count in an unsigned long where -1 means "no limit". */
#define UFT_TRIG_UNLIMITED UINT64_MAX

/* One parsed command. The strings point into `buf`, which the spec owns. */
struct uft_trig_spec {
	int cmd;	   /* enum uft_trig_cmd */
	bool remove;	   /* written with a leading '!' */
	const char *sys;   /* enable/disable_event, enable/disable_hist: the target */
	const char *event; /* ... */
	uint64_t count;	   /* UFT_TRIG_UNLIMITED when none was given */
	/* enable/disable_event: the errno of a bad count or "if" part, which the
	 * kernel reports only after it found the target event; else 0. */
	int late_err;
	const char *filter; /* text after "if ", NULL when none */
	/* hist: the whole command without the '!' ("hist:keys=... if ..."),
	 * for uft_hist_create(), which splits off the filter itself. */
	const char *hist;
	char *buf;
};

/* Parses one write (leading and trailing whitespace ignored, as the kernel
 * strips it). Returns 0, -EINVAL (unknown command, malformed text), -ERANGE
 * (a count beyond unsigned long) or -ENOMEM; on success uft_trigger_spec_free() releases it. For a
 * removal only the command and, for enable/disable_event, the target are checked, as the kernel
 * matches on nothing else. */
int uft_trigger_parse(const char *text, struct uft_trig_spec *out);
void uft_trigger_spec_free(struct uft_trig_spec *s);

const char *uft_trigger_cmd_name(int cmd);
/* The commands that name a target event (enable/disable_event and _hist). */
bool uft_trigger_cmd_has_target(int cmd);
/* Commands that share one slot per triggering event (traceon and traceoff;
 * enable_event and disable_event per target; enable_hist and disable_hist
 * per target): the kernel's trigger type. */
int uft_trigger_cmd_type(int cmd);

/* One line of the trigger file, newline included:
 * "traceoff:count=5 if prev_pid == 1", "enable_event:sys:ev:unlimited". */
void uft_trigger_print(FILE *f, int cmd, const char *sys, const char *event, uint64_t count,
		       const char *filter);
/* The trigger file with no trigger installed. */
void uft_trigger_print_help(FILE *f);

#endif
