/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* In-process renderer of event bodies from a kernel `print fmt` text, so a
 * traced process can print its records as libtraceevent would without
 * linking it. */
#ifndef UFT_PRINT_FMT_H
#define UFT_PRINT_FMT_H

#include <stddef.h>
#include <stdint.h>

#include <uft/event.h>

struct uft_print_fmt; /* compiled */

/* Compiles the text after "print fmt: " against the event's fields (common
 * fields excluded). Returns 0, -ENOMEM, or -EINVAL with a message in err for
 * what is not supported. */
int uft_print_fmt_compile(const char *print_fmt, const struct uft_field *fields, uint32_t nr,
			  struct uft_print_fmt **out, char *err, size_t errlen);

/* Renders the body of one record (common header first, len bytes) into buf,
 * NUL terminated when buflen > 0. Returns the full text length, as snprintf.
 * Never reads outside the record and never allocates. */
int uft_print_fmt_render(const struct uft_print_fmt *pf, const void *rec, uint32_t len, char *buf,
			 size_t buflen);

void uft_print_fmt_free(struct uft_print_fmt *pf);

#endif
