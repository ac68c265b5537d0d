/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes hist triggers and synthetic events over a recorded file
 * (src/report/replay.c): the input is a trace.dat; whatever the parser accepts
 * is run through the wakeup_lat chain (variables, a reference across
 * events, onmatch generating a synthetic record with a dynamic string that
 * feeds its own trigger) and, when those events are missing, a trigger on
 * the file's first event. Records may be short, formats odd, strings
 * unterminated: nothing may be read outside a record. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "report/replay.h"
#include "tracedat/tracedat.h"

static const char *const chain[] = {
    "sched:sched_waking:keys=pid:ts1=common_timestamp.usecs",
    ("sched:sched_switch:keys=next_pid:delta=common_timestamp.usecs-$ts1:"
     "onmatch(sched.sched_waking).trace(wakeup_lat,next_comm,next_pid,$delta)"),
    "synthetic:wakeup_lat:keys=name,latency.buckets=10:sort=name,latency",
};

static void run(struct trace_file *tf, FILE *sink, bool use_chain)
{
	struct replay *r = replay_new(tf, "fuzz", sink);
	CHECK(r);
	bool ok = !replay_synth(r, "wakeup_lat char name[]; pid_t pid; u64 latency");
	for (size_t i = 0; ok && use_chain && i < sizeof(chain) / sizeof(chain[0]); i++)
		ok = !replay_hist(r, chain[i]);
	if (!use_chain) {
		const struct tracedat *td = tf->td;
		const struct tracedat_format *f = td->nr_events	  ? &td->events[0]
						  : td->nr_ftrace ? &td->ftrace[0]
								  : NULL;
		const char *name = f ? strstr(f->text, "name: ") : NULL;
		char ev[64];
		ok = name && sscanf(name + 6, "%63[^\n]", ev) == 1 &&
		     !replay_hist_on(r, f->system, ev,
				     "keys=common_pid.execname,common_cpu:vals=common_timestamp");
	}
	if (ok && !replay_run(r, true)) {
		size_t n;
		const struct replay_rec *recs = replay_records(r, &n);
		for (size_t i = 0; i < n; i++)
			CHECK(recs[i].len >= 8 && recs[i].data);
		replay_print_hists(r, sink);
	}
	replay_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exactly sized copy, so sanitizers see any read past the end. */
	uint8_t *buf = malloc(size ? size : 1);
	CHECK(buf);
	memcpy(buf, data, size);
	char err[256];
	struct tracedat *td = tracedat_parse(buf, size, err, sizeof(err));
	if (td) {
		/* No libtraceevent handle: nothing here prints a record. */
		struct trace_file tf = {.td = td};
		FILE *sink = fopen("/dev/null", "w");
		CHECK(sink);
		run(&tf, sink, true);
		run(&tf, sink, false);
		fclose(sink);
		tracedat_free(td);
	}
	free(buf);
	return 0;
}
