/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event descriptors: what a definition site emits and the registry consumes. */
#ifndef UFT_EVENT_H
#define UFT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * UFT_EVENT_MAGIC - the second word of every event descriptor ("UFTE")
 */
#define UFT_EVENT_MAGIC 0x55465445u

/**
 * UFT_NOTRACE - a function the function tracers never patch (the kernel's notrace)
 *
 * uft's own functions in a program (the generated writers, the registration
 * constructors) carry it: the tracers never trace the tracing code.
 */
#if defined(__has_attribute)
#if __has_attribute(patchable_function_entry)
#define UFT_NOTRACE __attribute__((patchable_function_entry(0, 0)))
#endif
#endif
#ifndef UFT_NOTRACE
#define UFT_NOTRACE
#endif

enum uft_field_kind {
	UFT_FIELD_SCALAR = 0, /* integer, bool or pointer */
	UFT_FIELD_ARRAY = 1,  /* fixed array such as char comm[16] */
	UFT_FIELD_DYN = 2,    /* __data_loc: dynamic string or array */
};

struct uft_field {
	const char *type; /* C type as printed in the format file ("int", "char") */
	const char *name; /* field name, with [N] for fixed arrays */
	uint32_t offset;
	uint32_t size;
	uint8_t is_signed;
	uint8_t kind;	    /* enum uft_field_kind */
	uint16_t elem_size; /* element size of arrays */
};

/* How a UFT_TRACE call site's compiler sees an argument (the promoted type):
 * the runtime lets the site's inline writer run only where the format's
 * fields are these, in this order. */
/**
 * UFT_ARG_U32 - an int or unsigned int argument (4-byte field)
 */
#define UFT_ARG_U32 0
/**
 * UFT_ARG_U64 - a long, long long or pointer argument other than a char pointer (8-byte field)
 */
#define UFT_ARG_U64 1
/**
 * UFT_ARG_STR - a char pointer argument
 */
#define UFT_ARG_STR 2
/**
 * UFT_ARG_OTHER - an argument no inline writer stores (floating point)
 */
#define UFT_ARG_OTHER 0xfe
/**
 * UFT_ARG_END - the entry after the last argument
 */
#define UFT_ARG_END 0xff

/**
 * UFT_TRACE_MAX_RECORD - the largest UFT_TRACE record, common header included
 *
 * Longer strings are truncated so that the record stays within it (and
 * within a ring page). Call sites' inline writers truncate to it too.
 */
#define UFT_TRACE_MAX_RECORD 4000u

enum uft_event_style {
	UFT_STYLE_STRUCT = 0, /* UFT_EVENT definition */
	UFT_STYLE_PRINTF = 1, /* UFT_TRACE one-liner: fields from the format */
};

/* The 8 bytes every record starts with, as the kernel's common fields. */
struct uft_common_entry {
	uint16_t type;
	uint8_t flags;
	uint8_t preempt_count;
	int32_t pid;
};

/* common_flags bits and their user-space meanings. */
/**
 * UFT_FLAG_SIGS_BLOCKED - common_flags bit: every signal blocked (the kernel's irqs-off)
 */
#define UFT_FLAG_SIGS_BLOCKED 0x01
/**
 * UFT_FLAG_IN_SIGNAL - common_flags bit: inside a signal handler (the kernel's hardirq)
 */
#define UFT_FLAG_IN_SIGNAL 0x08

