/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Filter expressions: the kernel's pre-scan and token walk (so errors and
 * their positions match), with short-circuit jumps resolved by backpatching
 * as operators reduce; the result is packed into one block. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/filter_parse.h"

#define NIL UINT32_MAX

/* Operator stack entries. */
enum { OPS_PAREN, OPS_PAREN_NOT, OPS_AND, OPS_OR };

/* A reduced operand: where it starts and the jump slots still waiting for
 * the place to go when it is true or false (lists linked through slot[]). */
struct operand {
	uint32_t first;
	uint32_t t_head, t_tail, f_head, f_tail;
};

struct build {
	struct uft_fpred *preds;
	int32_t *mask;
	uint32_t *slot; /* 2 per predicate: pending-list link, then jump target */
	uint32_t n, cap;
	struct operand *vals;
	uint32_t nv;
	uint8_t *ops;
	uint32_t nops;
};

static void patch(uint32_t *slot, uint32_t head, uint32_t target)
{
	while (head != NIL) {
		uint32_t next = slot[head];
		slot[head] = target;
		head = next;
	}
}

static void append(uint32_t *slot, uint32_t *head, uint32_t *tail, uint32_t h2, uint32_t t2)
{
	if (h2 == NIL)
		return;
	if (*head == NIL)
		*head = h2;
	else
		slot[*tail] = h2;
	*tail = t2;
}

static void negate(struct operand *v)
{
	struct operand t = *v;

	v->t_head = t.f_head;
	v->t_tail = t.f_tail;
	v->f_head = t.t_head;
	v->f_tail = t.t_tail;
}

/* Replaces the top two operands with (a && b) or (a || b). */
static void reduce(struct build *b, int op)
{
	struct operand y = b->vals[--b->nv];
	struct operand *x = &b->vals[b->nv - 1];

	if (op == OPS_AND) {
		patch(b->slot, x->t_head, y.first);
		x->t_head = y.t_head;
		x->t_tail = y.t_tail;
		append(b->slot, &x->f_head, &x->f_tail, y.f_head, y.f_tail);
	} else {
		patch(b->slot, x->f_head, y.first);
		x->f_head = y.f_head;
		x->f_tail = y.f_tail;
		append(b->slot, &x->t_head, &x->t_tail, y.t_head, y.t_tail);
	}
}

/* Reduces the pending && (and || when `or` is set) at the top. */
static void reduce_ops(struct build *b, bool or)
{
	while (b->nops) {
		uint8_t top = b->ops[b->nops - 1];
		if (top != OPS_AND && !(or &&top == OPS_OR))
			return;
		reduce(b, top);
		b->nops--;
	}
}

static int grow(struct build *b)
{
	uint32_t cap = b->cap ? b->cap * 2 : 16;
	void *p;

	if (cap > UFT_FILTER_MAX_PREDS)
		cap = UFT_FILTER_MAX_PREDS;
	if (!(p = realloc(b->preds, cap * sizeof(*b->preds))))
		return -1;
	b->preds = p;
	if (!(p = realloc(b->mask, cap * sizeof(*b->mask))))
		return -1;
	b->mask = p;
	if (!(p = realloc(b->slot, 2 * cap * sizeof(*b->slot))))
		return -1;
	b->slot = p;
	b->cap = cap;
	return 0;
}

/* The kernel's first look at the whole string: parentheses balance and
 * quotes close (else the error points at the culprit), and something that
 * can be a predicate is there (else it fails with no message). */
