/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers of the probe tests that drive the tracefs tree (include after
 * tfs_cmocka.h): a count of a text in a file, and a refused write with its
 * error_log entry. */
#ifndef UFT_TEST_PROBE_TREE_H
#define UFT_TEST_PROBE_TREE_H

#include <stdlib.h>
#include <string.h>

/* Fails unless `needle` occurs `times` times in the file. */
static inline void expect_in(const char *path, const char *needle, int times)
{
	char *s = rd(path);
	if (tfs_count(s, needle) != times)
		fail_msg("%s: '%s' expected %d times in:\n%s", path, needle, times, s);
	free(s);
}

/* Appends `cmd` to `file`, which must fail with `err` and log `log`. */
static inline void expect_error(const char *file, const char *cmd, int err, const char *log)
{
	assert_int_equal(tfs_echo("error_log", "", W), 0);
	assert_int_equal(tfs_echo(file, cmd, A), err);
	char *got = tfs_strip_stamps(rd("error_log"));
	if (strcmp(got, log) != 0)
		fail_msg("%s <- '%s':\n--- got\n%s--- expected\n%s---", file, cmd, got, log);
	free(got);
}

/* An error_log entry: location, message, the command and the caret line. */
#define LOG(loc, msg, cmd, caret) loc ": error: " msg "\n  Command: " cmd "\n" caret "^\n"
#define SP11 "           "

#endif
