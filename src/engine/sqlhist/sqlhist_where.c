/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sqlhist WHERE: the top-level terms (joined by && or ,) go to the filter of
 * the one event each concerns, re-serialised with spaces around comparison
 * operators and none around && and ||. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sqlhist/sqlhist_impl.h"

#define MAX_TERMS 64

static void flatten(const struct uft_sql_cond *c, const struct uft_sql_cond **terms, size_t *n,
		    bool *too_many)
{
	if (c->kind == UFT_SQL_AND) {
		flatten(c->l, terms, n, too_many);
		flatten(c->r, terms, n, too_many);
	} else if (*n < MAX_TERMS) {
		terms[(*n)++] = c;
	} else {
		*too_many = true;
	}
}

static bool has_or(const struct uft_sql_cond *c)
{
	return c && (c->kind == UFT_SQL_OR || has_or(c->l) || has_or(c->r));
}

/* The events a term's fields belong to (bit per event), checking each
 * comparison. Returns the mask or -EINVAL. */
static int term_events(const struct uft_sql_cond *c, const struct sql_events *evs,
		       struct uft_sql_error *err)
{
	if (c->kind != UFT_SQL_CMP) {
		int l = term_events(c->l, evs, err), r = c->r ? term_events(c->r, evs, err) : 0;
		return l < 0 ? l : r < 0 ? r : l | r;
	}
	struct sql_rfield r;
	int rc = sql_resolve(evs, &c->field, &r, err);
	if (rc)
		return rc;
	if (!r.f && r.sp != SQL_SP_COMM && r.sp != SQL_SP_CPU)
		return sql_fail(err, c->field.pos, "cannot filter on '%s'", c->field.text);
	bool str = sql_is_string(&r);
	if (str && !c->is_str)
		return sql_fail(err, c->pos, "'%s' is a string: compare it with a \"string\"",
				c->field.text);
	if (!str && c->is_str)
		return sql_fail(err, c->pos, "'%s' is a number, not a string", c->field.text);
	if (str && strcmp(c->op, "==") && strcmp(c->op, "!=") && strcmp(c->op, "~"))
		return sql_fail(err, c->pos, "strings compare with ==, != or ~ only");
	return 1 << r.ev;
}

static void put(FILE *m, const struct uft_sql_cond *c, const struct sql_events *evs)
{
	struct sql_rfield r;
	char buf[128];

	switch (c->kind) {
	case UFT_SQL_CMP:
		sql_resolve(evs, &c->field, &r, NULL); /* checked by term_events */
		fprintf(m, "%s %s %s",
			r.f		      ? sql_hist_name(&r, buf, sizeof(buf))
			: r.sp == SQL_SP_COMM ? "COMM"
					      : "CPU",
			c->op, c->value);
		break;
	case UFT_SQL_AND:
	case UFT_SQL_OR:
		put(m, c->l, evs);
		fputs(c->kind == UFT_SQL_AND ? "&&" : "||", m);
		put(m, c->r, evs);
		break;
	case UFT_SQL_NOT:
		fputc('!', m);
		put(m, c->l, evs);
		break;
	case UFT_SQL_PAREN:
		fputc('(', m);
		put(m, c->l, evs);
		fputc(')', m);
		break;
	}
}

int sql_where(const struct uft_sql_cond *w, const struct sql_events *evs, char *out[2],
	      struct uft_sql_error *err)
{
	const struct uft_sql_cond *terms[MAX_TERMS];
	int mask[MAX_TERMS];
	size_t n = 0, count[2] = {0, 0};
	bool too_many = false;
	int rc = 0;

	out[0] = out[1] = NULL;
	if (!w)
		return 0;
	flatten(w, terms, &n, &too_many);
	if (too_many)
		return sql_fail(err, w->pos, "more than %d conditions", MAX_TERMS);
	for (size_t i = 0; i < n; i++) {
		mask[i] = term_events(terms[i], evs, err);
		if (mask[i] < 0)
			return mask[i];
		if (mask[i] == 3)
			return sql_fail(err, terms[i]->pos,
					has_or(terms[i])
					    ? "'||' joins conditions of both events"
					    : "a condition may concern one event only");
		count[mask[i] >> 1]++;
	}
	for (int e = 0; e < evs->nr && !rc; e++) {
		size_t len = 0;
		FILE *m;

		if (!count[e])
			continue;
		m = open_memstream(&out[e], &len);
		if (!m)
			rc = -ENOMEM;
		for (size_t i = 0, k = 0; m && i < n; i++) {
			if (mask[i] >> 1 != e)
				continue;
			if (k++)
				fputs("&&", m);
			/* An || term among others keeps its meaning in parentheses. */
			bool wrap = count[e] > 1 && terms[i]->kind == UFT_SQL_OR;
			if (wrap)
				fputc('(', m);
			put(m, terms[i], evs);
			if (wrap)
				fputc(')', m);
		}
		if (m && fclose(m))
			rc = -ENOMEM;
	}
	if (rc) {
		free(out[0]);
		free(out[1]);
		out[0] = out[1] = NULL;
	}
	return rc;
}