static int prescan(struct uft_fparse *p)
{
	const char *s = p->s;
	size_t last_quote = 0, i;
	int open = 0, max_depth;
	char quote = 0;
	bool in_pred = false, any_pred = false;

	for (i = 0; s[i]; i++) {
		char c = s[i];
		if (uft_k_isspace((unsigned char)c))
			continue;
		if (quote) {
			if (c == '\\' && s[i + 1])
				i++;
			else if (c == quote)
				quote = 0;
			continue;
		}
		switch (c) {
		case '\'':
		case '"':
			quote = c;
			last_quote = i;
			break;
		case '&':
		case '|':
			if (s[i + 1] != c)
				break;
			in_pred = false;
			continue;
		case '(':
			in_pred = false;
			open++;
			continue;
		case ')':
			in_pred = false;
			if (!open)
				return uft_fparse_fail(p, UFT_FILTER_ERR_TOO_MANY_CLOSE, i);
			open--;
			continue;
		}
		if (!in_pred)
			any_pred = in_pred = true;
	}
	if (quote)
		return uft_fparse_fail(p, UFT_FILTER_ERR_MISSING_QUOTE, last_quote);
	if (open) {
		/* The innermost unclosed '(' is the last one that opened the
		 * final depth. */
		size_t at = 0;
		max_depth = open;
		open = 0;
		quote = 0;
		for (i = 0; s[i]; i++) {
			char c = s[i];
			if (quote) {
				if (c == '\\' && s[i + 1])
					i++;
				else if (c == quote)
					quote = 0;
			} else if (c == '"' || c == '\'') {
				quote = c;
			} else if (c == '(') {
				if (++open == max_depth)
					at = i;
			} else if (c == ')') {
				open--;
			}
		}
		return uft_fparse_fail(p, UFT_FILTER_ERR_TOO_MANY_OPEN, at);
	}
	if (!any_pred)
		return uft_fparse_fail(p, UFT_FILTER_ERR_NONE, 0);
	return 0;
}

/* The predicate at i as the program's next operand, negated when inv.
 * Returns the cursor after it or -errno. */
static long add_pred(struct uft_fparse *p, struct build *b, size_t i, bool inv)
{
	if (b->n == UFT_FILTER_MAX_PREDS)
		return uft_fparse_fail(p, UFT_FILTER_ERR_TOO_MANY_PREDS, i);
	if (b->n == b->cap && grow(b)) {
		p->err->code = -ENOMEM;
		p->err->pos = 0;
		return -ENOMEM;
	}
	long end = uft_fparse_pred(p, i, &b->preds[b->n], &b->mask[b->n]);
	if (end < 0)
		return end;
	uint32_t k = b->n++;
	b->slot[2 * k] = b->slot[2 * k + 1] = NIL;
	b->vals[b->nv] = (struct operand){k, 2 * k, 2 * k, 2 * k + 1, 2 * k + 1};
	if (inv)
		negate(&b->vals[b->nv]);
	b->nv++;
	return end;
}

static int finish_walk(struct uft_fparse *p, struct build *b, size_t i, bool operand);

/* Walks operands and operators as the kernel does, building the program. */
static int walk(struct uft_fparse *p, struct build *b)
{
	const char *s = p->s;
	size_t i = 0;
	bool operand = true, inv = false;

	for (;;) {
		unsigned char c = (unsigned char)s[i];

		if (uft_k_isspace(c)) {
			i++;
			continue;
		}
		if (operand) {
			if (!c)
				break;
			if (c == '(') {
				b->ops[b->nops++] = inv ? OPS_PAREN_NOT : OPS_PAREN;
				inv = false;
				i++;
				continue;
			}
			if (c == '!' && s[i + 1] != '=' && s[i + 1] != '~') {
				inv = !inv;
				i++;
				continue;
			}
			long end = add_pred(p, b, i, inv);
			if (end < 0)
				return (int)end;
			inv = false;
			operand = false;
			i = (size_t)end;
			continue;
		}
		if (!c) {
			i++; /* the kernel's cursor is past the NUL here */
			break;
		}
		if (c == ')') {
			i++;
			reduce_ops(b, true);
			if (!b->nops)
				return uft_fparse_fail(p, UFT_FILTER_ERR_TOO_MANY_CLOSE, i);
			if (b->ops[--b->nops] == OPS_PAREN_NOT)
				negate(&b->vals[b->nv - 1]);
			continue;
		}
		if ((c == '&' || c == '|') && s[i + 1] == (char)c) {
			reduce_ops(b, c == '|');
			b->ops[b->nops++] = c == '&' ? OPS_AND : OPS_OR;
			operand = true;
			i += 2;
			continue;
		}
		return uft_fparse_fail(p, UFT_FILTER_ERR_TOO_MANY_PREDS, i);
	}
	return finish_walk(p, b, i, operand);
}

/* After the last token (the cursor at i): unbalanced parentheses, an empty
 * filter and a dangling operator, then the jumps of the program patched. */
