/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sqlhist statements: a recursive-descent parser from tokens to the tree
 * of sqlhist.h. It checks syntax only; events and fields are resolved by
 * the translator. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/sqlhist/sqlhist_impl.h"
#include "util/util.h"

struct parser {
	struct sql_tokens t;
	size_t i;
	struct uft_sql_error *err;
};

static const struct sql_token *peek(struct parser *p)
{
	return &p->t.v[p->i];
}

static bool is_op(const struct sql_token *t, const char *op)
{
	return t->kind == SQL_T_PUNCT && !strcmp(t->op, op);
}

static bool accept_op(struct parser *p, const char *op)
{
	if (!is_op(peek(p), op))
		return false;
	p->i++;
	return true;
}

static const char *describe(const struct sql_token *t)
{
	switch (t->kind) {
	case SQL_T_END:
		return "the end";
	case SQL_T_PUNCT:
		return t->op;
	default:
		return t->text;
	}
}

static int expected(struct parser *p, const char *what)
{
	const struct sql_token *t = peek(p);
	return sql_fail(p->err, t->pos, "expected %s, found '%s'", what, describe(t));
}

static int expect_op(struct parser *p, const char *op)
{
	if (accept_op(p, op))
		return 0;
	char what[8] = "'";
	strcat(strcat(what, op), "'");
	return expected(p, what);
}

static int take_text(struct parser *p, char **out)
{
	*out = strdup(peek(p)->text);
	p->i++;
	return *out ? 0 : -ENOMEM;
}

static int field(struct parser *p, struct uft_sql_field *f)
{
	if (peek(p)->kind != SQL_T_IDENT)
		return expected(p, "a field");
	f->pos = peek(p)->pos;
	return take_text(p, &f->text);
}

static const struct {
	const char *name;
	enum uft_sql_cast cast;
} casts[] = {
    {"HEX", UFT_SQL_CAST_HEX},
    {"SYM", UFT_SQL_CAST_SYM},
    {"SYSCALL", UFT_SQL_CAST_SYSCALL},
    {"EXECNAME", UFT_SQL_CAST_EXECNAME},
    {"COMM", UFT_SQL_CAST_EXECNAME},
    {"LOG", UFT_SQL_CAST_LOG2},
    {"LOG2", UFT_SQL_CAST_LOG2},
    {"_COUNTER_", UFT_SQL_CAST_COUNTER},
    {"__COUNTER__", UFT_SQL_CAST_COUNTER},
};

/* CAST(field AS TYPE), CAST already taken. */
static int cast(struct parser *p, struct uft_sql_expr *e)
{
	int rc = expect_op(p, "(");
	if (!rc)
		rc = field(p, &e->a);
	if (rc)
		return rc;
	if (peek(p)->kind != SQL_T_AS)
		return expected(p, "AS");
	p->i++;
	const struct sql_token *t = peek(p);
	if (t->kind != SQL_T_IDENT)
		return expected(p, "a CAST type");
	for (size_t k = 0; k < ARRAY_SIZE(casts); k++)
		if (!strcasecmp(t->text, casts[k].name))
			e->cast = casts[k].cast;
	p->i++;
	/* SYM-OFFSET arrives as three tokens. */
	if (e->cast == UFT_SQL_CAST_SYM && is_op(peek(p), "-")) {
		p->i++;
		if (peek(p)->kind != SQL_T_IDENT || strcasecmp(peek(p)->text, "OFFSET"))
			return expected(p, "OFFSET");
		p->i++;
		e->cast = UFT_SQL_CAST_SYM_OFFSET;
	}
	if (e->cast == UFT_SQL_CAST_NONE)
		return sql_fail(p->err, t->pos,
				"unknown CAST type '%s' (HEX, SYM, SYM-OFFSET, SYSCALL, EXECNAME, "
				"COMM, LOG, LOG2, _COUNTER_)",
				t->text);
	return expect_op(p, ")");
}

static int expr(struct parser *p, struct uft_sql_expr *e);

/* field | CAST(...) | ( expr ) */
static int term(struct parser *p, struct uft_sql_expr *e)
{
	e->pos = peek(p)->pos;
	if (peek(p)->kind == SQL_T_CAST) {
		p->i++;
		return cast(p, e);
	}
	if (accept_op(p, "(")) {
		int pos = e->pos, rc = expr(p, e);
		e->pos = pos;
		return rc ? rc : expect_op(p, ")");
	}
	return field(p, &e->a);
}

static void expr_clear(struct uft_sql_expr *e)
{
	free(e->a.text);
	free(e->b.text);
	*e = (struct uft_sql_expr){0};
}

