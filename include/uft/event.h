/* Event descriptors: what a definition site emits and the registry consumes. */
#ifndef UFT_EVENT_H
#define UFT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UFT_EVENT_MAGIC 0x55465445u /* "UFTE" */

/* uft's own functions in a program (the generated writers, the registration
 * constructors) get no patchable entry: the function tracers never trace
 * the tracing code, as the kernel's notrace. */
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
#define UFT_FLAG_SIGS_BLOCKED 0x01 /* kernel: irqs-off */
#define UFT_FLAG_IN_SIGNAL 0x08	   /* kernel: hardirq */

struct uft_event {
	uint32_t magic;
	uint8_t style;		 /* enum uft_event_style */
	uint8_t enabled;	 /* recorded into at least one buffer */
	uint16_t id;		 /* common_type; 0 until registered */
	volatile uint16_t *gate; /* fast-path flag; also the SDT semaphore */
	const char *system;
	const char *name;
	const struct uft_field *fields; /* event fields, common ones excluded */
	uint32_t nr_fields;
	/* UFT_EVENT definitions hand their field table out through a function. */
	const struct uft_field *(*fields_fn)(uint32_t *nr_fields);
	uint32_t fixed_size;	/* bytes before dynamic data, common header included */
	const char *print_fmt;	/* text after "print fmt: " */
	const char *printf_fmt; /* UFT_TRACE: the call's format string */
	const char *file;
	uint32_t line;
	uint32_t nr_args; /* UFT_TRACE: arguments at the call site */
	void *priv;	  /* registry state */
	/* Where records go (the registry's struct uft_targets): buffers, each with
	 * its compiled filter; records a filter rejects take no buffer space. */
	const void *volatile targets;
	/* The id while a record needs no more than the global buffer's plain
	 * write, which the inline fast path does; 0 while it needs more (a filter,
	 * an instance's buffer) or the event is off. */
	volatile uint64_t fast_type;
	/* The compiled filter while the event goes to the global buffer alone
	 * with that filter and nothing else: the cold path then writes through
	 * the fast reserve and evaluates the filter before committing. */
	const void *volatile fast_filter;
};

#ifdef __cplusplus
}
#endif
#endif
