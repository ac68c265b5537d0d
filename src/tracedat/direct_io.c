/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Page runs moved past the page cache. A recording's pages are written once
 * and not read again soon, and on a machine with few CPUs the copy into
 * newly allocated cache pages, and later the copy between two files' cache
 * pages, were most of the recorder's CPU time; a direct read or write hands
 * the buffer to the device instead. Only 4 KiB-aligned offsets, lengths and
 * buffers go this way (any device's block size up to a page); whatever a
 * file system refuses is left to the caller's buffered path. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tracedat/tracedat.h"
#include "tracedat/writer_priv.h"

int tracedat_reopen_direct(int fd, int flags)
{
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	return open(self, flags | O_DIRECT | O_CLOEXEC);
}

/* One direct transfer of n bytes, a read or a write; false when refused or
 * cut short. */
static bool transfer(int fd, uint8_t *buf, size_t n, off_t off, bool write)
{
	while (n) {
		ssize_t k = write ? pwrite(fd, buf, n, off) : pread(fd, buf, n, off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || (size_t)k % TDW_DIRECT_ALIGN)
			return false;
		buf += k, off += k, n -= (size_t)k;
	}
	return true;
}

void tdw_direct_close(struct tracedat_writer *w)
{
	if (w->spool_direct >= 0)
		close(w->spool_direct);
	if (w->out_direct >= 0)
		close(w->out_direct);
	w->spool_direct = w->out_direct = -1;
	free(w->direct_buf);
	w->direct_buf = NULL;
}

/* Turns the direct path off for the rest of the file. */
static void give_up(struct tracedat_writer *w)
{
	tdw_direct_close(w);
	w->no_direct = true;
}

void tdw_copy_direct(struct tracedat_writer *w, uint64_t *off, uint64_t *len)
{
	if (w->no_direct || *off % TDW_DIRECT_ALIGN || *len < TDW_DIRECT_ALIGN)
		return;
	off_t pos = lseek(w->fd, 0, SEEK_CUR);
	if (pos < 0 || pos % TDW_DIRECT_ALIGN)
		return;
	if (w->spool_direct < 0 &&
	    (w->spool_direct = tracedat_reopen_direct(w->spool, O_RDONLY)) < 0)
		return give_up(w);
	if (w->out_direct < 0 && (w->out_direct = tracedat_reopen_direct(w->fd, O_WRONLY)) < 0)
		return give_up(w);
	if (!w->direct_buf &&
	    posix_memalign((void **)&w->direct_buf, TDW_DIRECT_ALIGN, TDW_DIRECT_CHUNK) != 0) {
		w->direct_buf = NULL;
		return give_up(w);
	}
	uint64_t whole = *len / TDW_DIRECT_ALIGN * TDW_DIRECT_ALIGN;
	while (whole) {
		size_t k = whole < TDW_DIRECT_CHUNK ? (size_t)whole : TDW_DIRECT_CHUNK;
		if (!transfer(w->spool_direct, w->direct_buf, k, (off_t)*off, false) ||
		    !transfer(w->out_direct, w->direct_buf, k, pos, true)) {
			/* The chunk is written again the buffered way. */
			give_up(w);
			break;
		}
		*off += k, *len -= k, whole -= k;
		pos += (off_t)k;
	}
	lseek(w->fd, pos, SEEK_SET);
}