/* term [(+|-) term]: both sides plain fields. */
static int expr(struct parser *p, struct uft_sql_expr *e)
{
	int rc = term(p, e);
	if (rc)
		return rc;
	const struct sql_token *t = peek(p);
	if (!is_op(t, "+") && !is_op(t, "-"))
		return 0;
	p->i++;
	struct uft_sql_expr r = {0};
	rc = term(p, &r);
	if (!rc && (e->op || e->cast || r.op || r.cast))
		rc = sql_fail(p->err, t->pos,
			      "'%s' takes two plain fields (no CAST, no third operand)", t->op);
	if (!rc) {
		e->op = t->op[0];
		e->b = r.a;
		r.a.text = NULL;
	}
	expr_clear(&r);
	t = peek(p);
	if (!rc && (is_op(t, "+") || is_op(t, "-")))
		rc = sql_fail(p->err, t->pos, "'%s': only two fields can be added or subtracted",
			      t->op);
	return rc;
}

static bool label_follows(struct parser *p)
{
	if (peek(p)->kind == SQL_T_AS) {
		p->i++;
		return true;
	}
	return peek(p)->kind == SQL_T_IDENT;
}

static int label(struct parser *p, char **out)
{
	if (peek(p)->kind != SQL_T_IDENT)
		return expected(p, "a name");
	if (strchr(peek(p)->text, '.'))
		return sql_fail(p->err, peek(p)->pos, "a name cannot hold '.': '%s'",
				peek(p)->text);
	return take_text(p, out);
}

static int event_ref(struct parser *p, struct uft_sql_event_ref *ev)
{
	const struct sql_token *t = peek(p);
	if (t->kind != SQL_T_IDENT)
		return expected(p, "an event");
	const char *dot = strchr(t->text, '.');
	if (dot && strchr(dot + 1, '.'))
		return sql_fail(p->err, t->pos, "an event is EVENT or SYSTEM.EVENT: '%s'", t->text);
	ev->pos = t->pos;
	int rc = take_text(p, &ev->name);
	if (!rc && label_follows(p))
		rc = label(p, &ev->alias);
	return rc;
}

static int add_sel(struct parser *p, struct uft_sql *q, size_t *cap)
{
	if (uft_array_reserve(q->sels, *cap, q->nr_sels + 1, 4))
		return -ENOMEM;
	struct uft_sql_sel *s = &q->sels[q->nr_sels++];
	*s = (struct uft_sql_sel){0};
	int rc = expr(p, &s->e);
	if (!rc && label_follows(p))
		rc = label(p, &s->label);
	return rc;
}

static int add_match(struct parser *p, struct uft_sql *q, size_t *cap)
{
	if (uft_array_reserve(q->matches, *cap, q->nr_matches + 1, 2))
		return -ENOMEM;
	struct uft_sql_match *m = &q->matches[q->nr_matches++];
	*m = (struct uft_sql_match){0};
	int rc = field(p, &m->a);
	if (!rc && !accept_op(p, "=") && !accept_op(p, "=="))
		rc = expected(p, "'='");
	return rc ? rc : field(p, &m->b);
}

/* WHERE conditions: ',' joins top-level terms, '&&' binds tighter than
 * '||', '!' and parentheses as in C. */
static int cond_or(struct parser *p, struct uft_sql_cond **out);

static struct uft_sql_cond *node(enum uft_sql_cond_kind kind, int pos)
{
	struct uft_sql_cond *c = calloc(1, sizeof(*c));
	if (c) {
		c->kind = kind;
		c->pos = pos;
	}
	return c;
}

static void cond_free(struct uft_sql_cond *c)
{
	if (!c)
		return;
	cond_free(c->l);
	cond_free(c->r);
	free(c->field.text);
	free(c->value);
	free(c);
}

static const char *const cmp_ops[] = {"<=", ">=", "==", "!=", "<", ">", "=", "&", "~"};

static int cmp(struct parser *p, struct uft_sql_cond *c)
{
	int rc = field(p, &c->field);
	if (rc)
		return rc;
	const struct sql_token *t = peek(p);
	for (size_t k = 0; k < ARRAY_SIZE(cmp_ops); k++)
		if (is_op(t, cmp_ops[k]))
			strcpy(c->op, strcmp(t->op, "=") ? t->op : "==");
	if (!c->op[0])
		return expected(p, "a comparison (< > <= >= = == != & ~)");
	p->i++;
	bool neg = accept_op(p, "-");
	t = peek(p);
	if (t->kind == SQL_T_STR && !neg) {
		c->is_str = true;
		rc = take_text(p, &c->value);
	} else if (t->kind == SQL_T_NUM) {
		if (asprintf(&c->value, "%s%s", neg ? "-" : "", t->text) < 0)
			return -ENOMEM;
		p->i++;
	} else {
		return expected(p, "a number or a \"string\"");
	}
	if (!rc && !strcmp(c->op, "~") && !c->is_str)
		rc = sql_fail(p->err, t->pos, "'~' needs a \"string\"");
	return rc;
}

