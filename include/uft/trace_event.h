/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UFT_EVENT: typed trace events in the style of the kernel's TRACE_EVENT.
 *
 * An event header looks like this (see uft-events(3)):
 *
 *   #undef UFT_SYSTEM
 *   #define UFT_SYSTEM demo
 *   #if !defined(DEMO_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
 *   #define DEMO_EVENTS_H
 *   #include <uft/trace_event.h>
 *   UFT_EVENT(request,
 *       UFT_PROTO(const char *path, int status),
 *       UFT_ARGS(path, status),
 *       UFT_STRUCT(__string(path, path) __field(int, status)),
 *       UFT_ASSIGN(__assign_str(path); __entry->status = status;),
 *       UFT_PRINT("path=%s status=%d", __get_str(path), __entry->status))
 *   #endif
 *   #undef UFT_INCLUDE_FILE
 *   #define UFT_INCLUDE_FILE "demo_events.h"
 *   #include <uft/define_events.h>
 *
 * Every file that includes it can call trace_request(path, status) and
 * trace_request_enabled(); exactly one file defines UFT_CREATE_EVENTS before
 * including it, which emits the descriptors, formats and out-of-line writers.
 * The common case of the writer is inline in trace_request() (define_events.h),
 * so the assign block compiles in every file that includes the header. */
#ifndef UFT_TRACE_EVENT_H
#define UFT_TRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uft/uft.h>

/**
 * UFT_PROTO() - the parameter list of trace_<event>(), in UFT_EVENT()
 * @...: the parameters, e.g. const char *path, int status
 */
#define UFT_PROTO(...) __VA_ARGS__
/**
 * UFT_ARGS() - the parameter names of UFT_PROTO(), in the same order
 * @...: the names, e.g. path, status
 */
#define UFT_ARGS(...) __VA_ARGS__
/**
 * UFT_STRUCT() - the record's fields, in UFT_EVENT()
 * @...: __field(type, name), __array(type, name, n), __string(name, src)...
 */
#define UFT_STRUCT(...) __VA_ARGS__
/**
 * UFT_ASSIGN() - the statements that fill the record, in UFT_EVENT()
 * @...: statements on __entry (and __assign_str() for strings)
 */
#define UFT_ASSIGN(...) __VA_ARGS__

/**
 * UFT_MAX_STRING - longest string a __string field keeps, NUL included
 *
 * Longer strings are cut.
 */
#define UFT_MAX_STRING 1024u

/* The field macros of UFT_STRUCT(): define_events.h gives each a meaning per
 * stage (record struct, format line, sizes, assignment), so they have no
 * single definition to document beside; they are documented here. */

/**
 * __field() - a scalar field: an integer, bool, enum or pointer
 * @type: its C type, as the format file prints it
 * @item: its name; __entry->item in UFT_ASSIGN() and UFT_PRINT()
 */

/**
 * __array() - a fixed-size array field, such as char comm[16]
 * @type: the element type
 * @item: its name
 * @len: the number of elements
 */

/**
 * __dynamic_array() - a variable-length array, stored after the fixed fields
 * @type: the element type
 * @item: its name; __get_dynamic_array(item) in UFT_ASSIGN() and UFT_PRINT()
 * @len: the number of elements, computed from the parameters at each call
 */

/**
 * __string() - a NUL-terminated string, stored after the fixed fields
 * @item: its name; __assign_str(item) copies it, __get_str(item) reads it
 * @src: the parameter (a const char *) it is copied from; NULL records
 *       "(null)", a string longer than UFT_MAX_STRING is cut
 */

#define UFT__GATE(sys, name) UFT__GATE_(sys, name)
#define UFT__GATE_(sys, name) sys##_##name##_semaphore

/* Call sites write the common case inline (see define_events.h) unless
 * UFT_OUTLINE is defined before the first uft header: then trace_<event>()
 * tests the gate and calls the writer in the file that creates the events,
 * which keeps call sites small. C++ files always call it. */
#if !defined(UFT_OUTLINE) && !defined(__cplusplus)
#define UFT__INLINE 1
#endif

#ifdef UFT_DISABLE
#define UFT__EVENT_DECLARE(name, proto, args)                                                      \
	static inline __attribute__((unused)) void trace_##name(proto)                             \
	{                                                                                          \
	}                                                                                          \
	static inline __attribute__((unused)) bool trace_##name##_enabled(void)                    \
	{                                                                                          \
		return false;                                                                      \
	}
