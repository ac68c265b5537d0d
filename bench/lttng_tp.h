/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The LTTng-UST 2.13 tracepoint provider of the benchmarks: the same three
 * integers as uft's bench:ints. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER bench_lttng

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_LTTNG_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

/* clang-format off */
LTTNG_UST_TRACEPOINT_EVENT(bench_lttng, ints,
	LTTNG_UST_TP_ARGS(int, a, uint32_t, b, uint64_t, c),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, a, a)
		lttng_ust_field_integer(uint32_t, b, b)
		lttng_ust_field_integer(uint64_t, c, c)
	)
)
/* clang-format on */

#endif

#include <lttng/tracepoint-event.h>
