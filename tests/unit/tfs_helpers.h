/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading and writing tracefs files through the tree's API, as cat and echo
 * would. */
#ifndef TFS_HELPERS_H
#define TFS_HELPERS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/tracefs/tracefs.h"

/* The whole file, NUL terminated (malloc'd), or NULL with *err set. */
static inline char *tfs_cat(const char *path, int *err)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_READ | UFT_TFS_NONBLOCK, &h);
	if (rc) {
		if (err)
			*err = rc;
		return NULL;
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (cap - len < 2048)
			buf = realloc(buf, cap *= 2);
		ssize_t n = uft_tracefs_read(h, buf + len, cap - len - 1, len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = 0;
	uft_tracefs_release(h);
	if (err)
		*err = 0;
	return buf;
}

/* echo TEXT > PATH (flags UFT_TFS_TRUNC) or >> (UFT_TFS_APPEND): one write. */
static inline int tfs_echo(const char *path, const char *text, unsigned flags)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | flags, &h);
	if (rc)
		return rc;
	size_t n = strlen(text);
	char *line = malloc(n + 2);
	memcpy(line, text, n);
	line[n] = '\n';
	ssize_t w = uft_tracefs_write(h, line, n + 1, 0);
	free(line);
	uft_tracefs_release(h);
	return w < 0 ? (int)w : 0;
}

/* Number of times `needle` occurs in text. memmem with the lengths known:
 * a sanitizer's strstr measures the rest of the text at every call, which
 * is quadratic on a trace of megabytes. */
static inline int tfs_count(const char *text, const char *needle)
{
	if (!text)
		return 0;
	size_t nl = strlen(needle);
	const char *end = text + strlen(text);
	int n = 0;
	for (const char *p = text; (p = memmem(p, (size_t)(end - p), needle, nl)); p += nl)
		n++;
	return n;
}

/* error_log text with the "[ secs.usecs] " stamps taken out, in place. */
static inline char *tfs_strip_stamps(char *s)
{
	char *o = s;
	for (char *q = s; *q;) {
		char *nl = strchr(q, '\n');
		size_t n = nl ? (size_t)(nl - q + 1) : strlen(q);
		char *close = *q == '[' ? strstr(q, "] ") : NULL;
		if (close && (!nl || close < nl)) {
			n -= (size_t)(close + 2 - q);
			q = close + 2;
		}
		memmove(o, q, n);
		o += n;
		q += n;
	}
	*o = 0;
	return s;
}

/* In a child forked by a thread listed in a pid file: the list the child
 * expects, its parent alone or (followed, event-fork or function-fork) its
 * parent and itself, sorted, one per line. */
static inline void tfs_child_pids(char *buf, size_t len, bool followed)
{
	int lo = getppid(), hi = getpid();
	if (!followed)
		snprintf(buf, len, "%d\n", lo);
	else if (lo < hi)
		snprintf(buf, len, "%d\n%d\n", lo, hi);
	else
		snprintf(buf, len, "%d\n%d\n", hi, lo);
}

/* The exit status of a child, -1 if it did not exit. */
static inline int tfs_child_status(pid_t child)
{
	int status;
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif
