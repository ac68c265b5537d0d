/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Keys, values and sort keys of a `hist:` specification (the kernel's
 * create_keys, create_vals, create_sort_keys): each names a field of the
 * event with an optional modifier, a constant, a variable reference or
 * (values only) an expression. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_parse.h"

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
static int field_from_event(struct hist_parse *p, const struct uft_field *f, struct hist_field *hf)
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

static int set_name(struct hist_parse *p, struct hist_field *hf, const char *name)
{
	size_t n = strcspn(name, "[");

	hf->name = strndup(name, n);
	return hf->name ? 0 : fail(p, -ENOMEM, 0, NULL);
}

/* `str` is one key or value: NAME[.MODIFIER], a constant, a variable
 * reference or an expression. */
static int parse_field(struct hist_parse *p, char *field_name, char *modifier, bool key,
		       struct hist_field *hf);
/* parse_field, and .stacktrace on what holds no stack refused. */
static int parse_field_checked(struct hist_parse *p, char *field_name, char *modifier, bool key,
			       struct hist_field *hf)
{
	int rc = parse_field(p, field_name, modifier, key, hf);
	if (!rc && (hf->flags & HF_STACKTRACE) && hf->src != HF_STACK)
		return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, p->modifier);
	return rc;
}

int uft_hparse_operand(struct hist_parse *p, char *str, bool key, struct hist_field *hf)
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
static int stack_field(struct hist_parse *p, struct hist_field *hf)
{
	if (hf->flags)
		return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, p->modifier);
	hf->src = HF_STACK;
	return set_name(p, hf, "common_stacktrace");
}

/* The flag of `.modifier` into hf; an unknown one, or one keys or values
 * cannot take, is the kernel's "Invalid field modifier" at the text
 * it stopped at. */
static int parse_modifier(struct hist_parse *p, const char *field_name, char *modifier, bool key,
			  struct hist_field *hf)
{
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
	} else if (!strncmp(modifier, "percent", 7) && !key) {
		hf->flags |= HF_PERCENT;
	} else if (!strncmp(modifier, "graph", 5) && !key) {
		hf->flags |= HF_GRAPH;
	} else {
		goto bad_modifier;
	}
	return 0;

bad_modifier:
	return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, modifier);
}

/* The fields every event has that are not in its record (timestamp, cpu,
 * comm, stack, hitcount): true when field_name is one, *rc the result. */
static bool builtin_field(struct hist_parse *p, const char *field_name, struct hist_field *hf,
			  int *rc)
{
	if (!strcmp(field_name, "common_timestamp")) {
		hf->src = HF_TS;
		p->h->timestamps = true;
		if (hf->flags & HF_USECS)
			p->h->ts_usecs = true;
	} else if (!strcmp(field_name, "common_stacktrace")) {
		*rc = stack_field(p, hf);
		return true;
	} else if (!strcmp(field_name, "common_cpu")) {
		hf->src = HF_CPU;
	} else if (!strcmp(field_name, "common_comm")) {
		hf->src = HF_COMM;
		hf->is_string = true;
	} else if (!strcmp(field_name, "hitcount")) {
		hf->src = HF_HITCOUNT;
	} else {
		return false;
	}
	*rc = set_name(p, hf, field_name);
	return true;
}

/* The kernel's generic fields, reached when the event has none of that
 * name; entries show the name as written. */
static bool generic_field(struct hist_parse *p, const char *field_name, struct hist_field *hf,
			  int *rc)
{
	if (!strcmp(field_name, "CPU") || !strcmp(field_name, "cpu")) {
		hf->src = HF_CPU;
	} else if (!strcmp(field_name, "COMM") || !strcmp(field_name, "comm")) {
		hf->src = HF_COMM;
		hf->is_string = true;
	} else if (!strcmp(field_name, "STACKTRACE") || !strcmp(field_name, "stacktrace")) {
		*rc = stack_field(p, hf);
		return true;
	} else {
		return false;
	}
	*rc = set_name(p, hf, field_name);
	return true;
}

static int parse_field(struct hist_parse *p, char *field_name, char *modifier, bool key,
		       struct hist_field *hf)
{
	const struct uft_field *f;
	int rc;

	p->modifier = modifier;
	if (modifier && (rc = parse_modifier(p, field_name, modifier, key, hf)))
		return rc;
	hf->cmp_size = 8;
	if (builtin_field(p, field_name, hf, &rc))
		return rc;
	f = find_field(p->ev, field_name);
	if (f && f->size && (hf->flags & HF_STACKTRACE)) {
		/* field.stacktrace: a stack as synthetic events hold one, the
		 * number of frames then the frames, alone with its modifier. */
		if (hf->flags != HF_STACKTRACE || f->kind != UFT_FIELD_DYN ||
		    !has(f->type, "long["))
			return fail(p, -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, modifier);
		hf->src = HF_STACK;
		hf->offset = f->offset;
		return set_name(p, hf, field_name);
	}
	/* A char array of no size (the marker's buf[]) is a string that runs
	 * to the record's end, as the kernel's "dynamic" static string. */
	if (f && (f->size || (f->kind == UFT_FIELD_ARRAY && has(f->type, "char")))) {
		rc = field_from_event(p, f, hf);
		return rc ? rc : set_name(p, hf, field_name);
	}
	if (!f && generic_field(p, field_name, hf, &rc))
		return rc;
	return fail(p, -EINVAL, UFT_HIST_ERR_FIELD_NOT_FOUND, field_name);
}

/* A value that is a variable reference or an expression: summed per entry
 * like a field, named as the kernel names it (the variable, or the
 * expression's text). */
static int value_expr(struct hist_parse *p, const char *str, struct hist_field *hf)
{
	char *copy = strdup(str), buf[STR_MAX];
	struct hist_expr *e = NULL;
	int rc;

	if (!copy)
		return fail(p, -ENOMEM, 0, NULL);
	p->depth = 0;
	rc = uft_hparse_expr(p, copy, true, &e);
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

int uft_hparse_vals(struct hist_parse *p)
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
			rc = uft_hparse_operand(p, str, false, hf);
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

/* keys=$v: only a variable of this trigger that is a plain field, which
 * stands for that field; any other reference is refused. */
static int key_ref(struct hist_parse *p, char *str, struct hist_field *hf)
{
	struct hist_expr *e = NULL;
	int rc = uft_hparse_leaf_of(p, str, &e);

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

int uft_hparse_keys(struct hist_parse *p)
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
			rc = uft_hparse_operand(p, str, true, hf);
		if (rc)
			return rc;
		if (hf->is_string && (hf->flags & (HF_LOG2 | HF_BUCKET)))
			return fail(p, -EINVAL, 0, NULL);
		if (hf->flags & HF_EXECNAME)
			h->has_execname = true;
		if (hf->src == HF_STACK)
			hf->key_size = UFT_HIST_STACK_DEPTH * 8;
		else if (hf->src == HF_STR && hf->str_max)
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

static int is_descending(struct hist_parse *p, const char *str)
{
	if (!str || !strcmp(str, "ascending"))
		return 0;
	if (!strcmp(str, "descending"))
		return 1;
	return fail(p, -EINVAL, UFT_HIST_ERR_INVALID_SORT_MODIFIER, str);
}

int uft_hparse_sort_keys(struct hist_parse *p)
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
