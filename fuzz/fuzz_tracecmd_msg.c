/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes what uft record -N reads from a trace-cmd listener: the first byte
 * is the CPU count asked for (1 to 64), the rest a message as the listener
 * could send it (header, then body) and, separately, a protocol v1 port
 * list. Whatever parses must name exactly that many ports, none of them 0,
 * and a header that parses must describe a message within trace-cmd's
 * limits; a TINIT encoded back must parse as a header. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/tracecmd_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint32_t cpus = (uint32_t)(data[0] % 64) + 1;
	data++;
	size--;
	uint16_t ports[64];
	memset(ports, 0, sizeof(ports));
	if (tcmsg_parse_v1_ports((const char *)data, size, cpus, ports) == 0)
		for (uint32_t i = 0; i < cpus; i++)
			if (!ports[i])
				abort();
	if (size < TCMSG_HDR_LEN)
		return 0;
	struct tcmsg_hdr h;
	if (tcmsg_parse_hdr(data, &h) != 0)
		return 0;
	if (h.size < TCMSG_HDR_LEN || h.size > TCMSG_MAX_LEN || h.cmd_size > h.size - TCMSG_HDR_LEN)
		abort();
	size_t body_len = h.size - TCMSG_HDR_LEN;
	if (size - TCMSG_HDR_LEN < body_len)
		return 0;
	/* A copy of exactly the body, so reading past it is caught. */
	uint8_t *body = malloc(body_len ? body_len : 1);
	if (!body)
		return 0;
	memcpy(body, data + TCMSG_HDR_LEN, body_len);
	memset(ports, 0, sizeof(ports));
	if (tcmsg_parse_rinit(&h, body, cpus, ports) == 0)
		for (uint32_t i = 0; i < cpus; i++)
			if (!ports[i])
				abort();
	free(body);
	uint8_t out[64];
	size_t n = tcmsg_put_tinit(out, cpus, 4096, data[0] & 1);
	if (n > sizeof(out) || tcmsg_parse_hdr(out, &h) != 0 || h.size != n || h.cmd != TCMSG_TINIT)
		abort();
	return 0;
}
