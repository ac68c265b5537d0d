/* The kernel's `trace` file text for uft records, so tools and habits built
 * around ftrace output read uft output unchanged. Column widths follow the
 * kernel (output-format.md §1-3); only the legend names say what the flags
 * mean in user space. */
#include "tools/output.h"

#include <errno.h>
#include <string.h>

#include <event-parse.h>
#include <uft/event.h>

/* Same columns as the kernel's default legend, user-space names. */
static const char legend_flags[] = "#                                _-----=> signals-off\n"
				   "#                               / _----=> need-resched\n"
				   "#                              | / _---=> signal-handler\n"
				   "#                              || / _--=> nesting-depth\n"
				   "#                              ||| / _-=> reserved\n"
				   "#                              |||| /     delay\n"
				   "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
				   "#              | |         |   |||||     |         |\n";

static const char legend_plain[] = "#           TASK-PID     CPU#     TIMESTAMP  FUNCTION\n"
				   "#              | |         |         |         |\n";

void uft_out_header(FILE *f, const char *tracer, uint64_t entries, uint64_t written, int nr_cpus,
		    unsigned flags)
{
	fprintf(f, "# tracer: %s\n#\n", tracer ? tracer : "nop");
	fprintf(f, "# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n#\n",
		(unsigned long long)entries, (unsigned long long)written, nr_cpus);
	fputs(flags & UFT_OUT_NO_IRQ_INFO ? legend_plain : legend_flags, f);
}

void uft_out_flags(const void *data, char out[6])
{
	const uint8_t *d = data;
	uint8_t fl = d[2], depth = d[3] & 0x0f;

	out[0] = fl & UFT_FLAG_SIGS_BLOCKED ? 'd' : '.';
	out[1] = '.'; /* no preemption to request in user space */
	out[2] = fl & UFT_FLAG_IN_SIGNAL ? 'h' : '.';
	out[3] = depth ? "0123456789abcdef"[depth] : '.';
	out[4] = '.'; /* high nibble reserved */
	out[5] = '\0';
}

const char *uft_out_comm(uft_comm_fn comm, void *ctx, int pid)
{
	const char *name;

	if (pid == 0)
		return "<idle>";
	name = comm ? comm(ctx, pid) : NULL;
	return name ? name : "<...>";
}

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

	fprintf(f, "%16s-%-7d [%03d] ", uft_out_comm(comm, ctx, pid), pid, rec->cpu);
	if (!(flags & UFT_OUT_NO_IRQ_INFO)) {
		char fl[6];
		uft_out_flags(d, fl);
		fputs(fl, f);
	}
	if (flags & UFT_OUT_RAW_CLOCK) {
		fprintf(f, " %12llu: ", (unsigned long long)rec->ts);
	} else {
		/* Rounded to the microsecond, as the kernel does. */
		uint64_t us = (rec->ts + 500) / 1000;
		fprintf(f, " %5lu.%06lu: ", (unsigned long)(us / 1000000),
			(unsigned long)(us % 1000000));
	}
	print_body(f, tep, rec, type);
	fputc('\n', f);
	return 0;
}

void uft_out_lost(FILE *f, int cpu, uint64_t lost)
{
	if (lost == UINT64_MAX)
		fprintf(f, "CPU:%d [LOST EVENTS]\n", cpu);
	else
		fprintf(f, "CPU:%d [LOST %lu EVENTS]\n", cpu, (unsigned long)lost);
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