static int cond_unary(struct parser *p, struct uft_sql_cond **out)
{
	int pos = peek(p)->pos, rc;
	struct uft_sql_cond *c;

	if (accept_op(p, "!")) {
		c = *out = node(UFT_SQL_NOT, pos);
		return c ? cond_unary(p, &c->l) : -ENOMEM;
	}
	if (accept_op(p, "(")) {
		c = *out = node(UFT_SQL_PAREN, pos);
		if (!c)
			return -ENOMEM;
		rc = cond_or(p, &c->l);
		return rc ? rc : expect_op(p, ")");
	}
	c = *out = node(UFT_SQL_CMP, pos);
	return c ? cmp(p, c) : -ENOMEM;
}

/* One left-associative level: sub (op sub)*. */
static int cond_level(struct parser *p, struct uft_sql_cond **out, const char *op,
		      enum uft_sql_cond_kind kind,
		      int (*sub)(struct parser *, struct uft_sql_cond **))
{
	int rc = sub(p, out);
	while (!rc && is_op(peek(p), op)) {
		struct uft_sql_cond *c = node(kind, peek(p)->pos);
		if (!c)
			return -ENOMEM;
		p->i++;
		c->l = *out;
		*out = c;
		rc = sub(p, &c->r);
	}
	return rc;
}

static int cond_and(struct parser *p, struct uft_sql_cond **out)
{
	return cond_level(p, out, "&&", UFT_SQL_AND, cond_unary);
}

static int cond_or(struct parser *p, struct uft_sql_cond **out)
{
	return cond_level(p, out, "||", UFT_SQL_OR, cond_and);
}

static int cond_top(struct parser *p, struct uft_sql_cond **out)
{
	return cond_level(p, out, ",", UFT_SQL_AND, cond_or);
}

static int statement(struct parser *p, struct uft_sql *q)
{
	size_t scap = 0, mcap = 0;
	int rc;

	if (peek(p)->kind != SQL_T_SELECT)
		return expected(p, "SELECT");
	p->i++;
	do {
		rc = add_sel(p, q, &scap);
		if (rc)
			return rc;
	} while (accept_op(p, ","));
	if (peek(p)->kind != SQL_T_FROM)
		return expected(p, "',' or FROM");
	p->i++;
	rc = event_ref(p, &q->from);
	if (!rc && peek(p)->kind == SQL_T_JOIN) {
		p->i++;
		q->has_join = true;
		rc = event_ref(p, &q->join);
		if (!rc && peek(p)->kind != SQL_T_ON)
			rc = expected(p, "ON");
		if (!rc)
			p->i++;
		while (!rc) {
			rc = add_match(p, q, &mcap);
			if (rc || !accept_op(p, ","))
				break;
		}
	}
	if (!rc && peek(p)->kind == SQL_T_WHERE) {
		p->i++;
		rc = cond_top(p, &q->where);
	}
	if (!rc && peek(p)->kind != SQL_T_END)
		rc = expected(p, q->where ? "the end" : "JOIN, WHERE or the end");
	return rc;
}

int uft_sql_parse(const char *text, struct uft_sql **out, struct uft_sql_error *err)
{
	struct parser p = {.err = err};
	struct uft_sql *q;
	int rc;

	*out = NULL;
	rc = sql_lex(text, &p.t, err);
	if (rc)
		return rc;
	q = calloc(1, sizeof(*q));
	rc = q ? statement(&p, q) : -ENOMEM;
	sql_tokens_free(&p.t);
	if (rc) {
		uft_sql_free(q);
		return rc;
	}
	*out = q;
	return 0;
}

void uft_sql_free(struct uft_sql *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->nr_sels; i++) {
		expr_clear(&q->sels[i].e);
		free(q->sels[i].label);
	}
	free(q->sels);
	for (size_t i = 0; i < q->nr_matches; i++) {
		free(q->matches[i].a.text);
		free(q->matches[i].b.text);
	}
	free(q->matches);
	free(q->from.name);
	free(q->from.alias);
	free(q->join.name);
	free(q->join.alias);
	cond_free(q->where);
	free(q);
}
