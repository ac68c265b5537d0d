/* Compiles a `hist:` specification the way the kernel's hist trigger parser
 * does: same splitting, same order of checks, same messages and error
 * positions (the first occurrence of the offending token in the command). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "wire/clocks.h"
#include "engine/hist/hist_impl.h"

#define STR_MAX 256 /* the kernel's MAX_FILTER_STR_VAL */

struct parse {
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

static int fail(struct parse *p, int err, int code, const char *token)
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

static int unsupported(struct parse *p, const char *what)
{
	p->err->err = -EOPNOTSUPP;
	p->err->unsupported = what;
	return -EOPNOTSUPP;
}

static char *strip(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static bool has_prefix(const char *s, const char *pre, size_t *len)
{
	size_t n = strlen(pre);

	if (strncmp(s, pre, n))
		return false;
	*len = n;
	return true;
}

/* kstrtoull(s, 0): optional '+', 0x/0 prefixes, one trailing newline. */
static bool parse_ull(const char *s, unsigned long long *v)
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

/* ilog2(roundup_pow_of_two(v)) as the kernel computes it on x86_64, where
 * 0, 1 and anything above 2^63 give 0. */
static unsigned log2_up(uint64_t v)
{
	if (v <= 1 || v > (1ull << 63))
		return 0;
	return (unsigned)(64 - __builtin_clzll(v - 1));
}

static int parse_assignment(struct parse *p, char *str)
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

static int parse_attrs(struct parse *p, char *s)
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

/* ---- fields ---- */

static bool name_is(const char *name, const char *s)
{
	size_t n = strlen(s);
	return name && !strncmp(name, s, n) && (name[n] == '\0' || name[n] == '[');
}

static const struct uft_field common_fields[] = {
    {"unsigned short", "common_type", 0, 2, 0, UFT_FIELD_SCALAR, 2},
    {"unsigned char", "common_flags", 2, 1, 0, UFT_FIELD_SCALAR, 1},
    {"unsigned char", "common_preempt_count", 3, 1, 0, UFT_FIELD_SCALAR, 1},
    {"int", "common_pid", 4, 4, 1, UFT_FIELD_SCALAR, 4},
};

static const struct uft_field *find_field(const struct uft_hist_event *ev, const char *name)
{
	for (uint32_t i = 0; i < ev->nr_fields; i++)
		if (name_is(ev->fields[i].name, name))
			return &ev->fields[i];
	for (size_t i = 0; i < sizeof(common_fields) / sizeof(common_fields[0]); i++)
		if (!strcmp(common_fields[i].name, name))
			return &common_fields[i];
	return NULL;
}

static bool has(const char *s, const char *sub)
{
	return s && strstr(s, sub);
}

/* The record's value becomes the field: a string class or an integer. */
static int field_from_event(struct parse *p, const struct uft_field *f, struct hist_field *hf)
{
	hf->offset = f->offset;
	if (has(f->type, "__rel_loc") && has(f->type, "char")) {
		hf->src = HF_RELSTR;
	} else if ((f->kind == UFT_FIELD_DYN || has(f->type, "__data_loc")) &&
		   has(f->type, "char")) {
		hf->src = HF_DYNSTR;
	} else if (f->kind == UFT_FIELD_ARRAY && has(f->type, "char")) {
		hf->src = HF_STR;
		hf->str_max = f->size;
	} else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
		hf->src = HF_NUM;
		hf->size = (uint8_t)f->size;
		hf->is_signed = f->is_signed;
		hf->cmp_size = hf->size;
		hf->cmp_signed = f->is_signed;
		return 0;
	} else {
		return fail(p, -EINVAL, 0, NULL);
	}
	hf->is_string = true;
	return 0;
}

static int set_name(struct parse *p, struct hist_field *hf, const char *name)
{
	size_t n = strcspn(name, "[");

	hf->name = strndup(name, n);
	return hf->name ? 0 : fail(p, -ENOMEM, 0, NULL);
}

/* `str` is one key or value: NAME[.MODIFIER], a constant, a variable
 * reference or an expression. */
static int parse_field(struct parse *p, char *field_name, char *modifier, bool key,
		       struct hist_field *hf);
/* parse_field, and .stacktrace on what holds no stack refused. */
static int parse_field_checked(struct parse *p, char *field_name, char *modifier, bool key,
			       struct hist_field *hf)
{
	int rc = parse_field(p, field_name, modifier, key, hf);
	if (!rc && (hf->flags & HF_STACKTRACE) && hf->src != HF_STACK)
		return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, p->modifier);
	return rc;
}

