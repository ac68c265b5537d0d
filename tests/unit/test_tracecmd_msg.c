/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-cmd's network messages as uft record -N writes and reads them, byte
 * for byte: TINIT with and without the "tcp" option, message headers, the
 * listener's RINIT port list and protocol v1's port string, and -N's
 * HOST:PORT. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "recorder/net_send.h"
#include "recorder/tracecmd_msg.h"

static void test_tinit(void **state)
{
	(void)state;
	uint8_t out[64];
	static const uint8_t tcp[] = {0, 0, 0, 28, 0,  0, 0, 1, 0, 0, 0,   12,	0,   0,
				      0, 2, 0, 0,  16, 0, 0, 0, 0, 1, 't', 'c', 'p', 0};
	assert_int_equal(tcmsg_put_tinit(out, 2, 4096, true), sizeof(tcp));
	assert_memory_equal(out, tcp, sizeof(tcp));
	static const uint8_t udp[] = {0, 0, 0, 24, 0, 0, 0,  1, 0, 0, 0, 12,
				      0, 0, 0, 8,  0, 0, 16, 0, 0, 0, 0, 0};
	assert_int_equal(tcmsg_put_tinit(out, 8, 4096, false), sizeof(udp));
	assert_memory_equal(out, udp, sizeof(udp));
}

static void test_hdr(void **state)
{
	(void)state;
	uint8_t h[TCMSG_HDR_LEN];
	static const uint8_t data[] = {0, 0, 0x20, 0, 0, 0, 0, 3, 0, 0, 0, 0};
	tcmsg_put_hdr(h, TCMSG_SEND_DATA, TCMSG_MAX_DATA);
	assert_memory_equal(h, data, sizeof(data));
	struct tcmsg_hdr m;
	assert_int_equal(tcmsg_parse_hdr(h, &m), 0);
	assert_int_equal(m.size, 8192);
	assert_int_equal(m.cmd, TCMSG_SEND_DATA);
	static const uint8_t big[] = {0, 0, 0x20, 1, 0, 0, 0, 3, 0, 0, 0, 0};
	assert_int_equal(tcmsg_parse_hdr(big, &m), -EBADMSG);
	static const uint8_t small[] = {0, 0, 0, 11, 0, 0, 0, 3, 0, 0, 0, 0};
	assert_int_equal(tcmsg_parse_hdr(small, &m), -EBADMSG);
	static const uint8_t fixed[] = {0, 0, 0, 16, 0, 0, 0, 2, 0, 0, 0, 5};
	assert_int_equal(tcmsg_parse_hdr(fixed, &m), -EBADMSG);
}

static void test_rinit(void **state)
{
	(void)state;
	/* Header (27 bytes, RINIT, a fixed part of 4), 2 CPUs, two ports. */
	static const uint8_t msg[] = "\0\0\0\x1b\0\0\0\x02\0\0\0\x04\0\0\0\x02"
				     "1500\0"
				     "65535";
	struct tcmsg_hdr h;
	uint16_t ports[2];
	assert_int_equal(tcmsg_parse_hdr(msg, &h), 0);
	assert_int_equal(h.size, 27);
	assert_int_equal(tcmsg_parse_rinit(&h, msg + TCMSG_HDR_LEN, 2, ports), 0);
	assert_int_equal(ports[0], 1500);
	assert_int_equal(ports[1], 65535);
	/* Another CPU count than asked, a missing NUL, another message. */
	assert_int_equal(tcmsg_parse_rinit(&h, msg + TCMSG_HDR_LEN, 3, ports), -EBADMSG);
	h.size--;
	assert_int_equal(tcmsg_parse_rinit(&h, msg + TCMSG_HDR_LEN, 2, ports), -EBADMSG);
	h.size++;
	h.cmd = TCMSG_NOT_SUPP;
	assert_int_equal(tcmsg_parse_rinit(&h, msg + TCMSG_HDR_LEN, 2, ports), -EPROTO);
}

static void test_v1_ports(void **state)
{
	(void)state;
	uint16_t p[3];
	assert_int_equal(tcmsg_parse_v1_ports("1500,1501,1502", 14, 3, p), 0);
	assert_int_equal(p[2], 1502);
	assert_int_equal(tcmsg_parse_v1_ports("1500,1501", 9, 3, p), -EBADMSG);
	assert_int_equal(tcmsg_parse_v1_ports("1500,1501,1502,1503", 19, 3, p), -EBADMSG);
	assert_int_equal(tcmsg_parse_v1_ports("1500,,1502", 10, 3, p), -EBADMSG);
	assert_int_equal(tcmsg_parse_v1_ports("0", 1, 1, p), -EBADMSG);
	assert_int_equal(tcmsg_parse_v1_ports("65536", 5, 1, p), -EBADMSG);
}

static void test_target(void **state)
{
	(void)state;
	struct net_send n;
	assert_int_equal(net_send_parse(&n, "collector:12345"), 0);
	assert_string_equal(n.host, "collector");
	assert_string_equal(n.port, "12345");
	assert_int_equal(n.fd, -1);
	assert_int_equal(net_send_parse(&n, "[::1]:7"), 0);
	assert_string_equal(n.host, "::1");
	assert_int_equal(net_send_parse(&n, "nohost"), -EINVAL);
	assert_int_equal(net_send_parse(&n, ":80"), -EINVAL);
	assert_int_equal(net_send_parse(&n, "h:"), -EINVAL);
	assert_int_equal(net_send_parse(&n, "h:0"), -EINVAL);
	assert_int_equal(net_send_parse(&n, "h:65536"), -EINVAL);
	assert_int_equal(net_send_parse(&n, "h:12x"), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tinit),  cmocka_unit_test(test_hdr),
	    cmocka_unit_test(test_rinit),  cmocka_unit_test(test_v1_ports),
	    cmocka_unit_test(test_target),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
