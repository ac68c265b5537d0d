/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A call site of the custom events' tracepoint built with UFT_OUTLINE: it
 * calls the tracepoint's whole out-of-line writer, which runs the custom
 * events too. */
#define UFT_OUTLINE
#include "cev_events.h"

void cev_call_outline(int status, const char *path, long bytes);

void cev_call_outline(int status, const char *path, long bytes)
{
	trace_cev_req(status, path, bytes);
}
