/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sqlhist translation (docs/design/hist.md, sqlhist): without JOIN one hist trigger;
 * with JOIN the synthetic event, the start event's trigger saving every
 * start field used in variables, and the end event's trigger computing each
 * column and firing the action. Variables are named __<label>_RAND_N with N
 * counting over the statement, start captures first. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sqlhist/sqlhist_impl.h"
#include "util/util.h"

static int find_event(const struct uft_sql_event_ref *ref, uft_sql_lookup_fn lookup, void *ctx,
		      const struct uft_sql_event **ev, struct uft_sql_error *err)
{
	const char *dot = strchr(ref->name, '.');
	char *sys = dot ? strndup(ref->name, (size_t)(dot - ref->name)) : NULL;
	int rc;

	if (dot && !sys)
		return -ENOMEM;
	rc = lookup(ctx, sys, dot ? dot + 1 : ref->name, ev);
	free(sys);
	if (rc == -ENOENT)
		return sql_fail(err, ref->pos, "no event '%s'", ref->name);
	if (rc == -EEXIST)
		return sql_fail(err, ref->pos, "event '%s' is in several systems: write SYSTEM.%s",
				ref->name, ref->name);
	if (rc)
		return sql_fail(err, ref->pos, "event '%s': %s", ref->name, strerror(-rc));
	return 0;
}

