/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sqlhist internals shared by the lexer, the parser and the translator. */
#ifndef UFT_SQLHIST_IMPL_H
#define UFT_SQLHIST_IMPL_H

#include <stdarg.h>

#include "engine/sqlhist/sqlhist.h"

enum sql_tok {
	SQL_T_END,
	SQL_T_IDENT,
	SQL_T_NUM,
	SQL_T_STR,
	SQL_T_PUNCT,
	/* keywords (case-insensitive, not after a backslash) */
	SQL_T_SELECT,
	SQL_T_FROM,
	SQL_T_JOIN,
	SQL_T_ON,
	SQL_T_WHERE,
	SQL_T_AS,
	SQL_T_CAST,
};

struct sql_token {
	enum sql_tok kind;
	int pos;
	char *text; /* identifiers without their backslash; strings with quotes */
	char op[3]; /* SQL_T_PUNCT */
};

struct sql_tokens {
	struct sql_token *v;
	size_t n;
};

/* Splits text into tokens ending with SQL_T_END. Returns 0, -EINVAL with
 * *err filled, or -ENOMEM. */
int sql_lex(const char *text, struct sql_tokens *out, struct uft_sql_error *err);
void sql_tokens_free(struct sql_tokens *t);

/* Fields resolved against the statement's one or two events. */
enum sql_special {
	SQL_SP_NONE,
	SQL_SP_TS,
	SQL_SP_TS_USECS,
	SQL_SP_DELTA, /* end minus start timestamp */
	SQL_SP_DELTA_USECS,
	SQL_SP_STACK,
	SQL_SP_COMM,
	SQL_SP_CPU,
};

struct sql_events {
	const struct uft_sql_event *ev[2]; /* FROM (start), JOIN (end) */
	const char *alias[2];
	int nr;
};

struct sql_rfield {
	int ev; /* index into sql_events; -1 for the TIMESTAMP_DELTA ones */
	enum sql_special sp;
	const struct uft_field *f; /* NULL for a special field */
};

int sql_resolve(const struct sql_events *evs, const struct uft_sql_field *in,
		struct sql_rfield *out, struct uft_sql_error *err);
/* The field's name in a hist trigger ("common_timestamp.usecs", "next_comm"). */
const char *sql_hist_name(const struct sql_rfield *r, char *buf, size_t len);
bool sql_is_string(const struct sql_rfield *r);
/* "TYPE LABEL" for a synthetic event's definition, or -EINVAL. */
int sql_synth_field(const struct sql_rfield *r, const char *label, char *buf, size_t len);

/* The WHERE clause as one filter per event (malloc'd, NULL for none). */
int sql_where(const struct uft_sql_cond *w, const struct sql_events *evs, char *out[2],
	      struct uft_sql_error *err);

/* Fills err (printf-like) and returns -EINVAL. */
int sql_fail(struct uft_sql_error *err, int pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
