/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An snprintf-style appender: counts every byte it is asked to write and
 * stores what fits, so a caller can size a buffer with a first pass. */
#ifndef UFT_TEXT_PUT_H
#define UFT_TEXT_PUT_H

#include <stddef.h>

struct uft_text {
	char *buf;
	size_t cap;
	size_t len; /* bytes asked for, possibly more than cap */
};

__attribute__((format(printf, 2, 3))) void uft_text_put(struct uft_text *t, const char *fmt, ...);

#endif
