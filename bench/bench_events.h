/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trace events of the uft benchmarks. */
#undef UFT_SYSTEM
#define UFT_SYSTEM bench

#if !defined(BENCH_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define BENCH_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
/* Three integers: the shape every row compares, one definition for the
 * events that differ only in what bench_uft.c attaches to them. */
#undef BENCH_INTS_EVENT
#define BENCH_INTS_EVENT(name)							\
UFT_EVENT(name,									\
	UFT_PROTO(int a, uint32_t b, uint64_t c),				\
	UFT_ARGS(a, b, c),							\
	UFT_STRUCT(								\
		__field(int, a)							\
		__field(uint32_t, b)						\
		__field(uint64_t, c)						\
	),									\
	UFT_ASSIGN(								\
		__entry->a = a;							\
		__entry->b = b;							\
		__entry->c = c;							\
	),									\
	UFT_PRINT("a=%d b=%u c=%llu", __entry->a, __entry->b, (unsigned long long)__entry->c))

BENCH_INTS_EVENT(ints)
/* Under two filters (set by bench_uft.c): one that passes and one that
 * rejects, both after evaluating two terms. */
BENCH_INTS_EVENT(fpass)
BENCH_INTS_EVENT(frej)
/* With a hist trigger (set by bench_uft.c), the event recorded too (hist)
 * or soft-disabled so only the trigger runs (histonly). */
BENCH_INTS_EVENT(hist)
BENCH_INTS_EVENT(histonly)

/* A short string copied into the record. */
UFT_EVENT(str,
	UFT_PROTO(const char *s),
	UFT_ARGS(s),
	UFT_STRUCT(
		__string(s, s)
	),
	UFT_ASSIGN(
		__assign_str(s);
	),
	UFT_PRINT("s=%s", __get_str(s)))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "bench_events.h"
#include <uft/define_events.h>
