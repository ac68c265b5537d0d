/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Text of the live trace files: the header and one line per record, in the
 * form the instance's options ask for (default, latency-format, raw, hex,
 * bin, context-info, irq-info). */
#ifndef UFT_LIB_TFS_TEXT_H
#define UFT_LIB_TFS_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/text/ftrace_text.h"
#include "runtime/tracefs/tfs.h"

struct uft_csect_info;

struct tfs_rec {
	uint64_t ts;
	uint64_t lost; /* events lost right before this one */
	uint64_t seq;  /* index in the file, for the verbose latency form */
	uint32_t cpu;
	uint32_t len;
	char *data;
};

/* pid -> comm of the threads that wrote into a buffer. */
struct tfs_comms {
	int *tid;
	int *tgid;
	char (*comm)[17];
	size_t n;
};

void tfs_comms_load(struct tfs_comms *c, uint32_t buffer);
/* The process's name (its main thread's comm), which names the process's
 * pid that trace_marker records carry; false when it cannot be read. */
bool tfs_self_comm(char comm[17]);
void tfs_comms_free(struct tfs_comms *c);

/* The instance's current tracer, as its current_tracer file reads. */
void tfs_current_tracer(const struct tfs_inst *in, char *buf, size_t len);

/* How one read shows the records: the tracer's form (function_graph keeps
 * its state across reads of a pipe). */
struct tfs_view {
	const struct tfs_inst *in;
	char tracer[32];
	bool graph; /* function_graph lines */
	bool graph_ready;
	struct uft_graph g;
	/* A section tracer's max trace: its latency, task and ends for the
	 * latency header (NULL otherwise). */
	const struct uft_csect_info *sect;
};

/* tracer: the current tracer's name; "nop" lets the records decide. */
void tfs_view_init(struct tfs_view *v, const struct tfs_inst *in, const char *tracer);
/* With the "nop" tracer, a record of a function tracer names the tracer. */
void tfs_view_note(struct tfs_view *v, const struct tfs_rec *r);
void tfs_view_free(struct tfs_view *v);
/* A max tracer's view with display-graph: the graph's lines with the
 * kernel's fixed columns (abstime, CPU, task, latency flags, duration). */
void tfs_view_max_graph(struct tfs_view *v);

/* The file header; first is the oldest record shown (NULL if none). */
void tfs_text_header(FILE *f, const struct tfs_view *v, uint64_t entries, uint64_t overrun,
		     const struct tfs_rec *first);
/* One record; first_ts and next_ts (0 when none) feed latency-format's
 * relative time and delay mark. */
void tfs_text_line(FILE *f, const struct tfs_inst *in, struct tfs_comms *cm,
		   const struct tfs_rec *r, uint64_t first_ts, uint64_t next_ts);
/* One record in the view's form; next is the record after it on its CPU
 * (NULL if none yet). Returns UFT_GRAPH_LEAF when next was consumed. */
int tfs_view_line(FILE *f, struct tfs_view *v, struct tfs_comms *cm, const struct tfs_rec *r,
		  const struct tfs_rec *next, uint64_t first_ts, uint64_t next_ts);

#endif
