/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* error_log: the last few errors of an instance, in the kernel's layout:
 *
 *   [ seconds.micros] LOCATION: error: MESSAGE
 *     Command: COMMAND
 *              ^          (under the offending byte)
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/tracefs/tfs.h"

/* Bytes of "LOCATION: error: " with its NUL (the kernel's TRACING_LOG_LOC_MAX). */
#define TFS_ERRLOG_LOC_MAX 128

static void entry_free(struct tfs_err *e)
{
	free(e->loc);
	free(e->cmd);
	free(e->msg);
	memset(e, 0, sizeof(*e));
}

void tfs_log_error(struct tfs_inst *in, const char *loc, const char *cmd, const char *msg,
		   unsigned pos)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	struct tfs_err *e = &in->log[in->log_next];
	entry_free(e);
	e->ts_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	e->loc = strdup(loc);
	e->cmd = strdup(cmd);
	e->msg = strdup(msg);
	e->pos = pos;
	in->log_next = (in->log_next + 1) % TFS_ERRLOG_MAX;
	if (in->log_n < TFS_ERRLOG_MAX)
		in->log_n++;
}

void tfs_log_clear(struct tfs_inst *in)
{
	for (int i = 0; i < TFS_ERRLOG_MAX; i++)
		entry_free(&in->log[i]);
	in->log_n = 0;
	in->log_next = 0;
}

int tfs_log_show(const struct tfs_inst *in, FILE *out)
{
	unsigned first = (in->log_next + TFS_ERRLOG_MAX - in->log_n) % TFS_ERRLOG_MAX;
	for (unsigned k = 0; k < in->log_n; k++) {
		const struct tfs_err *e = &in->log[(first + k) % TFS_ERRLOG_MAX];
		if (!e->loc)
			continue;
		uint64_t us = e->ts_ns / 1000;
		/* cut as the kernel's: a long hist:SYSTEM:EVENT loses its end,
		 * then the ": error: " */
		char loc[TFS_ERRLOG_LOC_MAX];
		snprintf(loc, sizeof(loc), "%s: error: ", e->loc);
		fprintf(out, "[%5llu.%06u] %s%s\n", (unsigned long long)(us / 1000000),
			(unsigned)(us % 1000000), loc, e->msg ? e->msg : "");
		fprintf(out, "  Command: %s\n", e->cmd ? e->cmd : "");
		fprintf(out, "%*s^\n", (int)(11 + e->pos), "");
	}
	return 0;
}