static int parse_operand(struct parse *p, char *str, bool key, struct hist_field *hf)
{
	char *field_name, *modifier, *s;

	if (strpbrk(str, "+-*/"))
		return unsupported(p, "expressions");
	if (isdigit((unsigned char)str[0])) {
		unsigned long long v;

		if (!parse_ull(str, &v))
			return fail(p, -EINVAL, UFT_HIST_ERR_EXPECT_NUMBER, str);
		hf->src = HF_CONST;
		hf->constant = v;
		hf->cmp_size = 8;
		return set_name(p, hf, "");
	}
	/* sys.event.field: the field of this event */
	s = strchr(str, '.');
	if (s && strchr(s + 1, '.')) {
		strsep(&str, ".");
		strsep(&str, ".");
	}
	if (strlen(str) >= 2 && str[0] == '$')
		return fail(p, -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, str + 1);

	/* The kernel splits a copy: the caller's text stays whole for the
	 * positions of later errors. */
	char *copy = strdup(str);
	int rc;

	if (!copy)
		return fail(p, -ENOMEM, 0, NULL);
	modifier = copy;
	field_name = strsep(&modifier, ".");
	rc = parse_field_checked(p, field_name, modifier, key, hf);
	free(copy);
	return rc;
}

/* common_stacktrace (also `stacktrace` and `STACKTRACE` where the event
 * has no such field): named as the kernel names it whatever the spelling.
 * Its modifiers would print nothing the kernel's way: refused. */
static int stack_field(struct parse *p, struct hist_field *hf)
{
	if (hf->flags)
		return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, p->modifier);
	hf->src = HF_STACK;
	return set_name(p, hf, "common_stacktrace");
}

static int parse_field(struct parse *p, char *field_name, char *modifier, bool key,
		       struct hist_field *hf)
{
	const struct uft_field *f;

	p->modifier = modifier;

	if (modifier) {
		if (!strcmp(modifier, "hex")) {
			hf->flags |= HF_HEX;
		} else if (!strcmp(modifier, "sym")) {
			hf->flags |= HF_SYM;
		} else if (!strcmp(modifier, "symXoffset")) {
			hf->flags |= HF_SYM_OFFSET;
		} else if (!strcmp(modifier, "execname") && !strcmp(field_name, "common_pid")) {
			hf->flags |= HF_EXECNAME;
		} else if (!strcmp(modifier, "syscall")) {
			hf->flags |= HF_SYSCALL;
		} else if (!strcmp(modifier, "stacktrace")) {
			hf->flags |= HF_STACKTRACE;
		} else if (!strcmp(modifier, "log2")) {
			hf->flags |= HF_LOG2;
		} else if (!strcmp(modifier, "usecs")) {
			hf->flags |= HF_USECS;
		} else if (!strncmp(modifier, "bucket", 6)) {
			unsigned long long n;

			modifier += 6;
			if (*modifier == 's')
				modifier++;
			if (*modifier != '=')
				goto bad_modifier;
			modifier++;
			if (!parse_ull(modifier, &n) || !n)
				goto bad_modifier;
			hf->flags |= HF_BUCKET;
			hf->buckets = n;
		} else if (!strncmp(modifier, "percent", 7)) {
			if (key)
				goto bad_modifier;
			hf->flags |= HF_PERCENT;
		} else if (!strncmp(modifier, "graph", 5)) {
			if (key)
				goto bad_modifier;
			hf->flags |= HF_GRAPH;
		} else {
			goto bad_modifier;
		}
	}

