/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel `trace` text output (Documentation/trace/ftrace.rst, "Output format") and `uft list` text
 * for recorded uft events; event bodies come from libtraceevent. */
#ifndef UFT_OUTPUT_H
#define UFT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/text/trace_text.h"

struct tep_handle;

struct uft_out_record {
	int cpu;
	uint64_t ts;	  /* ns, or ticks with UFT_OUT_RAW_CLOCK */
	const void *data; /* payload: common header then fields */
	uint32_t size;
};

/* One event line. Returns 0, or -EINVAL for a record shorter than the
 * common header (nothing printed). */
int uft_out_event(FILE *f, struct tep_handle *tep, uft_comm_fn comm, void *ctx,
		  const struct uft_out_record *rec, unsigned flags);

/* The body alone: "event: text", or the text of the kernel's own ftrace
 * entries (no newline). */
void uft_out_body(FILE *f, struct tep_handle *tep, const struct uft_out_record *rec);

/* `uft list` flags, as trace-cmd list: -F shows formats, --full adds print fmt. */
enum {
	UFT_LIST_FORMAT = 1u << 0,
	UFT_LIST_FULL = 1u << 1,
};

/* Lists one event: "system:name", or with UFT_LIST_FORMAT "system: <system>"
 * followed by its format text (len bytes), up to "print fmt" unless
 * UFT_LIST_FULL. */
void uft_list_event(FILE *f, const char *system, const char *name, const char *format, size_t len,
		    unsigned flags);

#endif
