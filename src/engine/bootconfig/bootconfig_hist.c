/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A hist trigger command from the keys of one `hist` node, in the order the
 * kernel's boot-time tracing builds it (docs/design/bootconfig.md):
 *   hist:keys=K[:values=V][:sort=S][:size=N][:name=NAME][:VAR=EXPR...]
 *       [:pause|:continue|:clear][:onmax(..)..][:onchange(..)..][:onmatch(..)..][ if FILTER] */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bootconfig/bootconfig.h"

struct hist_out {
	FILE *f;
	const struct uft_bc_node *at;
	const char *why;
};

static int fail(struct hist_out *o, const struct uft_bc_node *at, const char *why)
{
	o->at = at;
	o->why = why;
	return -EINVAL;
}

/* The node's values; NULL when it has none. */
static struct uft_bc_node *take(struct uft_bc_node *h, const char *name)
{
	struct uft_bc_node *n = uft_bc_find(h, name);
	if (n)
		n->used = true;
	return n;
}

static void add_array(struct hist_out *o, struct uft_bc_node *h, const char *name)
{
	struct uft_bc_node *n = take(h, name);
	if (!n || !n->nr_vals)
		return;
	fprintf(o->f, ":%s=", name);
	for (uint32_t i = 0; i < n->nr_vals; i++)
		fprintf(o->f, "%s%s", i ? "," : "", n->vals[i]);
}

/* One handler: name(param) then its action. */
static int add_handler(struct hist_out *o, struct uft_bc_node *hn, const char *name,
		       const char *param)
{
	hn->used = true;
	struct uft_bc_node *p = take(hn, param);
	if (!p || !p->nr_vals || !*p->vals[0])
		return fail(o, hn,
			    strcmp(param, "var") == 0 ? "the handler needs 'var'"
						      : "the handler needs 'event'");
	/* onmax() and onchange() take a variable; `var = lat` means $lat. */
	const char *dollar = strcmp(param, "var") == 0 && p->vals[0][0] != '$' ? "$" : "";
	fprintf(o->f, ":%s(%s%s)", name, dollar, p->vals[0]);
	struct uft_bc_node *act = take(hn, "trace");
	if (!act)
		act = take(hn, "save");
	if (act) {
		if (!act->nr_vals)
			return fail(o, act, "the action needs values");
		fprintf(o->f, ".%s(", act->word);
		for (uint32_t i = 0; i < act->nr_vals; i++)
			fprintf(o->f, "%s%s", i ? "," : "", act->vals[i]);
		fputc(')', o->f);
	} else if (take(hn, "snapshot")) {
		fputs(".snapshot()", o->f);
	} else {
		return fail(o, hn, "the handler needs an action (trace, save or snapshot)");
	}
	return 0;
}

/* `onmax { var = .. }` is one handler; `onmax.0 {..} onmax.1 {..}` several. */
static int add_handlers(struct hist_out *o, struct uft_bc_node *h, const char *name,
			const char *param)
{
	struct uft_bc_node *hn = take(h, name);
	if (!hn)
		return 0;
	if (uft_bc_find(hn, param))
		return add_handler(o, hn, name, param);
	bool any = false;
	for (struct uft_bc_node *c = hn->child; c; c = c->next) {
		if (!uft_bc_find(c, param))
			continue;
		any = true;
		if (add_handler(o, c, name, param))
			return -EINVAL;
	}
	return any ? 0
		   : fail(o, hn,
			  strcmp(param, "var") == 0 ? "the handler needs 'var'"
						    : "the handler needs 'event'");
}

static int compose(struct hist_out *o, struct uft_bc_node *h)
{
	h->used = true;
	struct uft_bc_node *keys = take(h, "keys");
	if (!keys || !keys->nr_vals)
		return fail(o, h, "hist requires keys");
	fputs("hist", o->f);
	add_array(o, h, "keys");
	add_array(o, h, "values");
	add_array(o, h, "sort");
	const char *v;
	struct uft_bc_node *n;
	if ((n = take(h, "size")) && (v = uft_bc_value(n, "")))
		fprintf(o->f, ":size=%s", v);
	if ((n = take(h, "name")) && (v = uft_bc_value(n, "")))
		fprintf(o->f, ":name=%s", v);
	if ((n = take(h, "var"))) {
		for (struct uft_bc_node *c = n->child; c; c = c->next) {
			if (!c->nr_vals)
				return fail(o, c, "a variable needs an expression");
			c->used = true;
			fprintf(o->f, ":%s=", c->word);
			for (const char *s = c->vals[0]; *s; s++) /* an expression has no spaces */
				if (*s != ' ' && *s != '\t')
					fputc(*s, o->f);
		}
	}
	/* The control flags exclude each other; the first one wins. */
	if (take(h, "pause"))
		fputs(":pause", o->f);
	else if (take(h, "continue"))
		fputs(":continue", o->f);
	else if (take(h, "clear"))
		fputs(":clear", o->f);
	if (add_handlers(o, h, "onmax", "var") || add_handlers(o, h, "onchange", "var") ||
	    add_handlers(o, h, "onmatch", "event"))
		return -EINVAL;
	if ((n = take(h, "filter")) && (v = uft_bc_value(n, "")) && *v)
		fprintf(o->f, " if %s", v);
	return 0;
}

int uft_bc_hist_cmd(struct uft_bc_node *h, char **cmd, const struct uft_bc_node **at,
		    const char **why)
{
	size_t len;
	struct hist_out o = {.f = open_memstream(cmd, &len)};
	if (!o.f) {
		*at = h;
		*why = "out of memory";
		return -ENOMEM;
	}
	int rc = compose(&o, h);
	if (fclose(o.f) != 0 && !rc) {
		rc = -ENOMEM;
		o.at = h;
		o.why = "out of memory";
	}
	if (rc) {
		free(*cmd);
		*cmd = NULL;
		*at = o.at;
		*why = o.why;
	}
	return rc;
}
