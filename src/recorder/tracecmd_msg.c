/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-cmd's network messages (tracecmd_msg.h). Everything a listener sends
 * is checked against the sizes it gave before any byte is trusted. */
#include "recorder/tracecmd_msg.h"

#include <errno.h>
#include <string.h>

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

int tcmsg_parse_hdr(const uint8_t *buf, struct tcmsg_hdr *h)
{
	h->size = get_be32(buf);
	h->cmd = get_be32(buf + 4);
	h->cmd_size = get_be32(buf + 8);
	if (h->size < TCMSG_HDR_LEN || h->size > TCMSG_MAX_LEN ||
	    h->cmd_size > h->size - TCMSG_HDR_LEN)
		return -EBADMSG;
	return 0;
}

size_t tcmsg_put_hdr(uint8_t *out, uint32_t cmd, uint32_t len)
{
	put_be32(out, TCMSG_HDR_LEN + len);
	put_be32(out + 4, cmd);
	put_be32(out + 8, 0);
	return TCMSG_HDR_LEN;
}

size_t tcmsg_put_tinit(uint8_t *out, uint32_t cpus, uint32_t page_size, bool tcp)
{
	static const char opt[] = "tcp"; /* sent with its NUL */
	uint32_t opts = tcp ? sizeof(opt) : 0;
	put_be32(out, TCMSG_HDR_LEN + 12 + opts);
	put_be32(out + 4, TCMSG_TINIT);
	put_be32(out + 8, 12);
	put_be32(out + 12, cpus);
	put_be32(out + 16, page_size);
	put_be32(out + 20, tcp ? 1 : 0);
	memcpy(out + 24, opt, opts);
	return 24 + opts;
}

/* A decimal port in s[0..len): 1 to 65535, digits only. */
static int parse_port(const char *s, size_t len, uint16_t *port)
{
	if (len == 0 || len > 5)
		return -EBADMSG;
	uint32_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EBADMSG;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	if (v == 0 || v > 65535)
		return -EBADMSG;
	*port = (uint16_t)v;
	return 0;
}

int tcmsg_parse_rinit(const struct tcmsg_hdr *h, const uint8_t *body, uint32_t cpus,
		      uint16_t *ports)
{
	if (h->cmd != TCMSG_RINIT)
		return -EPROTO;
	/* The fixed part is the CPU count; the payload one string per port. */
	if (h->cmd_size < 4 || get_be32(body) != cpus)
		return -EBADMSG;
	const char *p = (const char *)body + h->cmd_size;
	size_t left = h->size - TCMSG_HDR_LEN - h->cmd_size;
	for (uint32_t i = 0; i < cpus; i++) {
		const char *nul = memchr(p, 0, left);
		if (!nul || parse_port(p, (size_t)(nul - p), &ports[i]) != 0)
			return -EBADMSG;
		left -= (size_t)(nul - p) + 1;
		p = nul + 1;
	}
	return 0;
}

int tcmsg_parse_v1_ports(const char *s, size_t len, uint32_t cpus, uint16_t *ports)
{
	for (uint32_t i = 0; i < cpus; i++) {
		const char *comma = memchr(s, ',', len);
		size_t n = comma ? (size_t)(comma - s) : len;
		if ((comma != NULL) != (i + 1 < cpus) || parse_port(s, n, &ports[i]) != 0)
			return -EBADMSG;
		if (comma) {
			len -= n + 1;
			s = comma + 1;
		}
	}
	return 0;
}