static bool is_name(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int add(struct uft_sql_out *out, const char *file, char *text)
{
	struct uft_sql_cmd *c = &out->cmd[out->nr];

	c->text = text;
	c->file = strdup(file);
	if (!text || !c->file) {
		free(c->file);
		free(text);
		c->file = c->text = NULL;
		return -ENOMEM;
	}
	out->nr++;
	return 0;
}

static char *trigger_file(const struct uft_sql_event *ev)
{
	char *s;
	return asprintf(&s, "events/%s/%s/trigger", ev->system, ev->name) < 0 ? NULL : s;
}

/* Adds text (taken, NULL on a failed allocation) for ev's trigger file. */
static int add_trigger(struct uft_sql_out *out, const struct uft_sql_event *ev, char *text)
{
	char *file = trigger_file(ev);
	int rc = add(out, file ? file : "", text);

	if (!file && !rc) {
		out->nr--;
		free(out->cmd[out->nr].file);
		free(out->cmd[out->nr].text);
		rc = -ENOMEM;
	}
	free(file);
	return rc;
}

static const char *const modifiers[] = {
    [UFT_SQL_CAST_HEX] = ".hex",
    [UFT_SQL_CAST_SYM] = ".sym",
    [UFT_SQL_CAST_SYM_OFFSET] = ".sym-offset",
    [UFT_SQL_CAST_SYSCALL] = ".syscall",
    [UFT_SQL_CAST_EXECNAME] = ".execname",
    [UFT_SQL_CAST_LOG2] = ".log2",
};

static int hist_only(const struct uft_sql *q, const struct uft_sql_opts *o,
		     const struct sql_events *evs, struct uft_sql_out *out,
		     struct uft_sql_error *err)
{
	char *keys = NULL, *vals = NULL, *filter[2] = {NULL, NULL}, *text = NULL;
	size_t klen = 0, vlen = 0, nk = 0, nv = 0;
	FILE *km = open_memstream(&keys, &klen), *vm = open_memstream(&vals, &vlen);
	int rc = km && vm ? 0 : -ENOMEM;

	if (!rc && (o->onmax || o->onchange || o->snapshot || o->trace_snapshot || o->save))
		rc = sql_fail(err, 0, "-m, -c, -s, -T and -S need a JOIN (a synthetic event)");
	for (size_t i = 0; !rc && i < q->nr_sels; i++) {
		const struct uft_sql_expr *e = &q->sels[i].e;
		struct sql_rfield r;
		char buf[128];

		if (e->op) {
			rc = sql_fail(err, e->pos, "an expression needs a JOIN");
			break;
		}
		rc = sql_resolve(evs, &e->a, &r, err);
		if (rc)
			break;
		if (r.ev < 0) {
			rc = sql_fail(err, e->a.pos, "%s needs a JOIN", e->a.text);
			break;
		}
		if (e->cast && sql_is_string(&r)) {
			rc = sql_fail(err, e->pos, "'%s' is a string: strings cannot be cast",
				      e->a.text);
			break;
		}
		if (e->cast == UFT_SQL_CAST_EXECNAME && (!r.f || strcmp(r.f->name, "common_pid"))) {
			rc = sql_fail(err, e->pos, "EXECNAME and COMM casts take common_pid only");
			break;
		}
		const char *name = sql_hist_name(&r, buf, sizeof(buf));
		if (e->cast == UFT_SQL_CAST_COUNTER)
			fprintf(vm, "%s%s", nv++ ? "," : "", name);
		else
			fprintf(km, "%s%s%s", nk++ ? "," : "", name,
				e->cast ? modifiers[e->cast] : "");
	}
	if (km && fclose(km) && !rc)
		rc = -ENOMEM;
	if (vm && fclose(vm) && !rc)
		rc = -ENOMEM;
	if (!rc && !nk)
		rc = sql_fail(err, q->sels[0].e.pos,
			      "a histogram needs a key: select a field that is not a _COUNTER_");
	if (!rc)
		rc = sql_where(q->where, evs, filter, err);
	if (!rc && asprintf(&text, "hist:keys=%s%s%s%s%s", keys, nv ? ":vals=" : "", nv ? vals : "",
			    filter[0] ? " if " : "", filter[0] ? filter[0] : "") < 0)
		rc = -ENOMEM;
	if (!rc) {
		rc = add_trigger(out, evs->ev[0], text);
		text = NULL;
	}
	free(text);
	free(keys);
	free(vals);
	free(filter[0]);
	return rc;
}

/* The JOIN translation's working state. */
struct join {
	const struct uft_sql *q;
	const struct uft_sql_opts *o;
	const struct sql_events *evs;
	struct uft_sql_error *err;
	unsigned rand;
	int n; /* the last N used */
	/* start fields captured, as hist names, and their N */
	char *cap[64];
	int cap_n[64];
	size_t nr_cap;
	char *keys[2];
};

/* The N of the start variable holding name, capturing it on first use. */
static int capture(struct join *j, const char *name)
{
	for (size_t i = 0; i < j->nr_cap; i++)
		if (!strcmp(j->cap[i], name))
			return j->cap_n[i];
	if (j->nr_cap == ARRAY_SIZE(j->cap))
		return sql_fail(j->err, 0, "too many start fields");
	if (!(j->cap[j->nr_cap] = strdup(name)))
		return -ENOMEM;
	j->cap_n[j->nr_cap++] = ++j->n;
	return j->n;
}

static bool is_delta(const struct sql_rfield *r)
{
	return r->sp == SQL_SP_DELTA || r->sp == SQL_SP_DELTA_USECS;
}

static bool is_ts(const struct sql_rfield *r)
{
	return r->sp == SQL_SP_TS || r->sp == SQL_SP_TS_USECS || is_delta(r);
}

/* The ON pairs: one field of each event per pair, into the two key lists. */
static int join_keys(struct join *j)
{
	size_t len[2] = {0, 0};
	FILE *m[2] = {open_memstream(&j->keys[0], &len[0]), open_memstream(&j->keys[1], &len[1])};
	int rc = m[0] && m[1] ? 0 : -ENOMEM;

	for (size_t i = 0; !rc && i < j->q->nr_matches; i++) {
		const struct uft_sql_match *mt = &j->q->matches[i];
		struct sql_rfield a, b;
		char buf[128];

		rc = sql_resolve(j->evs, &mt->a, &a, j->err);
		if (!rc)
			rc = sql_resolve(j->evs, &mt->b, &b, j->err);
		if (rc)
			break;
		if (a.ev < 0 || b.ev < 0 || a.ev == b.ev) {
			rc = sql_fail(j->err, mt->a.pos,
				      "'%s' and '%s' must be a field of each event (%s and %s)",
				      mt->a.text, mt->b.text, j->evs->ev[0]->name,
				      j->evs->ev[1]->name);
			break;
		}
		if (sql_is_string(&a) != sql_is_string(&b)) {
			rc = sql_fail(j->err, mt->a.pos, "'%s' and '%s' differ in type", mt->a.text,
				      mt->b.text);
			break;
		}
		fprintf(m[a.ev], "%s%s", i ? "," : "", sql_hist_name(&a, buf, sizeof(buf)));
		fprintf(m[b.ev], "%s%s", i ? "," : "", sql_hist_name(&b, buf, sizeof(buf)));
	}
	for (int e = 0; e < 2; e++)
		if (m[e] && fclose(m[e]) && !rc)
			rc = -ENOMEM;
	return rc;
}

struct column {
	struct sql_rfield a, b;
	const char *label;
	int n;
};

/* One operand of a column's expression in the end event's trigger. */
static int operand(struct join *j, FILE *m, const struct sql_rfield *r)
{
	char buf[128];
	int n;

	if (r->ev == 1) {
		fputs(sql_hist_name(r, buf, sizeof(buf)), m);
		return 0;
	}
	if (is_delta(r)) {
		const char *ts =
		    r->sp == SQL_SP_DELTA ? "common_timestamp" : "common_timestamp.usecs";
		n = capture(j, ts);
		if (n > 0)
			fprintf(m, "%s-$__arg_%u_%d", ts, j->rand, n);
		return n < 0 ? n : 0;
	}
	n = capture(j, sql_hist_name(r, buf, sizeof(buf)));
	if (n > 0)
		fprintf(m, "$__arg_%u_%d", j->rand, n);
	return n < 0 ? n : 0;
}

static int column(struct join *j, size_t i, struct column *cols)
{
	struct column *c = &cols[i];
	const struct uft_sql_sel *s = &j->q->sels[i];
	const struct uft_sql_expr *e = &s->e;
	int rc;

	if (e->cast)
		return sql_fail(j->err, e->pos, "CAST is for histograms without JOIN");
	rc = sql_resolve(j->evs, &e->a, &c->a, j->err);
	if (!rc && e->op)
		rc = sql_resolve(j->evs, &e->b, &c->b, j->err);
	if (rc)
		return rc;
	if (e->op && (is_delta(&c->a) || is_delta(&c->b)))
		return sql_fail(j->err, e->pos, "TIMESTAMP_DELTA is a column of its own");
	if (e->op && (sql_is_string(&c->a) || sql_is_string(&c->b)))
		return sql_fail(j->err, e->pos, "strings cannot be added or subtracted");
	if (e->op && (c->a.sp == SQL_SP_STACK || c->b.sp == SQL_SP_STACK))
		return sql_fail(j->err, e->pos, "STACKTRACE cannot be added or subtracted");
	c->label = s->label;
	if (!c->label) {
		if (e->op)
			return sql_fail(j->err, e->pos, "name the expression: (...) AS NAME");
		const char *dot = strrchr(e->a.text, '.');
		c->label = dot ? dot + 1 : e->a.text;
	}
	for (size_t k = 0; k < i; k++)
		if (!strcmp(cols[k].label, c->label))
			return sql_fail(j->err, e->pos, "two columns are named '%s'", c->label);
	return 0;
}

/* The handler of the end event's actions, "onmatch(sys.ev)" by default. */
static int handler(struct join *j, const struct column *cols, char **out)
{
	const struct uft_sql_opts *o = j->o;
	const char *var = o->onmax ? o->onmax : o->onchange;

	if (!var)
		return asprintf(out, "onmatch(%s.%s)", j->evs->ev[0]->system, j->evs->ev[0]->name) <
			       0
			   ? -ENOMEM
			   : 0;
	for (size_t i = 0; i < j->q->nr_sels; i++)
		if (!strcmp(cols[i].label, var))
			return asprintf(out, "%s($__%s_%u_%d)", o->onmax ? "onmax" : "onchange",
					var, j->rand, cols[i].n) < 0
				   ? -ENOMEM
				   : 0;
	return sql_fail(j->err, 0, "-%c %s: no column is named '%s'", o->onmax ? 'm' : 'c', var,
			var);
}

/* -S: end event fields, checked, written back comma-joined. */
static int save_list(struct join *j, FILE *m)
{
	struct sql_events end = {{j->evs->ev[1]}, {NULL}, 1};
	char *list = strdup(j->o->save), *save = NULL;
	int rc = list ? 0 : -ENOMEM, k = 0;

	for (char *f = list ? strtok_r(list, ",", &save) : NULL; f && !rc;
	     f = strtok_r(NULL, ",", &save)) {
		struct uft_sql_field in = {f, 0};
		struct sql_rfield r;
		rc = sql_resolve(&end, &in, &r, j->err);
		if (rc == -EINVAL) {
			char why[sizeof(j->err->msg)];
			memcpy(why, j->err->msg, sizeof(why));
			rc = sql_fail(j->err, 0, "-S: %.160s", why);
		}
		if (!rc && !r.f)
			rc =
			    sql_fail(j->err, 0, "-S %s: not a field of %s", f, j->evs->ev[1]->name);
		if (!rc)
			fprintf(m, "%s%s", k++ ? "," : "", f);
	}
	if (!rc && !k)
		rc = sql_fail(j->err, 0, "-S: no fields given");
	free(list);
	return rc;
}

static int actions(struct join *j, const struct column *cols, FILE *m)
{
	const struct uft_sql_opts *o = j->o;
	bool trace = o->trace_snapshot || (!o->snapshot && !o->save);
	bool snap = o->snapshot || o->trace_snapshot;
	char *h = NULL;
	int rc;

	if (o->onmax && o->onchange)
		return sql_fail(j->err, 0, "-m and -c exclude each other");
	if ((snap || o->save) && !o->onmax && !o->onchange)
		return sql_fail(j->err, 0, "-s, -T and -S need -m or -c");
	rc = handler(j, cols, &h);
	if (rc)
		return rc;
	if (trace) {
		fprintf(m, ":%s.trace(%s", h, o->name ? o->name : "Anonymous");
		for (size_t i = 0; i < j->q->nr_sels; i++)
			fprintf(m, ",$__%s_%u_%d", cols[i].label, j->rand, cols[i].n);
		fputc(')', m);
	}
	if (o->save) {
		fprintf(m, ":%s.save(", h);
		rc = save_list(j, m);
		fputc(')', m);
	}
	if (!rc && snap)
		fprintf(m, ":%s.snapshot()", h);
	free(h);
	return rc;
}

/* Numbers the start event's captures first: they come first in the
 * numbering of the variables. */
static int number_captures(struct join *j, struct column *cols)
{
	const struct uft_sql *q = j->q;
	int rc = 0;

	for (size_t i = 0; !rc && i < q->nr_sels; i++) {
		char *tmp = NULL;
		size_t tl = 0;
		FILE *t = open_memstream(&tmp, &tl);
		if (!t)
			return -ENOMEM;
		rc = operand(j, t, &cols[i].a);
		if (!rc && q->sels[i].e.op)
			rc = operand(j, t, &cols[i].b);
		fclose(t);
		free(tmp);
	}
	return rc;
}

/* One selected column: a variable of the end event's trigger (em) and a field
 * of the synthetic event (sm). */
static int column_field(struct join *j, size_t i, struct column *c, FILE *sm, FILE *em)
{
	const struct uft_sql_sel *sel = &j->q->sels[i];
	struct sql_rfield ts = {.ev = 1, .sp = SQL_SP_TS};
	char def[256];
	int rc;

	if (!is_name(c->label))
		return sql_fail(j->err, sel->e.pos, "'%s' cannot name a field", c->label);
	c->n = ++j->n;
	fprintf(em, "%s__%s_%u_%d=", i ? "," : "", c->label, j->rand, c->n);
	rc = operand(j, em, &c->a);
	if (!rc && sel->e.op) {
		fputc(sel->e.op, em);
		rc = operand(j, em, &c->b);
	}
	if (!rc && sql_synth_field(is_ts(&c->a) || (sel->e.op && is_ts(&c->b)) ? &ts : &c->a,
				   c->label, def, sizeof(def)))
		rc =
		    sql_fail(j->err, sel->e.pos, "'%s' has no synthetic event type", sel->e.a.text);
	if (!rc)
		fprintf(sm, " %s;", def);
	return rc;
}

/* The synthetic event's definition (*synth) and the end event's trigger
 * (*end), with its actions and the WHERE terms of the end event; the start
 * event's filter goes to filter[0]. */
static int synth_and_end(struct join *j, const char *name, struct column *cols, char **synth,
			 char **end, char *filter[2])
{
	const struct uft_sql *q = j->q;
	size_t slen = 0, elen = 0;
	FILE *sm = open_memstream(synth, &slen);
	FILE *em = open_memstream(end, &elen);
	int rc = sm && em ? 0 : -ENOMEM;

	if (!rc) {
		fprintf(sm, "s:%s", name);
		fprintf(em, "hist:keys=%s:", j->keys[1]);
	}
	if (!rc)
		rc = number_captures(j, cols);
	for (size_t i = 0; !rc && i < q->nr_sels; i++)
		rc = column_field(j, i, &cols[i], sm, em);
	if (!rc)
		rc = actions(j, cols, em);
	if (!rc)
		rc = sql_where(q->where, j->evs, filter, j->err);
	if (!rc && filter[1])
		fprintf(em, " if %s", filter[1]);
	if (sm && fclose(sm) && !rc)
		rc = -ENOMEM;
	if (em && fclose(em) && !rc)
		rc = -ENOMEM;
	return rc;
}

/* The start event's trigger: its keys, the captures, its filter. */
static int start_cmd(struct join *j, const char *filter, char **out)
{
	char *vars = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&vars, &len);
	int rc = 0;

	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < j->nr_cap; i++)
		fprintf(m, "%s__arg_%u_%d=%s", i ? "," : ":", j->rand, j->cap_n[i], j->cap[i]);
	if (filter)
		fprintf(m, " if %s", filter);
	if (fclose(m))
		rc = -ENOMEM;
	if (!rc && asprintf(out, "hist:keys=%s%s", j->keys[0], vars) < 0) {
		*out = NULL;
		rc = -ENOMEM;
	}
	free(vars);
	return rc;
}

