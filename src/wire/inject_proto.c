/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The INJECT payload's framing and record checks (inject_proto.h). */
#include "wire/inject_proto.h"

#include <errno.h>
#include <string.h>

int uft_inject_next(const uint8_t *buf, size_t len, size_t *pos, struct uft_inject_hdr *h,
		    const uint8_t **rec)
{
	size_t p = *pos;
	if (p >= len)
		return 0;
	if (len - p < UFT_INJECT_HDR_SIZE)
		return -EPROTO;
	memcpy(h, buf + p, sizeof(*h));
	p += UFT_INJECT_HDR_SIZE;
	if (h->len < UFT_INJECT_MIN_REC || h->len > len - p)
		return -EPROTO;
	*rec = buf + p;
	p += h->len;
	/* the padding to 8 bytes, which the last record may leave out */
	size_t a = UFT_INJECT_ALIGN(p);
	*pos = a < len ? a : len;
	return 1;
}

bool uft_inject_locs_ok(const struct uft_field *fields, uint32_t nr, uint32_t fixed,
			const uint8_t *rec, uint32_t len)
{
	if (len < fixed)
		return false;
	for (uint32_t i = 0; i < nr; i++) {
		const struct uft_field *f = &fields[i];
		if (f->kind != UFT_FIELD_DYN)
			continue;
		if (f->size != 4 || f->offset > fixed || fixed - f->offset < 4)
			return false;
		uint32_t loc;
		memcpy(&loc, rec + f->offset, 4);
		uint32_t off = loc & 0xffff, n = loc >> 16;
		if (off < fixed || off > len || n > len - off)
			return false;
	}
	return true;
}
