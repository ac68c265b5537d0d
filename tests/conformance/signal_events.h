/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signal: signal_generate with the kernel's fields (6.1), whose filter the
 * error_log test writes a mistake into. */
#undef UFT_SYSTEM
#define UFT_SYSTEM signal

#if !defined(CONF_SIGNAL_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define CONF_SIGNAL_EVENTS_H

#include <stdio.h>
#include <sys/types.h>
#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(signal_generate,
	UFT_PROTO(int sig, const char *comm, pid_t pid),
	UFT_ARGS(sig, comm, pid),
	UFT_STRUCT(
		__field(int, sig)
		__field(int, errno)
		__field(int, code)
		__array(char, comm, 16)
		__field(pid_t, pid)
		__field(int, group)
		__field(int, result)
	),
	UFT_ASSIGN(
		__entry->sig = sig;
		__entry->errno = 0;
		__entry->code = 0;
		snprintf(__entry->comm, 16, "%s", comm);
		__entry->pid = pid;
		__entry->group = 1;
		__entry->result = 0;
	),
	UFT_PRINT("sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d", __entry->sig,
		  __entry->errno, __entry->code, __entry->comm, __entry->pid, __entry->group,
		  __entry->result))
/* clang-format on */

#endif
#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "signal_events.h"
#include <uft/define_events.h>
