/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event layout of a printf-style one-liner (UFT_TRACE): one field per
 * conversion, a record serializer and the kernel `print fmt` that makes
 * libtraceevent print the record exactly as printf would print the call. */
#ifndef UFT_PRINTF_EVENT_H
#define UFT_PRINTF_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uft/event.h>

/* Whole record (common header included) is capped so it always fits in a
 * ring page; longer strings are truncated. */
#define UFT_PRINTF_MAX_RECORD 4000u
/* Largest width or precision accepted in a conversion. */
#define UFT_PRINTF_MAX_WIDTH 1024

/* How an argument is stored (one per conversion). */
enum uft_parg_kind {
	UFT_PARG_U32 = 0,  /* %d %i %u %x %X %o (and h, hh): 4 bytes */
	UFT_PARG_U64 = 1,  /* l, ll, z, j, t conversions and %p: 8 bytes */
	UFT_PARG_STR = 2,  /* %s: __data_loc char[] plus the string after the fixed part */
	UFT_PARG_CHAR = 3, /* %c: char name[2], the character and a NUL */
};

struct uft_printf_layout {
	uint32_t nr_args;	  /* conversions = fields = call arguments */
	struct uft_field *fields; /* nr_args entries; names owned by the layout */
	uint8_t *kinds;		  /* enum uft_parg_kind per argument */
	uint32_t *offsets;	  /* record offset of each argument's field */
	uint32_t fixed_size;	  /* common header + fields, where strings start */
	uint32_t nr_strings;	  /* %s conversions */
	/* What a NULL %s argument stores: "(null)", or "" under a precision
	 * below 6, as glibc prints it. NULL for other kinds. */
	const char **null_text;
	char *print_fmt; /* text after "print fmt: " */
	/* Padding between the fixed fields or after them: only then does a
	 * fill zero the fixed part first. */
	bool has_holes;
};

/* Parses a printf format. Returns 0, or -EINVAL with a message in err for
 * what cannot be traced (floating point, %n, '*' width or precision, ...)
 * and -ENOMEM. On error *out is left empty (safe to free). */
int uft_printf_layout_parse(const char *fmt, struct uft_printf_layout *out, char *err,
			    size_t errlen);
void uft_printf_layout_free(struct uft_printf_layout *l);

/* For both: args holds one value per conversion, integers sign/zero-extended,
 * pointers as addresses, %s arguments as char pointers (0 stores null_text).
 *
 * Bytes the record needs (common header included), strings truncated so the
 * total stays within UFT_PRINTF_MAX_RECORD. */
uint32_t uft_printf_record_size(const struct uft_printf_layout *l, const uint64_t *args);
/* Writes fields and strings after the 8-byte common header (left to the
 * caller) and zeroes padding. Strings are truncated to fit min(cap,
 * UFT_PRINTF_MAX_RECORD). Returns the record size, 0 if even the fixed part
 * and empty strings do not fit in cap. */
/* The same as uft_printf_record_size(), storing each string's length in
 * lens (nr_strings entries), in argument order. */
uint32_t uft_printf_record_measure(const struct uft_printf_layout *l, const uint64_t *args,
				   uint32_t *lens);
/* The same as uft_printf_record_fill() with cap the size that measure
 * returned, the strings' lengths taken from lens instead of measured again. */
uint32_t uft_printf_record_fill_measured(const struct uft_printf_layout *l, const uint64_t *args,
					 const uint32_t *lens, void *rec, uint32_t size);
/* Whether a UFT_TRACE call site's inline writer, whose arguments the
 * compiler saw as kinds (UFT_ARG_*, UFT_ARG_END after the last) and which
 * lays them out in rec_size bytes, writes the record this layout describes:
 * no %c, the same kinds in the same order, the same size, "(null)" for a
 * NULL string. */
bool uft_printf_inline_ok(const struct uft_printf_layout *l, const uint8_t *kinds,
			  uint32_t rec_size);
uint32_t uft_printf_record_fill(const struct uft_printf_layout *l, const uint64_t *args, void *rec,
				uint32_t cap);

#endif
