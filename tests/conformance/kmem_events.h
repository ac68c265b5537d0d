/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmem, syscalls and raw_syscalls events with the kernel's names and fields
 * (6.1) that ftracetest's triggers use. */
#undef UFT_SYSTEM
#define UFT_SYSTEM kmem

#if !defined(CONF_KMEM_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define CONF_KMEM_EVENTS_H

#include <stddef.h>
#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(kmalloc,
	UFT_PROTO(unsigned long call_site, const void *ptr, size_t req, size_t alloc),
	UFT_ARGS(call_site, ptr, req, alloc),
	UFT_STRUCT(
		__field(unsigned long, call_site)
		__field(const void *, ptr)
		__field(size_t, bytes_req)
		__field(size_t, bytes_alloc)
		__field(unsigned long, gfp_flags)
	),
	UFT_ASSIGN(
		__entry->call_site = call_site;
		__entry->ptr = ptr;
		__entry->bytes_req = req;
		__entry->bytes_alloc = alloc;
		__entry->gfp_flags = 0xcc0;
	),
	UFT_PRINT("call_site=%lx ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=GFP_KERNEL",
		  __entry->call_site, __entry->ptr, __entry->bytes_req, __entry->bytes_alloc))
/* clang-format on */

#endif
#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "kmem_events.h"
#include <uft/define_events.h>
