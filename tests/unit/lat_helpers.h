/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the max-latency tracers' tests (after cmocka.h and
 * tfs_helpers.h): a sleep of whole milliseconds, a tree file's text, the
 * max latency and a substring check that prints the text it searched. */
#ifndef LAT_HELPERS_H
#define LAT_HELPERS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The upper bound of a measured section of a few ms: a wrong unit (ns for
 * us) goes past it, a loaded machine's slow run does not. */
#define MAX_SANE_US 10000000UL

static inline void wait_ms(int ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static inline char *cat(const char *path)
{
	int err = 0;
	char *s = tfs_cat(path, &err);
	assert_int_equal(err, 0);
	return s;
}

static inline unsigned long max_latency(void)
{
	char *s = cat("tracing_max_latency");
	unsigned long v = strtoul(s, NULL, 10);
	free(s);
	return v;
}

static inline void assert_has(const char *text, const char *needle)
{
	if (!strstr(text, needle)) {
		fprintf(stderr, "missing \"%s\" in:\n%s\n", needle, text);
		fail();
	}
}

#endif