	hf->cmp_size = 8;
	if (!strcmp(field_name, "common_timestamp")) {
		hf->src = HF_TS;
		p->h->timestamps = true;
		if (hf->flags & HF_USECS)
			p->h->ts_usecs = true;
		return set_name(p, hf, field_name);
	}
	if (!strcmp(field_name, "common_stacktrace"))
		return stack_field(p, hf);
	if (!strcmp(field_name, "common_cpu")) {
		hf->src = HF_CPU;
		return set_name(p, hf, field_name);
	}
	if (!strcmp(field_name, "common_comm")) {
		hf->src = HF_COMM;
		hf->is_string = true;
		return set_name(p, hf, field_name);
	}
	if (!strcmp(field_name, "hitcount")) {
		hf->src = HF_HITCOUNT;
		return set_name(p, hf, field_name);
	}
	f = find_field(p->ev, field_name);
	if (f && f->size && (hf->flags & HF_STACKTRACE)) {
		/* field.stacktrace: a stack as synthetic events hold one, the
		 * number of frames then the frames, alone with its modifier. */
		if (hf->flags != HF_STACKTRACE || f->kind != UFT_FIELD_DYN ||
		    !has(f->type, "long["))
			goto bad_modifier;
		hf->src = HF_STACK;
		hf->offset = f->offset;
		return set_name(p, hf, field_name);
	}
	if (f && f->size) {
		int rc = field_from_event(p, f, hf);
		return rc ? rc : set_name(p, hf, field_name);
	}
	/* The kernel's generic fields, reached when the event has none of
	 * that name; entries show the name as written. */
	if (!f && (!strcmp(field_name, "CPU") || !strcmp(field_name, "cpu"))) {
		hf->src = HF_CPU;
		return set_name(p, hf, field_name);
	}
	if (!f && (!strcmp(field_name, "COMM") || !strcmp(field_name, "comm"))) {
		hf->src = HF_COMM;
		hf->is_string = true;
		return set_name(p, hf, field_name);
	}
	if (!f && (!strcmp(field_name, "STACKTRACE") || !strcmp(field_name, "stacktrace")))
		return stack_field(p, hf);
	return fail(p, -EINVAL, UFT_HIST_ERR_FIELD_NOT_FOUND, field_name);

bad_modifier:
	return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, modifier);
}

static int parse_expr(struct parse *p, char *str, bool top, struct hist_expr **out);

/* A value that is a variable reference or an expression: summed per entry
 * like a field, named as the kernel names it (the variable, or the
 * expression's text). */
static int value_expr(struct parse *p, const char *str, struct hist_field *hf)
{
	char *copy = strdup(str), buf[STR_MAX];
	struct hist_expr *e = NULL;
	int rc;

	if (!copy)
		return fail(p, -ENOMEM, 0, NULL);
	p->depth = 0;
	rc = parse_expr(p, copy, true, &e);
	free(copy);
	if (rc)
		return rc;
	hf->ex = e;
	if (e->op == EX_FIELD) {
		/* a reference that stands for a field is that field */
		*hf = e->f;
		hf->name = e->f.name;
		e->f.name = NULL;
		uft_hist_expr_free(e);
		return 0;
	}
	hf->src = HF_EXPR;
	hf->cmp_size = 8;
	if (e->is_string)
		return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_STR_OPERAND, str);
	if (e->is_stack)
		return fail(p, -EINVAL, 0, NULL); /* sums of stacks mean nothing */
	if (e->op == EX_REF) {
		/* "sys.event.$var" is named "sys.event.var" */
		const char *d = strchr(e->ref_name, '$');
		snprintf(buf, sizeof(buf), "%.*s%s", (int)(d - e->ref_name), e->ref_name, d + 1);
	} else {
		uft_hist_expr_spec(e, buf, sizeof(buf));
	}
	return set_name(p, hf, buf);
}

