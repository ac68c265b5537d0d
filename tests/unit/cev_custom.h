/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Custom events on cev_events.h's tracepoint: a slimmer record, and one
 * that keeps the path alone. */
#undef UFT_SYSTEM
#define UFT_SYSTEM custom

#if !defined(CEV_CUSTOM_H) || defined(UFT_HEADER_MULTI_READ)
#define CEV_CUSTOM_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_CUSTOM_EVENT(cev_req_slim, cev_req,
	UFT_PROTO(int status, const char *path, long bytes),
	UFT_ARGS(status, path, bytes),
	UFT_STRUCT(
		__field(long, kb)
		__field(short, st)
	),
	UFT_ASSIGN(
		__entry->kb = bytes / 1024;
		__entry->st = (short)status;
	),
	UFT_PRINT("kb=%ld st=%d", __entry->kb, __entry->st))

UFT_CUSTOM_EVENT(cev_req_path, cev_req,
	UFT_PROTO(int status, const char *path, long bytes),
	UFT_ARGS(status, path, bytes),
	UFT_STRUCT(
		__string(p, path)
	),
	UFT_ASSIGN(
		__assign_str(p);
	),
	UFT_PRINT("p=%s", __get_str(p)))
/* clang-format on */

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "cev_custom.h"
#include <uft/define_events.h>
