/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernel `format` file text (Documentation/trace/events.rst, "Event formats") for uft events. */
#ifndef UFT_FORMAT_H
#define UFT_FORMAT_H

#include <stddef.h>

#include <uft/event.h>

/* Size of the common header every record starts with (type, flags,
 * preempt count, pid). Event fields start at or after this offset. */
#define UFT_COMMON_HDR_SIZE 8u

/* Writes the format text of `ev` with common_type `id` into buf (at most len
 * bytes, NUL terminated when len > 0). Returns the text length without the
 * NUL, snprintf-like, or -EINVAL when ev has no name or a field lacks type or
 * name. A NULL print_fmt prints as "". */
int uft_format_text(const struct uft_event *ev, unsigned id, char *buf, size_t len);

#endif
