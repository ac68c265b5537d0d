/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Variables and expressions of a `hist:` specification: var=definitions,
 * $references to this or another histogram's variables, arithmetic with
 * the kernel's precedence, nesting and unit checks. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_parse.h"

void uft_hist_expr_free(struct hist_expr *e)
{
	if (!e)
		return;
	uft_hist_expr_free(e->l);
	uft_hist_expr_free(e->r);
	free(e->f.name);
	free(e->ref_name);
	free(e);
}

struct hist_expr *uft_hparse_new_expr(struct hist_parse *p, uint8_t op)
{
	struct hist_expr *e = calloc(1, sizeof(*e));
	if (!e)
		fail(p, -ENOMEM, 0, NULL);
	else
		e->op = op;
	return e;
}

/* The slot of variable `var` of r in h's uses[] (added once), or -1. */
int uft_hparse_add_use(struct hist_parse *p, struct uft_hist *r, uint32_t var)
{
	struct uft_hist *h = p->h;

	for (uint32_t i = 0; i < h->n_uses; i++)
		if (h->uses[i] == r && h->use_var[i] == var)
			return (int)i;
	if (h->n_uses == sizeof(h->uses) / sizeof(h->uses[0]))
		return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_VARS, NULL);
	h->uses[h->n_uses] = r;
	h->use_var[h->n_uses] = var;
	r->users++;
	return (int)h->n_uses++;
}

/* A copy of a field expression (a variable that is a plain field, which a
 * reference to it stands for, as the kernel's local_field_var_ref()). */
static struct hist_expr *copy_field_expr(struct hist_parse *p, const struct hist_expr *src)
{
	struct hist_expr *e = uft_hparse_new_expr(p, src->op);

	if (!e)
		return NULL;
	*e = *src;
	e->l = e->r = NULL;
	e->ref_name = NULL;
	e->f.ex = NULL;
	if (src->f.name && !(e->f.name = strdup(src->f.name))) {
		free(e);
		fail(p, -ENOMEM, 0, NULL);
		return NULL;
	}
	return e;
}

/* "sys.event." before the '$' at `dollar`: *sys and *evn point into *copy
 * (malloc'd); anything else is no variable. */
static int ref_event(struct hist_parse *p, const char *str, const char *dollar, char **copy,
		     const char **sys, const char **evn)
{
	char *c = strndup(str, (size_t)(dollar - str)), *dot;
	size_t n;

	if (!c)
		return fail(p, -ENOMEM, 0, NULL);
	n = strlen(c);
	dot = strchr(c, '.');
	if (c[n - 1] != '.' || !dot || dot == c + n - 1 || dot == c) {
		free(c);
		return fail(p, -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, dollar + 1);
	}
	c[n - 1] = '\0';
	*dot = '\0';
	*copy = c;
	*sys = c;
	*evn = dot + 1;
	return 0;
}

/* Variable idx of this histogram as this event sets it. */
static int self_ref(struct hist_parse *p, int idx, struct hist_expr **out)
{
	const struct hist_expr *v = p->h->vars[idx].e;
	struct hist_expr *e = uft_hparse_new_expr(p, EX_SELF);

	if (!e)
		return -ENOMEM;
	e->var = (uint32_t)idx;
	e->unit = v->unit;
	e->is_string = v->is_string;
	e->is_stack = v->is_stack;
	*out = e;
	return 0;
}

/* Variable `name` of another hist trigger (of event sys.evn when given),
 * read once per event for this histogram's key. */
static int other_ref(struct hist_parse *p, const char *sys, const char *evn, const char *name,
		     struct hist_expr **out)
{
	struct uft_hist *found = NULL;
	struct hist_expr *e;
	int n = 0, idx, rc;

	if (p->h->env.find_var)
		n = p->h->env.find_var(p->h->env.ctx, sys, evn, name, &found);
	if (n > 1)
		return fail(p, -EINVAL, UFT_HIST_ERR_VAR_NOT_UNIQUE, name);
	if (n < 1 || !found || (idx = uft_hist_var_index(found, name)) < 0)
		return fail(p, -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, name);
	found = uft_hist_data(found); /* a named one's variables are its data's */
	e = uft_hparse_new_expr(p, EX_REF);
	if (!e)
		return -ENOMEM;
	e->ref = found;
	e->var = (uint32_t)idx;
	e->unit = found->vars[idx].e->unit;
	e->is_stack = found->vars[idx].e->is_stack;
	e->is_string = found->vars[idx].e->is_string;
	if ((rc = uft_hparse_add_use(p, found, (uint32_t)idx)) < 0) {
		free(e);
		return rc;
	}
	e->slot = (uint32_t)rc;
	*out = e;
	return 0;
}

/* `$name` or `sys.event.$name`: a variable of this trigger (defined
 * before) or of another hist trigger of the instance. */
