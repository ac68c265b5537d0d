/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Parses synthetic event definitions the kernel's way: the same checks in
 * the same order, so a refused line gets the kernel's message and caret
 * (the first occurrence of the offending token in the command). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/synth/synth.h"
#include "util/util.h"
#include "util/words.h"

#include <uft/event.h>

#define E_BAD_NAME "Illegal name"
#define E_INVALID_CMD "Command must be of the form: <name> field[;field] ..."
#define E_INVALID_DYN_CMD "Command must be of the form: s or -:[synthetic/]<name> field[;field] ..."
#define E_EXISTS "Event already exists"
#define E_TOO_MANY "Too many fields"
#define E_INCOMPLETE "Incomplete type"
#define E_INVALID_TYPE "Invalid type"
#define E_INVALID_FIELD "Invalid field"
#define E_ARRAY_SPEC "Invalid array specification"

static const struct {
	const char *type;
	unsigned size;
	const char *fmt;
} num_types[] = {
    {"s64", 8, "%lld"}, {"u64", 8, "%llu"},
    {"s32", 4, "%d"},	{"u32", 4, "%u"},
    {"s16", 2, "%d"},	{"u16", 2, "%u"},
    {"s8", 1, "%d"},	{"u8", 1, "%u"},
    {"char", 1, "%d"},	{"unsigned char", 1, "%u"},
    {"int", 4, "%d"},	{"unsigned int", 4, "%u"},
    {"long", 8, "%ld"}, {"unsigned long", 8, "%lu"},
    {"bool", 1, "%d"},	{"pid_t", 4, "%d"},
    {"gfp_t", 4, "%x"},
};

static int fail(struct uft_synth_error *e, const char *msg, unsigned pos, int err)
{
	e->msg = msg;
	e->pos = pos;
	return err;
}

/* Where the kernel puts the caret for a token: its first occurrence. */
static unsigned errpos(const char *cmd, const char *tok)
{
	const char *p = tok ? strstr(cmd, tok) : NULL;
	return p ? (unsigned)(p - cmd) : 0;
}

static bool good_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	while (*++s)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static const char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The first ';'-separated part needs a name, a type and a field. */
static int check_command(const char *s)
{
	if (s[0] == '!')
		return 0;
	const char *semi = strchr(s, ';');
	struct uft_words w;
	int rc = uft_words_split(s, semi ? (size_t)(semi - s) : strlen(s), &w);
	if (rc == 0 && w.n < 3)
		rc = -EINVAL;
	uft_words_free(&w);
	return rc;
}

