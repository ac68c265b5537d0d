/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lines of text about start-up settings that could not be applied. Under
 * `uft record` they go to the recorder, which prints them and decides
 * whether the program may go on; elsewhere to stderr. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/runtime.h"

void uft_start_report_add(struct uft_start_report *r, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *line = NULL;
	int n = vasprintf(&line, fmt, ap);
	va_end(ap);
	r->error |= error;
	if (n < 0)
		return;
	/* Each message (it may span lines) starts with \x1e and E or W: the
	 * recorder says which it is. */
	size_t need = r->len + (size_t)n + 3;
	if (need > r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		while (cap < need)
			cap *= 2;
		char *t = realloc(r->text, cap);
		if (!t) {
			free(line);
			return;
		}
		r->text = t;
		r->cap = cap;
	}
	r->text[r->len++] = '\x1e';
	r->text[r->len++] = error ? 'E' : 'W';
	memcpy(r->text + r->len, line, (size_t)n);
	r->len += (size_t)n;
	r->text[r->len] = 0;
	free(line);
}

void uft_start_report_free(struct uft_start_report *r)
{
	free(r->text);
	*r = (struct uft_start_report){0};
}
