/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A trace.dat file opened for reading: the parsed file, a libtraceevent
 * handle that knows all its event formats, and its saved comms. */
#ifndef UFT_TRACE_FILE_H
#define UFT_TRACE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "tracedat/tracedat.h"

struct tep_handle;

struct trace_file {
	struct tracedat *td;
	struct tep_handle *tep;
	struct {
		int pid;
		char comm[17];
	} * comms;
	size_t nr_comms;
	size_t comms_cap; /* trace_file_set_comm's room */
};

int trace_file_open(struct trace_file *tf, const char *path, char *err, size_t errlen);
/* One with no file behind it, filled as events come (uft stream): formats
 * with trace_file_add_format, comms with trace_file_set_comm. 0, or -1. */
int trace_file_live(struct trace_file *tf, int nr_cpus, uint32_t page_size,
		    const char *header_page);
void trace_file_add_format(struct trace_file *tf, const char *system, const char *text, size_t len);
void trace_file_set_comm(struct trace_file *tf, int pid, const char *comm);
void trace_file_close(struct trace_file *tf);
/* uft_comm_fn for output.h: the saved comm of a pid, or NULL. */
const char *trace_file_comm(void *tf, int pid);

#endif
