/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `uft record -p irqsoff` (or another max tracer): at the process's end its
 * `trace` text, the max trace in the latency format, goes to the recorder
 * in a memfd (UFT_MSG_LATENCY), which stores it as trace-cmd stores a
 * kernel latency tracer's recording: a latency file. */
#define _GNU_SOURCE
#include "runtime/latency/csect.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "runtime/tracefs/tracefs.h"
#include "wire/record_proto.h"

/* The text of `trace` into fd; 0 or -1. */
static int copy_trace(int fd)
{
	struct uft_tfs_handle *h;
	if (uft_tracefs_open("trace", UFT_TFS_READ, &h) != 0)
		return -1;
	char buf[8192];
	uint64_t off = 0;
	int rc = 0;
	for (;;) {
		ssize_t n = uft_tracefs_read(h, buf, sizeof(buf), off);
		if (n <= 0) {
			rc = n < 0 ? -1 : 0;
			break;
		}
		if (write(fd, buf, (size_t)n) != n) {
			rc = -1;
			break;
		}
		off += (uint64_t)n;
	}
	uft_tracefs_release(h);
	return rc;
}

void uft_csect_send_max(int sock)
{
	if (sock < 0 || !uft_csect_owns(0))
		return;
	int fd = memfd_create("uft-latency", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (copy_trace(fd) == 0) {
		char tag = UFT_MSG_LATENCY;
		struct iovec iov = {&tag, 1};
		char cbuf[CMSG_SPACE(sizeof(int))];
		memset(cbuf, 0, sizeof(cbuf));
		struct msghdr msg = {.msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf)};
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
		(void)sendmsg(sock, &msg, MSG_NOSIGNAL);
	}
	close(fd);
}
