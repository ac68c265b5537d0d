/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE
#include "util/words.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int uft_words_split(const char *s, size_t len, struct uft_words *w)
{
	w->buf = strndup(s, len);
	w->v = calloc(len / 2 + 2, sizeof(*w->v));
	w->n = 0;
	if (!w->buf || !w->v)
		return -ENOMEM;
	for (char *p = w->buf; *p;) {
		while (*p && isspace((unsigned char)*p))
			*p++ = 0;
		if (!*p)
			break;
		w->v[w->n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	return 0;
}

void uft_words_free(struct uft_words *w)
{
	free(w->buf);
	free(w->v);
}
