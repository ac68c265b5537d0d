/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compiles a `hist:` specification the way the kernel's hist trigger parser
 * does: same splitting, same order of checks, same messages and error
 * positions (the first occurrence of the offending token in the command).
 * This file splits the specification and runs the stages in the kernel's
 * order: attributes, action syntax, values, variables, keys, sort keys,
 * the table, the filter, the clock, then the actions' targets. */
#define _GNU_SOURCE
#include <stdio.h>

#include "wire/clocks.h"
#include "engine/hist/hist_parse.h"

/* ilog2(roundup_pow_of_two(v)) as the kernel computes it on x86_64, where
 * 0, 1 and anything above 2^63 give 0. */
static unsigned log2_up(uint64_t v)
{
	if (v <= 1 || v > (1ull << 63))
		return 0;
	return (unsigned)(64 - __builtin_clzll(v - 1));
}

static int parse_assignment(struct hist_parse *p, char *str)
{
	size_t len;

	if (has_prefix(str, "key=", &len) || has_prefix(str, "keys=", &len)) {
		p->keys_str = str + len;
	} else if (has_prefix(str, "val=", &len) || has_prefix(str, "vals=", &len) ||
		   has_prefix(str, "values=", &len)) {
		p->vals_str = str + len;
	} else if (has_prefix(str, "sort=", &len)) {
		p->sort_str = str + len;
	} else if (has_prefix(str, "name=", &len)) {
		free(p->h->name);
		p->h->name = strdup(str);
		if (!p->h->name)
			return fail(p, -ENOMEM, 0, NULL);
	} else if (has_prefix(str, "clock=", &len)) {
		p->clock = strip(str + len);
	} else if (has_prefix(str, "size=", &len)) {
		unsigned long long size;
		unsigned bits;

		if (!parse_ull(str + len, &size))
			return fail(p, -EINVAL, 0, NULL);
		bits = log2_up(size);
		if (bits < UFT_HIST_BITS_MIN || bits > UFT_HIST_BITS_MAX)
			return fail(p, -EINVAL, 0, NULL);
		p->h->t.bits = bits;
	} else {
		if (p->n_assign == UFT_HIST_MAX_VARS)
			return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_VARS, str);
		p->assign[p->n_assign++] = str;
	}
	return 0;
}

static int parse_attrs(struct hist_parse *p, char *s)
{
	while (s) {
		char *str = strsep(&s, ":");
		char *rhs = strchr(str, '=');
		size_t len;
		int rc;

		if (rhs) {
			if (!rhs[1])
				return fail(p, -EINVAL, UFT_HIST_ERR_EMPTY_ASSIGNMENT, str);
			rc = parse_assignment(p, str);
			if (rc)
				return rc;
		} else if (!strcmp(str, "nohitcount") || !strcmp(str, "NOHC")) {
			p->h->no_hitcount = true;
		} else if (!strcmp(str, "pause")) {
			p->h->spec_flags |= UFT_HIST_PAUSE;
		} else if (!strcmp(str, "cont") || !strcmp(str, "continue")) {
			p->h->spec_flags |= UFT_HIST_CONT;
		} else if (!strcmp(str, "clear")) {
			p->h->spec_flags |= UFT_HIST_CLEAR;
		} else if (p->n_actions < 8 &&
			   (has_prefix(str, "onmatch(", &len) || has_prefix(str, "onmax(", &len) ||
			    has_prefix(str, "onchange(", &len))) {
			p->action_str[p->n_actions++] = str;
		} else {
			return fail(p, -EINVAL, 0, NULL);
		}
	}
	if (!p->keys_str)
		return fail(p, -EINVAL, 0, NULL);
	return 0;
}

/* Splits "TRIGGER if FILTER" where the kernel does: the first "if" with a
 * blank on both sides. Returns the filter (after "if" and one blank) or
 * NULL, or sets *bad when "if" starts the text or ends it. */
