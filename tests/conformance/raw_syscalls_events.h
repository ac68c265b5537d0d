/* SPDX-License-Identifier: GPL-2.0-or-later */
/* raw_syscalls: sys_enter and sys_exit with the kernel's fields (6.1). */
#undef UFT_SYSTEM
#define UFT_SYSTEM raw_syscalls

#if !defined(CONF_RAW_SYSCALLS_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define CONF_RAW_SYSCALLS_EVENTS_H

#include <string.h>
#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(sys_enter,
	UFT_PROTO(long id, const unsigned long *args),
	UFT_ARGS(id, args),
	UFT_STRUCT(
		__field(long, id)
		__array(unsigned long, args, 6)
	),
	UFT_ASSIGN(
		__entry->id = id;
		memcpy(__entry->args, args, sizeof(__entry->args));
	),
	UFT_PRINT("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", __entry->id, __entry->args[0],
		  __entry->args[1], __entry->args[2], __entry->args[3], __entry->args[4],
		  __entry->args[5]))

UFT_EVENT(sys_exit,
	UFT_PROTO(long id, long ret),
	UFT_ARGS(id, ret),
	UFT_STRUCT(
		__field(long, id)
		__field(long, ret)
	),
	UFT_ASSIGN(
		__entry->id = id;
		__entry->ret = ret;
	),
	UFT_PRINT("NR %ld = %ld", __entry->id, __entry->ret))
/* clang-format on */

#endif
#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "raw_syscalls_events.h"
#include <uft/define_events.h>
