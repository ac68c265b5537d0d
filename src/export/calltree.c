/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Nodes live in one array, found by (parent, name) in an open-addressing
 * table; node 0 is the root (all threads' outermost calls hang from it). */
#define _GNU_SOURCE
#include "export/calltree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t slot_hash(uint32_t parent, uint32_t name, uint32_t mask)
{
	uint64_t k = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(k >> 32) & mask;
}

static int grow(struct calltree *ct)
{
	uint32_t ns = ct->nslots ? ct->nslots * 2 : 4096;
	uint32_t *s = calloc(ns, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (uint32_t i = 1; i < ct->n; i++) {
		uint32_t h = slot_hash(ct->v[i].parent, ct->v[i].name, ns - 1);
		while (s[h])
			h = (h + 1) & (ns - 1);
		s[h] = i + 1;
	}
	free(ct->slots);
	ct->slots = s;
	ct->nslots = ns;
	return 0;
}

static int add_node(struct calltree *ct, uint32_t parent, uint32_t name)
{
	if (ct->n == ct->cap) {
		uint32_t cap = ct->cap ? ct->cap * 2 : 1024;
		struct ct_node *v = realloc(ct->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ct->v = v;
		ct->cap = cap;
	}
	ct->v[ct->n] =
	    (struct ct_node){.parent = parent, .name = name, .child = CT_NONE, .next = CT_NONE};
	ct->n++;
	return 0;
}

/* The node of name under parent, made if new; CT_NONE on ENOMEM. */
static uint32_t child_of(struct calltree *ct, uint32_t parent, uint32_t name)
{
	if (ct->n == 0 && add_node(ct, CT_NONE, CT_NONE) != 0)
		return CT_NONE;
	if ((ct->n + 1) * 2 > ct->nslots && grow(ct) != 0)
		return CT_NONE;
	uint32_t m = ct->nslots - 1, h = slot_hash(parent, name, m);
	for (; ct->slots[h]; h = (h + 1) & m) {
		struct ct_node *c = &ct->v[ct->slots[h] - 1];
		if (c->parent == parent && c->name == name)
			return ct->slots[h] - 1;
	}
	if (add_node(ct, parent, name) != 0)
		return CT_NONE;
	ct->slots[h] = ct->n;
	return ct->n - 1;
}

static uint32_t top_node(const struct exp_thread *t, uint32_t below)
{
	return t->depth > below ? t->stack[t->depth - 1 - below].node : CT_ROOT;
}

static int ct_begin(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f)
{
	(void)x;
	f->node = child_of(ctx, top_node(t, 1), f->name);
	return f->node == CT_NONE ? -ENOMEM : 0;
}

static int ct_end(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f, uint64_t ts)
{
	(void)x;
	(void)t;
	struct calltree *ct = ctx;
	uint64_t dur = ts > f->ts ? ts - f->ts : 0;
	ct->v[f->node].time += dur > f->child ? dur - f->child : 0;
	ct->v[f->node].count++;
	ct->calls++;
	return 0;
}

static int ct_complete(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts, uint64_t dur,
		       uint64_t self, uint32_t name)
{
	(void)x;
	(void)ts;
	(void)dur;
	struct calltree *ct = ctx;
	uint32_t n = child_of(ct, top_node(t, 0), name);
	if (n == CT_NONE)
		return -ENOMEM;
	ct->v[n].time += self;
	ct->v[n].count++;
	ct->calls++;
	return 0;
}

static int ct_stack(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts,
		    const uint32_t *names, size_t n)
{
	(void)x;
	(void)t;
	(void)ts;
	struct calltree *ct = ctx;
	uint32_t at = CT_ROOT;
	for (size_t i = 0; i < n; i++)
		if ((at = child_of(ct, at, names[i])) == CT_NONE)
			return -ENOMEM;
	ct->v[at].count++;
	ct->samples++;
	return 0;
}

void calltree_sink(struct calltree *ct, struct exp_sink *s)
{
	*s = (struct exp_sink){
	    .ctx = ct,
	    .begin = ct_begin,
	    .end = ct_end,
	    .complete = ct_complete,
	    .stack = ct_stack,
	};
}

void calltree_free(struct calltree *ct)
{
	free(ct->v);
	free(ct->slots);
	memset(ct, 0, sizeof(*ct));
}

enum flame_by calltree_by(const struct calltree *ct, enum flame_by by)
{
	if (by != FLAME_BY_AUTO)
		return by;
	return ct->calls ? FLAME_BY_TIME : FLAME_BY_COUNT;
}

static const struct exp *sort_x;
static const struct calltree *sort_ct;

static int by_name(const void *a, const void *b)
{
	const struct ct_node *na = &sort_ct->v[*(const uint32_t *)a];
	const struct ct_node *nb = &sort_ct->v[*(const uint32_t *)b];
	return strcmp(exp_name(sort_x, na->name), exp_name(sort_x, nb->name));
}

int calltree_link(struct calltree *ct, enum flame_by by, const struct exp *x)
{
	if (ct->n == 0 && add_node(ct, CT_NONE, CT_NONE) != 0)
		return -ENOMEM;
	uint32_t *order = malloc(ct->n * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (uint32_t i = 0; i < ct->n; i++) {
		order[i] = i;
		ct->v[i].total = by == FLAME_BY_TIME ? ct->v[i].time : ct->v[i].count;
		ct->v[i].child = ct->v[i].next = CT_NONE;
	}
	/* A child is always made after its parent: totals flow up in one
	 * backward sweep. */
	for (uint32_t i = ct->n - 1; i > 0; i--)
		ct->v[ct->v[i].parent].total += ct->v[i].total;
	sort_x = x;
	sort_ct = ct;
	if (ct->n > 1)
		qsort(order + 1, ct->n - 1, sizeof(*order), by_name);
	/* Pushed in reverse name order, so each list reads in name order. */
	for (uint32_t k = ct->n - 1; k > 0; k--) {
		struct ct_node *c = &ct->v[order[k]];
		c->next = ct->v[c->parent].child;
		ct->v[c->parent].child = order[k];
	}
	free(order);
	return 0;
}
