/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's osnoise:* events in the tree, with its fields and print
 * formats (include/trace/events/osnoise.h as the format files show them),
 * so rtla, trace-cmd and libtraceevent read them unchanged. A busy loop
 * sees a gap, not what ran in it: sample_threshold is written for every
 * noise sample; the four per-cause events exist (they can be enabled and
 * recorded) and are never written (docs/design/latency.md). */
#define _GNU_SOURCE
#include "runtime/latency/osn_events.h"

#include <string.h>

#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include <uft/uft.h>

#define NS_SECS "(REC->start) / 1000000000UL, (REC->start) % 1000000000UL"
#define START_DURATION                                                                             \
	{"u64", "start", 8, 8, 0, UFT_FIELD_SCALAR, 0},                                            \
	{                                                                                          \
		"u64", "duration", 16, 8, 0, UFT_FIELD_SCALAR, 0                                   \
	}

static volatile uint16_t st_gate, nmi_gate, irq_gate, sirq_gate, thr_gate;

static const struct uft_field st_fields[] = {
    START_DURATION,
    {"u64", "interference", 24, 8, 0, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field nmi_fields[] = {START_DURATION};
static const struct uft_field irq_fields[] = {
    START_DURATION,
    {"__data_loc char[]", "desc", 24, 4, 1, UFT_FIELD_DYN, 1},
    {"int", "vector", 28, 4, 1, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field sirq_fields[] = {
    START_DURATION,
    {"int", "vector", 24, 4, 1, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field thr_fields[] = {
    {"char", "comm[16]", 8, 16, 0, UFT_FIELD_ARRAY, 1},
    {"u64", "start", 24, 8, 0, UFT_FIELD_SCALAR, 0},
    {"u64", "duration", 32, 8, 0, UFT_FIELD_SCALAR, 0},
    {"pid_t", "pid", 40, 4, 1, UFT_FIELD_SCALAR, 0},
};

#define OSN_EVENT(var, evname, flds, size, fmt)                                                    \
	static struct uft_event var = {                                                            \
	    .magic = UFT_EVENT_MAGIC,                                                              \
	    .style = UFT_STYLE_STRUCT,                                                             \
	    .gate = &var##_gate,                                                                   \
	    .system = "osnoise",                                                                   \
	    .name = evname,                                                                        \
	    .fields = flds,                                                                        \
	    .nr_fields = sizeof(flds) / sizeof(flds[0]),                                           \
	    .fixed_size = size,                                                                    \
	    .print_fmt = fmt,                                                                      \
	    .file = __FILE__,                                                                      \
	    .line = __LINE__,                                                                      \
	}

OSN_EVENT(st, "sample_threshold", st_fields, 32,
	  "\"start %llu.%09u duration %llu ns interference %llu\", " NS_SECS
	  ", REC->duration, REC->interference");
OSN_EVENT(nmi, "nmi_noise", nmi_fields, 24,
	  "\"start %llu.%09u duration %llu ns\", " NS_SECS ", REC->duration");
OSN_EVENT(irq, "irq_noise", irq_fields, 32,
	  "\"%s:%d start %llu.%09u duration %llu ns\", __get_str(desc), REC->vector, " NS_SECS
	  ", REC->duration");
OSN_EVENT(sirq, "softirq_noise", sirq_fields, 28,
	  "\"%8s:%d start %llu.%09u duration %llu ns\", __print_symbolic(REC->vector, { 0, "
	  "\"HI\" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, "
	  "{ 5, \"IRQ_POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, "
	  "\"RCU\" }), REC->vector, " NS_SECS ", REC->duration");
OSN_EVENT(thr, "thread_noise", thr_fields, 44,
	  "\"%8s:%d start %llu.%09u duration %llu ns\", REC->comm, REC->pid, " NS_SECS
	  ", REC->duration");

void uft_osn_noise_events_init(void)
{
	struct uft_event *all[] = {&thr, &sirq, &irq, &nmi, &st};
	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		uft_registry_add_dynamic(all[i]);
}

struct st_rec {
	struct uft_common_entry common;
	uint64_t start, duration, interference;
};

void uft_osn_sample_threshold(uint32_t buffer, uint64_t start_ns, uint64_t duration_ns,
			      uint64_t interference)
{
	if (buffer >= UFT_MAX_BUFFERS || !uft_event_targets(&st))
		return;
	struct uft_rsv rsv;
	/* The target list stays valid until the commit (grace.h). */
	uft_grace_enter();
	struct st_rec *r = uft_reserve_buffer(&rsv, &st, sizeof(*r), buffer);
	if (r) {
		r->start = start_ns;
		r->duration = duration_ns;
		r->interference = interference;
		uft_commit(&rsv);
	}
	uft_grace_exit();
}
