/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Encoding and decoding of the control protocol's messages (ctl_proto.h). */
#include <errno.h>
#include <string.h>

#include "wire/ctl_proto.h"

#define MAX_ERRNO 4095

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void set_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void uft_ctl_out_begin(struct uft_ctl_out *o, uint8_t *buf, size_t cap, uint16_t op, uint16_t flags,
		       uint32_t id)
{
	o->buf = buf;
	o->cap = cap;
	o->len = 0;
	o->err = cap < UFT_CTL_HDR_SIZE;
	if (o->err)
		return;
	set_u32(buf, 0);
	set_u32(buf + 4, id);
	buf[8] = (uint8_t)op;
	buf[9] = (uint8_t)(op >> 8);
	buf[10] = (uint8_t)flags;
	buf[11] = (uint8_t)(flags >> 8);
	o->len = UFT_CTL_HDR_SIZE;
}

void uft_ctl_put_bytes(struct uft_ctl_out *o, const void *p, size_t n)
{
	if (o->err || n > o->cap - o->len) {
		o->err = true;
		return;
	}
	if (n)
		memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void uft_ctl_put_u8(struct uft_ctl_out *o, uint8_t v)
{
	uft_ctl_put_bytes(o, &v, 1);
}

void uft_ctl_put_u32(struct uft_ctl_out *o, uint32_t v)
{
	uint8_t b[4];
	set_u32(b, v);
	uft_ctl_put_bytes(o, b, 4);
}

void uft_ctl_put_u64(struct uft_ctl_out *o, uint64_t v)
{
	uft_ctl_put_u32(o, (uint32_t)v);
	uft_ctl_put_u32(o, (uint32_t)(v >> 32));
}

size_t uft_ctl_out_end(struct uft_ctl_out *o)
{
	if (o->err || o->len - UFT_CTL_HDR_SIZE > UFT_CTL_MAX_PAYLOAD)
		return 0;
	set_u32(o->buf, (uint32_t)(o->len - UFT_CTL_HDR_SIZE));
	return o->len;
}

int uft_ctl_parse_hdr(const uint8_t hdr[UFT_CTL_HDR_SIZE], struct uft_ctl_hdr *h)
{
	h->len = get_u32(hdr);
	h->id = get_u32(hdr + 4);
	h->op = (uint16_t)(hdr[8] | hdr[9] << 8);
	h->flags = (uint16_t)(hdr[10] | hdr[11] << 8);
	if (h->len > UFT_CTL_MAX_PAYLOAD || h->op < UFT_CTL_HELLO || h->op >= UFT_CTL_OP_END)
		return -EPROTO;
	if (h->flags & ~UFT_CTL_F_REPLY)
		return -EPROTO;
	if (h->op == UFT_CTL_INTERRUPT && h->flags)
		return -EPROTO;
	return 0;
}

static int take_path(struct uft_ctl_req *r, const uint8_t *p, size_t n)
{
	if (n > UFT_CTL_MAX_PATH || memchr(p, 0, n))
		return -EPROTO;
	memcpy(r->path, p, n);
	r->path[n] = 0;
	return 0;
}

int uft_ctl_decode_req(const struct uft_ctl_hdr *h, const uint8_t *p, struct uft_ctl_req *r)
{
	size_t n = h->len;
	r->op = h->op;
	r->id = h->id;
	r->handle = r->flags = r->count = 0;
	r->timeout_ms = 0;
	r->off = 0;
	r->data = NULL;
	r->data_len = 0;
	r->path[0] = 0;
	if (h->flags)
		return -EPROTO;
	switch (h->op) {
	case UFT_CTL_HELLO:
		if (n != 8 || get_u32(p) != UFT_CTL_MAGIC)
			return -EPROTO;
		r->flags = get_u32(p + 4);
		return 0;
	case UFT_CTL_STAT:
	case UFT_CTL_MKDIR:
	case UFT_CTL_RMDIR:
		return take_path(r, p, n);
	case UFT_CTL_READDIR:
	case UFT_CTL_OPEN:
		if (n < 4)
			return -EPROTO;
		if (h->op == UFT_CTL_OPEN) {
			r->flags = get_u32(p);
			if (r->flags & ~UFT_CTL_OPEN_FLAGS)
				return -EPROTO;
		} else {
			r->count = get_u32(p);
		}
		return take_path(r, p + 4, n - 4);
	case UFT_CTL_READ:
		if (n != 16)
			return -EPROTO;
		r->handle = get_u32(p);
		r->count = get_u32(p + 4);
		r->off = get_u64(p + 8);
		return r->count > UFT_CTL_MAX_IO ? -EPROTO : 0;
	case UFT_CTL_WRITE:
		if (n < 16 || n - 16 > UFT_CTL_MAX_IO || get_u32(p + 4) != 0)
			return -EPROTO;
		r->handle = get_u32(p);
		r->off = get_u64(p + 8);
		r->data = p + 16;
		r->data_len = n - 16;
		return 0;
	case UFT_CTL_POLL:
	case UFT_CTL_RELEASE:
	case UFT_CTL_INTERRUPT:
		if (n != 4)
			return -EPROTO;
		r->handle = get_u32(p);
		return 0;
	case UFT_CTL_WAIT:
		if (n != 8)
			return -EPROTO;
		r->handle = get_u32(p);
		r->timeout_ms = (int32_t)get_u32(p + 4);
		return r->timeout_ms < -1 ? -EPROTO : 0;
	case UFT_CTL_POLL_EVENTS:
		if (n != 8 || get_u32(p + 4) > 1)
			return -EPROTO;
		r->handle = get_u32(p);
		r->flags = get_u32(p + 4);
		return 0;
	case UFT_CTL_INJECT:
		if (n > UFT_CTL_MAX_IO)
			return -EPROTO;
		r->data = p;
		r->data_len = n;
		return 0;
	}
	return -EPROTO;
}

size_t uft_ctl_encode_req(const struct uft_ctl_req *r, uint8_t *buf, size_t cap)
{
	struct uft_ctl_out o;
	size_t plen = strnlen(r->path, sizeof(r->path));
	if (plen > UFT_CTL_MAX_PATH)
		return 0;
	uft_ctl_out_begin(&o, buf, cap, r->op, 0, r->id);
	switch (r->op) {
	case UFT_CTL_HELLO:
		uft_ctl_put_u32(&o, UFT_CTL_MAGIC);
		uft_ctl_put_u32(&o, r->flags);
		break;
	case UFT_CTL_READDIR:
	case UFT_CTL_OPEN:
		uft_ctl_put_u32(&o, r->op == UFT_CTL_OPEN ? r->flags : r->count);
		/* fall through */
	case UFT_CTL_STAT:
	case UFT_CTL_MKDIR:
	case UFT_CTL_RMDIR:
		uft_ctl_put_bytes(&o, r->path, plen);
		break;
	case UFT_CTL_READ:
		uft_ctl_put_u32(&o, r->handle);
		uft_ctl_put_u32(&o, r->count);
		uft_ctl_put_u64(&o, r->off);
		break;
	case UFT_CTL_WRITE:
		if (r->data_len > UFT_CTL_MAX_IO)
			return 0;
		uft_ctl_put_u32(&o, r->handle);
		uft_ctl_put_u32(&o, 0);
		uft_ctl_put_u64(&o, r->off);
		uft_ctl_put_bytes(&o, r->data, r->data_len);
		break;
	case UFT_CTL_POLL:
	case UFT_CTL_RELEASE:
	case UFT_CTL_INTERRUPT:
		uft_ctl_put_u32(&o, r->handle);
		break;
	case UFT_CTL_WAIT:
		uft_ctl_put_u32(&o, r->handle);
		uft_ctl_put_u32(&o, (uint32_t)r->timeout_ms);
		break;
	case UFT_CTL_POLL_EVENTS:
		uft_ctl_put_u32(&o, r->handle);
		uft_ctl_put_u32(&o, r->flags ? 1 : 0);
		break;
	case UFT_CTL_INJECT:
		if (r->data_len > UFT_CTL_MAX_IO)
			return 0;
		uft_ctl_put_bytes(&o, r->data, r->data_len);
		break;
	default:
		return 0;
	}
	return uft_ctl_out_end(&o);
}

/* What a reply may carry after its result, by operation. */
static bool reply_fits(const struct uft_ctl_reply *r)
{
	if (r->result < -MAX_ERRNO)
		return false;
	if (r->result < 0)
		return r->data_len == 0;
	switch (r->op) {
	case UFT_CTL_HELLO:
		return r->data_len == 24;
	case UFT_CTL_STAT:
		return r->result == 0 && (r->data_len == 8 || r->data_len == 12);
	case UFT_CTL_READDIR:
		return r->data_len >= 1;
	case UFT_CTL_OPEN:
		return r->result >= 1 && r->result <= UFT_CTL_MAX_HANDLES && r->data_len == 0;
	case UFT_CTL_READ:
		return r->result <= UFT_CTL_MAX_IO && (size_t)r->result == r->data_len;
	case UFT_CTL_WRITE:
		return r->result <= UFT_CTL_MAX_IO && r->data_len == 0;
	case UFT_CTL_POLL:
	case UFT_CTL_WAIT:
		return r->result <= 1 && r->data_len == 0;
	case UFT_CTL_POLL_EVENTS:
		return r->result <= 0xffff && r->data_len == 0;
	case UFT_CTL_INJECT:
		return r->result <= UFT_CTL_MAX_IO && r->data_len == 0;
	default:
		return r->result == 0 && r->data_len == 0;
	}
}

int uft_ctl_decode_reply(const struct uft_ctl_hdr *h, const uint8_t *p, struct uft_ctl_reply *r)
{
	if (h->flags != UFT_CTL_F_REPLY || h->len < 8 || h->op == UFT_CTL_INTERRUPT)
		return -EPROTO;
	r->op = h->op;
	r->id = h->id;
	r->result = (int64_t)get_u64(p);
	r->data = p + 8;
	r->data_len = h->len - 8;
	return reply_fits(r) ? 0 : -EPROTO;
}

int uft_ctl_reply_hello(const struct uft_ctl_reply *r, struct uft_ctl_hello_info *info)
{
	if (r->op != UFT_CTL_HELLO || r->result < 0 || r->data_len != 24)
		return -EPROTO;
	info->version = get_u32(r->data);
	info->pid = get_u32(r->data + 4);
	memcpy(info->comm, r->data + 8, 16);
	info->comm[16] = 0;
	return 0;
}

int uft_ctl_reply_stat(const struct uft_ctl_reply *r, uint32_t *type, uint32_t *mode, uint32_t *gid)
{
	if (r->op != UFT_CTL_STAT || r->result != 0 || (r->data_len != 8 && r->data_len != 12))
		return -EPROTO;
	*type = get_u32(r->data);
	*mode = get_u32(r->data + 4);
	*gid = r->data_len == 12 ? get_u32(r->data + 8) : UFT_CTL_NO_GROUP;
	return 0;
}

int uft_ctl_dirent_next(const struct uft_ctl_reply *r, size_t *pos, struct uft_ctl_dirent *d,
			bool *more)
{
	if (r->op != UFT_CTL_READDIR || r->result < 0 || r->data_len < 1)
		return -EPROTO;
	if (more)
		*more = r->data[0] != 0;
	size_t at = *pos ? *pos : 1;
	if (at == r->data_len)
		return 0;
	if (at > r->data_len || r->data_len - at < 2)
		return -EPROTO;
	uint8_t len = r->data[at + 1];
	if (len == 0 || r->data_len - at - 2 < len || memchr(r->data + at + 2, 0, len))
		return -EPROTO;
	d->type = r->data[at];
	memcpy(d->name, r->data + at + 2, len);
	d->name[len] = 0;
	*pos = at + 2 + len;
	return 1;
}
