/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the INJECT payload's checks (wire/inject_proto.c) as a hostile
 * peer could send it: every record the framing hands out lies inside the
 * message, and every __data_loc of a record that passes the checks (against
 * the layout of sched_process_exec: a string, then two ints) is read
 * whole, so a sanitizer sees any byte outside. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/inject_proto.h"

static const struct uft_field exec_fields[] = {
    {"__data_loc char[]", "filename", 8, 4, 1, UFT_FIELD_DYN, 1},
    {"pid_t", "pid", 12, 4, 1, UFT_FIELD_SCALAR, 0},
    {"pid_t", "old_pid", 16, 4, 1, UFT_FIELD_SCALAR, 0},
};

static volatile uint8_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of its exact size, so reads past it are caught */
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	size_t pos = 0, last = 0;
	struct uft_inject_hdr h;
	const uint8_t *rec;
	int rc;
	while ((rc = uft_inject_next(buf, size, &pos, &h, &rec)) == 1) {
		if (rec < buf || rec + h.len > buf + size || h.len < UFT_INJECT_MIN_REC ||
		    pos <= last || pos > size)
			abort();
		last = pos;
		if (!uft_inject_locs_ok(exec_fields, 3, 20, rec, h.len))
			continue;
		uint32_t loc;
		memcpy(&loc, rec + 8, 4);
		for (uint32_t i = 0; i < loc >> 16; i++)
			sink ^= rec[(loc & 0xffff) + i];
	}
	if (rc != 0 && rc != -71 /* EPROTO */)
		abort();
	free(buf);
	return 0;
}
