/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Events of the tracefs events/ tests: one with a field of every filter
 * class, one without those fields (subsystem filters). */
#undef UFT_SYSTEM
#define UFT_SYSTEM tfsev

#if !defined(TFS_EV_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define TFS_EV_EVENTS_H

#include <stdio.h>
#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(num,
	UFT_PROTO(int a, unsigned int u, const char *name, const char *path),
	UFT_ARGS(a, u, name, path),
	UFT_STRUCT(
		__field(int, a)
		__field(unsigned int, u)
		__array(char, name, 16)
		__string(path, path)
	),
	UFT_ASSIGN(
		__entry->a = a;
		__entry->u = u;
		snprintf(__entry->name, sizeof(__entry->name), "%s", name);
		__assign_str(path);
	),
	UFT_PRINT("a=%d u=%u name=%s path=%s", __entry->a, __entry->u, __entry->name,
		  __get_str(path)))

UFT_EVENT(other,
	UFT_PROTO(int b),
	UFT_ARGS(b),
	UFT_STRUCT(
		__field(int, b)
	),
	UFT_ASSIGN(
		__entry->b = b;
	),
	UFT_PRINT("b=%d", __entry->b))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "tfs_ev_events.h"
#include <uft/define_events.h>
