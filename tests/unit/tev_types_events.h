/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An event with a field of every kind UFT_EVENT supports, for the format and
 * record-layout tests (12 arguments: the most an SDT note takes). */
#undef UFT_SYSTEM
#define UFT_SYSTEM ttypes

#if !defined(TEV_TYPES_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define TEV_TYPES_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(all,
	UFT_PROTO(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e, uint32_t f, int64_t g,
		  uint64_t h, bool i, const void *j, const char *name, const uint16_t *arr),
	UFT_ARGS(a, b, c, d, e, f, g, h, i, j, name, arr),
	UFT_STRUCT(
		__field(int8_t, a)
		__field(uint8_t, b)
		__field(int16_t, c)
		__field(uint16_t, d)
		__field(int32_t, e)
		__field(uint32_t, f)
		__field(int64_t, g)
		__field(uint64_t, h)
		__field(bool, i)
		__field(const void *, j)
		__array(char, comm, 16)
		__string(name, name)
		__dynamic_array(uint16_t, arr, 2)
	),
	UFT_ASSIGN(
		__entry->a = a; __entry->b = b; __entry->c = c; __entry->d = d;
		__entry->e = e; __entry->f = f; __entry->g = g; __entry->h = h;
		__entry->i = i; __entry->j = j;
		memcpy(__entry->comm, "comm-field", 11);
		__assign_str(name);
		memcpy(__get_dynamic_array(arr), arr, 2 * sizeof(uint16_t));
	),
	UFT_PRINT("a=%d b=%u c=%d d=%u e=%d f=%u g=%lld h=%llu i=%d j=%p comm=%s name=%s",
		  __entry->a, __entry->b, __entry->c, __entry->d, __entry->e, __entry->f,
		  (long long)__entry->g, (unsigned long long)__entry->h, __entry->i, __entry->j,
		  __entry->comm, __get_str(name)))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "tev_types_events.h"
#include <uft/define_events.h>