/**
 * struct uft_event_state - what the runtime writes for one descriptor
 * @fast_type: the event's id while a record needs no more than the global
 *	buffer's plain write, which the inline fast path does; 0 while it needs
 *	more (a filter, an instance's buffer) or the event is off
 * @fast_filter: libuft's test of a record (a compiled filter, or plain hist
 *	triggers and the filter) while the event goes to the global buffer alone
 *	with nothing else: the out-of-line path then writes through the fast
 *	reservation and hands it to uft__fast_filter_pass() before committing
 * @priv: libuft's private data for the descriptor (the layout of a UFT_TRACE
 *	format, its view of the descriptor); may grow without changing this
 *	layout
 * @targets: where records go (libuft's target list), NULL while nowhere:
 *	the cold path's first load after the state
 * @id: common_type; 0 until registered
 * @enabled: recorded into at least one buffer
 * @reserved: zero
 *
 * The definition macros emit one, zero-initialised, next to each descriptor,
 * and generated writers read it by symbol: the fast path's test of
 * @fast_type is one load. Its layout is part of the fast-path ABI
 * (UFT_FAST_ABI in <uft/fastpath.h>).
 */
struct uft_event_state {
	volatile uint64_t fast_type;
	const void *volatile fast_filter;
	void *priv;
	const void *volatile targets;
	uint16_t id;
	volatile uint8_t enabled;
	uint8_t reserved[5];
};

/**
 * struct uft_event - an event descriptor, as a definition site emits it
 * @size: sizeof(struct uft_event) as the definer compiled it
 * @magic: UFT_EVENT_MAGIC
 * @state: what the runtime writes for this descriptor; the runtime gives
 *	one to a descriptor it makes itself that has none
 * @gate: fast-path flag, also the SDT semaphore
 * @system: the event's system
 * @name: the event's name
 * @fields: event fields, common ones excluded (UFT_TRACE: none; the runtime
 *	derives them from @printf_fmt into its own view of the descriptor)
 * @nr_fields: entries in @fields
 * @style: enum uft_event_style
 * @fields_fn: UFT_EVENT definitions hand their field table out through it
 * @fixed_size: bytes before dynamic data, common header included
 * @nr_args: UFT_TRACE: arguments at the call site
 * @print_fmt: text after "print fmt: "
 * @printf_fmt: UFT_TRACE: the call's format string
 * @file: source file of the definition
 * @line: its line
 * @arg_kinds: UFT_TRACE: how the compiler sees each call-site argument (UFT_ARG_*),
 *	UFT_ARG_END after the last; NULL where the call site has no inline writer
 * @rec_size: UFT_TRACE: the record size the call site's inline writer lays
 *	the arguments out in, common header included
 *
 * Descriptors are compiled into every traced object, so their layout is a
 * binary interface between that object and whichever libuft loads it. The
 * rule: @size comes first, then @magic; members are only ever appended after
 * @line, never moved, resized or removed; whatever the runtime writes goes
 * in @state. A runtime refuses (with a message naming the event) a
 * descriptor smaller than the oldest layout it understands or with a wrong
 * magic, and reads a larger one up to the members it knows.
 */
struct uft_event {
	uint32_t size;
	uint32_t magic;
	struct uft_event_state *state;
	volatile uint16_t *gate;
	const char *system;
	const char *name;
	const struct uft_field *fields;
	uint32_t nr_fields;
	uint8_t style;
	const struct uft_field *(*fields_fn)(uint32_t *nr_fields);
	uint32_t fixed_size;
	uint32_t nr_args;
	const char *print_fmt;
	const char *printf_fmt;
	const char *file;
	uint32_t line;
	const uint8_t *arg_kinds;
	uint32_t rec_size;
};

/**
 * struct uft_custom_hook - a custom event on its tracepoint's list
 * @next: the next hook, NULL after the last
 * @fn: the custom event's writer, of the tracepoint's prototype
 * @ev: the custom event's descriptor
 *
 * UFT_CUSTOM_EVENT() emits one; the tracepoint's out-of-line writers call
 * every @fn on the list with their arguments.
 */
struct uft_custom_hook {
	struct uft_custom_hook *volatile next;
	void (*fn)(void);
	struct uft_event *ev;
};

/* The id of a registered descriptor (common_type), 0 when it is not. */
static inline uint16_t uft_event_id(const struct uft_event *ev)
{
	return ev->state ? ev->state->id : 0;
}

#ifdef __cplusplus
}
#endif
#endif
