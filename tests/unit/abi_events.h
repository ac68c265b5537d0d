/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event test_event_abi registers with the current descriptor layout. */
#undef UFT_SYSTEM
#define UFT_SYSTEM tabi

#if !defined(ABI_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define ABI_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(three,
	UFT_PROTO(int a, int b, int c),
	UFT_ARGS(a, b, c),
	UFT_STRUCT(
		__field(int, a)
		__field(int, b)
		__field(int, c)
	),
	UFT_ASSIGN(
		__entry->a = a;
		__entry->b = b;
		__entry->c = c;
	),
	UFT_PRINT("a=%d b=%d c=%d", __entry->a, __entry->b, __entry->c))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "abi_events.h"
#include <uft/define_events.h>
