/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Parses probe definition lines the way kernel/trace/trace_kprobe.c,
 * kernel/trace/trace_uprobe.c, kernel/trace/trace_fprobe.c and
 * kernel/trace/trace_eprobe.c do: the line split into words, the head
 * (kind, maxactive, GROUP/EVENT, location) checked in the kernel's order,
 * then each fetch arg. An error names a word and an offset in it; the
 * caret is that offset in the words joined by single blanks, which is the
 * command error_log shows. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/probe/probe_dwarf.h"
#include "engine/probe/probe_impl.h"
#include "util/util.h"
#include "util/words.h"

#include <uft/event.h>

static int fail(struct uft_probe_errpos *ep, int index, unsigned off, const char *msg)
{
	ep->msg = msg;
	ep->index = index;
	ep->offset = off;
	return -EINVAL;
}

static int to_ul(const char *s, unsigned long *out)
{
	if (*s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	char *end;
	errno = 0;
	*out = strtoul(s, &end, 0);
	return *end || errno ? -EINVAL : 0;
}

/* traceprobe_parse_event_name: "[GROUP/|GROUP.][EVENT]" at offset off of word 0. */
static int parse_event_name(const char *text, unsigned off, char **group, char **event,
			    struct uft_probe_errpos *ep)
{
	const char *slash = strchr(text, '/');
	if (!slash)
		slash = strchr(text, '.');
	if (slash) {
		if (slash == text)
			return fail(ep, 0, off, E_NO_GROUP_NAME);
		if (slash - text + 1 > UFT_PROBE_NAME_MAX)
			return fail(ep, 0, off, E_GROUP_TOO_LONG);
		char *g = strndup(text, (size_t)(slash - text));
		if (!g)
			return -ENOMEM;
		free(*group);
		*group = g;
		if (!uft_probe_good_name(g))
			return fail(ep, 0, off, E_BAD_GROUP_NAME);
		off += (unsigned)(slash - text + 1);
		text = slash + 1;
	}
	size_t len = strlen(text);
	if (len == 0) {
		if (slash)
			return 0;
		return fail(ep, 0, off, E_NO_EVENT_NAME);
	}
	if (len >= UFT_PROBE_NAME_MAX)
		return fail(ep, 0, off, E_EVENT_TOO_LONG);
	if (!uft_probe_good_name(text))
		return fail(ep, 0, off, E_BAD_EVENT_NAME);
	*event = strdup(text);
	return *event ? 0 : -ENOMEM;
}

/* Letters, digits and '_' stay; anything else becomes '_' (the kernel
 * changes ':' and '.', the rest cannot be in a kernel symbol). */
static void sanitize(char *s)
{
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			*s = '_';
}

/* "MAXACTIVE" after the kind letter. */
static int parse_maxactive(const char *w0, const char *event, struct uft_probe_def *d,
			   struct uft_probe_errpos *ep)
{
	if (!isdigit((unsigned char)w0[1]))
		return 0;
	size_t len = event ? (size_t)(event - w0 - 2) : strlen(w0 + 1);
	if (len > UFT_PROBE_NAME_MAX - 1)
		return fail(ep, 0, 1, E_BAD_MAXACT);
	char buf[UFT_PROBE_NAME_MAX];
	memcpy(buf, w0 + 1, len);
	buf[len] = 0;
	unsigned long n;
	if (to_ul(buf, &n) || n == 0)
		return fail(ep, 0, 1, E_BAD_MAXACT);
	if (n > UFT_PROBE_MAXACT_MAX)
		return fail(ep, 0, 1, E_MAXACT_TOO_BIG);
	d->maxactive = (unsigned)n;
	return 0;
}

/* SYMBOL[+OFFS] into d->symbol / d->offset (traceprobe_split_symbol_offset). */
static int split_symbol(char *sym, struct uft_probe_def *d)
{
	char *sign = strpbrk(sym, "+-");
	long off = 0;
	if (sign) {
		char *end;
		const char *num = sign + (*sign == '+');
		if (!isdigit((unsigned char)*num) && *num != '-')
			return -EINVAL;
		errno = 0;
		off = strtol(num, &end, 0);
		if (*end || errno || num == end)
			return -EINVAL;
		*sign = 0;
	}
	if (!sym[0] || isdigit((unsigned char)sym[0]) || off < 0 || off > (long)UINT32_MAX)
		return -EINVAL;
	d->offset = off;
	d->symbol = strdup(sym);
	return d->symbol ? 0 : -ENOMEM;
}

/* PATH:OFFSET[(REFCTR)][%return] (kernel/trace/trace_uprobe.c). */
static int parse_file_offset(const char *loc, struct uft_probe_def *d, struct uft_probe_errpos *ep)
{
	char *fn = strdup(loc);
	if (!fn)
		return -ENOMEM;
	char *arg = strrchr(fn, ':');
	int rc = 0;
	*arg++ = 0;
	char *rctr = strchr(arg, '(');
	if (rctr) {
		char *end = strchr(rctr, ')');
		if (!end) {
			rc = fail(ep, 1, (unsigned)(rctr + strlen(rctr) - fn), E_REFCNT_OPEN_BRACE);
			goto out;
		}
		if (end[1]) {
			rc = fail(ep, 1, (unsigned)(end + 1 - fn), E_BAD_REFCNT_SUFFIX);
			goto out;
		}
		*rctr++ = 0;
		*end = 0;
		unsigned long r;
		if (to_ul(rctr, &r)) {
			rc = fail(ep, 1, (unsigned)(rctr - fn), E_BAD_REFCNT);
			goto out;
		}
		d->refctr = r;
	}
	char *pct = strchr(arg, '%');
	if (pct) {
		if (strcmp(pct, "%return") != 0) {
			rc = fail(ep, 1, (unsigned)(pct - fn), E_BAD_ADDR_SUFFIX);
			goto out;
		}
		*pct = 0;
		d->is_return = true;
	}
	unsigned long off;
	if (to_ul(arg, &off)) {
		rc = fail(ep, 1, (unsigned)(arg - fn), E_BAD_UPROBE_OFFS);
		goto out;
	}
	d->offset = (long)off;
	d->lib = strdup(fn);
	rc = d->lib ? 0 : -ENOMEM;
out:
	free(fn);
	return rc;
}

/* SYMBOL[+OFFS][%return], LIB:SYMBOL[+OFFS][%return] or an address. */
static int parse_symbol_loc(const char *loc, struct uft_probe_def *d, struct uft_probe_errpos *ep)
{
	unsigned long addr;
	if (to_ul(loc, &addr) == 0 && loc[0] != '+') {
		d->has_addr = true;
		d->addr = addr;
		return 0;
	}
	char *sym = strdup(loc);
	if (!sym)
		return -ENOMEM;
	int rc = 0;
	char *pct = strchr(sym, '%');
	if (pct) {
		if (strcmp(pct, "%return") != 0) {
			rc = fail(ep, 1, (unsigned)(pct - sym), E_BAD_ADDR_SUFFIX);
			goto out;
		}
		*pct = 0;
		d->is_return = true;
	}
	char *s = sym;
	char *colon = strrchr(sym, ':');
	if (colon) {
		*colon = 0;
		d->lib = strdup(sym);
		s = colon + 1;
		if (!d->lib) {
			rc = -ENOMEM;
			goto out;
		}
		if (!sym[0]) {
			rc = fail(ep, 1, 0, E_BAD_PROBE_ADDR);
			goto out;
		}
	}
	rc = split_symbol(s, d);
	if (rc == -EINVAL)
		rc = fail(ep, 1, 0, E_BAD_PROBE_ADDR);
	else if (rc == 0 && d->is_return && d->offset)
		rc = fail(ep, 1, 0, E_BAD_RETPROBE);
out:
	free(sym);
	return rc;
}

/* Whether "LOC" is PATH:OFFSET: a digit after its last ':'. */
static bool is_file_offset(const char *loc)
{
	const char *c = strrchr(loc, ':');
	return c && isdigit((unsigned char)c[1]);
}

static const char *default_group(uint8_t kind)
{
	switch (kind) {
	case UFT_PROBE_UPROBE:
		return "uprobes";
	case UFT_PROBE_FPROBE:
		return "fprobes";
	case UFT_PROBE_EPROBE:
		return "eprobes";
	}
	return "kprobes";
}

static int auto_name(struct uft_probe_def *d)
{
	char buf[UFT_PROBE_NAME_MAX];
	if (d->kind == UFT_PROBE_EPROBE) {
		snprintf(buf, sizeof(buf), "%s", d->sys_event);
	} else if (d->kind == UFT_PROBE_FPROBE) {
		snprintf(buf, sizeof(buf), "%s__%s", d->symbol, d->is_return ? "exit" : "entry");
	} else if (d->kind == UFT_PROBE_UPROBE && !d->symbol && !d->has_addr) {
		/* The base name up to its first '.', '-' or '_'; always "p_". */
		const char *base = strrchr(d->lib, '/');
		base = base ? base + 1 : d->lib;
		snprintf(buf, sizeof(buf), "p_%.*s_0x%lx", (int)strcspn(base, ".-_"), base,
			 (unsigned long)d->offset);
	} else if (d->has_addr) {
		snprintf(buf, sizeof(buf), "%c_0x%lx", d->is_return ? 'r' : 'p',
			 (unsigned long)d->addr);
	} else {
		snprintf(buf, sizeof(buf), "%c_%s%s%s_%ld", d->is_return ? 'r' : 'p',
			 d->lib ? d->lib : "", d->lib ? ":" : "", d->symbol, d->offset);
	}
	sanitize(buf);
	d->event = strdup(buf);
	return d->event ? 0 : -ENOMEM;
}

/* The record's fixed part: the head's words, then the args packed. */
static void layout(struct uft_probe_def *d)
{
	d->head_size = d->kind == UFT_PROBE_EPROBE ? 8 : d->is_return ? 24 : 16;
	uint32_t off = d->head_size;
	for (uint32_t i = 0; i < d->nr_args; i++) {
		d->args[i].offset = off;
		off += d->args[i].type->size * (d->args[i].count ? d->args[i].count : 1);
	}
	d->fixed_size = off;
}

/* e[:[EGRP/][EEVENT]] SYS.EVENT|SYS/EVENT: the attached event; "if" ends the args. */
static int parse_eprobe_head(struct uft_words *w, int *nargs, struct uft_probe_def *d,
			     const struct uft_probe_env *env, struct uft_probe_argctx *ctx,
			     struct uft_probe_errpos *ep)
{
	char *sys = NULL, *ev = NULL;
	int rc = parse_event_name(w->v[1], 0, &sys, &ev, ep);
	if (rc || !sys || !ev) {
		free(sys);
		free(ev);
		return rc == -ENOMEM ? rc : fail(ep, 1, 0, E_NO_EVENT_INFO);
	}
	d->sys = sys;
	d->sys_event = ev;
	for (int i = 2; i < w->n; i++) {
		if (strcmp(w->v[i], "if") != 0)
			continue;
		if (i + 1 >= w->n) /* the caret past "if ", as the kernel's */
			return fail(ep, i, (unsigned)strlen(w->v[i]) + 1, E_NO_EP_FILTER);
		size_t len = 0;
		for (int k = i + 1; k < w->n; k++)
			len += strlen(w->v[k]) + 1;
		d->filter = calloc(1, len);
		if (!d->filter)
			return -ENOMEM;
		for (int k = i + 1; k < w->n; k++) {
			if (k > i + 1)
				strcat(d->filter, " ");
			strcat(d->filter, w->v[k]);
		}
		*nargs = i;
		break;
	}
	ctx->fields =
	    env && env->event_fields ? env->event_fields(env->ctx, sys, ev, &ctx->nr_fields) : NULL;
	if (!ctx->fields)
		return fail(ep, 1, 0, E_BAD_ATTACH_EVENT);
	return 0;
}

/* fprobe: SYMBOL[%return]; a $retval among the args makes it an exit probe. */
static int parse_fprobe_loc(struct uft_words *w, struct uft_probe_def *d,
			    struct uft_probe_errpos *ep)
{
	const char *loc = w->v[1];
	const char *pct = strchr(loc, '%');
	size_t len = pct ? (size_t)(pct - loc) : strlen(loc);
	if (pct) {
		if (strcmp(pct, "%return") != 0)
			return fail(ep, 1, (unsigned)len, E_BAD_ADDR_SUFFIX);
		d->is_return = true;
	} else {
		for (int i = 2; i < w->n; i++) {
			const char *r = strstr(w->v[i], "$retval");
			if (r && !isalnum((unsigned char)r[7]) && r[7] != '_') {
				d->is_return = true;
				break;
			}
		}
	}
	d->symbol = strndup(loc, len);
	if (!d->symbol)
		return -ENOMEM;
	char *colon = strrchr(d->symbol, ':');
	const char *name = colon ? colon + 1 : d->symbol;
	if (!uft_probe_good_name(name) || (colon && colon == d->symbol))
		return fail(ep, 1, 0, E_BAD_PROBE_ADDR);
	if (colon) {
		d->lib = strndup(d->symbol, (size_t)(colon - d->symbol));
		memmove(d->symbol, name, strlen(name) + 1);
		if (!d->lib)
			return -ENOMEM;
	}
	return 0;
}

/* $arg*: every parameter of the function by its DWARF name, in its place
 * (traceprobe_expand_meta_args). *texts and *from (the word each arg came
 * from) malloc'd; *n their number. */
static int expand_args(struct uft_words *w, int nargs, struct uft_probe_argctx *ctx,
		       const char ***texts, int **from, uint32_t *n, struct uft_probe_errpos *ep)
{
	int star = -1;
	/* The kernel expands it for kprobes and fprobes; eprobes and file
	 * offsets read "$arg*" as a bad variable. */
	for (int i = 2; i < nargs && ctx->kind != UFT_PROBE_EPROBE && !ctx->file; i++) {
		const char *v = w->v[i];
		if (strncmp(v, "$arg", 4) != 0 || v[4] != '*')
			continue;
		if (!ctx->fentry && !ctx->is_return)
			return fail(ep, i, 0, E_NOFENTRY_ARGS);
		if (v[5])
			return fail(ep, i, 0, E_BAD_VAR_ARGS);
		if (star >= 0)
			return fail(ep, i, 0, E_DOUBLE_ARGS);
		star = i;
	}
	uint32_t np = 0;
	struct uft_probe_dwfunc *f = NULL;
	if (star >= 0) {
		const char *msg;
		int rc = uft_probe_dwarf_ctx(ctx, &f, &msg);
		if (rc)
			return msg ? (fail(ep, star, 0, msg), rc) : rc;
		np = uft_probe_dwarf_nparams(f);
		if (np == 0)
			return fail(ep, star, 0, E_NOSUP_BTFARG);
		if (nargs - 3 + np > UFT_PROBE_ARGS_MAX) {
			fail(ep, star, 0, E_ARGS_2LONG);
			return -E2BIG;
		}
	}
	*n = (uint32_t)(nargs - 2) + (star >= 0 ? np - 1 : 0);
	*texts = calloc(*n ? *n : 1, sizeof(**texts));
	*from = calloc(*n ? *n : 1, sizeof(**from));
	if (!*texts || !*from)
		return -ENOMEM;
	uint32_t j = 0;
	for (int i = 2; i < nargs; i++) {
		if (i != star) {
			(*from)[j] = i;
			(*texts)[j++] = w->v[i];
			continue;
		}
		for (uint32_t k = 0; k < np; k++) {
			(*from)[j] = i;
			if (!((*texts)[j++] = uft_probe_dwarf_param(f, k)))
				return fail(ep, star, 0, E_NO_BTF_ENTRY);
		}
	}
	return 0;
}

/* The fetch args, after $arg* is expanded. */
static int parse_args(struct uft_words *w, int nargs, struct uft_probe_def *d,
		      struct uft_probe_argctx *ctx, struct uft_probe_errpos *ep)
{
	const char **texts = NULL;
	int *from = NULL;
	uint32_t n = 0;
	for (int i = 2; i < nargs && !ctx->dwarf; i++)
		ctx->dwarf = uft_probe_dwarf_wanted(w->v[i]);
	int rc = expand_args(w, nargs, ctx, &texts, &from, &n, ep);
	if (rc == 0) {
		d->nr_args = n;
		d->args = calloc(n ? n : 1, sizeof(*d->args));
		rc = d->args ? 0 : -ENOMEM;
	}
	for (uint32_t i = 0; rc == 0 && i < n; i++) {
		rc = uft_probe_arg_parse(d, i, texts[i], ctx, ep);
		if (rc) {
			ep->index = from[i];
			/* An arg $arg* made: the caret at $arg*. */
			if (texts[i] != w->v[from[i]])
				ep->offset = 0;
		}
	}
	free(texts);
	free(from);
	return rc;
}

static int parse_create(struct uft_words *w, const struct uft_probe_env *env,
			struct uft_probe_def *d, struct uft_probe_errpos *ep, const char **loc_name)
{
	const char *w0 = w->v[0];
	char k = w0[0];
	enum uft_probe_src src = env ? env->src : UFT_PROBE_SRC_DYNAMIC;
	if (k == 'e' || k == 'f') {
		if (src != UFT_PROBE_SRC_DYNAMIC)
			return -EINVAL;
		d->kind = k == 'e' ? UFT_PROBE_EPROBE : UFT_PROBE_FPROBE;
	} else if (k == 'r' || k == 'p') {
		d->is_return = k == 'r';
		d->kind = src == UFT_PROBE_SRC_UPROBE || (w->n >= 2 && is_file_offset(w->v[1]))
			      ? UFT_PROBE_UPROBE
			      : UFT_PROBE_KPROBE;
	} else {
		return -EINVAL;
	}
	static const char *const locs[] = {"trace_kprobe", "trace_uprobe", "trace_fprobe",
					   "event_probe"};
	*loc_name = locs[d->kind];
	if (w->n < 2)
		return -EINVAL; /* no kind takes it: the kernel logs nothing */
	const char *event = strchr(w0 + 1, ':');
	if (event)
		event++;
	if (w->n - 2 > UFT_PROBE_ARGS_MAX) {
		fail(ep, 2, 0, E_TOO_MANY_ARGS);
		return -E2BIG;
	}

	int rc = 0;
	/* The kind letter is followed by a maxactive, ':' or nothing. */
	if (w0[1] && w0[1] != ':' && !isdigit((unsigned char)w0[1]))
		return -EINVAL;
	if (isdigit((unsigned char)w0[1])) {
		if (d->kind == UFT_PROBE_EPROBE)
			return -EINVAL;
		if (d->kind == UFT_PROBE_UPROBE)
			return fail(ep, 0, 1, E_MAXACT_NO_KPROBE);
		if (d->kind == UFT_PROBE_KPROBE && !d->is_return)
			return fail(ep, 0, 1, E_BAD_MAXACT_TYPE);
		rc = parse_maxactive(w0, event, d, ep);
		if (rc)
			return rc;
	}
	struct uft_probe_argctx ctx = {.env = env, .kind = d->kind};
	int nargs = w->n;
	switch (d->kind) {
	case UFT_PROBE_UPROBE:
		if (is_file_offset(w->v[1])) {
			rc = parse_file_offset(w->v[1], d, ep);
			ctx.file = true;
			ctx.fentry = true;
		} else {
			rc = parse_symbol_loc(w->v[1], d, ep);
			ctx.fentry = !d->has_addr && d->offset == 0;
		}
		break;
	case UFT_PROBE_KPROBE:
		rc = parse_symbol_loc(w->v[1], d, ep);
		ctx.fentry = !d->has_addr && d->offset == 0;
		break;
	case UFT_PROBE_FPROBE:
		rc = parse_fprobe_loc(w, d, ep);
		if (rc == 0 && d->maxactive && !d->is_return)
			rc = fail(ep, 0, 1, E_BAD_MAXACT_TYPE);
		ctx.fentry = true;
		break;
	case UFT_PROBE_EPROBE:
		if (event) {
			rc = parse_event_name(event, (unsigned)(event - w0), &d->group, &d->event,
					      ep);
			event = NULL;
			if (rc)
				return rc;
		}
		rc = parse_eprobe_head(w, &nargs, d, env, &ctx, ep);
		break;
	}
	if (rc)
		return rc;
	if (event) {
		rc = parse_event_name(event, (unsigned)(event - w0), &d->group, &d->event, ep);
		if (rc)
			return rc;
	}
	if (!d->group && !(d->group = strdup(default_group(d->kind))))
		return -ENOMEM;
	if (!d->event && (rc = auto_name(d)))
		return rc;
	if (env && env->exists &&
	    env->exists(env->ctx, d->group, d->event) == UFT_PROBE_OTHER_EVENT) {
		fail(ep, 0, 0, E_EVENT_EXIST);
		return -EEXIST;
	}

	ctx.is_return = d->is_return;
	ctx.lib = d->lib;
	ctx.symbol = d->has_addr ? NULL : d->symbol;
	rc = parse_args(w, nargs, d, &ctx, ep);
	uft_probe_dwarf_close(ctx.dw);
	if (rc)
		return rc;
	layout(d);
	return 0;
}

/* -:[GRP/]EVENT */
static int parse_delete(struct uft_words *w, struct uft_probe_cmd *c)
{
	const char *ev = w->v[0] + 1;
	if (*ev++ != ':' || !*ev)
		return -EINVAL;
	const char *slash = strchr(ev, '/');
	if (!slash)
		slash = strchr(ev, '.');
	if (slash) {
		c->group = strndup(ev, (size_t)(slash - ev));
		if (!c->group)
			return -ENOMEM;
		ev = slash + 1;
	}
	if (!*ev && (!c->group || !c->group[0])) /* -:GROUP/ is every event of the group */
		return -EINVAL;
	c->event = strdup(ev);
	if (!c->event)
		return -ENOMEM;
	c->op = UFT_PROBE_OP_DELETE;
	return 0;
}

/* The words joined by single blanks, and where word `index`, offset `off` is in it. */
static char *log_command(struct uft_words *w, int index, unsigned off, unsigned *pos)
{
	size_t len = 0;
	*pos = 0;
	for (int i = 0; i < w->n; i++) {
		if (i == index)
			*pos = (unsigned)len + off;
		len += strlen(w->v[i]) + 1;
	}
	if (index >= w->n)
		*pos = len ? (unsigned)len - 1 : 0;
	char *s = calloc(1, len + 1);
	if (!s)
		return NULL;
	for (int i = 0; i < w->n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, w->v[i]);
	}
	return s;
}

int uft_probe_parse(const char *line, const struct uft_probe_env *env, struct uft_probe_cmd *c,
		    struct uft_probe_error *e)
{
	memset(c, 0, sizeof(*c));
	memset(e, 0, sizeof(*e));
	struct uft_words w;
	int rc = uft_words_split(line, strlen(line), &w);
	if (rc || w.n == 0)
		goto out;
	if (w.v[0][0] == '-') {
		rc = parse_delete(&w, c);
		goto out;
	}
	struct uft_probe_errpos ep = {0};
	rc = parse_create(&w, env, &c->def, &ep, &e->loc);
	if (rc == 0) {
		c->op = UFT_PROBE_OP_CREATE;
	} else if (ep.msg) {
		e->msg = ep.msg;
		e->cmd = log_command(&w, ep.index, ep.offset, &e->pos);
		if (!e->cmd)
			rc = -ENOMEM;
	}
	if (rc)
		uft_probe_def_free(&c->def);
out:
	uft_words_free(&w);
	if (rc && !e->msg)
		e->loc = NULL;
	return rc;
}

void uft_probe_def_free(struct uft_probe_def *d)
{
	for (uint32_t i = 0; d->args && i < d->nr_args; i++)
		uft_probe_arg_free(&d->args[i]);
	free(d->args);
	free(d->group);
	free(d->event);
	free(d->lib);
	free(d->symbol);
	free(d->sys);
	free(d->sys_event);
	free(d->filter);
	memset(d, 0, sizeof(*d));
}

