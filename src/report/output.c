/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event lines of the kernel's `trace` text for recorded uft records, bodies
 * rendered by libtraceevent, and `uft list` text. */
#include "report/output.h"

#include <errno.h>
#include <string.h>

#include <event-parse.h>
#include <uft/event.h>

static void print_body(FILE *f, struct tep_handle *tep, const struct uft_out_record *rec, int type)
{
	struct tep_event *ev = tep ? tep_find_event(tep, type) : NULL;
	struct tep_record r;
	struct trace_seq s;

	if (!ev) {
		fprintf(f, "type: %d", type);
		return;
	}
	/* The kernel prints its own ftrace entries (function, print...)
	 * without the event name. */
	if (!(ev->flags & TEP_EVENT_FL_ISFTRACE))
		fprintf(f, "%s: ", ev->name);

	memset(&r, 0, sizeof(r));
	r.ts = rec->ts;
	r.cpu = rec->cpu;
	r.data = (void *)rec->data;
	r.size = (int)rec->size;
	r.record_size = (int)rec->size;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	size_t len = s.len;
	/* Messages that end in a newline (printf habit) still take one line. */
	if (len && s.buffer[len - 1] == '\n')
		len--;
	fwrite(s.buffer, 1, len, f);
	trace_seq_destroy(&s);
}

void uft_out_body(FILE *f, struct tep_handle *tep, const struct uft_out_record *rec)
{
	uint16_t type = 0;
	if (rec->size >= 2)
		memcpy(&type, rec->data, sizeof(type));
	print_body(f, tep, rec, type);
}

int uft_out_event(FILE *f, struct tep_handle *tep, uft_comm_fn comm, void *ctx,
		  const struct uft_out_record *rec, unsigned flags)
{
	const uint8_t *d = rec->data;
	uint16_t type;
	int32_t pid;

	if (!d || rec->size < 8)
		return -EINVAL;
	memcpy(&type, d, sizeof(type));
	memcpy(&pid, d + 4, sizeof(pid));

	uft_out_prefix(f, uft_out_comm(comm, ctx, pid), pid, rec->cpu, d, rec->ts, flags);
	print_body(f, tep, rec, type);
	fputc('\n', f);
	return 0;
}

void uft_list_event(FILE *f, const char *system, const char *name, const char *format, size_t len,
		    unsigned flags)
{
	if (!(flags & UFT_LIST_FORMAT) || !format) {
		fprintf(f, "%s:%s\n", system, name);
		return;
	}
	fprintf(f, "system: %s\n", system);
	/* Line by line: without --full the listing stops at "print fmt". */
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(format + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - format) + 1 : len;
		if (!(flags & UFT_LIST_FULL) && end - pos >= 9 &&
		    !memcmp(format + pos, "print fmt", 9))
			break;
		fwrite(format + pos, 1, end - pos, f);
		pos = end;
	}
}
