/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* C++ exceptions (and thread cancellation) under the graph tracer. The
 * unwinder finds the caller of each frame from its return address; a hooked
 * one points at uft_ftrace_return, which has no unwind information, and the
 * unwinder would stop there. libuft stands in front of the unwinder's entry
 * points and puts the thread's real return addresses back before the stack
 * is walked: the functions running at the throw get no exit record, every
 * later call is traced again. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

#include "runtime/core/interpose.h"
#include "runtime/ftrace/ftrace.h"

struct _Unwind_Exception;
struct _Unwind_Context;
typedef int (*unwind_stop_fn)(int, int, unsigned long, struct _Unwind_Exception *,
			      struct _Unwind_Context *, void *);

static void *next(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	if (!p)
		abort(); /* called by code that links the unwinder: it exists */
	return p;
}

int _Unwind_RaiseException(struct _Unwind_Exception *e)
{
	static int (*real)(struct _Unwind_Exception *);
	if (!real)
		real = (int (*)(struct _Unwind_Exception *))next("_Unwind_RaiseException");
	uft_ftrace_unhook_returns();
	return real(e);
}

int _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *e)
{
	static int (*real)(struct _Unwind_Exception *);
	if (!real)
		real = (int (*)(struct _Unwind_Exception *))next("_Unwind_Resume_or_Rethrow");
	uft_ftrace_unhook_returns();
	return real(e);
}

void _Unwind_Resume(struct _Unwind_Exception *e)
{
	static void (*real)(struct _Unwind_Exception *);
	if (!real)
		real = (void (*)(struct _Unwind_Exception *))next("_Unwind_Resume");
	uft_ftrace_unhook_returns();
	real(e);
	abort();
}

int _Unwind_ForcedUnwind(struct _Unwind_Exception *e, unwind_stop_fn stop, void *arg)
{
	static int (*real)(struct _Unwind_Exception *, unwind_stop_fn, void *);
	if (!real)
		real = (int (*)(struct _Unwind_Exception *, unwind_stop_fn, void *))next(
		    "_Unwind_ForcedUnwind");
	uft_ftrace_unhook_returns();
	return real(e, stop, arg);
}
