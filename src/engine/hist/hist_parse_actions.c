/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Actions of a `hist:` specification: the handlers onmatch(), onmax() and
 * onchange() with trace()/SYNTH(), save() and snapshot(), parsed for
 * syntax first and created (synthetic event and its params resolved) after
 * the filter, in the kernel's order. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_parse.h"

/* Records an error the kernel logs before the one that follows. */
static void chain(struct hist_parse *p)
{
	struct uft_hist_error *e = p->err;

	if (e->code > 0 && e->n_prior < sizeof(e->prior) / sizeof(e->prior[0])) {
		e->prior[e->n_prior].code = e->code;
		e->prior[e->n_prior].pos = e->pos;
		e->n_prior++;
	}
}

/* An action's parameters as the kernel splits them: on commas, each
 * stripped and at least two characters long; with .trace() the first is
 * the synthetic event. */
static int parse_params(struct hist_parse *p, char *params, struct hist_action *a)
{
	bool first = true;

	while (params) {
		char *param;

		if (a->n_params >= HIST_MAX_PARAMS)
			return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_PARAMS, NULL);
		param = strip(strsep(&params, ","));
		if (strlen(param) < 2)
			return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_PARAM, param);
		if (first && a->trace_kw) {
			first = false;
			if (!(a->synth_name = strdup(param)))
				return fail(p, -ENOMEM, 0, NULL);
			continue;
		}
		first = false;
		if (!(a->param_text[a->n_params] = strdup(param)))
			return fail(p, -ENOMEM, 0, NULL);
		a->n_params++;
	}
	return 0;
}

/* ".ACTION(params)" after the handler. */
static int parse_action_call(struct hist_parse *p, char *s, struct hist_action *a)
{
	char *name, *params;
	int rc;

	strsep(&s, ".");
	if (!s)
		return fail(p, -EINVAL, UFT_HIST_ERR_ACTION_NOT_FOUND, NULL);
	name = strsep(&s, "(");
	if (!s)
		return fail(p, -EINVAL, UFT_HIST_ERR_ACTION_NOT_FOUND, NULL);
	params = strsep(&s, ")");
	if (!strncmp(name, "save", 4)) {
		if ((rc = parse_params(p, params, a)))
			return rc;
		if (a->handler == HANDLER_ONMATCH)
			return fail(p, -EINVAL, UFT_HIST_ERR_ACTION_MISMATCH, name);
		a->action = ACT_SAVE;
	} else if (!strncmp(name, "snapshot", 8)) {
		if (!s)
			return fail(p, -EINVAL, UFT_HIST_ERR_NO_CLOSING_PAREN, params);
		if (a->handler == HANDLER_ONMATCH)
			return fail(p, -EINVAL, UFT_HIST_ERR_ACTION_MISMATCH, name);
		a->action = ACT_SNAPSHOT;
	} else {
		a->trace_kw = !strncmp(name, "trace", 5);
		if ((rc = parse_params(p, params, a)))
			return rc;
		a->action = ACT_TRACE;
		if (!a->trace_kw && !(a->synth_name = strdup(name)))
			return fail(p, -ENOMEM, 0, NULL);
	}
	if (!(a->action_name = strdup(name)))
		return fail(p, -ENOMEM, 0, NULL);
	return 0;
}

/* The syntax of "onmatch(SYS.EVENT).ACTION(...)", "onmax($var).ACTION(...)"
 * or "onchange($var).ACTION(...)", checked before any field as the kernel
 * does; what the names refer to is resolved by create_action(). */