int uft_hparse_ref(struct hist_parse *p, char *str, struct hist_expr **out)
{
	const char *sys = NULL, *evn = NULL, *dollar = strchr(str, '$'), *name = dollar + 1;
	char *copy = NULL;
	struct hist_expr *e = NULL;
	int idx, rc;

	if (dollar != str && (rc = ref_event(p, str, dollar, &copy, &sys, &evn)))
		return rc;
	idx = uft_hist_var_index(p->h, name);
	if (idx >= 0 && (!sys || (!strcmp(sys, p->ev->system) && !strcmp(evn, p->ev->name)))) {
		const struct hist_expr *v = p->h->vars[idx].e;

		free(copy);
		if ((v->op == EX_FIELD || v->op == EX_CONST) && !v->is_stack) {
			/* A variable that is a plain field: the reference is the field. */
			if (!(e = copy_field_expr(p, v)))
				return -ENOMEM;
			*out = e;
			return 0;
		}
		rc = self_ref(p, idx, &e);
	} else {
		rc = other_ref(p, sys, evn, name, &e);
		free(copy);
	}
	if (rc)
		return rc;
	if (asprintf(&e->ref_name, "%s", str) < 0) {
		e->ref_name = NULL;
		uft_hist_expr_free(e);
		return fail(p, -ENOMEM, 0, NULL);
	}
	*out = e;
	return 0;
}

int uft_hparse_leaf_of(struct hist_parse *p, const char *str, struct hist_expr **out)
{
	char *copy = strdup(str);
	int rc;

	if (!copy)
		return fail(p, -ENOMEM, 0, NULL);
	p->depth = 0;
	rc = uft_hparse_leaf(p, copy, out);
	free(copy);
	return rc;
}

/* One operand: constant, reference or field (with modifier). */
int uft_hparse_leaf(struct hist_parse *p, char *str, struct hist_expr **out)
{
	struct hist_expr *e;
	int rc;

	if (strchr(str, '$'))
		return uft_hparse_ref(p, str, out);
	e = uft_hparse_new_expr(p, EX_FIELD);
	if (!e)
		return -ENOMEM;
	rc = uft_hparse_operand(p, str, false, &e->f);
	if (rc) {
		uft_hist_expr_free(e);
		return rc;
	}
	e->is_stack = e->f.src == HF_STACK;
	if (e->is_stack && (e->f.flags & HF_STACKTRACE)) {
		uft_hist_expr_free(e);
		return unsupported(p, "the .stacktrace modifier but in keys");
	}
	if (e->f.src == HF_CONST) {
		e->op = EX_CONST;
		e->constant = e->f.constant;
	} else if (e->f.src == HF_TS) {
		e->unit = e->f.flags & HF_USECS ? HIST_UNIT_US : HIST_UNIT_NS;
	}
	if (e->f.flags & (HF_PERCENT | HF_GRAPH | HF_SYM | HF_SYM_OFFSET | HF_SYSCALL |
			  HF_EXECNAME | HF_LOG2 | HF_BUCKET)) {
		uft_hist_expr_free(e);
		return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, str);
	}
	e->is_string = e->f.is_string;
	*out = e;
	return 0;
}

/* -(...) at the start of an expression, and only there. */
static int parse_neg(struct hist_parse *p, char *str, bool top, struct hist_expr **out)
{
	size_t n = strlen(str);
	struct hist_expr *e, *l = NULL;
	int rc;

	if (!top)
		return fail(p, -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR, str);
	/* "-(a)+b": the minus does not cover the whole expression; the kernel
	 * points past the "-(" at it. */
	if (str[1] != '(' || str[n - 1] != ')')
		return fail(p, -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR,
			    str[1] == '(' ? str + 2 : str);
	str[n - 1] = '\0';
	if (++p->depth > 3)
		return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_SUBEXPR, str);
	rc = uft_hparse_expr(p, str + 2, false, &l);
	if (rc)
		return rc;
	if (l->is_string) {
		uft_hist_expr_free(l);
		return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_STR_OPERAND, str + 2);
	}
	if (l->is_stack) {
		uft_hist_expr_free(l);
		return fail(p, -EINVAL, 0, NULL); /* no arithmetic on stacks */
	}
	if (!(e = uft_hparse_new_expr(p, EX_NEG))) {
		uft_hist_expr_free(l);
		return -ENOMEM;
	}
	e->l = l;
	e->unit = l->unit;
	*out = e;
	return 0;
}

/* The operator an expression splits at: the last + or -, else the last *
 * or /, so equal precedences associate left to right; NULL: none. */
static char *split_op(char *str)
{
	char *op = NULL;

	for (char *c = str; *c; c++)
		if (*c == '+' || *c == '-')
			op = c;
	if (!op)
		for (char *c = str; *c; c++)
			if (*c == '*' || *c == '/')
				op = c;
	return op;
}

/* Two constants make one, as the kernel's parse_expr() folds them: the
 * trigger file then shows "x=2" for "x=16-8-4-2" (u64 arithmetic; a zero
 * divisor was refused before). */
static void fold_constants(struct hist_expr *e)
{
	if (e->l->op != EX_CONST || e->r->op != EX_CONST)
		return;
	uint64_t a = e->l->constant, b = e->r->constant;
	e->constant = e->op == EX_ADD	? a + b
		      : e->op == EX_SUB ? a - b
		      : e->op == EX_MUL ? a * b
					: (b ? a / b : 0);
	uft_hist_expr_free(e->l);
	uft_hist_expr_free(e->r);
	e->l = e->r = NULL;
	e->op = EX_CONST;
	e->unit = 0;
}

