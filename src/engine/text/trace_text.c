/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's `trace` file text for uft records, so tools and habits built
 * around ftrace output read uft output unchanged. Column widths follow the
 * kernel (Documentation/trace/ftrace.rst, "Output format"); only the legend names say what the
 * flags mean in user space. Shared by `uft report` and the live trace files. */
#include "engine/text/trace_text.h"
#include "util/util.h"

#include <string.h>

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

/* With record-tgid: ten more columns before the flags. */
static const char legend_tgid_flags[] =
    "#                                          _-----=> signals-off\n"
    "#                                         / _----=> need-resched\n"
    "#                                        | / _---=> signal-handler\n"
    "#                                        || / _--=> nesting-depth\n"
    "#                                        ||| / _-=> reserved\n"
    "#                                        |||| /     delay\n"
    "#           TASK-PID       TGID    CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "#              | |           |       |   |||||     |         |\n";

static const char legend_tgid_plain[] =
    "#           TASK-PID       TGID    CPU#     TIMESTAMP  FUNCTION\n"
    "#              | |           |       |         |         |\n";

void uft_out_header(FILE *f, const char *tracer, uint64_t entries, uint64_t written, int nr_cpus,
		    unsigned flags)
{
	fprintf(f, "# tracer: %s\n#\n", tracer ? tracer : "nop");
	fprintf(f, "# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n#\n",
		(unsigned long long)entries, (unsigned long long)written, nr_cpus);
	if (flags & UFT_OUT_TGID)
		fputs(flags & UFT_OUT_NO_IRQ_INFO ? legend_tgid_plain : legend_tgid_flags, f);
	else
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

void uft_out_prefix(FILE *f, const char *comm, int pid, int cpu, const void *data, uint64_t ts,
		    unsigned flags)
{
	uft_out_prefix_tgid(f, comm, pid, -1, cpu, data, ts, flags);
}

void uft_out_prefix_tgid(FILE *f, const char *comm, int pid, int tgid, int cpu, const void *data,
			 uint64_t ts, unsigned flags)
{
	fprintf(f, "%16s-%-7d ", comm, pid);
	if (flags & UFT_OUT_TGID) {
		if (tgid > 0)
			fprintf(f, "(%7d) ", tgid);
		else
			fputs("(-------) ", f);
	}
	fprintf(f, "[%03d] ", cpu);
	if (!(flags & UFT_OUT_NO_IRQ_INFO)) {
		char fl[6];
		uft_out_flags(data, fl);
		fputs(fl, f);
	}
	if (flags & UFT_OUT_RAW_CLOCK) {
		fprintf(f, " %12llu: ", (unsigned long long)ts);
	} else {
		/* Rounded to the microsecond, as the kernel does. */
		uint64_t us = (ts + 500) / 1000;
		fprintf(f, " %5lu.%06lu: ", (unsigned long)(us / 1000000),
			(unsigned long)(us % 1000000));
	}
}

void uft_out_lost(FILE *f, int cpu, uint64_t lost)
{
	if (lost == UINT64_MAX)
		fprintf(f, "CPU:%d [LOST EVENTS]\n", cpu);
	else
		fprintf(f, "CPU:%d [LOST %lu EVENTS]\n", cpu, (unsigned long)lost);
}

char uft_out_mark(uint64_t ns)
{
	static const struct {
		uint64_t over;
		char mark;
	} marks[] = {{1000000000ull, '$'}, {100000000ull, '@'}, {10000000ull, '*'},
		     {1000000ull, '#'},	   {100000ull, '!'},	{10000ull, '+'}};
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (ns > marks[i].over)
			return marks[i].mark;
	return ' ';
}
