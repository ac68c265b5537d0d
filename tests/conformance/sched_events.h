/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched: events with the kernel's names and fields (6.1), for ftracetest. */
#undef UFT_SYSTEM
#define UFT_SYSTEM sched

#if !defined(CONF_SCHED_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define CONF_SCHED_EVENTS_H

#include <stdio.h>
#include <sys/types.h>
#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(sched_switch,
	UFT_PROTO(const char *prev, pid_t prev_pid, long prev_state, const char *next, pid_t next_pid),
	UFT_ARGS(prev, prev_pid, prev_state, next, next_pid),
	UFT_STRUCT(
		__array(char, prev_comm, 16)
		__field(pid_t, prev_pid)
		__field(int, prev_prio)
		__field(long, prev_state)
		__array(char, next_comm, 16)
		__field(pid_t, next_pid)
		__field(int, next_prio)
	),
	UFT_ASSIGN(
		snprintf(__entry->prev_comm, 16, "%s", prev);
		__entry->prev_pid = prev_pid;
		__entry->prev_prio = 120;
		__entry->prev_state = prev_state;
		snprintf(__entry->next_comm, 16, "%s", next);
		__entry->next_pid = next_pid;
		__entry->next_prio = 120;
	),
	/* prev_state as its number: the tree's print fmt takes no condition
	 * that picks a string (the kernel's prints "S" or "R"). */
	UFT_PRINT("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> next_comm=%s next_pid=%d next_prio=%d",
		  __entry->prev_comm, __entry->prev_pid, __entry->prev_prio,
		  __entry->prev_state, __entry->next_comm, __entry->next_pid,
		  __entry->next_prio))

#define CONF_WAKEUP(evname)							\
UFT_EVENT(evname,								\
	UFT_PROTO(const char *comm, pid_t pid, int cpu),			\
	UFT_ARGS(comm, pid, cpu),						\
	UFT_STRUCT(								\
		__array(char, comm, 16)						\
		__field(pid_t, pid)						\
		__field(int, prio)						\
		__field(int, target_cpu)					\
	),									\
	UFT_ASSIGN(								\
		snprintf(__entry->comm, 16, "%s", comm);			\
		__entry->pid = pid;						\
		__entry->prio = 120;						\
		__entry->target_cpu = cpu;					\
	),									\
	UFT_PRINT("comm=%s pid=%d prio=%d target_cpu=%03d", __entry->comm,	\
		  __entry->pid, __entry->prio, __entry->target_cpu))
CONF_WAKEUP(sched_waking)
CONF_WAKEUP(sched_wakeup)
CONF_WAKEUP(sched_wakeup_new)

UFT_EVENT(sched_process_fork,
	UFT_PROTO(const char *comm, pid_t pid, const char *child, pid_t child_pid),
	UFT_ARGS(comm, pid, child, child_pid),
	UFT_STRUCT(
		__array(char, parent_comm, 16)
		__field(pid_t, parent_pid)
		__array(char, child_comm, 16)
		__field(pid_t, child_pid)
	),
	UFT_ASSIGN(
		snprintf(__entry->parent_comm, 16, "%s", comm);
		__entry->parent_pid = pid;
		snprintf(__entry->child_comm, 16, "%s", child);
		__entry->child_pid = child_pid;
	),
	UFT_PRINT("comm=%s pid=%d child_comm=%s child_pid=%d", __entry->parent_comm,
		  __entry->parent_pid, __entry->child_comm, __entry->child_pid))

UFT_EVENT(sched_process_exit,
	UFT_PROTO(const char *comm, pid_t pid),
	UFT_ARGS(comm, pid),
	UFT_STRUCT(
		__array(char, comm, 16)
		__field(pid_t, pid)
		__field(int, prio)
	),
	UFT_ASSIGN(
		snprintf(__entry->comm, 16, "%s", comm);
		__entry->pid = pid;
		__entry->prio = 120;
	),
	UFT_PRINT("comm=%s pid=%d prio=%d", __entry->comm, __entry->pid, __entry->prio))

UFT_EVENT(sched_process_exec,
	UFT_PROTO(const char *filename, pid_t pid),
	UFT_ARGS(filename, pid),
	UFT_STRUCT(
		__string(filename, filename)
		__field(pid_t, pid)
		__field(pid_t, old_pid)
	),
	UFT_ASSIGN(
		__assign_str(filename);
		__entry->pid = pid;
		__entry->old_pid = pid;
	),
	UFT_PRINT("filename=%s pid=%d old_pid=%d", __get_str(filename), __entry->pid,
		  __entry->old_pid))
/* clang-format on */

#endif
#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "sched_events.h"
#include <uft/define_events.h>
