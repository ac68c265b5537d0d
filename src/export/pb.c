/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Protocol buffers wire format. A nested message's length comes before its
 * body, and is known only once the body is written: pb_begin leaves one
 * byte for it, pb_end moves the body up when the length needs more, so
 * every length is the shortest varint (the bytes `protoc --encode` would
 * write). */
#include "export/pb.h"

#include <stdlib.h>
#include <string.h>

static bool room(struct pb *p, size_t more)
{
	if (p->len + more <= p->cap)
		return true;
	size_t cap = p->cap ? p->cap : 256;
	while (cap < p->len + more)
		cap *= 2;
	uint8_t *b = realloc(p->buf, cap);
	if (!b) {
		p->oom = true;
		return false;
	}
	p->buf = b;
	p->cap = cap;
	return true;
}

void pb_reset(struct pb *p)
{
	p->len = 0;
	p->depth = 0;
	p->oom = false;
}

void pb_free(struct pb *p)
{
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

unsigned pb_varint_put(uint8_t *out, uint64_t v)
{
	unsigned n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

static void varint(struct pb *p, uint64_t v)
{
	if (room(p, 10))
		p->len += pb_varint_put(p->buf + p->len, v);
}

static void tag(struct pb *p, uint32_t field, unsigned wire)
{
	varint(p, (uint64_t)field << 3 | wire);
}

void pb_uint(struct pb *p, uint32_t field, uint64_t v)
{
	tag(p, field, PB_VARINT);
	varint(p, v);
}

void pb_int(struct pb *p, uint32_t field, int64_t v)
{
	pb_uint(p, field, (uint64_t)v);
}

void pb_double(struct pb *p, uint32_t field, double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	tag(p, field, PB_I64);
	if (!room(p, 8))
		return;
	for (unsigned i = 0; i < 8; i++)
		p->buf[p->len++] = (uint8_t)(u >> (8 * i));
}

void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t len)
{
	tag(p, field, PB_LEN);
	varint(p, len);
	if (len && room(p, len)) {
		memcpy(p->buf + p->len, data, len);
		p->len += len;
	}
}

void pb_str(struct pb *p, uint32_t field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

void pb_begin(struct pb *p, uint32_t field)
{
	tag(p, field, PB_LEN);
	if (p->depth >= PB_MAX_NEST) {
		p->oom = true;
		return;
	}
	if (!room(p, 1))
		return;
	p->buf[p->len++] = 0; /* the length's first byte */
	p->open[p->depth++] = p->len;
}

void pb_end(struct pb *p)
{
	if (p->depth == 0)
		return;
	size_t body = p->open[--p->depth];
	size_t n = p->len - body;
	uint8_t lenv[10];
	unsigned w = pb_varint_put(lenv, n);
	if (w > 1) {
		if (!room(p, w - 1))
			return;
		memmove(p->buf + body + w - 1, p->buf + body, n);
		p->len += w - 1;
	}
	memcpy(p->buf + body - 1, lenv, w);
}
