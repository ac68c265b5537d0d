/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Events of the tracefs tests. */
#undef UFT_SYSTEM
#define UFT_SYSTEM tfst

#if !defined(TFS_TEST_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define TFS_TEST_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(ping,
	UFT_PROTO(int n, const char *s),
	UFT_ARGS(n, s),
	UFT_STRUCT(
		__field(int, n)
		__string(s, s)
	),
	UFT_ASSIGN(
		__entry->n = n;
		__assign_str(s, s);
	),
	UFT_PRINT("n=%d s=%s", __entry->n, __get_str(s)))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "tfs_test_events.h"
#include <uft/define_events.h>