static int create_vals(struct parse *p)
{
	struct uft_hist *h = p->h;
	char *s = p->vals_str, *str;
	unsigned n_hitcount = 0;
	int rc = 0;

	h->vals[0].src = HF_HITCOUNT;
	h->vals[0].cmp_size = 8;
	h->n_vals = 1;
	rc = set_name(p, &h->vals[0], "hitcount");
	if (rc)
		return rc;
	for (unsigned i = 0; s && i < UFT_HIST_MAX_VALS && h->n_vals < UFT_HIST_MAX_VALS; i++) {
		struct hist_field *hf;

		str = strsep(&s, ",");
		if (!strcmp(str, "hitcount") && !n_hitcount++)
			continue;
		hf = &h->vals[h->n_vals++];
		if (strpbrk(str, "$+-*/"))
			rc = value_expr(p, str, hf);
		else
			rc = parse_operand(p, str, false, hf);
		if (rc)
			goto out;
		if (hf->flags & (HF_BUCKET | HF_LOG2 | HF_SYM | HF_SYM_OFFSET | HF_SYSCALL)) {
			rc = fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, str);
			goto out;
		}
		/* Sums of string addresses or stacks mean nothing: refused. */
		if (hf->is_string || hf->src == HF_STACK) {
			rc = fail(p, -EINVAL, 0, NULL);
			goto out;
		}
	}
	if (s && strcmp(s, "hitcount"))
		rc = fail(p, -EINVAL, 0, NULL);
out:
	if (h->n_vals == 1 && h->no_hitcount)
		rc = fail(p, -ENOENT, UFT_HIST_ERR_NEED_NOHC_VAL, NULL);
	return rc;
}

/* ---- variables and expressions ---- */

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

static struct hist_expr *new_expr(struct parse *p, uint8_t op)
{
	struct hist_expr *e = calloc(1, sizeof(*e));
	if (!e)
		fail(p, -ENOMEM, 0, NULL);
	else
		e->op = op;
	return e;
}

/* The slot of variable `var` of r in h's uses[] (added once), or -1. */
static int add_use(struct parse *p, struct uft_hist *r, uint32_t var)
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

static struct hist_expr *new_expr(struct parse *p, uint8_t op);

/* A copy of a field expression (a variable that is a plain field, which a
 * reference to it stands for, as the kernel's local_field_var_ref()). */
static struct hist_expr *copy_field_expr(struct parse *p, const struct hist_expr *src)
{
	struct hist_expr *e = new_expr(p, src->op);

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

/* `$name` or `sys.event.$name`: a variable of this trigger (defined
 * before) or of another hist trigger of the instance. */
static int parse_ref(struct parse *p, char *str, struct hist_expr **out)
{
	const char *sys = NULL, *evn = NULL;
	char *dollar = strchr(str, '$'), *name, *copy = NULL;
	struct uft_hist *found = NULL;
	struct hist_expr *e;
	int n = 0, idx, rc;

	if (dollar != str) {
		/* "sys.event." before the '$' */
		copy = strndup(str, (size_t)(dollar - str));
		if (!copy)
			return fail(p, -ENOMEM, 0, NULL);
		size_t n = strlen(copy);
		char *dot = strchr(copy, '.');
		if (copy[n - 1] != '.' || !dot || dot == copy + n - 1 || dot == copy) {
			free(copy);
			return fail(p, -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, dollar + 1);
		}
		copy[n - 1] = '\0';
		*dot = '\0';
		sys = copy;
		evn = dot + 1;
	}
	name = dollar + 1;
	idx = uft_hist_var_index(p->h, name);
	if (idx >= 0 && (!sys || (!strcmp(sys, p->ev->system) && !strcmp(evn, p->ev->name))) &&
	    (p->h->vars[idx].e->op == EX_FIELD || p->h->vars[idx].e->op == EX_CONST) &&
	    !p->h->vars[idx].e->is_stack) {
		/* A variable that is a plain field: the reference is the field. */
		free(copy);
		if (!(e = copy_field_expr(p, p->h->vars[idx].e)))
			return -ENOMEM;
		*out = e;
		return 0;
	} else if (idx >= 0 &&
		   (!sys || (!strcmp(sys, p->ev->system) && !strcmp(evn, p->ev->name)))) {
		e = new_expr(p, EX_SELF);
		if (!e) {
			free(copy);
			return -ENOMEM;
		}
		e->var = (uint32_t)idx;
		e->unit = p->h->vars[idx].e->unit;
		e->is_string = p->h->vars[idx].e->is_string;
		e->is_stack = p->h->vars[idx].e->is_stack;
	} else {
		if (p->h->env.find_var)
			n = p->h->env.find_var(p->h->env.ctx, sys, evn, name, &found);
		free(copy);
		copy = NULL;
		if (n > 1)
			return fail(p, -EINVAL, UFT_HIST_ERR_VAR_NOT_UNIQUE, name);
		if (n < 1 || !found || (idx = uft_hist_var_index(found, name)) < 0)
			return fail(p, -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, name);
		found = uft_hist_data(found); /* a named one's variables are its data's */
		if (found->vars[idx].e->is_string)
			return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_STR_OPERAND, name);
		e = new_expr(p, EX_REF);
		if (!e)
			return -ENOMEM;
		e->ref = found;
		e->var = (uint32_t)idx;
		e->unit = found->vars[idx].e->unit;
		e->is_stack = found->vars[idx].e->is_stack;
		if ((rc = add_use(p, found, (uint32_t)idx)) < 0) {
			free(e);
			return rc;
		}
		e->slot = (uint32_t)rc;
	}
	free(copy);
	if (asprintf(&e->ref_name, "%s", str) < 0) {
		e->ref_name = NULL;
		uft_hist_expr_free(e);
		return fail(p, -ENOMEM, 0, NULL);
	}
	*out = e;
	return 0;
}