static int parse_action(struct hist_parse *p, char *str, struct hist_action *a)
{
	size_t len;
	char *s;

	if (has_prefix(str, "onmatch(", &len)) {
		char *match, *sys;

		a->handler = HANDLER_ONMATCH;
		s = str + len;
		match = strsep(&s, ")");
		if (!s)
			return fail(p, -EINVAL, UFT_HIST_ERR_NO_CLOSING_PAREN, match);
		sys = strsep(&match, ".");
		if (!match)
			return fail(p, -EINVAL, UFT_HIST_ERR_SUBSYS_NOT_FOUND, sys);
		if (p->h->env.event_exists && !p->h->env.event_exists(p->h->env.ctx, sys, match))
			return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_SUBSYS_EVENT, match);
		if (asprintf(&a->match, "%s.%s", sys, match) < 0) {
			a->match = NULL;
			return fail(p, -ENOMEM, 0, NULL);
		}
	} else {
		a->handler = has_prefix(str, "onmax(", &len) ? HANDLER_ONMAX : HANDLER_ONCHANGE;
		if (a->handler == HANDLER_ONCHANGE)
			has_prefix(str, "onchange(", &len);
		s = str + len;
		char *var = strsep(&s, ")");
		if (!s)
			return fail(p, -EINVAL, 0, NULL);
		if (!(a->var_str = strdup(var)))
			return fail(p, -ENOMEM, 0, NULL);
	}
	return parse_action_call(p, s, a);
}

int uft_hparse_actions(struct hist_parse *p)
{
	for (unsigned i = 0; i < p->n_actions; i++) {
		int rc = parse_action(p, p->action_str[i], &p->h->actions[i]);
		p->h->n_actions = i + 1;
		if (rc)
			return rc;
	}
	return 0;
}

/* SYS.EVENT.field of another event: the kernel's field variable, a hidden
 * hist trigger on that event ("keys=...:synthetic_field=field", keys of a
 * histogram there compatible with this one) made through the env, read
 * like any variable of another event; removed with this histogram. */
static int other_field(struct hist_parse *p, const char *sys, const char *evn, const char *field,
		       struct hist_expr **out)
{
	struct uft_hist *h = p->h, *fh;
	char *created = NULL, var[STR_MAX];
	int code = 0, idx, rc;

	if (!h->env.field_var)
		return unsupported(p, "fields of another event as params");
	if (h->n_fvh == sizeof(h->fvh) / sizeof(h->fvh[0]))
		return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_FIELD_VARS, field);
	fh = h->env.field_var(h->env.ctx, sys, evn, field, h, &code, &created);
	if (!fh)
		return fail(p, -EINVAL, code, field);
	if (created) {
		struct hist_fvh *f = &h->fvh[h->n_fvh++];
		f->system = strdup(sys);
		f->event = strdup(evn);
		f->cmd = created;
		if (!f->system || !f->event)
			return fail(p, -ENOMEM, 0, NULL);
	}
	snprintf(var, sizeof(var), "synthetic_%s", field);
	fh = uft_hist_data(fh);
	idx = uft_hist_var_index(fh, var);
	if (idx < 0)
		return fail(p, -EINVAL, UFT_HIST_ERR_SYNTH_VAR_NOT_FOUND, field);
	struct hist_expr *e = uft_hparse_new_expr(p, EX_REF);
	if (!e)
		return -ENOMEM;
	e->ref = fh;
	e->var = (uint32_t)idx;
	e->unit = fh->vars[idx].e->unit;
	e->is_string = fh->vars[idx].e->is_string;
	if ((rc = uft_hparse_add_use(p, fh, (uint32_t)idx)) < 0) {
		free(e);
		return rc;
	}
	e->slot = (uint32_t)rc;
	if (asprintf(&e->ref_name, "%s.%s.$%s", sys, evn, var) < 0) {
		e->ref_name = NULL;
		uft_hist_expr_free(e);
		return fail(p, -ENOMEM, 0, NULL);
	}
	*out = e;
	return 0;
}

/* A parameter that is no field of this event: for onmatch() without a
 * dot, the matching event's, as the kernel tries next after logging that
 * it found none here (whatever comes of that); else the kernel's errors. */
static int missing_field_param(struct hist_parse *p, const struct hist_action *a, const char *param,
			       struct hist_expr **e)
{
	char *msys, *mev;
	int rc;

