/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes uft report's exports (src/export/): the input is a trace.dat;
 * whatever the parser accepts is exported to Perfetto, Chrome JSON, folded
 * stacks, a flame graph and the HTML page, with a counter on the first numeric field of
 * the first event when there is one. Graph records may be short, depths
 * odd, exits without entries, formats hostile: nothing may be read outside
 * a record, and every export must end (no loop on a bad depth). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <event-parse.h>

#include "fuzz_check.h"
#include "export/formats.h"
#include "export/html.h"
#include "tracedat/tracedat.h"

/* libtraceevent's tep_parse_event leaks a few bytes on some malformed
 * formats: the library's, not the exports', so LeakSanitizer lets it be. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* SYSTEM:EVENT:FIELD of the first event's first field that is not common. */
static const char *first_counter(struct trace_file *tf, char *buf, size_t len)
{
	struct tep_event **evs = tep_list_events(tf->tep, TEP_EVENT_SORT_ID);
	for (; evs && *evs; evs++)
		for (struct tep_format_field *f = (*evs)->format.fields; f; f = f->next)
			if (!(f->flags & TEP_FIELD_IS_ARRAY)) {
				snprintf(buf, len, "%s:%s:%s", (*evs)->system, (*evs)->name,
					 f->name);
				return buf;
			}
	return NULL;
}

static void run(struct trace_file *tf, FILE *sink)
{
	char spec[256];
	struct exp_opts o = {0};
	o.counters[0] = first_counter(tf, spec, sizeof(spec));
	o.nr_counters = o.counters[0] != NULL;
	export_perfetto(tf, &o, sink, sink);
	export_chrome_json(tf, &o, sink, sink);
	export_folded(tf, &o, FLAME_BY_TIME, sink, sink);
	export_flame_svg(tf, &o, FLAME_BY_COUNT, "fuzz", sink, sink);
	const struct html_hist h = {"x:y:keys=z", "{ z: 1 } hitcount: 1\n"};
	export_html(tf, &o, "fuzz", &h, 1, sink, sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tracedat_set_inflate_limit(64u << 20);
	/* The input as a file: trace_file_open builds the event formats'
	 * libtraceevent handle the exports need. */
	int fd = memfd_create("fuzz_export", 0);
	CHECK(fd >= 0);
	CHECK(write(fd, data, size) == (ssize_t)size);
	char path[64], err[256];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct trace_file tf;
	if (trace_file_open(&tf, path, err, sizeof(err)) == 0) {
		FILE *sink = fopen("/dev/null", "w");
		CHECK(sink);
		run(&tf, sink);
		fclose(sink);
		trace_file_close(&tf);
	}
	close(fd);
	return 0;
}
