/* SPDX-License-Identifier: GPL-2.0-or-later */
/* poll(2)'s events on an open `hist` file through the tree's calls, as the
 * kernel's since 6.11: POLLIN when its histograms changed since the handle
 * last read from offset 0 (or ever, for a new handle), POLLPRI once per
 * change since the last poll or read, a read from offset 0 showing the
 * histograms as they are then, and a peek that changes nothing. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"

#define HIST "events/tfsev/num/hist"
#define IN (POLLIN | POLLRDNORM)

static struct uft_tfs_handle *open_hist(void)
{
	struct uft_tfs_handle *h;
	assert_int_equal(uft_tracefs_open(HIST, UFT_TFS_READ, &h), 0);
	return h;
}

/* The text a read from offset 0 returns (one call: it is short). */
static void read_text(struct uft_tfs_handle *h, char *buf, size_t size)
{
	ssize_t n = uft_tracefs_read(h, buf, size - 1, 0);
	assert_true(n >= 0);
	buf[n] = 0;
}

static void test_events(void **state)
{
	(void)state;
	char buf[8192];
	struct uft_tfs_handle *h = open_hist();
	/* Nothing ever updated: nothing to report. */
	assert_int_equal(uft_tracefs_poll_events(h, false), 0);
	uft_tracefs_release(h);
	struct uft_tfs_handle *w;
	assert_int_equal(uft_tracefs_open(HIST, UFT_TFS_WRITE, &w), -EACCES);

	assert_int_equal(echo("events/tfsev/num/trigger", W, "hist:keys=a"), 0);
	assert_int_equal(echo("events/tfsev/num/enable", W, "1"), 0);
	h = open_hist();
	read_text(h, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Hits: 0\n"));
	assert_int_equal(uft_tracefs_poll_events(h, false), 0);

	trace_num(7, 1, "n", "/p");
	/* A peek sees both and spends neither. */
	assert_int_equal(uft_tracefs_poll_events(h, true), IN | POLLPRI);
	assert_int_equal(uft_tracefs_poll_events(h, true), IN | POLLPRI);
	assert_int_equal(uft_tracefs_poll_events(h, false), IN | POLLPRI);
	assert_int_equal(uft_tracefs_poll_events(h, false), IN); /* POLLPRI once */
	/* A read from offset 0 shows the update and spends POLLIN. */
	read_text(h, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Hits: 1\n"));
	assert_int_equal(uft_tracefs_poll_events(h, false), 0);

	/* Reading on from a later offset is no new read. */
	trace_num(7, 1, "n", "/p");
	char tail[16];
	assert_true(uft_tracefs_read(h, tail, sizeof(tail), 1) > 0);
	assert_int_equal(uft_tracefs_poll_events(h, false), IN | POLLPRI);
	read_text(h, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Hits: 2\n"));
	assert_int_equal(uft_tracefs_poll_events(h, false), 0);
	/* Reads never block on it. */
	assert_int_equal(uft_tracefs_poll(h), 1);

	/* A new handle has read nothing: POLLIN, but POLLPRI only for updates
	 * after its open. */
	struct uft_tfs_handle *h2 = open_hist();
	assert_int_equal(uft_tracefs_poll_events(h2, false), IN);
	trace_num(8, 1, "n", "/p");
	assert_int_equal(uft_tracefs_poll_events(h2, false), IN | POLLPRI);
	assert_int_equal(uft_tracefs_poll_events(h, false), IN | POLLPRI);
	uft_tracefs_release(h2);

	/* Clearing is an update too. */
	read_text(h, buf, sizeof(buf));
	assert_int_equal(echo("events/tfsev/num/trigger", A, "hist:keys=a:clear"), 0);
	assert_int_equal(uft_tracefs_poll_events(h, false), IN | POLLPRI);
	uft_tracefs_release(h);
	assert_int_equal(echo("events/tfsev/num/trigger", A, "!hist:keys=a"), 0);
	assert_int_equal(echo("events/tfsev/num/enable", W, "0"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