/* One operand: constant, reference or field (with modifier). */
static int parse_leaf(struct parse *p, char *str, struct hist_expr **out)
{
	struct hist_expr *e;
	int rc;

	if (strchr(str, '$'))
		return parse_ref(p, str, out);
	e = new_expr(p, EX_FIELD);
	if (!e)
		return -ENOMEM;
	rc = parse_operand(p, str, false, &e->f);
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

/* An expression: the last + or - splits it, else the last * or /, so
 * equal precedences associate left to right; -(...) only at the start. */
static int parse_expr(struct parse *p, char *str, bool top, struct hist_expr **out)
{
	struct hist_expr *e, *l = NULL, *r = NULL;
	char *op = NULL;
	int rc;

	if (str[0] == '-') {
		size_t n = strlen(str);
		if (!top)
			return fail(p, -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR, str);
		if (str[1] != '(' || str[n - 1] != ')')
			return fail(p, -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR, str);
		str[n - 1] = '\0';
		if (++p->depth > 3)
			return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_SUBEXPR, str);
		rc = parse_expr(p, str + 2, false, &l);
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
		if (!(e = new_expr(p, EX_NEG))) {
			uft_hist_expr_free(l);
			return -ENOMEM;
		}
		e->l = l;
		e->unit = l->unit;
		*out = e;
		return 0;
	}
	for (char *c = str; *c; c++)
		if (*c == '+' || *c == '-')
			op = c;
	if (!op)
		for (char *c = str; *c; c++)
			if (*c == '*' || *c == '/')
				op = c;
	if (!op)
		return parse_leaf(p, str, out);
	if (++p->depth > 3)
		return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_SUBEXPR, str);
	if (op > str && strchr("+-*/", op[-1]))
		return fail(p, -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR, op);
	char opc = *op;
	*op = '\0';
	rc = parse_expr(p, str, false, &l);
	if (!rc)
		rc = parse_expr(p, op + 1, false, &r);
	if (!rc && (l->is_string || r->is_string))
		rc =
		    fail(p, -EINVAL, UFT_HIST_ERR_INVALID_STR_OPERAND, l->is_string ? str : op + 1);
	if (!rc && (l->is_stack || r->is_stack))
		rc = fail(p, -EINVAL, 0, NULL); /* no arithmetic on stacks */
	if (!rc && l->unit && r->unit && l->unit != r->unit)
		rc = fail(p, -EINVAL, UFT_HIST_ERR_TIMESTAMP_MISMATCH, str);
	if (!rc && opc == '/' && r->op == EX_CONST && r->constant == 0)
		rc = fail(p, -EINVAL, UFT_HIST_ERR_DIVISION_BY_ZERO, op + 1);
	if (!rc && !(e = new_expr(p, EX_ADD)))
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
	*out = e;
	return 0;
}