	if (a->handler == HANDLER_ONMATCH && strchr(param, '.'))
		return fail(p, -EINVAL, UFT_HIST_ERR_PARAM_NOT_FOUND, param);
	chain(p);
	rc = fail(p, -EINVAL, UFT_HIST_ERR_FIELD_VAR_PARSE_FAIL, param);
	if (a->handler != HANDLER_ONMATCH)
		return rc;
	chain(p);
	msys = strdup(a->match);
	mev = msys ? strchr(msys, '.') : NULL;
	if (!mev) {
		free(msys);
		return fail(p, -ENOMEM, 0, NULL);
	}
	*mev++ = '\0';
	rc = other_field(p, msys, mev, param, e);
	free(msys);
	if (!rc)
		p->err->err = p->err->code = p->err->pos = 0;
	return rc;
}

/* A parameter without '$' (copy: its text, to cut up): a field of this
 * event, or SYS.EVENT.FIELD of another. */
static int field_param(struct hist_parse *p, const struct hist_action *a, const char *param,
		       char *copy, struct hist_expr **e)
{
	char *d = strchr(copy, '.'), *d2 = d ? strchr(d + 1, '.') : NULL;
	int rc;

	if (d && !d2) {
		rc = fail(p, -EINVAL, 0, NULL); /* "a.b": the kernel logs nothing */
	} else if (d2 &&
		   (strncmp(copy, p->ev->system, (size_t)(d - copy)) || p->ev->system[d - copy] ||
		    strncmp(d + 1, p->ev->name, (size_t)(d2 - d - 1)) || p->ev->name[d2 - d - 1])) {
		*d = *d2 = '\0';
		rc = other_field(p, copy, d + 1, d2 + 1, e);
	} else {
		rc = uft_hparse_leaf(p, copy, e);
	}
	if (rc == -EINVAL && p->err->code == UFT_HIST_ERR_FIELD_NOT_FOUND)
		rc = missing_field_param(p, a, param, e);
	return rc;
}

/* Parameter i of a trace action: a variable of this or another histogram
 * or a field (no expression). */
static int trace_param(struct hist_parse *p, const struct hist_action *a, uint32_t i,
		       struct hist_expr **e)
{
	char *param = a->param_text[i], *copy = strdup(param);
	int rc;

	if (!copy)
		return fail(p, -ENOMEM, 0, NULL);
	p->depth = 0;
	if (strchr(copy, '$')) {
		rc = uft_hparse_ref(p, copy, e);
		/* The kernel's trace_action_find_var(): a variable it does not
		 * find (an expression such as $a+$b included) is a param. */
		if (rc == -EINVAL && p->err->code == UFT_HIST_ERR_VAR_NOT_FOUND)
			p->err->code = UFT_HIST_ERR_PARAM_NOT_FOUND;
	} else if (strpbrk(copy, "+-*/")) {
		rc = fail(p, -EINVAL, UFT_HIST_ERR_INVALID_PARAM, param);
	} else {
		rc = field_param(p, a, param, copy, e);
	}
	free(copy);
	return rc;
}

/* The synthetic event of a trace action and its parameters, checked
 * against its fields' count and kinds (see uft_hist_env.synth_get). */