static int join_cmds(struct join *j, struct uft_sql_out *out)
{
	const struct uft_sql *q = j->q;
	const char *name = j->o->name ? j->o->name : "Anonymous";
	struct column *cols = calloc(q->nr_sels, sizeof(*cols));
	char *synth = NULL, *start = NULL, *end = NULL, *filter[2] = {NULL, NULL};
	int rc = cols ? 0 : -ENOMEM;

	if (!rc && !is_name(name))
		rc = sql_fail(j->err, 0, "'%s' cannot name a synthetic event", name);
	if (!rc)
		rc = join_keys(j);
	for (size_t i = 0; !rc && i < q->nr_sels; i++)
		rc = column(j, i, cols);
	if (!rc)
		rc = synth_and_end(j, name, cols, &synth, &end, filter);
	if (!rc)
		rc = start_cmd(j, filter[0], &start);
	if (!rc) {
		rc = add(out, "dynamic_events", synth);
		synth = NULL;
	}
	if (!rc) {
		rc = add_trigger(out, j->evs->ev[0], start);
		start = NULL;
	}
	if (!rc) {
		rc = add_trigger(out, j->evs->ev[1], end);
		end = NULL;
	}
	if (!rc && !(out->synth = strdup(name)))
		rc = -ENOMEM;
	free(synth);
	free(start);
	free(end);
	free(filter[0]);
	free(filter[1]);
	free(cols);
	return rc;
}

