/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A check of an event format's `print fmt` for what makes libtraceevent
 * fault while printing (it evaluates the arguments unchecked): a division
 * or remainder by zero or by a value that may be zero, __print_hex(),
 * __print_hex_str() or __print_array() told to read more than the field or
 * the record holds, and a field named that the format does not declare; and
 * of its field lines for what makes the parser itself fault. */
#ifndef UFT_TRACEDAT_PRINT_FMT_GUARD_H
#define UFT_TRACEDAT_PRINT_FMT_GUARD_H

#include <stddef.h>

/* 0 when the format `text` (len bytes, the `format` file's text) is safe
 * to hand to libtraceevent, else -1 with the reason in why. */
int print_fmt_check(const char *text, size_t len, char *why, size_t wlen);

/* 0 when every field line of the format `text` is one libtraceevent can
 * parse without faulting (printable ASCII, its brackets paired, offset,
 * size and signed given), else -1 with the reason in why. */
int format_fields_check(const char *text, size_t len, char *why, size_t wlen);

/* A copy of `text` whose print fmt libtraceevent cannot use (it then shows
 * the fields, as for any format it fails to parse), *out_len its length;
 * NULL without memory. */
char *print_fmt_neutralise(const char *text, size_t len, size_t *out_len);

#endif
