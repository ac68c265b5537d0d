/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A command line split at blanks into words, as the kernel's definition
 * parsers (synthetic events, probes) take their input. */
#ifndef UFT_UTIL_WORDS_H
#define UFT_UTIL_WORDS_H

#include <stddef.h>

struct uft_words {
	char *buf;
	char **v; /* NULL terminated */
	int n;
};

/* The first len bytes of s split at blanks; 0 or -ENOMEM (then free it too). */
int uft_words_split(const char *s, size_t len, struct uft_words *w);
void uft_words_free(struct uft_words *w);

#endif