int uft_sql_translate(const struct uft_sql *q, const struct uft_sql_opts *o,
		      uft_sql_lookup_fn lookup, void *ctx, struct uft_sql_out *out,
		      struct uft_sql_error *err)
{
	static const struct uft_sql_opts none;
	struct sql_events evs = {.nr = 1, .alias = {q->from.alias, q->join.alias}};
	int rc;

	*out = (struct uft_sql_out){0};
	if (!o)
		o = &none;
	rc = find_event(&q->from, lookup, ctx, &evs.ev[0], err);
	if (!rc && q->has_join) {
		rc = find_event(&q->join, lookup, ctx, &evs.ev[1], err);
		evs.nr = 2;
	}
	if (!rc && !q->has_join)
		rc = hist_only(q, o, &evs, out, err);
	else if (!rc) {
		struct join j = {.q = q, .o = o, .evs = &evs, .err = err, .rand = o->rand & 0x7fff};
		rc = join_cmds(&j, out);
		for (size_t i = 0; i < j.nr_cap; i++)
			free(j.cap[i]);
		free(j.keys[0]);
		free(j.keys[1]);
	}
	if (rc)
		uft_sql_out_free(out);
	return rc;
}

void uft_sql_out_free(struct uft_sql_out *out)
{
	for (int i = 0; i < out->nr; i++) {
		free(out->cmd[i].file);
		free(out->cmd[i].text);
	}
	free(out->synth);
	*out = (struct uft_sql_out){0};
}
