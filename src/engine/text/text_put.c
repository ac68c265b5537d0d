/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "engine/text/text_put.h"

#include <stdarg.h>
#include <stdio.h>

void uft_text_put(struct uft_text *t, const char *fmt, ...)
{
	va_list ap;
	size_t room = t->len < t->cap ? t->cap - t->len : 0;

	va_start(ap, fmt);
	int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}
