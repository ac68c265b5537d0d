/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel copies for us and reports EFAULT instead of raising SIGSEGV. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util/safe_read.h"

/* Every page boundary is a multiple of this, whatever the page size. */
#define CHUNK 4096u
#define MAX_IOV 16

size_t uft_safe_read(void *dst, const void *src, size_t n)
{
	int saved = errno;
	size_t done = 0;
	/* getpid() each time: a cached pid would name the parent after fork(). */
	pid_t self = getpid();

	while (done < n) {
		/* One remote piece per page, so a partial copy ends exactly at
		 * the first unreadable page. */
		struct iovec remote[MAX_IOV];
		uintptr_t at = (uintptr_t)src + done;
		size_t want = 0;
		int cnt = 0;

		while (cnt < MAX_IOV && done + want < n) {
			size_t room = CHUNK - (at % CHUNK);
			size_t len = n - done - want < room ? n - done - want : room;
			remote[cnt].iov_base = (void *)at;
			remote[cnt].iov_len = len;
			cnt++;
			at += len;
			want += len;
		}
		struct iovec local = {(char *)dst + done, want};
		ssize_t got = process_vm_readv(self, &local, 1, remote, (unsigned long)cnt, 0);
		if (got <= 0)
			break;
		done += (size_t)got;
		if ((size_t)got < want)
			break;
	}
	errno = saved;
	return done;
}
