/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the stages of the `hist:` compiler share (hist_parse.c runs them in
 * the kernel's order): the parser state, error recording and the text
 * helpers. Errors carry the kernel's message and the position of the
 * first occurrence of the offending token in the command. */
#ifndef UFT_HIST_PARSE_H
#define UFT_HIST_PARSE_H

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_impl.h"

#define STR_MAX 256 /* the kernel's MAX_FILTER_STR_VAL */

struct hist_parse {
	struct uft_hist *h;
	const struct uft_hist_event *ev;
	struct uft_hist_error *err;
	char *keys_str, *vals_str, *sort_str, *clock;
	char *assign[UFT_HIST_MAX_VARS];
	char *action_str[HIST_MAX_ACTIONS];
	unsigned n_assign, n_actions;
	unsigned depth;
	const char *modifier; /* of the field parse_field() parses */
};

/* Records error `code` (enum uft_hist_err, 0: none logged) at `token`;
 * returns err. */
static inline int fail(struct hist_parse *p, int err, int code, const char *token)
{
	p->err->err = err;
	p->err->code = code;
	p->err->pos = 0;
	if (token && p->h->cmd) {
		const char *at = strstr(p->h->cmd, token);
		if (at)
			p->err->pos = (int)(at - p->h->cmd);
	}
	return err;
}

/* What uft does not implement: -EOPNOTSUPP. */
static inline int unsupported(struct hist_parse *p, const char *what)
{
	p->err->err = -EOPNOTSUPP;
	p->err->unsupported = what;
	return -EOPNOTSUPP;
}

static inline char *strip(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static inline bool has_prefix(const char *s, const char *pre, size_t *len)
{
	size_t n = strlen(pre);

	if (strncmp(s, pre, n))
		return false;
	*len = n;
	return true;
}

/* kstrtoull(s, 0): optional '+', 0x/0 prefixes, one trailing newline. */
static inline bool parse_ull(const char *s, unsigned long long *v)
{
	char *end;

	if (*s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno)
		return false;
	if (*end == '\n')
		end++;
	return *end == '\0';
}

/* Keys, values and sort keys (hist_parse_fields.c). */
int uft_hparse_vals(struct hist_parse *p);
int uft_hparse_keys(struct hist_parse *p);
int uft_hparse_sort_keys(struct hist_parse *p);
/* One key or value operand, NAME[.MODIFIER] or a constant, into hf. */
int uft_hparse_operand(struct hist_parse *p, char *str, bool key, struct hist_field *hf);

/* Variables and expressions (hist_parse_expr.c). */
int uft_hparse_var_defs(struct hist_parse *p);
/* An expression (top: at the start of a value or definition, where a
 * unary minus may stand); p->depth counts its subexpressions. */
int uft_hparse_expr(struct hist_parse *p, char *str, bool top, struct hist_expr **out);
/* One operand of an expression: constant, reference or field. */
int uft_hparse_leaf(struct hist_parse *p, char *str, struct hist_expr **out);
/* The same on a copy of str, which stays as it is, at depth 0. */
int uft_hparse_leaf_of(struct hist_parse *p, const char *str, struct hist_expr **out);
/* `$name` or `sys.event.$name`. */
int uft_hparse_ref(struct hist_parse *p, char *str, struct hist_expr **out);
struct hist_expr *uft_hparse_new_expr(struct hist_parse *p, uint8_t op);
/* The slot of variable `var` of r in p->h's uses[] (added once), or a
 * negative errno. */
int uft_hparse_add_use(struct hist_parse *p, struct uft_hist *r, uint32_t var);

/* Actions: their syntax before any field, their targets after the filter
 * (hist_parse_actions.c). */
int uft_hparse_actions(struct hist_parse *p);
int uft_hparse_create_actions(struct hist_parse *p);

#endif
