/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Whole-file reads and writes of the tree from inside the process, for the
 * start-up settings (bootconfig, `uft record --probe`) that act through the
 * same files a person would write. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "runtime/tracefs/tracefs.h"
#include "util/util.h"

char *uft_tracefs_read_text(const char *path)
{
	struct uft_tfs_handle *h;
	if (uft_tracefs_open(path, UFT_TFS_READ, &h) != 0)
		return NULL;
	char *text = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (uft_array_reserve(text, cap, len + 4097, 4097)) {
			free(text);
			text = NULL;
			break;
		}
		ssize_t n = uft_tracefs_read(h, text + len, cap - len - 1, len);
		if (n <= 0) {
			text[len] = 0;
			break;
		}
		len += (size_t)n;
	}
	uft_tracefs_release(h);
	return text;
}

int uft_tracefs_put_text(const char *path, const char *text, unsigned how)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | how, &h);
	if (rc)
		return rc;
	ssize_t n = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return n < 0 ? (int)n : 0;
}
