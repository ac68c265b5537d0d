/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The field numbers of Perfetto's trace protos that the export writes
 * (protos/perfetto/trace/ in the Perfetto tree; docs/design/export.md
 * lists them with their types). */
#ifndef UFT_PERFETTO_PROTO_H
#define UFT_PERFETTO_PROTO_H

enum {
	PF_TRACE_PACKET = 1, /* Trace.packet */

	PF_PKT_TIMESTAMP = 8,
	PF_PKT_SEQ_ID = 10, /* trusted_packet_sequence_id */
	PF_PKT_TRACK_EVENT = 11,
	PF_PKT_INTERNED_DATA = 12,
	PF_PKT_SEQ_FLAGS = 13,
	PF_PKT_TRACK_DESCRIPTOR = 60,

	PF_SEQ_INCREMENTAL_STATE_CLEARED = 1,
	PF_SEQ_NEEDS_INCREMENTAL_STATE = 2,

	PF_TD_UUID = 1,
	PF_TD_NAME = 2,
	PF_TD_PROCESS = 3,
	PF_TD_THREAD = 4,
	PF_TD_PARENT_UUID = 5,
	PF_TD_COUNTER = 8,

	PF_PROC_PID = 1,
	PF_PROC_NAME = 6,

	PF_THREAD_PID = 1,
	PF_THREAD_TID = 2,
	PF_THREAD_NAME = 5,

	PF_TE_DEBUG_ANNOTATIONS = 4,
	PF_TE_TYPE = 9,
	PF_TE_NAME_IID = 10,
	PF_TE_TRACK_UUID = 11,
	PF_TE_CATEGORIES = 22,
	PF_TE_NAME = 23,
	PF_TE_COUNTER_VALUE = 30,

	PF_TYPE_SLICE_BEGIN = 1,
	PF_TYPE_SLICE_END = 2,
	PF_TYPE_INSTANT = 3,
	PF_TYPE_COUNTER = 4,

	PF_DA_UINT = 3,
	PF_DA_INT = 4,
	PF_DA_STRING = 6,
	PF_DA_NAME = 10,

	PF_INTERNED_EVENT_NAMES = 2,
	PF_EVENT_NAME_IID = 1,
	PF_EVENT_NAME_NAME = 2,
};

#endif
