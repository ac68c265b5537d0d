/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-cmd's network protocol (what `trace-cmd listen` speaks), encoded and
 * decoded without I/O; net_send.c does the talking
 * (docs/design/recording.md, "Sending to a trace-cmd listen collector").
 *
 * The listener greets with the 8 bytes "tracecmd". A protocol v3 client
 * answers "-1V3\0"; the listener replies "V3\0", the client sends
 * "766679\0" and the listener "OK". From then on every message is a 12-byte
 * header of big-endian u32s — total size (at most 8192), command, size of
 * the command's fixed part — then that fixed part, then a payload. A
 * protocol v1 client instead sends the CPU count, the page size and the
 * option count as NUL-terminated decimal strings and gets the ports back
 * as one comma-separated string. */
#ifndef UFT_TRACECMD_MSG_H
#define UFT_TRACECMD_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TCMSG_GREETING "tracecmd" /* 8 bytes, no NUL */
#define TCMSG_V3_ASK "-1V3"	  /* sent with its NUL */
#define TCMSG_V3_REPLY "V3"	  /* received with its NUL */
#define TCMSG_V3_MAGIC "766679"	  /* sent with its NUL */
#define TCMSG_V3_OK "OK"	  /* 2 bytes, no NUL */

#define TCMSG_HDR_LEN 12u
#define TCMSG_MAX_LEN 8192u
#define TCMSG_MAX_DATA (TCMSG_MAX_LEN - TCMSG_HDR_LEN)

enum tcmsg_cmd {
	TCMSG_CLOSE = 0,
	TCMSG_TINIT = 1, /* client: CPU count, page size, options */
	TCMSG_RINIT = 2, /* listener: one port per CPU */
	TCMSG_SEND_DATA = 3,
	TCMSG_FIN_DATA = 4,
	TCMSG_NOT_SUPP = 5,
	TCMSG_NR_KNOWN = 11, /* commands up to here may come (newer ones are refused) */
};

struct tcmsg_hdr {
	uint32_t size; /* header + fixed part + payload */
	uint32_t cmd;
	uint32_t cmd_size; /* the fixed part */
};

/* Decodes and checks the 12 bytes at `buf`: 0, or -EBADMSG when the sizes do
 * not add up or the message is larger than trace-cmd allows. */
int tcmsg_parse_hdr(const uint8_t *buf, struct tcmsg_hdr *h);

/* The TINIT message ("tcp" asks for TCP data connections); bytes written
 * into `out` (at least 64 bytes). */
size_t tcmsg_put_tinit(uint8_t *out, uint32_t cpus, uint32_t page_size, bool tcp);
/* A message with no fixed part, with `len` bytes of payload to follow (the
 * header only); len <= TCMSG_MAX_DATA. */
size_t tcmsg_put_hdr(uint8_t *out, uint32_t cmd, uint32_t len);

/* The RINIT message after its header: `body` holds h->size - TCMSG_HDR_LEN
 * bytes. Fills `ports` with exactly `cpus` ports (1 to 65535): 0, or
 * -EPROTO when the listener answered with another message, -EBADMSG when
 * the message is malformed or names another CPU count. */
int tcmsg_parse_rinit(const struct tcmsg_hdr *h, const uint8_t *body, uint32_t cpus,
		      uint16_t *ports);

/* Protocol v1's port list ("p0,p1,...", its NUL excluded), `len` bytes:
 * 0 with `cpus` ports, or -EBADMSG. */
int tcmsg_parse_v1_ports(const char *s, size_t len, uint32_t cpus, uint16_t *ports);

#endif