static char *split_filter(char *buf, bool *bad)
{
	char *p = buf;
	size_t len = strlen(buf);

	*bad = false;
	for (;;) {
		p = strstr(p, "if");
		if (!p)
			return NULL;
		if (p == buf) {
			*bad = true;
			return NULL;
		}
		if (p[-1] != ' ' && p[-1] != '\t') {
			p++;
			continue;
		}
		if (len < 3 || p >= buf + len - 3) {
			*bad = true;
			return NULL;
		}
		if (p[2] != ' ' && p[2] != '\t') {
			p++;
			continue;
		}
		p[-1] = '\0';
		return p + 3;
	}
}

static void init_error(struct uft_hist_error *e)
{
	memset(e, 0, sizeof(*e));
}

/* The table of the compiled keys, values and variables, stacks included. */
static int make_table(struct hist_parse *p)
{
	struct uft_hist *h = p->h;
	int rc = uft_hist_table_init(&h->t, h->t.bits, h->key_size, h->n_vals, h->n_vars,
				     h->has_execname);

	if (rc)
		return fail(p, rc, 0, NULL);
	if (h->t.n_stacks &&
	    !(h->t.stacks = calloc((size_t)h->t.max_elts * h->t.n_stacks * HIST_STACK_WORDS,
				   sizeof(*h->t.stacks))))
		return fail(p, -ENOMEM, 0, NULL);
	if (h->t.n_strs &&
	    !(h->t.strs = calloc((size_t)h->t.max_elts * h->t.n_strs, HIST_SAVE_STR)))
		return fail(p, -ENOMEM, 0, NULL);
	return 0;
}

/* The `if` filter; its errors are the filter's, placed after " if ". */
static int make_filter(struct hist_parse *p, const char *filter)
{
	struct uft_hist *h = p->h;
	struct uft_filter_error ferr = {0};
	const char *at;
	int rc;

	h->filter_text = strdup(filter);
	if (!h->filter_text)
		return fail(p, -ENOMEM, 0, NULL);
	rc = uft_filter_compile_syms(filter, p->ev->fields, p->ev->nr_fields, p->ev->syms,
				     &h->filter, &ferr);
	if (rc == UFT_FILTER_CLEAR)
		rc = -EINVAL;
	if (rc) {
		p->err->err = rc;
		p->err->in_filter = rc == -EINVAL;
		p->err->filter = ferr;
		at = strstr(h->cmd, " if ");
		p->err->filter_off = at ? (int)(at - h->cmd) + 4 : 0;
		return rc;
	}
	h->needs = uft_filter_needs(h->filter);
	return 0;
}

/* The trace clock of a histogram that reads timestamps. */
static int set_clock(struct hist_parse *p)
{
	struct uft_hist *h = p->h;
	const char *clock = p->clock ? p->clock : "global";

	if (uft_clock_by_name(clock) < 0)
		return fail(p, -EINVAL, UFT_HIST_ERR_SET_CLOCK_FAIL, clock);
	h->clock = strdup(clock);
	if (!h->clock)
		return fail(p, -ENOMEM, 0, NULL);
	return 0;
}

/* The trigger part of buf (the filter split off): attributes, then each
 * stage in the kernel's order, stopping at the first error. */
static int compile_trigger(struct hist_parse *p, char *param)
{
	int rc;

	/* ".sym-offset" holds the minus sign of an expression: the kernel
	 * renames it first, and so do positions. */
	for (char *at = strstr(param, ".sym-offset"); at; at = strstr(at + 11, ".sym-offset"))
		at[4] = 'X';
	p->h->t.bits = UFT_HIST_BITS_DEFAULT;
	if ((rc = parse_attrs(p, param)) || (rc = uft_hparse_actions(p)) ||
	    (rc = uft_hparse_vals(p)) || (rc = uft_hparse_var_defs(p)) ||
	    (rc = uft_hparse_keys(p)) || (rc = uft_hparse_sort_keys(p)))
		return rc;
	return make_table(p);
}

