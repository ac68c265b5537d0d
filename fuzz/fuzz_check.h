/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fuzz targets' assertion: a failed check aborts, which the fuzzer and
 * the corpus replay report with the input that caused it. */
#ifndef UFT_FUZZ_CHECK_H
#define UFT_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* The input as a NUL-terminated string (malloc'd), or NULL when longer than
 * max: text parsers get text and their inputs stay short. */
static inline char *fuzz_text(const unsigned char *data, size_t size, size_t max)
{
	if (size > max)
		return NULL;
	char *text = malloc(size + 1);
	CHECK(text);
	memcpy(text, data, size);
	text[size] = 0;
	return text;
}

#endif
