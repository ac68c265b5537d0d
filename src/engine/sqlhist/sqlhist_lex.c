/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sqlhist tokens: identifiers (dots included, so "start.pid" is one field),
 * numbers, strings, operators and the keywords. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/sqlhist/sqlhist_impl.h"
#include "util/util.h"

int sql_fail(struct uft_sql_error *err, int pos, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->pos = pos;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const struct {
	const char *word;
	enum sql_tok kind;
} keywords[] = {
    {"SELECT", SQL_T_SELECT}, {"FROM", SQL_T_FROM}, {"JOIN", SQL_T_JOIN}, {"ON", SQL_T_ON},
    {"WHERE", SQL_T_WHERE},   {"AS", SQL_T_AS},	    {"CAST", SQL_T_CAST},
};

/* Longest first, so "&&" is not read as two "&". */
static const char *const puncts[] = {"&&", "||", "==", "!=", "<=", ">=", "<", ">", "=",
				     "!",  "&",	 "~",  "(",  ")",  ",",	 "+", "-"};

static int push(struct sql_tokens *t, size_t *cap, struct sql_token tok)
{
	if (uft_array_reserve(t->v, *cap, t->n + 1, 16)) {
		free(tok.text);
		return -ENOMEM;
	}
	t->v[t->n++] = tok;
	return 0;
}

static bool ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* One token at s[i]; sets *len to its length. */
static int lex_one(const char *s, size_t i, struct sql_token *tok, size_t *len,
		   struct uft_sql_error *err)
{
	size_t j = i;

	*tok = (struct sql_token){.pos = (int)i};
	if (s[j] == '\\' || ident_start(s[j])) {
		bool escaped = s[j] == '\\';
		if (escaped && !ident_start(s[++j]))
			return sql_fail(err, (int)i, "a field name must follow '\\'");
		size_t start = j;
		while (ident_char(s[j]))
			j++;
		tok->kind = SQL_T_IDENT;
		for (size_t k = 0; !escaped && k < ARRAY_SIZE(keywords); k++)
			if (strlen(keywords[k].word) == j - start &&
			    !strncasecmp(s + start, keywords[k].word, j - start))
				tok->kind = keywords[k].kind;
		tok->text = strndup(s + start, j - start);
	} else if (isdigit((unsigned char)s[j])) {
		if (s[j] == '0' && (s[j + 1] == 'x' || s[j + 1] == 'X')) {
			j += 2;
			if (!isxdigit((unsigned char)s[j]))
				return sql_fail(err, (int)i, "bad hex number");
			while (isxdigit((unsigned char)s[j]))
				j++;
		} else {
			while (isdigit((unsigned char)s[j]))
				j++;
		}
		if (ident_char(s[j]))
			return sql_fail(err, (int)i, "bad number");
		tok->kind = SQL_T_NUM;
		tok->text = strndup(s + i, j - i);
	} else if (s[j] == '"') {
		for (j++; s[j] && s[j] != '"'; j++)
			if (s[j] == '\\' && s[j + 1])
				j++;
		if (!s[j])
			return sql_fail(err, (int)i, "unterminated string");
		j++;
		tok->kind = SQL_T_STR;
		tok->text = strndup(s + i, j - i);
	} else {
		for (size_t k = 0; k < ARRAY_SIZE(puncts); k++) {
			size_t n = strlen(puncts[k]);
			if (!strncmp(s + i, puncts[k], n)) {
				tok->kind = SQL_T_PUNCT;
				memcpy(tok->op, puncts[k], n);
				*len = n;
				return 0;
			}
		}
		if (isprint((unsigned char)s[i]))
			return sql_fail(err, (int)i, "unexpected character '%c'", s[i]);
		return sql_fail(err, (int)i, "unexpected byte 0x%02x", (unsigned char)s[i]);
	}
	if (!tok->text)
		return -ENOMEM;
	*len = j - i;
	return 0;
}

int sql_lex(const char *s, struct sql_tokens *t, struct uft_sql_error *err)
{
	size_t i = 0, cap = 0;
	int rc;

	*t = (struct sql_tokens){0};
	for (;;) {
		struct sql_token tok;
		size_t len = 0;

		while (isspace((unsigned char)s[i]))
			i++;
		if (!s[i])
			break;
		rc = lex_one(s, i, &tok, &len, err);
		if (!rc)
			rc = push(t, &cap, tok);
		if (rc) {
			sql_tokens_free(t);
			return rc;
		}
		i += len;
	}
	rc = push(t, &cap, (struct sql_token){.kind = SQL_T_END, .pos = (int)i});
	if (rc)
		sql_tokens_free(t);
	return rc;
}

void sql_tokens_free(struct sql_tokens *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].text);
	free(t->v);
	*t = (struct sql_tokens){0};
}
