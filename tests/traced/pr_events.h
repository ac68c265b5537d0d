/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The static event of probe_rounds: the eprobes' source. */
#undef UFT_SYSTEM
#define UFT_SYSTEM pr

#if !defined(PR_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define PR_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(request,
	UFT_PROTO(unsigned id, const char *path),
	UFT_ARGS(id, path),
	UFT_STRUCT(
		__field(unsigned, id)
		__string(path, path)
	),
	UFT_ASSIGN(
		__entry->id = id;
		__assign_str(path, path);
	),
	UFT_PRINT("id=%u path=%s", __entry->id, __get_str(path)))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "pr_events.h"
#include <uft/define_events.h>