/* kstrtouint with base 0 on at most 3 characters. */
static int parse_len(const char *s, size_t n, unsigned *out)
{
	char buf[4];
	memcpy(buf, s, n);
	buf[n] = 0;
	char *p = buf, *end;
	if (*p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	unsigned long v = strtoul(p, &end, 0);
	if (*end)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* A "char[N]" type: -1 invalid, 0 dynamic, else N. */
static int string_size(const char *type)
{
	const char *start = strstr(type, "char[");
	if (!start)
		return -1;
	start += 5;
	const char *end = strchr(type, ']');
	if (!end || end < start || type + strlen(type) > end + 1)
		return -1;
	size_t n = (size_t)(end - start);
	unsigned size;
	if (n > 3)
		return -1;
	if (n == 0)
		return 0;
	if (parse_len(start, n, &size) || size > UFT_SYNTH_STR_MAX)
		return -1;
	return (int)size;
}

static const char *num_fmt(const char *type, unsigned *size)
{
	for (size_t i = 0; i < ARRAY_SIZE(num_types); i++)
		if (strcmp(num_types[i].type, type) == 0) {
			if (size)
				*size = num_types[i].size;
			return num_types[i].fmt;
		}
	return NULL;
}

const char *uft_synth_num_fmt(const char *type)
{
	return num_fmt(type, NULL);
}

/* One "[unsigned] type name[...]" from argv; advances *used. */
static int parse_field(const char *cmd, int argc, char **argv, int *used, struct uft_synth_field *f,
		       struct uft_synth_error *e)
{
	const char *prefix = "", *type = argv[0], *name;
	if (strcmp(type, "unsigned") == 0) {
		if (argc < 3)
			return fail(e, E_INCOMPLETE, errpos(cmd, type), -EINVAL);
		prefix = "unsigned ";
		type = argv[1];
		name = argv[2];
		*used += 3;
	} else {
		name = argv[1];
		*used += 2;
	}
	if (!name)
		return fail(e, E_INVALID_FIELD, errpos(cmd, type), -EINVAL);
	const char *array = strchr(name, '[');
	size_t nlen = array ? (size_t)(array - name) : strlen(name);
	f->name = strndup(name, nlen);
	if (!f->name)
		return -ENOMEM;
	if (!good_name(f->name))
		return fail(e, E_BAD_NAME, errpos(cmd, name), -EINVAL);
	if (asprintf(&f->type, "%s%s%s", prefix, type, array ? array : "") < 0) {
		f->type = NULL;
		return -ENOMEM;
	}
	unsigned size = 0;
	if (num_fmt(f->type, &size)) {
		f->kind = UFT_SYNTH_NUM;
	} else if (strstr(f->type, "char[")) {
		int n = string_size(f->type);
		if (n < 0)
			return fail(e, array ? E_ARRAY_SPEC : E_INVALID_TYPE,
				    array ? errpos(cmd, name) : errpos(cmd, type), -EINVAL);
		f->kind = n ? UFT_SYNTH_STR : UFT_SYNTH_DSTR;
		f->len = (uint32_t)n;
		size = n ? (unsigned)n : 8;
	} else if (strstr(f->type, "long[")) {
		f->kind = UFT_SYNTH_STACK;
		size = 8;
	} else {
		return fail(e, E_INVALID_TYPE, errpos(cmd, type), -EINVAL);
	}
	f->size = size;
	f->is_signed = !(f->type[0] == 'u' || strcmp(f->type, "gfp_t") == 0);
	return 0;
}

static int parse_fields(const char *cmd, const char *fields, struct uft_synth_def *d,
			struct uft_synth_error *e)
{
	d->f = calloc(UFT_SYNTH_FIELDS_MAX, sizeof(*d->f));
	if (!d->f)
		return -ENOMEM;
	int rc = 0;
	for (const char *seg = fields; seg && rc == 0;) {
		const char *semi = strchr(seg, ';');
		struct uft_words w;
		rc = uft_words_split(seg, semi ? (size_t)(semi - seg) : strlen(seg), &w);
		for (int used = 0; rc == 0 && used < w.n;) {
			rc = parse_field(cmd, w.n - used, w.v + used, &used, &d->f[d->nr++], e);
			if (rc == 0 && d->nr == UFT_SYNTH_FIELDS_MAX)
				rc = fail(e, E_TOO_MANY, 0, -EINVAL);
		}
		uft_words_free(&w);
		seg = semi ? semi + 1 : NULL;
	}
	if (rc == 0 && d->nr == 0)
		rc = fail(e, E_INVALID_CMD, 0, -EINVAL);
	if (rc)
		return rc;
	uint32_t off = 8;
	for (uint32_t i = 0; i < d->nr; i++) {
		d->f[i].offset = off;
		off += d->f[i].kind == UFT_SYNTH_STR ? UFT_SYNTH_STR_MAX : 8;
	}
	d->fixed_size = off;
	return 0;
}

static int create(const char *cmd, char *name, const char *fields, uft_synth_exists_fn exists,
		  void *ctx, struct uft_synth_cmd *c, struct uft_synth_error *e)
{
	c->def.name = name;
	if (!name[0])
		return fail(e, E_INVALID_CMD, 0, -EINVAL);
	if (!good_name(name))
		return fail(e, E_BAD_NAME, errpos(cmd, name), -EINVAL);
	if (exists && exists(ctx, name))
		return fail(e, E_EXISTS, errpos(cmd, name), -EEXIST);
	int rc = parse_fields(cmd, fields, &c->def, e);
	if (rc == 0)
		c->op = UFT_SYNTH_OP_CREATE;
	return rc;
}

/* "-:[GROUP/]NAME" (or "!...:...") in dynamic_events. */
static int parse_release(const char *cmd, struct uft_synth_cmd *c)
{
	struct uft_words w;
	int rc = uft_words_split(cmd, strlen(cmd), &w);
	if (rc)
		goto out;
	char *ev = w.v[0];
	if (ev[0] == '-') {
		if (ev[1] != ':') {
			rc = -EINVAL;
			goto out;
		}
		ev += 2;
	} else {
		ev = strchr(ev, ':');
		if (!ev) {
			rc = -EINVAL;
			goto out;
		}
		ev++;
	}
	char *slash = strchr(ev, '/');
	if (slash) {
		*slash = 0;
		c->group = strdup(ev);
		ev = slash + 1;
		if (!c->group) {
			rc = -ENOMEM;
			goto out;
		}
	} else if (!ev[0]) {
		rc = -EINVAL;
		goto out;
	}
	c->name = strdup(ev);
	c->any_system = !slash;
	rc = c->name ? 0 : -ENOMEM;
	if (rc == 0)
		c->op = UFT_SYNTH_OP_DELETE;
out:
	uft_words_free(&w);
	return rc;
}

int uft_synth_parse(const char *line, bool dyn, uft_synth_exists_fn exists, void *ctx,
		    struct uft_synth_cmd *c, struct uft_synth_error *e)
{
	memset(c, 0, sizeof(*c));
	e->msg = NULL;
	e->pos = 0;
	const char *cmd = skip_spaces(line);
	e->cmd_off = (unsigned)(cmd - line);
	if (!*cmd)
		return 0;
	const char *sp = strpbrk(cmd, " \t");
	if (dyn) {
		if (cmd[0] == '-' || cmd[0] == '!')
			return parse_release(cmd, c);
		if (cmd[0] != 's' || cmd[1] != ':')
			return -EINVAL; /* a kind of dynamic event uft has not */
		const char *name = cmd + 2;
		if (!sp)
			return fail(e, E_INVALID_CMD, 0, -EINVAL);
		if (strchr(name, '/')) {
			if (strncmp(name, UFT_SYNTH_SYSTEM "/", sizeof(UFT_SYNTH_SYSTEM)) != 0)
				return fail(e, E_INVALID_DYN_CMD, 0, -EINVAL);
			name += sizeof(UFT_SYNTH_SYSTEM);
		}
		if (check_command(name) || sp < name)
			return fail(e, E_INVALID_CMD, 0, -EINVAL);
		char *nm = strndup(name, (size_t)(sp - name));
		if (!nm)
			return -ENOMEM;
		return create(cmd, nm, skip_spaces(sp), exists, ctx, c, e);
	}
	if (check_command(cmd))
		return fail(e, E_INVALID_CMD, 0, -EINVAL);
	if (!sp && cmd[0] != '!')
		return fail(e, E_INVALID_CMD, 0, -EINVAL);
	char *nm = strndup(cmd, sp ? (size_t)(sp - cmd) : strlen(cmd));
	if (!nm)
		return -ENOMEM;
	if (nm[0] == '!') {
		c->op = UFT_SYNTH_OP_DELETE;
		c->name = nm;
		memmove(nm, nm + 1, strlen(nm));
		return 0;
	}
	return create(cmd, nm, skip_spaces(sp), exists, ctx, c, e);
}

void uft_synth_def_free(struct uft_synth_def *d)
{
	for (uint32_t i = 0; d->f && i < UFT_SYNTH_FIELDS_MAX; i++) {
		free(d->f[i].type);
		free(d->f[i].name);
	}
	free(d->f);
	free(d->name);
	memset(d, 0, sizeof(*d));
}

void uft_synth_cmd_free(struct uft_synth_cmd *c)
{
	uft_synth_def_free(&c->def);
	free(c->name);
	free(c->group);
	memset(c, 0, sizeof(*c));
}

char *uft_synth_desc(const struct uft_synth_def *d)
{
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);
	if (!m)
		return NULL;
	fprintf(m, "%s\t", d->name);
	for (uint32_t i = 0; i < d->nr; i++)
		fprintf(m, "%s %s%s", d->f[i].type, d->f[i].name, i + 1 < d->nr ? "; " : "");
	if (fclose(m) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

char *uft_synth_print_fmt(const struct uft_synth_def *d)
{
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);
	if (!m)
		return NULL;
	fputc('"', m);
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_synth_field *f = &d->f[i];
		const char *fmt = f->kind == UFT_SYNTH_NUM ? num_fmt(f->type, NULL) : "%s";
		fprintf(m, "%s=%s%s", f->name, fmt, i + 1 < d->nr ? " " : "");
	}
	fputc('"', m);
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_synth_field *f = &d->f[i];
		if (f->kind == UFT_SYNTH_DSTR)
			fprintf(m, ", __get_str(%s)", f->name);
		else if (f->kind == UFT_SYNTH_STACK)
			fprintf(m, ", __get_stacktrace(%s)", f->name);
		else
			fprintf(m, ", REC->%s", f->name);
	}
	if (fclose(m) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* The format's field: a static string prints as `char name[N]`, a dynamic
 * one as `__data_loc char[] name`, a stack as `__data_loc unsigned long[]
 * name`, numbers with their type as written. */
int uft_synth_format_field(const struct uft_synth_field *sf, struct uft_field *f)
{
	f->offset = sf->offset;
	f->size = sf->size;
	f->is_signed = sf->is_signed;
	if (sf->kind == UFT_SYNTH_STR) {
		const char *br = strchr(sf->type, '[');
		f->type = strndup(sf->type, (size_t)(br - sf->type));
		if (asprintf((char **)&f->name, "%s%s", sf->name, br) < 0)
			f->name = NULL;
		f->kind = UFT_FIELD_ARRAY;
		f->elem_size = 1;
	} else if (sf->kind == UFT_SYNTH_DSTR || sf->kind == UFT_SYNTH_STACK) {
		if (asprintf((char **)&f->type, "__data_loc %s", sf->type) < 0)
			f->type = NULL;
		f->name = strdup(sf->name);
		f->kind = UFT_FIELD_DYN;
		f->elem_size = sf->kind == UFT_SYNTH_STACK ? 8 : 1;
		/* The kernel judges the sign on "__data_loc ...": signed. */
		f->is_signed = 1;
	} else {
		f->type = strdup(sf->type);
		f->name = strdup(sf->name);
		f->kind = UFT_FIELD_SCALAR;
	}
	return f->type && f->name ? 0 : -ENOMEM;
}
