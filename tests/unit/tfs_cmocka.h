/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers of the cmocka tests that drive the tracefs tree (include after
 * <cmocka.h>): whole-file reads and comparisons that fail the test, echo-like
 * writes, instance paths, mkdir and rmdir. */
#ifndef TFS_CMOCKA_H
#define TFS_CMOCKA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/tracefs/tracefs.h"
#include "tfs_helpers.h"

#define W (UFT_TFS_WRITE | UFT_TFS_TRUNC)  /* echo > */
#define A (UFT_TFS_WRITE | UFT_TFS_APPEND) /* echo >> */

static inline char *rd(const char *path)
{
	int err;
	char *s = tfs_cat(path, &err);
	if (!s)
		fail_msg("read %s: %d", path, err);
	return s;
}

static inline void check(const char *path, const char *expect)
{
	char *got = rd(path);
	if (strcmp(got, expect) != 0)
		fail_msg("%s:\n--- got\n%s--- expected\n%s---", path, got, expect);
	free(got);
}

/* Path of a file in instance `in` ("" for the top); valid for 16 calls. */
static inline const char *p(const char *in, const char *file)
{
	static char buf[16][256];
	static int k;
	char *b = buf[k++ & 15];
	snprintf(b, 256, "%s%s%s%s", *in ? "instances/" : "", in, *in ? "/" : "", file);
	return b;
}

/* One write of `s` as echo does (newline added). */
static inline int echo(const char *path, unsigned flags, const char *s)
{
	return tfs_echo(path, s, flags);
}

static inline void mkinst(const char *name)
{
	char path[128];
	snprintf(path, sizeof(path), "instances/%s", name);
	assert_int_equal(uft_tracefs_mkdir(path), 0);
}

static inline void rminst(const char *name)
{
	char path[128];
	snprintf(path, sizeof(path), "instances/%s", name);
	assert_int_equal(uft_tracefs_rmdir(path), 0);
}

#endif
