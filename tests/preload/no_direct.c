/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Preloaded into `uft record` by test_record_direct.sh to play a file
 * system without direct I/O: UFT_TEST_NO_DIRECT=open refuses every open
 * with O_DIRECT (EINVAL), UFT_TEST_NO_DIRECT=write:N lets N direct writes
 * through and refuses the rest, so the recorder's fall back to buffered
 * writes is seen both before and after some pages went directly. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int direct_writes_left(void)
{
	static int left = -2;
	if (left == -2) {
		const char *m = getenv("UFT_TEST_NO_DIRECT");
		left = m && strncmp(m, "write:", 6) == 0 ? atoi(m + 6) : -1;
	}
	return left;
}

static int open_refused(int flags)
{
	const char *m = getenv("UFT_TEST_NO_DIRECT");
	return (flags & O_DIRECT) && m && strcmp(m, "open") == 0;
}

int open(const char *path, int flags, ...)
{
	static int (*next)(const char *, int, ...);
	if (!next)
		next = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (open_refused(flags)) {
		errno = EINVAL;
		return -1;
	}
	return next(path, flags, mode);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*next)(int, const void *, size_t, off_t);
	if (!next)
		next = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && (fl & O_DIRECT) && direct_writes_left() >= 0) {
		static int done;
		if (done++ >= direct_writes_left()) {
			errno = EINVAL;
			return -1;
		}
	}
	return next(fd, buf, n, off);
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) __attribute__((alias("pwrite")));