int uft_hparse_expr(struct hist_parse *p, char *str, bool top, struct hist_expr **out)
{
	struct hist_expr *e, *l = NULL, *r = NULL;
	char *op;
	int rc;

	if (str[0] == '-')
		return parse_neg(p, str, top, out);
	op = split_op(str);
	if (!op)
		return uft_hparse_leaf(p, str, out);
	if (++p->depth > 3)
		return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_SUBEXPR, str);
	if (op > str && strchr("+-*/", op[-1]))
		return fail(p, -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR, op);
	char opc = *op;
	*op = '\0';
	rc = uft_hparse_expr(p, str, false, &l);
	if (!rc)
		rc = uft_hparse_expr(p, op + 1, false, &r);
	if (!rc && (l->is_string || r->is_string))
		rc =
		    fail(p, -EINVAL, UFT_HIST_ERR_INVALID_STR_OPERAND, l->is_string ? str : op + 1);
	if (!rc && (l->is_stack || r->is_stack))
		rc = fail(p, -EINVAL, 0, NULL); /* no arithmetic on stacks */
	if (!rc && l->unit && r->unit && l->unit != r->unit)
		rc = fail(p, -EINVAL, UFT_HIST_ERR_TIMESTAMP_MISMATCH, str);
	if (!rc && opc == '/' && r->op == EX_CONST && r->constant == 0)
		rc = fail(p, -EINVAL, UFT_HIST_ERR_DIVISION_BY_ZERO, op + 1);
	if (!rc && !(e = uft_hparse_new_expr(p, EX_ADD)))
		rc = -ENOMEM;
	if (rc) {
		uft_hist_expr_free(l);
		uft_hist_expr_free(r);
		return rc;
	}
	e->op = opc == '+' ? EX_ADD : opc == '-' ? EX_SUB : opc == '*' ? EX_MUL : EX_DIV;
	e->l = l;
	e->r = r;
	e->unit = l->unit ? l->unit : r->unit;
	fold_constants(e);
	*out = e;
	return 0;
}

/* The syntax of every assignment first, as the kernel checks it. */
static int check_var_defs(struct hist_parse *p)
{
	unsigned n_vars = 0;

	for (unsigned i = 0; i < p->n_assign; i++) {
		char *copy = strdup(p->assign[i]), *s = copy;
		int rc = 0;

		if (!copy)
			return fail(p, -ENOMEM, 0, NULL);
		for (unsigned j = 0; j < UFT_HIST_MAX_VARS && !rc; j++) {
			char *field_str = strsep(&s, ","), *var_name;

			if (!field_str)
				break;
			var_name = strsep(&field_str, "=");
			if (!var_name || !field_str)
				rc = fail(p, -EINVAL, UFT_HIST_ERR_MALFORMED_ASSIGNMENT, var_name);
			else if (n_vars++ == UFT_HIST_MAX_VARS)
				rc = fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_VARS, var_name);
		}
		free(copy);
		if (rc)
			return rc;
	}
	return 0;
}

int uft_hparse_var_defs(struct hist_parse *p)
{
	struct uft_hist *h = p->h;
	int rc0 = check_var_defs(p);

	if (rc0)
		return rc0;
	for (unsigned i = 0; i < p->n_assign; i++) {
		char *s = p->assign[i];

		for (unsigned j = 0; j < UFT_HIST_MAX_VARS; j++) {
			char *field_str = strsep(&s, ","), *var_name, *copy;
			int rc;

			if (!field_str)
				break;
			var_name = strsep(&field_str, "=");
			if (!var_name || !field_str || !*var_name)
				return fail(p, -EINVAL, UFT_HIST_ERR_MALFORMED_ASSIGNMENT,
					    var_name);
			if (h->n_vars == UFT_HIST_MAX_VARS)
				return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_VARS, var_name);
			if (uft_hist_var_index(h, var_name) >= 0)
				return fail(p, -EINVAL, UFT_HIST_ERR_DUPLICATE_VAR, var_name);
			copy = strdup(field_str);
			if (!copy)
				return fail(p, -ENOMEM, 0, NULL);
			p->depth = 0;
			struct hist_expr *e = NULL;
			rc = uft_hparse_expr(p, copy, true, &e);
			free(copy);
			if (rc)
				return rc;
			h->vars[h->n_vars].e = e;
			h->vars[h->n_vars].name = strdup(var_name);
			/* A stack taken here has a slot per entry; one read from
			 * another variable is that slot's address. */
			h->vars[h->n_vars].stack_slot =
			    e->is_stack && e->op == EX_FIELD ? (int32_t)h->t.n_stacks++ : -1;
			/* A string is kept per entry for other events' references
			 * (the kernel's field_var_str). */
			h->vars[h->n_vars].str_slot = e->is_string ? (int32_t)h->t.n_strs++ : -1;
			h->n_vars++;
			if (!h->vars[h->n_vars - 1].name)
				return fail(p, -ENOMEM, 0, NULL);
		}
	}
	return 0;
}
