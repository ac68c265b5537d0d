/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A traced program that writes one record of about N bytes (a text of N
 * letters), between two small ones: whether a recording keeps it depends on
 * the sub-buffer size (uft record --subbuf-size).
 *
 *   big_record N */
#include <stdio.h>
#include <stdlib.h>

#define UFT_CREATE_EVENTS
#include "big_record_events.h"

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
	if (n < 1 || n > 65000)
		return 2;
	char *text = malloc(n + 1);
	if (!text)
		return 1;
	for (unsigned long i = 0; i < n; i++)
		text[i] = (char)('a' + (i / 64) % 26);
	text[n] = 0;
	trace_blob("before", 7);
	trace_blob(text, (unsigned)n + 1);
	trace_blob("after", 6);
	free(text);
	return 0;
}
