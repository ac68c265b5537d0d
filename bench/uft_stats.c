/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The only bench file that sees libuft's internal layout. */
#include <string.h>
#include <unistd.h>

#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "uft_stats.h"
#include "util/atomics.h"

void bench_uft_counts(uint64_t *committed, uint64_t *dropped)
{
	const struct uft_wring *w = &uft_tls.lv[0];
	*committed = w->r ? w->entries : 0;
	*dropped = w->r ? w->dropped : 0;
}

int bench_uft_wait_drained(unsigned timeout_ms)
{
	struct uft_ring *r = uft_tls.lv[0].r;
	if (!r)
		return -1;
	for (unsigned waited = 0; waited < timeout_ms; waited++) {
		uint64_t p = smp_load_acquire(&r->produced);
		if (smp_load_acquire(&r->consumed) >= p)
			return 0;
		usleep(1000);
	}
	return -1;
}

int bench_uft_write(const char *path, const char *text)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | UFT_TFS_APPEND, &h);
	if (rc)
		return rc;
	ssize_t n = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return n < 0 ? (int)n : 0;
}

int bench_uft_read(const char *path, char *buf, size_t len)
{
	struct uft_tfs_handle *h;
	size_t got = 0;
	int rc = uft_tracefs_open(path, UFT_TFS_READ, &h);
	if (rc)
		return rc;
	while (got + 1 < len) {
		ssize_t n = uft_tracefs_read(h, buf + got, len - 1 - got, got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	uft_tracefs_release(h);
	return (int)got;
}