static int finish_walk(struct uft_fparse *p, struct build *b, size_t i, bool operand)
{
	for (uint32_t k = 0; k < b->nops; k++)
		if (b->ops[k] == OPS_PAREN || b->ops[k] == OPS_PAREN_NOT)
			return uft_fparse_fail(p, UFT_FILTER_ERR_TOO_MANY_OPEN, i);
	if (!b->n)
		return uft_fparse_fail(p, UFT_FILTER_ERR_NO_FILTER, i);
	/* A trailing && or || (or ! after one) has no operand: refused
	 * without a message, as the kernel's program builder does. */
	if (operand)
		return uft_fparse_fail(p, UFT_FILTER_ERR_NONE, 0);
	reduce_ops(b, true);
	patch(b->slot, b->vals[0].t_head, b->n);
	patch(b->slot, b->vals[0].f_head, b->n + 1);
	return 0;
}

/* Copies the program, its patterns and CPU masks into one block. */
static struct uft_filter *pack(struct uft_fparse *p, struct build *b)
{
	size_t prog = b->n * sizeof(struct uft_fpred);
	size_t ins = b->n * sizeof(struct uft_fins);
	size_t masks = p->nr_masks * (size_t)UFT_FILTER_MASK_BYTES;
	size_t strs = 0;

	for (uint32_t k = 0; k < b->n; k++)
		if (b->preds[k].pat)
			strs += b->preds[k].plen + 1;
	struct uft_filter *f = malloc(sizeof(*f) + prog + ins + masks + strs);
	if (!f)
		return NULL;
	struct uft_fins *ipool = (struct uft_fins *)((uint8_t *)f->prog + prog);
	uint8_t *mpool = (uint8_t *)ipool + ins;
	char *spool = (char *)mpool + masks;

	f->n = b->n;
	f->needs = p->needs;
	if (masks)
		memcpy(mpool, p->masks, masks);
	for (uint32_t k = 0; k < b->n; k++) {
		struct uft_fpred *d = &f->prog[k];
		*d = b->preds[k];
		d->jt = (uint16_t)b->slot[2 * k];
		d->jf = (uint16_t)b->slot[2 * k + 1];
		if (b->mask[k] >= 0)
			d->mask = mpool + (size_t)b->mask[k] * UFT_FILTER_MASK_BYTES;
		if (d->pat) {
			memcpy(spool, d->pat, d->plen);
			spool[d->plen] = '\0';
			d->pat = spool;
			spool += d->plen + 1;
		}
	}
	uft_filter_lower(f, ipool);
	return f;
}

static bool is_clear(const char *s)
{
	while (uft_k_isspace((unsigned char)*s))
		s++;
	if (*s++ != '0')
		return false;
	while (uft_k_isspace((unsigned char)*s))
		s++;
	return !*s;
}

int uft_filter_compile_syms(const char *expr, const struct uft_field *fields, uint32_t nr_fields,
			    const struct uft_filter_syms *syms, struct uft_filter **out,
			    struct uft_filter_error *err)
{
	struct uft_filter_error local;
	struct uft_fparse p = {
	    .s = expr ? expr : "",
	    .fields = fields,
	    .nr_fields = fields ? nr_fields : 0,
	    .syms = syms,
	    .err = err ? err : &local,
	};
	struct build b = {0};
	int ret;

	*out = NULL;
	p.err->code = UFT_FILTER_ERR_NONE;
	p.err->pos = 0;
	if (is_clear(p.s))
		return UFT_FILTER_CLEAR;
	p.len = strlen(p.s);
	ret = prescan(&p);
	if (ret)
		return ret;

	/* Every operand and operator takes at least one byte. */
	b.vals = malloc((p.len + 1) * sizeof(*b.vals));
	b.ops = malloc(p.len + 1);
	if (!b.vals || !b.ops) {
		ret = -ENOMEM;
		p.err->code = -ENOMEM;
		goto done;
	}
	ret = walk(&p, &b);
	if (!ret) {
		*out = pack(&p, &b);
		if (!*out) {
			ret = -ENOMEM;
			p.err->code = -ENOMEM;
		}
	}
done:
	free(b.preds);
	free(b.mask);
	free(b.slot);
	free(b.vals);
	free(b.ops);
	free(p.masks);
	return ret;
}

int uft_filter_compile(const char *expr, const struct uft_field *fields, uint32_t nr_fields,
		       struct uft_filter **out, struct uft_filter_error *err)
{
	return uft_filter_compile_syms(expr, fields, nr_fields, NULL, out, err);
}

unsigned uft_filter_needs(const struct uft_filter *f)
{
	return f ? f->needs : 0;
}

void uft_filter_free(struct uft_filter *f)
{
	free(f);
}