#else
/* The gate is the fast-path flag and the SDT semaphore at once: uft adds one
 * while the event is enabled, perf/bpftrace add theirs while they attach.
 * uft__do_trace_<event> is the whole writer (SDT probe, fast path, the rest);
 * uft__slow_trace_<event> the SDT probe and the rest, for call sites that
 * tried the fast path inline. */
#define UFT__EVENT_EXTERNS(name, proto)                                                            \
	extern struct uft_event uft_event_##name;                                                  \
	extern volatile unsigned short UFT__GATE(UFT_SYSTEM, name);                                \
	void uft__do_trace_##name(UFT_PROTO proto);                                                \
	void uft__slow_trace_##name(UFT_PROTO proto);                                              \
	static inline __attribute__((always_inline, unused)) bool trace_##name##_enabled(void)     \
	{                                                                                          \
		return __builtin_expect(UFT__GATE(UFT_SYSTEM, name) != 0, 0);                      \
	}
#ifdef UFT__INLINE
/* trace_<event>() itself comes with the record layout, in define_events.h. */
#define UFT__EVENT_DECLARE(name, proto, args) UFT__EVENT_EXTERNS(name, (proto))
#else
#define UFT__EVENT_DECLARE(name, proto, args)                                                      \
	UFT__EVENT_EXTERNS(name, (proto))                                                          \
	static inline __attribute__((always_inline, unused)) void trace_##name(proto)              \
	{                                                                                          \
		if (__builtin_expect(UFT__GATE(UFT_SYSTEM, name) != 0, 0))                         \
			uft__do_trace_##name(args);                                                \
	}
#endif
#endif

#endif /* UFT_TRACE_EVENT_H */

#ifndef UFT_HEADER_MULTI_READ
/* Read for the first time in this file: define_events.h, at the end of the
 * event header, expands what the declarations alone do not give. */
#define UFT__EVENTS_PENDING
#undef UFT_EVENT
/**
 * UFT_EVENT() - define a typed trace event (in an event header)
 * @name: the event's name; UFT_SYSTEM is its system
 * @proto: UFT_PROTO(...), the parameters of trace_<name>()
 * @args: UFT_ARGS(...), their names
 * @tstruct: UFT_STRUCT(...), the record's fields
 * @assign: UFT_ASSIGN(...), how the parameters fill them
 * @print: UFT_PRINT(fmt, args...), the event's print format
 *
 * Gives every file that includes the header trace_<name>(args), which
 * records the event while it is enabled (one predicted branch otherwise),
 * and trace_<name>_enabled(), true while it is. The one file that defines
 * UFT_CREATE_EVENTS first emits the descriptors and writers.
 */
#define UFT_EVENT(name, proto, args, tstruct, assign, print)                                       \
	UFT__EVENT_DECLARE(name, UFT_PROTO(proto), UFT_ARGS(args))
#undef UFT_CUSTOM_EVENT
/**
 * UFT_CUSTOM_EVENT() - attach an event of its own to an existing UFT_EVENT tracepoint
 * @name: the custom event's name; UFT_SYSTEM (of the custom header) is its system
 * @orig: the UFT_EVENT() whose trace_<orig>() calls fire it
 * @proto: UFT_PROTO(...), exactly @orig's parameters
 * @args: UFT_ARGS(...), their names
 * @tstruct: UFT_STRUCT(...), the custom event's own fields
 * @assign: UFT_ASSIGN(...), how @orig's parameters fill them
 * @print: UFT_PRINT(fmt, args...), its own print format
 *
 * The kernel's TRACE_CUSTOM_EVENT: every trace_<orig>() call records the
 * custom event too while it is enabled, whether @orig is or not. It has its
 * own id, events/ directory, enable, filter, trigger and hist; it shares
 * @orig's gate, so a call site still costs one predicted branch while
 * neither is enabled. The header is written as an event header and created
 * (UFT_CREATE_EVENTS) in one file of an object that links with @orig's;
 * it declares no trace_<name>().
 */
#define UFT_CUSTOM_EVENT(name, orig, proto, args, tstruct, assign, print)
#endif
