/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CLOCK_MONOTONIC times put on the TSC the rings stamp with. Without the
 * perf page's conversion, libuft calibrates the TSC against CLOCK_MONOTONIC
 * at start-up, a few microseconds off, while the kernel's events (trace_clock
 * mono) and the ptrace tracer's (pt_clock.c's fallback) are in
 * CLOCK_MONOTONIC itself: converting those through the calibration would
 * move them by the calibration's error against the program's events.
 * Instead, readings of the TSC and CLOCK_MONOTONIC taken together at the
 * start and as the recording goes put each such time on the TSC between the
 * two readings around it, so both kinds of events sit on the cycles they
 * were taken at and the file's one conversion orders them as they happened.
 * Used by the kernel source (cmd/kernel_source.c) and the process tracer's
 * records (cmd/record_process.c). */
#ifndef UFT_MONO_TSC_H
#define UFT_MONO_TSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recorder/collect.h"

/* One reading of the TSC and CLOCK_MONOTONIC at the same instant. */
struct mono_tsc_pt {
	uint64_t mono, tsc;
};

struct mono_tsc {
	bool on; /* the times are CLOCK_MONOTONIC and the rings on a TSC */
	struct mono_tsc_pt *pts;
	size_t nr_pts, cap_pts;
};

/* on: whether the times to map are CLOCK_MONOTONIC ones (off: they are
 * already uft's clock, and go through unchanged). Takes the first reading. */
void mono_tsc_init(struct mono_tsc *m, bool on);
/* Takes a reading (none within 1 ms of the previous: the rate needs a span). */
void mono_tsc_sample(struct mono_tsc *m);
/* Takes a reading if time `mono` is later than the last one, so that a time
 * just taken lies between two readings. */
void mono_tsc_cover(struct mono_tsc *m, uint64_t mono);
/* Whether a time can be put on the rings' TSC now: the first ring read
 * gave the collector a conversion (always true when off). */
bool mono_tsc_ready(const struct mono_tsc *m, const struct collect *c);
/* A CLOCK_MONOTONIC time in ns as collect_local_put takes it (it goes to
 * the file's units with the file's conversion). */
uint64_t mono_tsc_ns(const struct mono_tsc *m, const struct collect *c, uint64_t mono);
void mono_tsc_free(struct mono_tsc *m);

#endif
