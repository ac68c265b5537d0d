/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscalls: sys_enter_openat with the kernel's fields (6.1). */
#undef UFT_SYSTEM
#define UFT_SYSTEM syscalls

#if !defined(CONF_SYSCALLS_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define CONF_SYSCALLS_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(sys_enter_openat,
	UFT_PROTO(int dfd, const char *filename, int flags, unsigned short mode),
	UFT_ARGS(dfd, filename, flags, mode),
	UFT_STRUCT(
		__field(int, __syscall_nr)
		__field(int, dfd)
		__field(const char *, filename)
		__field(int, flags)
		__field(unsigned short, mode)
	),
	UFT_ASSIGN(
		__entry->__syscall_nr = 257;
		__entry->dfd = dfd;
		__entry->filename = filename;
		__entry->flags = flags;
		__entry->mode = mode;
	),
	UFT_PRINT("dfd: 0x%08lx, filename: 0x%08lx, flags: 0x%08lx, mode: 0x%08lx",
		  (long)__entry->dfd, (long)__entry->filename, (long)__entry->flags,
		  (long)__entry->mode))
/* clang-format on */

#endif
#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "syscalls_events.h"
#include <uft/define_events.h>
