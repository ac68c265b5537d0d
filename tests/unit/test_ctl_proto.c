/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The control protocol's stat reply in both versions: version 1 carries a
 * type and a mode, version 2 adds the group the mode's group bits are for;
 * a client of version 2 reads both, and anything else is a protocol error.
 * Version 3's POLL_EVENTS request and reply. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "wire/ctl_proto.h"

static struct uft_ctl_reply stat_reply(const uint8_t *data, size_t len)
{
	return (struct uft_ctl_reply){.op = UFT_CTL_STAT, .data = data, .data_len = len};
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++) /* little-endian, as the protocol */
		p[i] = (uint8_t)(v >> (8 * i));
}

static void test_stat_reply_versions(void **state)
{
	(void)state;
	uint8_t d[16];
	put32(d, 2);
	put32(d + 4, 0640);
	put32(d + 8, 65534);
	uint32_t type = 0, mode = 0, gid = 0;
	struct uft_ctl_reply r = stat_reply(d, 8); /* version 1 */
	assert_int_equal(uft_ctl_reply_stat(&r, &type, &mode, &gid), 0);
	assert_int_equal(type, 2);
	assert_int_equal(mode, 0640);
	assert_int_equal(gid, UFT_CTL_NO_GROUP);
	r = stat_reply(d, 12); /* version 2 */
	assert_int_equal(uft_ctl_reply_stat(&r, &type, &mode, &gid), 0);
	assert_int_equal(gid, 65534);
	r = stat_reply(d, 10);
	assert_int_equal(uft_ctl_reply_stat(&r, &type, &mode, &gid), -EPROTO);
	r = stat_reply(d, 16);
	assert_int_equal(uft_ctl_reply_stat(&r, &type, &mode, &gid), -EPROTO);
	r = stat_reply(d, 12);
	r.result = -ENOENT;
	assert_int_equal(uft_ctl_reply_stat(&r, &type, &mode, &gid), -EPROTO);
}

static void test_poll_events(void **state)
{
	(void)state;
	uint8_t buf[64];
	struct uft_ctl_req r = {.op = UFT_CTL_POLL_EVENTS, .id = 7, .handle = 3, .flags = 1};
	size_t n = uft_ctl_encode_req(&r, buf, sizeof(buf));
	assert_int_equal(n, UFT_CTL_HDR_SIZE + 8);
	struct uft_ctl_hdr h;
	assert_int_equal(uft_ctl_parse_hdr(buf, &h), 0);
	struct uft_ctl_req d;
	assert_int_equal(uft_ctl_decode_req(&h, buf + UFT_CTL_HDR_SIZE, &d), 0);
	assert_int_equal(d.op, UFT_CTL_POLL_EVENTS);
	assert_int_equal(d.handle, 3);
	assert_int_equal(d.flags, 1);
	/* peek is 0 or 1; the payload is exactly two words */
	put32(buf + UFT_CTL_HDR_SIZE + 4, 2);
	assert_int_equal(uft_ctl_decode_req(&h, buf + UFT_CTL_HDR_SIZE, &d), -EPROTO);
	h.len = 4;
	assert_int_equal(uft_ctl_decode_req(&h, buf + UFT_CTL_HDR_SIZE, &d), -EPROTO);
	/* the reply: events up to 0xffff, nothing after the result */
	uint8_t p[16] = {0};
	struct uft_ctl_hdr rh = {.len = 8, .op = UFT_CTL_POLL_EVENTS, .flags = UFT_CTL_F_REPLY};
	struct uft_ctl_reply rep;
	put32(p, 0x0003); /* POLLIN|POLLPRI */
	assert_int_equal(uft_ctl_decode_reply(&rh, p, &rep), 0);
	assert_int_equal(rep.result, 3);
	put32(p, 0x10000);
	assert_int_equal(uft_ctl_decode_reply(&rh, p, &rep), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stat_reply_versions),
	    cmocka_unit_test(test_poll_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
