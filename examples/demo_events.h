/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Trace events of the demo program. */
#undef UFT_SYSTEM
#define UFT_SYSTEM demo

#if !defined(DEMO_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define DEMO_EVENTS_H

#include <stdio.h>
#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(request,
	UFT_PROTO(const char *path, int status, uint64_t latency_ns),
	UFT_ARGS(path, status, latency_ns),
	UFT_STRUCT(
		__string(path, path)
		__field(int, status)
		__field(uint64_t, latency)
	),
	UFT_ASSIGN(
		__assign_str(path);
		__entry->status = status;
		__entry->latency = latency_ns;
	),
	UFT_PRINT("path=%s status=%d latency=%llu", __get_str(path), __entry->status,
		  (unsigned long long)__entry->latency))

UFT_EVENT(worker_state,
	UFT_PROTO(int worker, const char *name, int state, uint8_t prio),
	UFT_ARGS(worker, name, state, prio),
	UFT_STRUCT(
		__array(char, comm, 16)
		__field(int, worker)
		__field(int, state)
		__field(unsigned char, prio)
		__field(bool, busy)
	),
	UFT_ASSIGN(
		snprintf(__entry->comm, sizeof(__entry->comm), "%s", name);
		__entry->worker = worker;
		__entry->state = state;
		__entry->prio = prio;
		__entry->busy = state != 0;
	),
	UFT_PRINT("comm=%s worker=%d state=%d prio=%u busy=%d", __entry->comm, __entry->worker,
		  __entry->state, __entry->prio, __entry->busy))

UFT_EVENT(batch,
	UFT_PROTO(const int *values, unsigned count, long sum),
	UFT_ARGS(values, count, sum),
	UFT_STRUCT(
		__dynamic_array(int, values, count)
		__field(unsigned int, count)
		__field(long, sum)
	),
	UFT_ASSIGN(
		memcpy(__get_dynamic_array(values), values, count * sizeof(int));
		__entry->count = count;
		__entry->sum = sum;
	),
	UFT_PRINT("count=%u sum=%ld", __entry->count, __entry->sum))

/* clang-format on */
#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "demo_events.h"
#include <uft/define_events.h>
