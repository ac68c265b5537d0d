/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event filters (Documentation/trace/events.rst, "Event filtering";
 * docs/design/filters.md): the kernel's expression language compiled once into a flat predicate
 * program, then evaluated on the event fast path without allocating, locking or reading outside the
 * record. */
#ifndef UFT_FILTER_H
#define UFT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uft/event.h>

/* Error codes in the kernel's order; uft_filter_strerror() gives the text. */
enum uft_filter_err {
	UFT_FILTER_ERR_NONE = 0,
	UFT_FILTER_ERR_INVALID_OP,
	UFT_FILTER_ERR_TOO_MANY_OPEN,
	UFT_FILTER_ERR_TOO_MANY_CLOSE,
	UFT_FILTER_ERR_MISSING_QUOTE,
	UFT_FILTER_ERR_MISSING_BRACE_OPEN,
	UFT_FILTER_ERR_MISSING_BRACE_CLOSE,
	UFT_FILTER_ERR_OPERAND_TOO_LONG,
	UFT_FILTER_ERR_EXPECT_STRING,
	UFT_FILTER_ERR_EXPECT_DIGIT,
	UFT_FILTER_ERR_ILLEGAL_FIELD_OP,
	UFT_FILTER_ERR_FIELD_NOT_FOUND,
	UFT_FILTER_ERR_ILLEGAL_INTVAL,
	UFT_FILTER_ERR_BAD_SUBSYS_FILTER,
	UFT_FILTER_ERR_TOO_MANY_PREDS,
	UFT_FILTER_ERR_INVALID_FILTER,
	UFT_FILTER_ERR_IP_FIELD_ONLY,
	UFT_FILTER_ERR_INVALID_VALUE,
	UFT_FILTER_ERR_INVALID_CPULIST,
	UFT_FILTER_ERR_NO_FUNCTION,
	UFT_FILTER_ERR_ERRNO,
	UFT_FILTER_ERR_NO_FILTER,
};

struct uft_filter_error {
	/* > 0: an enum uft_filter_err message. <= 0: a failure the kernel
	 * reports without a message, shown as "Error: (code)" (0 for an
	 * expression without predicates, -ENOMEM when out of memory). */
	int code;
	/* Byte index the kernel reports; the caret goes under it (clamped to
	 * the expression length). Some errors point one past the culprit, as
	 * the kernel's do. */
	int pos;
};

/* Returned by uft_filter_compile() for the expression "0": clear the filter. */
#define UFT_FILTER_CLEAR 1

/* Maximum number of predicates in one expression (the kernel's MAX_FILTER_PRED). */
#define UFT_FILTER_MAX_PREDS 16384

/* CPU numbers CPUS{} lists may name; "N" in a list is the last of them. */
#define UFT_FILTER_NR_CPUS 1024

/* error_log location of filter errors (Documentation/trace/ftrace.rst,
 * error_log). */
#define UFT_FILTER_ERR_LOC "event filter parse error"

struct uft_filter;

/* Symbols for `field.function`: returns 0 and the function's [start, end)
 * for a name (name != NULL) or for an address inside it, else -1. */
struct uft_filter_syms {
	int (*lookup)(void *ctx, const char *name, uint64_t addr, uint64_t *start, uint64_t *end);
	void *ctx;
};

/* Compiles `expr` against an event's own fields (common fields excluded;
 * array names may carry their "[N]"), the common fields and the CPU/COMM
 * pseudo fields. Returns 0 with *out set, UFT_FILTER_CLEAR (out NULL) when
 * the trimmed expression is "0", -EINVAL with *err filled on a parse error,
 * or -ENOMEM. The expression is parsed as given: strip trailing whitespace
 * first as the kernel's write does, since positions and texts use it. */
int uft_filter_compile(const char *expr, const struct uft_field *fields, uint32_t nr_fields,
		       struct uft_filter **out, struct uft_filter_error *err);

/* Same, resolving `.function` values through `syms`. Without symbols a
 * function name fails with "Function not found" and a number matches that
 * exact address only. */
int uft_filter_compile_syms(const char *expr, const struct uft_field *fields, uint32_t nr_fields,
			    const struct uft_filter_syms *syms, struct uft_filter **out,
			    struct uft_filter_error *err);

/* Whether the record matches: `rec` is `len` bytes, common header first,
 * recorded on `cpu` by a thread named `comm` (may be NULL when the filter
 * does not need it). A NULL filter matches everything; a record whose fields
 * or __data_loc strings do not fit in `len` never matches. Async-signal-safe,
 * allocation-free; errno is preserved. */
bool uft_filter_match(const struct uft_filter *f, const void *rec, uint32_t len, uint32_t cpu,
		      const char *comm);

/* What the filter reads besides the record, so callers fetch only that. */
#define UFT_FILTER_NEEDS_CPU 1u
#define UFT_FILTER_NEEDS_COMM 2u
unsigned uft_filter_needs(const struct uft_filter *f);

void uft_filter_free(struct uft_filter *f);

/* Message of an error code ("Error" for codes <= 0, as error_log shows them). */
const char *uft_filter_strerror(int code);

/* The `filter` file text: "none\n" when expr is NULL, expr + "\n" when err is
 * NULL, else the expression, the caret line and "parse_error: <msg>\n" (or
 * "Error: (<code>)\n"). snprintf-like: returns the full length, writes at
 * most len bytes, NUL terminated when len > 0. */
int uft_filter_error_text(const char *expr, const struct uft_filter_error *err, char *buf,
			  size_t len);

#endif