static int create_trace(struct hist_parse *p, struct hist_action *a)
{
	struct uft_hist *h = p->h;
	uint8_t kinds[HIST_MAX_PARAMS + 64];
	uint32_t nr = 0;

	if (h->env.synth_get)
		a->synth = h->env.synth_get(h->env.ctx, a->synth_name, &nr, kinds);
	if (!a->synth)
		return fail(p, -EINVAL, UFT_HIST_ERR_SYNTH_EVENT_NOT_FOUND, a->synth_name);
	for (uint32_t i = 0; i < a->n_params; i++) {
		struct hist_expr *e = NULL;
		int rc = trace_param(p, a, i, &e);

		if (rc)
			return rc;
		a->params[i] = e;
	}
	if (a->n_params != nr)
		return fail(p, -EINVAL, UFT_HIST_ERR_SYNTH_COUNT_MISMATCH, a->synth_name);
	for (uint32_t i = 0; i < nr; i++) {
		if (kinds[i] == UFT_SYNTH_PARAM_NONE ||
		    (kinds[i] == UFT_SYNTH_PARAM_STR) != a->params[i]->is_string ||
		    (kinds[i] == UFT_SYNTH_PARAM_STACK) != a->params[i]->is_stack)
			return fail(p, -EINVAL, UFT_HIST_ERR_SYNTH_TYPE_MISMATCH, a->param_text[i]);
		/* A stack reaches a synthetic event through a variable, which
		 * holds it for the entry (the kernel's var_ref_vals). */
		if (a->params[i]->is_stack && a->params[i]->op == EX_FIELD)
			return unsupported(p, "stack traces as parameters but through a variable");
	}
	return 0;
}

/* save(f,...): each field becomes a variable of the entry named as
 * written, as the kernel's field variables. */
static int create_save(struct hist_parse *p, struct hist_action *a)
{
	struct uft_hist *h = p->h;

	if (h->n_save)
		return fail(p, -EEXIST, UFT_HIST_ERR_TOO_MANY_SAVE_ACTIONS, NULL);
	for (uint32_t i = 0; i < a->n_params; i++) {
		char *param = a->param_text[i];
		struct hist_expr *e = NULL;
		int rc = uft_hparse_leaf_of(p, param, &e);

		if (rc == -ENOMEM)
			return rc;
		if (rc) {
			chain(p);
			fail(p, -EINVAL, UFT_HIST_ERR_FIELD_VAR_PARSE_FAIL, param);
		} else if (uft_hist_var_index(h, param) >= 0) {
			uft_hist_expr_free(e);
			fail(p, -EINVAL, UFT_HIST_ERR_VAR_CREATE_FIND_FAIL, param);
			rc = -EINVAL;
		}
		if (rc) {
			chain(p);
			return fail(p, -EINVAL, UFT_HIST_ERR_FIELD_VAR_CREATE_FAIL, param);
		}
		if (e->is_stack) {
			uft_hist_expr_free(e);
			return unsupported(p, "stack traces in save()");
		}
		h->save[h->n_save] = e;
		h->save_name[h->n_save] = strdup(param);
		h->n_save++;
		if (!h->save_name[h->n_save - 1])
			return fail(p, -ENOMEM, 0, NULL);
		h->save_words += e->is_string ? HIST_SAVE_STR / 8 : 1;
	}
	return 0;
}

static int create_action(struct hist_parse *p, uint32_t i)
{
	struct uft_hist *h = p->h;
	struct hist_action *a = &h->actions[i];
	int idx;

	if (a->handler == HANDLER_ONMATCH)
		return create_trace(p, a);
	if (a->var_str[0] != '$')
		return fail(p, -EINVAL, UFT_HIST_ERR_ONX_NOT_VAR, a->var_str);
	idx = uft_hist_var_index(h, a->var_str + 1);
	if (idx < 0)
		return fail(p, -EINVAL, UFT_HIST_ERR_ONX_VAR_NOT_FOUND, a->var_str + 1);
	a->var = (uint32_t)idx;
	if (h->vars[idx].e->is_stack)
		return fail(p, -EINVAL, 0, NULL); /* stacks have no max */
	switch (a->action) {
	case ACT_TRACE:
		return create_trace(p, a);
	case ACT_SAVE:
		return create_save(p, a);
	default:
		/* One conditional snapshot per instance: the kernel's EBUSY. */
		if (h->snap_action >= 0)
			return fail(p, -EBUSY, 0, NULL);
		h->snap_action = (int)i;
		return 0;
	}
}

int uft_hparse_create_actions(struct hist_parse *p)
{
	for (uint32_t i = 0; i < p->h->n_actions; i++) {
		int rc = create_action(p, i);
		if (rc)
			return rc;
	}
	return 0;
}