void uft_probe_cmd_free(struct uft_probe_cmd *c)
{
	uft_probe_def_free(&c->def);
	free(c->group);
	free(c->event);
	memset(c, 0, sizeof(*c));
}

void uft_probe_error_free(struct uft_probe_error *e)
{
	free(e->cmd);
	e->cmd = NULL;
}

static bool same_args(const struct uft_probe_def *a, const struct uft_probe_def *b, uint32_t *diff)
{
	uint32_t n = a->nr_args < b->nr_args ? a->nr_args : b->nr_args;
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(a->args[i].name, b->args[i].name) != 0 ||
		    a->args[i].type != b->args[i].type || a->args[i].count != b->args[i].count) {
			*diff = i;
			return false;
		}
	*diff = n;
	return a->nr_args == b->nr_args;
}

static bool same_point(const struct uft_probe_def *a, const struct uft_probe_def *b)
{
	uint32_t i;
	bool str_eq = (!a->symbol && !b->symbol) ||
		      (a->symbol && b->symbol && strcmp(a->symbol, b->symbol) == 0);
	bool lib_eq = (!a->lib && !b->lib) || (a->lib && b->lib && strcmp(a->lib, b->lib) == 0);
	if (!str_eq || !lib_eq || a->offset != b->offset || a->addr != b->addr)
		return false;
	if (!same_args(a, b, &i))
		return false;
	for (i = 0; i < a->nr_args; i++)
		if (strcmp(a->args[i].comm, b->args[i].comm) != 0)
			return false;
	return true;
}

int uft_probe_check_append(const struct uft_probe_def *old, const struct uft_probe_def *new,
			   struct uft_probe_error *e)
{
	memset(e, 0, sizeof(*e));
	uint32_t diff;
	if (old->kind != new->kind || old->is_return != new->is_return) {
		e->msg = E_DIFF_PROBE_TYPE;
		return -EEXIST;
	}
	if (!same_args(old, new, &diff)) {
		e->msg = E_DIFF_ARG_TYPE;
		e->pos = diff + 2; /* the first arg that differs: its word */
		return -EEXIST;
	}
	if (same_point(old, new)) {
		e->msg = E_SAME_PROBE;
		return -EEXIST;
	}
	return 0;
}
