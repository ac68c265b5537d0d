/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the control protocol's decoders with a stream of messages as a peer
 * could send them: every header and payload is decoded as a request and as a
 * reply; a request that decodes must encode back to the same bytes, and a
 * reply's extras (hello, stat, directory entries) must stay inside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/ctl_proto.h"

static uint8_t out[UFT_CTL_MAX_MSG];

static void check_req(const struct uft_ctl_hdr *h, const uint8_t *msg, const uint8_t *payload)
{
	static struct uft_ctl_req r;
	if (uft_ctl_decode_req(h, payload, &r) != 0)
		return;
	if (r.data && (r.data < payload || r.data + r.data_len > payload + h->len))
		abort();
	if (strlen(r.path) > UFT_CTL_MAX_PATH)
		abort();
	size_t n = uft_ctl_encode_req(&r, out, sizeof(out));
	if (n != UFT_CTL_HDR_SIZE + h->len || memcmp(out, msg, n) != 0)
		abort();
}

static void check_reply(const struct uft_ctl_hdr *h, const uint8_t *payload)
{
	struct uft_ctl_reply r;
	if (uft_ctl_decode_reply(h, payload, &r) != 0)
		return;
	if (r.data + r.data_len != payload + h->len)
		abort();
	struct uft_ctl_hello_info info;
	uint32_t type, mode, gid;
	uft_ctl_reply_hello(&r, &info);
	uft_ctl_reply_stat(&r, &type, &mode, &gid);
	struct uft_ctl_dirent d;
	size_t pos = 0, last = 0;
	bool more;
	while (uft_ctl_dirent_next(&r, &pos, &d, &more) == 1) {
		if (pos <= last || pos > r.data_len || strlen(d.name) == 0)
			abort();
		last = pos;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	while (size >= UFT_CTL_HDR_SIZE) {
		struct uft_ctl_hdr h;
		if (uft_ctl_parse_hdr(data, &h) != 0)
			return 0;
		if (h.len > size - UFT_CTL_HDR_SIZE)
			return 0;
		/* A copy of its own, so reading past the payload is caught. */
		uint8_t *payload = malloc(h.len ? h.len : 1);
		if (!payload)
			return 0;
		memcpy(payload, data + UFT_CTL_HDR_SIZE, h.len);
		check_req(&h, data, payload);
		check_reply(&h, payload);
		free(payload);
		data += UFT_CTL_HDR_SIZE + h.len;
		size -= UFT_CTL_HDR_SIZE + h.len;
	}
	return 0;
}
