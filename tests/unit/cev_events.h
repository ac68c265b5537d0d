/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracepoint of the custom-event tests. */
#undef UFT_SYSTEM
#define UFT_SYSTEM cevo

#if !defined(CEV_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define CEV_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(cev_req,
	UFT_PROTO(int status, const char *path, long bytes),
	UFT_ARGS(status, path, bytes),
	UFT_STRUCT(
		__field(int, status)
		__string(path, path)
		__field(long, bytes)
	),
	UFT_ASSIGN(
		__entry->status = status;
		__assign_str(path);
		__entry->bytes = bytes;
	),
	UFT_PRINT("status=%d path=%s bytes=%ld", __entry->status, __get_str(path), __entry->bytes))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "cev_events.h"
#include <uft/define_events.h>
