/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event of big_record.c: a text of any length, as one record. */
#undef UFT_SYSTEM
#define UFT_SYSTEM big

#if !defined(BIG_RECORD_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define BIG_RECORD_EVENTS_H

#include <string.h>
#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(blob,
	UFT_PROTO(const char *text, unsigned int len),
	UFT_ARGS(text, len),
	UFT_STRUCT(
		__field(unsigned int, len)
		__dynamic_array(char, text, len)
	),
	UFT_ASSIGN(
		__entry->len = len;
		memcpy(__get_dynamic_array(text), text, len);
	),
	UFT_PRINT("len=%u text=%s", __entry->len, __get_str(text)))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "big_record_events.h"
#include <uft/define_events.h>
