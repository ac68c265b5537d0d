/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs the fetch programs of a probe at a hit and writes the record in the
 * kernel's kprobe/uprobe layout. It runs where the probed code runs, maybe
 * in a signal handler: no allocation, no locks, no stdio. Every read of
 * memory goes through uft_probe_read() (probe_read.c), which never faults.
 * A fault gives what the kernel's record holds: 0 for a number, an empty
 * __data_loc for a string (printed "(fault)"). */
#define _GNU_SOURCE
#include <string.h>
#include <sys/prctl.h>

#include "engine/probe/probe_impl.h"

#include <uft/event.h>

/* SysV x86-64: the first six integer arguments. */
static const uint8_t arg_regs[6] = {UFT_REG_DI, UFT_REG_SI, UFT_REG_DX,
				    UFT_REG_CX, UFT_REG_R8, UFT_REG_R9};

struct fetched {
	uint64_t val;
	const char *str; /* COMM or DATA: the text itself */
};

static bool rd(uint64_t addr, void *out, unsigned size)
{
	return uft_probe_read(out, (const void *)(uintptr_t)addr, size) == size;
}

static uint64_t load(const uint8_t *p, unsigned size, bool is_signed)
{
	uint64_t v = 0;
	memcpy(&v, p, size);
	if (is_signed && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ull << (size * 8);
	return v;
}

/* A field of the eprobe's source record: its value, or where its text is. */
static bool tp_arg(const struct uft_probe_op *op, const struct uft_probe_ctx *c, uint64_t *v)
{
	const uint8_t *rec = c->event_rec;
	if (!rec || op->arg + op->size > c->event_len || op->size == 0)
		return false;
	if (op->field_kind == UFT_FIELD_DYN) {
		uint32_t loc = (uint32_t)load(rec + op->arg, 4, false);
		if ((loc & 0xffff) + (loc >> 16) > c->event_len)
			return false;
		*v = (uintptr_t)(rec + (loc & 0xffff));
	} else if (op->field_kind == UFT_FIELD_ARRAY) {
		*v = (uintptr_t)(rec + op->arg);
	} else {
		*v = load(rec + op->arg, op->size > 8 ? 8 : op->size, op->is_signed);
	}
	return true;
}

static bool run(const struct uft_probe_arg *a, const struct uft_probe_ctx *c, struct fetched *f)
{
	uint64_t acc = 0;
	const struct uft_probe_regs *r = c->regs;
	for (unsigned i = 0; i < a->nops; i++) {
		const struct uft_probe_op *op = &a->ops[i];
		switch (op->op) {
		case UFT_POP_REG:
			acc = r->r[op->arg];
			break;
		case UFT_POP_STACK:
			if (!rd(r->r[UFT_REG_SP] + 8ull * op->arg, &acc, 8))
				return false;
			break;
		case UFT_POP_STACKP:
			acc = r->r[UFT_REG_SP];
			break;
		case UFT_POP_ARG: {
			/* At a return the arguments are the ones saved at entry. */
			const struct uft_probe_regs *e = c->entry_regs ? c->entry_regs : r;
			if (op->arg < 6)
				acc = e->r[arg_regs[op->arg]];
			else if (!rd(e->r[UFT_REG_SP] + 8ull * (op->arg - 6 + 1), &acc, 8))
				return false; /* skips the return address */
			break;
		}
		case UFT_POP_RETVAL:
			acc = c->retval;
			break;
		case UFT_POP_IMM:
			acc = (uint64_t)op->imm;
			break;
		case UFT_POP_FOFFS:
			acc = c->file_bias + (uint64_t)op->imm;
			break;
		case UFT_POP_TPARG:
			if (!tp_arg(op, c, &acc))
				return false;
			break;
		case UFT_POP_COMM:
			f->str = c->comm;
			break;
		case UFT_POP_DATA:
			f->str = a->data;
			break;
		case UFT_POP_DEREF:
			if (!rd(acc + (uint64_t)op->imm, &acc, 8))
				return false;
			break;
		}
	}
	f->val = acc;
	return true;
}

static uint64_t bitfield(const struct uft_probe_arg *a, uint64_t v)
{
	if (!a->bf_width)
		return v;
	v >>= a->bf_shift;
	return a->bf_width >= 64 ? v : v & ((1ull << a->bf_width) - 1);
}

/* Copies the string at addr into dst (at most room bytes, NUL included),
 * in pieces that never cross a page, so that a string ending before an
 * unmapped page is read.
 * Returns its length with the NUL, cut to room, or 0 on a fault. */
static uint32_t copy_string(char *dst, uint64_t addr, uint32_t room)
{
	uint32_t done = 0;
	if (room == 0)
		return 0;
	while (done < room) {
		/* Short pieces: most strings end long before the page does. */
		uint32_t chunk = 4096u - (uint32_t)((addr + done) & 4095u);
		if (chunk > 128)
			chunk = 128;
		if (chunk > room - done)
			chunk = room - done;
		size_t got =
		    uft_probe_read(dst + done, (const void *)(uintptr_t)(addr + done), chunk);
		const char *nul = memchr(dst + done, 0, got);
		if (nul)
			return (uint32_t)(nul - dst) + 1;
		if (got < chunk)
			return 0; /* the kernel's strncpy_from_user_nofault fails whole */
		done += chunk;
	}
	dst[room - 1] = 0;
	return room;
}

static uint32_t copy_text(char *dst, const char *src, uint32_t room)
{
	if (room == 0 || !src)
		return 0;
	uint32_t n = 0;
	while (n + 1 < room && src[n])
		n++;
	memcpy(dst, src, n);
	dst[n] = 0;
	return n + 1;
}

static uint32_t hex_text(char *dst, uint64_t v, uint32_t room)
{
	char tmp[19] = "0x";
	int n = 2;
	int shift = 60;
	while (shift > 0 && !((v >> shift) & 0xf))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		tmp[n++] = "0123456789abcdef"[(v >> shift) & 0xf];
	tmp[n] = 0;
	return copy_text(dst, tmp, room);
}

struct dyn {
	uint8_t *rec;
	uint32_t at, cap;
};

static uint32_t room_of(const struct dyn *dy)
{
	uint32_t room = dy->cap - dy->at;
	return room > UFT_PROBE_STRING_MAX ? UFT_PROBE_STRING_MAX : room;
}

static void put_loc(uint8_t *slot, struct dyn *dy, uint32_t len)
{
	uint32_t loc = (len << 16) | dy->at;
	memcpy(slot, &loc, 4);
	dy->at += len;
}

static void store_string(const struct uft_probe_arg *a, const struct uft_probe_ctx *c, bool ok,
			 const struct fetched *f, uint8_t *rec, struct dyn *dy)
{
	for (uint32_t j = 0; j < (a->count ? a->count : 1); j++) {
		uint8_t *slot = rec + a->offset + 4 * j;
		char *dst = (char *)dy->rec + dy->at;
		uint32_t len = 0;
		if (!ok) {
			len = 0;
		} else if (a->store == UFT_PST_SYMSTR) {
			char sym[256];
			if (c->sym_name && c->sym_name(c->sym_ctx, f->val, sym, sizeof(sym)) == 0)
				len = copy_text(dst, sym, room_of(dy));
			else
				len = hex_text(dst, f->val, room_of(dy));
		} else if (f->str) {
			len = copy_text(dst, f->str, room_of(dy));
		} else if (a->count) {
			uint64_t p;
			if (rd(f->val + (uint64_t)a->store_off + 8ull * j, &p, 8))
				len = copy_string(dst, p, room_of(dy));
		} else {
			len = copy_string(dst, f->val + (uint64_t)a->store_off, room_of(dy));
		}
		put_loc(slot, dy, len);
	}
}

static void store_number(const struct uft_probe_arg *a, bool ok, uint64_t val, uint8_t *rec)
{
	unsigned size = a->type->size;
	uint8_t *out = rec + a->offset;
	if (!ok)
		return; /* the zeroes already there */
	if (a->store == UFT_PST_RAW) {
		uint64_t v = bitfield(a, val);
		memcpy(out, &v, size);
		return;
	}
	for (uint32_t j = 0; j < (a->count ? a->count : 1); j++) {
		uint64_t v = 0;
		if (!rd(val + (uint64_t)a->store_off + (uint64_t)j * size, &v, size))
			return; /* the kernel stops at the first fault */
		v = bitfield(a, v);
		memcpy(out + j * size, &v, size);
	}
}

uint32_t uft_probe_record_fill(const struct uft_probe_def *d, const struct uft_probe_ctx *c,
			       uint8_t *rec, uint32_t cap)
{
	char comm[17];
	struct uft_probe_ctx cc = *c;
	if (cap > 0xffff)
		cap = 0xffff; /* a __data_loc's offset has 16 bits */
	if (cap < d->fixed_size)
		return 0;
	memset(rec + 8, 0, d->fixed_size - 8);
	if (d->kind != UFT_PROBE_EPROBE) {
		if (d->is_return) {
			memcpy(rec + 8, &c->func, 8);
			memcpy(rec + 16, &c->ret_ip, 8);
		} else {
			memcpy(rec + 8, &c->ip, 8);
		}
	}
	struct dyn dy = {rec, d->fixed_size, cap};
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		struct fetched f = {0};
		if (!cc.comm && a->nops && a->ops[a->nops - 1].op == UFT_POP_COMM) {
			memset(comm, 0, sizeof(comm));
			prctl(PR_GET_NAME, comm);
			cc.comm = comm;
		}
		bool ok = run(a, &cc, &f);
		if (a->type->is_string)
			store_string(a, &cc, ok, &f, rec, &dy);
		else
			store_number(a, ok, f.val, rec);
	}
	return dy.at;
}
