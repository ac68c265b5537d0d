/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Renders records through a compiled print fmt, as libtraceevent prints them,
 * without allocating and without reading outside the record. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/format/print_fmt_impl.h"

struct ob {
	char *buf;
	size_t cap, pos;
};

static void put(struct ob *o, const char *fmt, ...)
{
	va_list ap;
	bool room = o->pos < o->cap;
	va_start(ap, fmt);
	int n = vsnprintf(room ? o->buf + o->pos : NULL, room ? o->cap - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

static uint64_t read_num(const uint8_t *rec, uint32_t len, uint32_t off, uint32_t size)
{
	uint64_t v = 0;
	if (!rec || size > 8 || off > len || len - off < size)
		return 0;
	memcpy(&v, rec + off, size); /* little endian */
	return v;
}

/* Unsigned 64-bit arithmetic, as libtraceevent; no division by zero. */
static uint64_t bin(const struct pf_node *n, uint64_t a, uint64_t b)
{
	switch (n->bop[0]) {
	case '+':
		return a + b;
	case '-':
		return a - b;
	case '*':
		return a * b;
	case '/':
		return b ? a / b : 0;
	case '%':
		return b ? a % b : 0;
	case '&':
		return n->bop[1] ? (a && b) : a & b;
	case '|':
		return n->bop[1] ? (a || b) : a | b;
	case '=':
		return a == b;
	case '!':
		return a != b;
	}
	if (n->bop[0] == n->bop[1]) /* shifts */
		return b >= 64 ? 0 : n->bop[0] == '<' ? a << b : a >> b;
	if (n->bop[0] == '<')
		return n->bop[1] ? a <= b : a < b;
	return n->bop[1] ? a >= b : a > b;
}

uint64_t uft__pf_eval(const struct uft_print_fmt *pf, int32_t i, const uint8_t *rec, uint32_t len)
{
	const struct pf_node *n = &pf->nodes[i];
	uint64_t v = 0;
	switch (n->op) {
	case N_CONST:
		v = n->val;
		break;
	case N_FIELD:
		v = read_num(rec, len, n->off, n->fsize);
		break;
	case N_DYNLEN:
		v = read_num(rec, len, n->off, 4) >> 16;
		break;
	case N_CAST:
		v = uft__pf_eval(pf, n->a, rec, len);
		break; /* truncated, never sign-extended, as libtraceevent */
	case N_UNARY:
		v = uft__pf_eval(pf, n->a, rec, len);
		v = n->bop[0] == '-' ? 0 - v : n->bop[0] == '~' ? ~v : n->bop[0] == '!' ? !v : v;
		break;
	case N_BIN:
		v = bin(n, uft__pf_eval(pf, n->a, rec, len), uft__pf_eval(pf, n->b, rec, len));
		break;
	case N_COND:
		v = uft__pf_eval(pf, uft__pf_eval(pf, n->a, rec, len) ? n->b : n->c, rec, len);
		break;
	}
	return uft__pf_trunc(v, n->size);
}

/* Bytes at a __data_loc or fixed array, bounded by the record. */
static const uint8_t *array_at(const struct pf_node *n, const uint8_t *rec, uint32_t len,
			       uint32_t *size)
{
	if (n->op == N_FIELD) {
		if (n->off > len || len - n->off < n->fsize)
			return NULL;
		*size = n->fsize;
		return rec + n->off;
	}
	if (n->off > len || len - n->off < 4)
		return NULL;
	uint32_t loc = (uint32_t)read_num(rec, len, n->off, 4);
	uint32_t off = loc & 0xffff, sz = loc >> 16;
	if (n->op == N_STR && n->val) /* __get_rel_str() */
		off += n->off + 4;
	if (off > len)
		return NULL;
	*size = sz < len - off ? sz : len - off;
	return rec + off;
}

static void put_str(struct ob *o, const struct pf_seg *s, const char *str, size_t max)
{
	size_t n = max == SIZE_MAX ? strlen(str) : strnlen(str, max);
	if (s->prec >= 0 && (size_t)s->prec < n)
		n = (size_t)s->prec;
	put(o, s->left ? "%-*.*s" : "%*.*s", s->width < 0 ? 0 : (int)s->width, (int)n, str);
}

static void put_string_arg(struct ob *o, const struct uft_print_fmt *pf, const struct pf_seg *s,
			   const uint8_t *rec, uint32_t len)
{
	const struct pf_node *n = &pf->nodes[s->arg];
	const uint8_t *p;
	uint32_t size = 0;
	uint64_t v;
	bool any = false;

	switch (n->op) {
	case N_STRLIT:
		put_str(o, s, n->str, SIZE_MAX);
		return;
	case N_STR:
		/* Up to the NUL, as libtraceevent, but never past the record. */
		if (!(p = array_at(n, rec, len, &size)))
			break;
		put_str(o, s, (const char *)p, (size_t)(rec + len - p));
		return;
	case N_DYNARR:
	case N_FIELD:
		if (!(p = array_at(n, rec, len, &size)))
			break;
		put_str(o, s, (const char *)p, size);
		return;
	case N_SYM:
		v = uft__pf_eval(pf, n->a, rec, len);
		for (uint32_t k = 0; k < n->nsym; k++)
			if (pf->syms[n->sym + k].val == v) {
				put_str(o, s, pf->syms[n->sym + k].name, SIZE_MAX);
				return;
			}
		put(o, "0x%llx", (unsigned long long)v);
		return;
	case N_FLAGS:
		v = uft__pf_eval(pf, n->a, rec, len);
		/* As the kernel: in table order while bits are left. */
		for (uint32_t k = 0; v && k < n->nsym; k++) {
			uint64_t f = pf->syms[n->sym + k].val;
			if ((v & f) != f)
				continue;
			if (any)
				put(o, "%s", n->str);
			put_str(o, s, pf->syms[n->sym + k].name, SIZE_MAX);
			any = true;
			v &= ~f;
		}
		if (v) {
			if (any)
				put(o, "%s", n->str);
			put(o, "0x%llx", (unsigned long long)v);
		}
		return;
	case N_HEX:
		if (!(p = array_at(&pf->nodes[n->a], rec, len, &size)))
			break;
		v = uft__pf_eval(pf, n->b, rec, len);
		size = (uint32_t)(rec + len - p); /* may run past the array, as libtraceevent */
		for (uint64_t k = 0; k < v && k < size; k++)
			put(o, k ? " %02x" : "%02x", p[k]);
		return;
	}
	put(o, "(bad)");
}

int uft_print_fmt_render(const struct uft_print_fmt *pf, const void *rec, uint32_t len, char *buf,
			 size_t buflen)
{
	struct ob o = {.buf = buf, .cap = buflen};
	const uint8_t *r = rec;

	for (uint32_t k = 0; k < pf->nsegs; k++) {
		const struct pf_seg *s = &pf->segs[k];
		uint64_t v;
		switch (s->kind) {
		case S_TEXT:
			put(&o, "%s", s->text);
			break;
		case S_STR:
			put_string_arg(&o, pf, s, r, len);
			break;
		case S_PTR:
			put(&o, s->text, (void *)(uintptr_t)uft__pf_eval(pf, s->arg, r, len));
			break;
		case S_INT:
			v = uft__pf_eval(pf, s->arg, r, len);
			if (s->ls <= 0)
				put(&o, s->text, (int)v);
			else if (s->ls == 1)
				put(&o, s->text, (long)v);
			else
				put(&o, s->text, (long long)v);
			break;
		}
	}
	if (buflen)
		buf[o.pos < buflen ? o.pos : buflen - 1] = '\0';
	return o.pos > INT32_MAX ? INT32_MAX : (int)o.pos;
}