/* The syntax of every assignment first, as the kernel checks it. */
static int check_var_defs(struct parse *p)
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

static int parse_var_defs(struct parse *p)
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
			rc = parse_expr(p, copy, true, &e);
			free(copy);
			if (rc)
				return rc;
			h->vars[h->n_vars].e = e;
			h->vars[h->n_vars].name = strdup(var_name);
			/* A stack taken here has a slot per entry; one read from
			 * another variable is that slot's address. */
			h->vars[h->n_vars].stack_slot =
			    e->is_stack && e->op == EX_FIELD ? (int32_t)h->t.n_stacks++ : -1;
			h->n_vars++;
			if (!h->vars[h->n_vars - 1].name)
				return fail(p, -ENOMEM, 0, NULL);
		}
	}
	return 0;
}

/* ---- actions ---- */

/* Records an error the kernel logs before the one that follows. */
static void chain(struct parse *p)
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
static int parse_params(struct parse *p, char *params, struct hist_action *a)
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
static int parse_action_call(struct parse *p, char *s, struct hist_action *a)
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
static int parse_action(struct parse *p, char *str, struct hist_action *a)
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

static int parse_actions(struct parse *p)
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
static int other_field(struct parse *p, const char *sys, const char *evn, const char *field,
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
	if (fh->vars[idx].e->is_string)
		return unsupported(p, "string fields of another event as params");
	struct hist_expr *e = new_expr(p, EX_REF);
	if (!e)
		return -ENOMEM;
	e->ref = fh;
	e->var = (uint32_t)idx;
	e->unit = fh->vars[idx].e->unit;
	if ((rc = add_use(p, fh, (uint32_t)idx)) < 0) {
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

/* The synthetic event of a trace action and its parameters: variables of
 * this or another histogram, fields of this event. */
static int create_trace(struct parse *p, struct hist_action *a)
{
	struct uft_hist *h = p->h;
	uint8_t kinds[HIST_MAX_PARAMS + 64];
	uint32_t nr = 0;

	if (h->env.synth_get)
		a->synth = h->env.synth_get(h->env.ctx, a->synth_name, &nr, kinds);
	if (!a->synth)
		return fail(p, -EINVAL, UFT_HIST_ERR_SYNTH_EVENT_NOT_FOUND, a->synth_name);
	for (uint32_t i = 0; i < a->n_params; i++) {
		char *param = a->param_text[i], *copy = strdup(param);
		struct hist_expr *e = NULL;
		int rc;

		if (!copy)
			return fail(p, -ENOMEM, 0, NULL);
		p->depth = 0;
		if (strchr(copy, '$')) {
			rc = parse_ref(p, copy, &e);
		} else if (strpbrk(copy, "+-*/")) {
			rc = fail(p, -EINVAL, UFT_HIST_ERR_INVALID_PARAM, param);
		} else {
			char *d = strchr(copy, '.'), *d2 = d ? strchr(d + 1, '.') : NULL;
			if (d && !d2) {
				rc = fail(p, -EINVAL, 0, NULL); /* "a.b": the kernel logs nothing */
			} else if (d2 && (strncmp(copy, p->ev->system, (size_t)(d - copy)) ||
					  p->ev->system[d - copy] ||
					  strncmp(d + 1, p->ev->name, (size_t)(d2 - d - 1)) ||
					  p->ev->name[d2 - d - 1])) {
				*d = *d2 = '\0';
				rc = other_field(p, copy, d + 1, d2 + 1, &e);
			} else {
				rc = parse_leaf(p, copy, &e);
			}
			if (rc == -EINVAL && p->err->code == UFT_HIST_ERR_FIELD_NOT_FOUND) {
				if (a->handler == HANDLER_ONMATCH && !strchr(param, '.')) {
					/* Not a field here: the matching event's, as
					 * the kernel tries next, after logging that it
					 * found none here (whatever comes of it). */
					chain(p);
					fail(p, -EINVAL, UFT_HIST_ERR_FIELD_VAR_PARSE_FAIL, param);
					chain(p);
					char *msys = strdup(a->match),
					     *mev = msys ? strchr(msys, '.') : NULL;
					if (!mev) {
						free(msys);
						free(copy);
						return fail(p, -ENOMEM, 0, NULL);
					}
					*mev++ = '\0';
					rc = other_field(p, msys, mev, param, &e);
					free(msys);
					if (!rc)
						p->err->err = p->err->code = p->err->pos = 0;
				} else if (a->handler == HANDLER_ONMATCH) {
					rc = fail(p, -EINVAL, UFT_HIST_ERR_PARAM_NOT_FOUND, param);
				} else {
					chain(p);
					rc = fail(p, -EINVAL, UFT_HIST_ERR_FIELD_VAR_PARSE_FAIL,
						  param);
				}
			}
		}
		free(copy);
		if (rc)
			return rc;
		a->params[i] = e;
	}
	if (a->n_params != nr)
		return fail(p, -EINVAL, UFT_HIST_ERR_SYNTH_COUNT_MISMATCH, a->synth_name);
	for (uint32_t i = 0; i < nr; i++) {
		if (kinds[i] == 2 || (kinds[i] == 1) != a->params[i]->is_string ||
		    (kinds[i] == 3) != a->params[i]->is_stack)
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
static int create_save(struct parse *p, struct hist_action *a)
{
	struct uft_hist *h = p->h;

	if (h->n_save)
		return fail(p, -EEXIST, UFT_HIST_ERR_TOO_MANY_SAVE_ACTIONS, NULL);
	for (uint32_t i = 0; i < a->n_params; i++) {
		char *param = a->param_text[i], *copy = strdup(param);
		struct hist_expr *e = NULL;
		int rc;

		if (!copy)
			return fail(p, -ENOMEM, 0, NULL);
		p->depth = 0;
		rc = parse_leaf(p, copy, &e);
		free(copy);
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

static int create_action(struct parse *p, uint32_t i)
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

static int create_actions(struct parse *p)
{
	for (uint32_t i = 0; i < p->h->n_actions; i++) {
		int rc = create_action(p, i);
		if (rc)
			return rc;
	}
	return 0;
}

/* keys=$v: only a variable of this trigger that is a plain field, which
 * stands for that field; any other reference is refused. */
static int key_ref(struct parse *p, char *str, struct hist_field *hf)
{
	char *copy = strdup(str);
	struct hist_expr *e = NULL;
	int rc;

	if (!copy)
		return fail(p, -ENOMEM, 0, NULL);
	p->depth = 0;
	rc = parse_leaf(p, copy, &e);
	free(copy);
	if (rc)
		return rc;
	if (e->op != EX_FIELD) {
		uft_hist_expr_free(e);
		return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_REF_KEY, str);
	}
	*hf = e->f;
	e->f.name = NULL;
	uft_hist_expr_free(e);
	if (hf->flags & (HF_PERCENT | HF_GRAPH))
		return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, str);
	return 0;
}

static int create_keys(struct parse *p)
{
	struct uft_hist *h = p->h;
	char *s = p->keys_str;

	for (unsigned i = 0; s && i < UFT_HIST_MAX_KEYS; i++) {
		char *str = strsep(&s, ",");
		struct hist_field *hf = &h->keys[h->n_keys++];
		int rc;

		if (strchr(str, '$'))
			rc = key_ref(p, str, hf);
		else
			rc = parse_operand(p, str, true, hf);
		if (rc)
			return rc;
		if (hf->is_string && (hf->flags & (HF_LOG2 | HF_BUCKET)))
			return fail(p, -EINVAL, 0, NULL);
		if (hf->flags & HF_EXECNAME)
			h->has_execname = true;
		if (hf->src == HF_STACK)
			hf->key_size = UFT_HIST_STACK_DEPTH * 8;
		else if (hf->src == HF_STR)
			hf->key_size = (hf->str_max + 7) & ~7u;
		else if (hf->is_string)
			hf->key_size = STR_MAX;
		else
			hf->key_size = 8;
		hf->key_off = h->key_size;
		h->key_size += hf->key_size;
		if (h->key_size > UFT_HIST_KEY_MAX)
			return fail(p, -EINVAL, 0, NULL);
	}
	if (s)
		return fail(p, -EINVAL, 0, NULL);
	return 0;
}

static int is_descending(struct parse *p, const char *str)
{
	if (!str || !strcmp(str, "ascending"))
		return 0;
	if (!strcmp(str, "descending"))
		return 1;
	return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_SORT_MODIFIER, str);
}

static int create_sort_keys(struct parse *p)
{
	struct uft_hist *h = p->h;
	char *s = p->sort_str;
	unsigned i;

	h->n_sort = 1;
	if (!s)
		return 0;
	for (i = 0; i < UFT_HIST_MAX_SORT; i++) {
		char *field_str = strsep(&s, ","), *field_name;
		uint32_t idx = UINT32_MAX;
		int desc;

		if (!field_str)
			break;
		if (!*field_str)
			return fail(p, -EINVAL, UFT_HIST_ERR_EMPTY_SORT_FIELD, "sort=");
		if (i == UFT_HIST_MAX_SORT - 1 && s)
			return fail(p, -EINVAL, UFT_HIST_ERR_TOO_MANY_SORT_FIELDS, "sort=");
		field_name = strsep(&field_str, ".");
		if (!*field_name)
			return fail(p, -EINVAL, UFT_HIST_ERR_EMPTY_SORT_FIELD, "sort=");
		if (!strcmp(field_name, "hitcount")) {
			idx = 0;
		} else {
			for (uint32_t j = 1; j < h->n_vals + h->n_keys && idx == UINT32_MAX; j++) {
				const struct hist_field *f =
				    j < h->n_vals ? &h->vals[j] : &h->keys[j - h->n_vals];
				if (!strcmp(field_name, f->name))
					idx = j;
			}
			if (idx == UINT32_MAX)
				return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_SORT_FIELD,
					    field_name);
		}
		desc = is_descending(p, field_str);
		if (desc < 0)
			return desc;
		h->sort_idx[i] = idx;
		h->sort_desc[i] = desc;
	}
	h->n_sort = i;
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

static int compile(struct parse *p, char *buf)
{
	struct uft_hist *h = p->h;
	char *param = buf, *filter, *at;
	bool bad;
	int rc;

	if (!*buf)
		return fail(p, -EINVAL, 0, NULL);
	filter = split_filter(buf, &bad);
	if (bad)
		return fail(p, -EINVAL, 0, NULL);
	if (filter)
		param = strip(param);
	/* ".sym-offset" holds the minus sign of an expression: the kernel
	 * renames it first, and so do positions. */
	for (at = strstr(param, ".sym-offset"); at; at = strstr(at + 11, ".sym-offset"))
		at[4] = 'X';

	h->t.bits = UFT_HIST_BITS_DEFAULT;
	rc = parse_attrs(p, param);
	if (rc)
		return rc;
	rc = parse_actions(p);
	if (rc)
		return rc;
	rc = create_vals(p);
	if (rc)
		return rc;
	rc = parse_var_defs(p);
	if (rc)
		return rc;
	rc = create_keys(p);
	if (rc)
		return rc;
	rc = create_sort_keys(p);
	if (rc)
		return rc;
	rc = uft_hist_table_init(&h->t, h->t.bits, h->key_size, h->n_vals, h->n_vars,
				 h->has_execname);
	if (rc)
		return fail(p, rc, 0, NULL);
	if (h->t.n_stacks &&
	    !(h->t.stacks = calloc((size_t)h->t.max_elts * h->t.n_stacks * HIST_STACK_WORDS,
				   sizeof(*h->t.stacks))))
		return fail(p, -ENOMEM, 0, NULL);

	if (filter) {
		struct uft_filter_error ferr = {0};

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
	}
	if (h->timestamps) {
		const char *clock = p->clock ? p->clock : "global";

		if (uft_clock_by_name(clock) < 0)
			return fail(p, -EINVAL, UFT_HIST_ERR_SET_CLOCK_FAIL, clock);
		h->clock = strdup(clock);
		if (!h->clock)
			return fail(p, -ENOMEM, 0, NULL);
	}
	rc = create_actions(p);
	if (rc)
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
	struct parse p = {.ev = ev, .err = err ? err : &dummy};
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