static int compile(struct hist_parse *p, char *buf)
{
	struct uft_hist *h = p->h;
	char *param = buf, *filter;
	bool bad;
	int rc;

	if (!*buf)
		return fail(p, -EINVAL, 0, NULL);
	filter = split_filter(buf, &bad);
	if (bad)
		return fail(p, -EINVAL, 0, NULL);
	if (filter)
		param = strip(param);
	if ((rc = compile_trigger(p, param)))
		return rc;
	if (filter && (rc = make_filter(p, filter)))
		return rc;
	if (h->timestamps && (rc = set_clock(p)))
		return rc;
	if ((rc = uft_hparse_create_actions(p)))
		return rc;
	rc = uft_hist_track_init(h);
	if (rc)
		return fail(p, rc, 0, NULL);
	h->paused = h->spec_flags & UFT_HIST_PAUSE;
	return 0;
}

int uft_hist_create(const char *spec, const struct uft_hist_event *ev, struct uft_hist **out,
		    struct uft_hist_error *err)
{
	return uft_hist_create_env(spec, ev, NULL, out, err);
}

int uft_hist_create_env(const char *spec, const struct uft_hist_event *ev,
			const struct uft_hist_env *env, struct uft_hist **out,
			struct uft_hist_error *err)
{
	struct uft_hist_error dummy;
	struct hist_parse p = {.ev = ev, .err = err ? err : &dummy};
	char *copy, *buf;
	int rc;

	init_error(p.err);
	*out = NULL;
	if (!spec || !ev)
		return fail(&p, -EINVAL, 0, NULL);
	p.h = calloc(1, sizeof(*p.h));
	copy = strdup(spec);
	if (!p.h || !copy) {
		free(p.h);
		free(copy);
		return fail(&p, -ENOMEM, 0, NULL);
	}
	if (env)
		p.h->env = *env;
	p.h->snap_action = -1;
	/* References and synthetic events are held from the start, so that a
	 * failure drops what was taken. */
	p.h->linked = true;
	buf = strip(copy);
	if (!strncmp(buf, "hist:", 5))
		buf += 5;
	else if (!strcmp(buf, "hist"))
		buf += 4;
	if (asprintf(&p.h->cmd, "hist:%s", buf) < 0) {
		p.h->cmd = NULL;
		rc = fail(&p, -ENOMEM, 0, NULL);
	} else {
		p.h->raw_clock = ev->raw_clock;
		rc = compile(&p, buf);
	}
	free(copy);
	if (rc) {
		uft_hist_free(p.h);
		return rc;
	}
	uft_hist_compile_fast(p.h);
	*out = p.h;
	return 0;
}

void uft_hist_free(struct uft_hist *h)
{
	if (!h)
		return;
	uft_hist_unlink(h);
	for (uint32_t i = 0; i < h->n_vars; i++) {
		free(h->vars[i].name);
		uft_hist_expr_free(h->vars[i].e);
	}
	for (uint32_t i = 0; i < h->n_actions; i++) {
		struct hist_action *a = &h->actions[i];
		free(a->match);
		free(a->var_str);
		free(a->action_name);
		free(a->synth_name);
		for (uint32_t j = 0; j < a->n_params; j++) {
			uft_hist_expr_free(a->params[j]);
			free(a->param_text[j]);
		}
	}
	for (uint32_t i = 0; i < h->n_save; i++) {
		uft_hist_expr_free(h->save[i]);
		free(h->save_name[i]);
	}
	for (unsigned i = 0; i < UFT_HIST_MAX_VALS; i++) {
		free(h->vals[i].name);
		uft_hist_expr_free(h->vals[i].ex);
	}
	for (unsigned i = 0; i < UFT_HIST_MAX_KEYS; i++)
		free(h->keys[i].name);
	uft_filter_free(h->filter);
	uft_hist_table_free(&h->t);
	for (uint32_t i = 0; i < h->n_fvh; i++) {
		free(h->fvh[i].system);
		free(h->fvh[i].event);
		free(h->fvh[i].cmd);
	}
	free(h->cmd);
	free(h->name);
	free(h->filter_text);
	free(h->clock);
	free(h);
}
