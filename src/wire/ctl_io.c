/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sending and receiving whole control-protocol messages on a stream socket. */
#include <errno.h>
#include <sys/socket.h>

#include "wire/ctl_proto.h"

int uft_ctl_send(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reads exactly len bytes. EINTR before the first byte of a message goes to
 * on_eintr; inside a message it is simply retried, so the stream stays whole. */
static int recv_full(int fd, uint8_t *p, size_t len, bool first, void (*on_eintr)(void *),
		     void *arg)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = recv(fd, p + got, len - got, 0);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno != EINTR)
				return -errno;
			if (first && got == 0 && on_eintr)
				on_eintr(arg);
			continue;
		}
		got += (size_t)n;
	}
	return 0;
}

int uft_ctl_recv(int fd, struct uft_ctl_hdr *h, uint8_t *payload, void (*on_eintr)(void *),
		 void *arg)
{
	uint8_t hdr[UFT_CTL_HDR_SIZE];
	int rc = recv_full(fd, hdr, sizeof(hdr), true, on_eintr, arg);
	if (rc)
		return rc;
	rc = uft_ctl_parse_hdr(hdr, h);
	if (rc)
		return rc;
	return recv_full(fd, payload, h->len, false, NULL, NULL);
}
