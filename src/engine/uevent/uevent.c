/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User event definitions: parse, compare, texts, record checks. The types,
 * sizes, signedness and print conversions are the kernel's
 * (kernel/trace/trace_events_user.c): fields are packed without padding,
 * the first at offset 8; `long` is not a type; only a struct takes a size. */
#define _GNU_SOURCE
#include "engine/uevent/uevent.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text/text_put.h"

static const struct {
	const char *type;
	uint8_t size;
	const char *conv;
} num_types[] = {
    {"s64", 8, "%lld"}, {"u64", 8, "%llu"},	     {"s32", 4, "%d"}, {"u32", 4, "%u"},
    {"int", 4, "%d"},	{"unsigned int", 4, "%u"},   {"s16", 2, "%d"}, {"u16", 2, "%u"},
    {"short", 2, "%d"}, {"unsigned short", 2, "%u"}, {"s8", 1, "%d"},  {"u8", 1, "%u"},
    {"char", 1, "%d"},	{"unsigned char", 1, "%u"},
};

static bool good_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* "char[N]" (or "unsigned char[N]"): N, or 0 when it is not that form. */
static uint32_t char_array_len(const char *type)
{
	const char *p = strncmp(type, "unsigned ", 9) == 0 ? type + 9 : type;
	if (strncmp(p, "char[", 5) != 0)
		return 0;
	p += 5;
	char *end;
	if (!isdigit((unsigned char)*p))
		return 0;
	unsigned long n = strtoul(p, &end, 10);
	if (strcmp(end, "]") != 0 || n == 0 || n > UFT_UEV_RECORD_MAX)
		return 0;
	return (uint32_t)n;
}

/* Splits s at runs of spaces into at most max tokens; returns the count, or
 * max + 1 when there are more. */
static int split(char *s, char **tok, int max)
{
	int n = 0;
	for (char *p = strtok(s, " \t"); p; p = strtok(NULL, " \t")) {
		if (n == max)
			return max + 1;
		tok[n++] = p;
	}
	return n;
}

/* One field ("u32 count", "__data_loc char[] msg", "struct foo f 16"). */
static int parse_field(char *text, struct uft_uev_field *f, const char **why)
{
	char *tok[5];
	int n = split(text, tok, 4);
	memset(f, 0, sizeof(*f));
	char type[128];
	int i = 0;
	bool loc = false, rel = false, is_struct = false;
	if (n >= 1 && (strcmp(tok[0], "__data_loc") == 0 || strcmp(tok[0], "__rel_loc") == 0)) {
		loc = true;
		rel = tok[0][2] == 'r';
		if (n < 3) {
			*why = "missing field name";
			return -EINVAL;
		}
		snprintf(type, sizeof(type), "%s %s", tok[0], tok[1]);
		i = 2;
	} else if (n >= 1 && strcmp(tok[0], "struct") == 0) {
		is_struct = true;
		if (n != 4) {
			*why = "a struct field needs a type, a name and a size";
			return -EINVAL;
		}
		snprintf(type, sizeof(type), "struct %s", tok[1]);
		if (!good_name(tok[1])) {
			*why = "bad struct name";
			return -EINVAL;
		}
		i = 2;
	} else if (n == 2) {
		snprintf(type, sizeof(type), "%s", tok[0]);
		i = 1;
	} else {
		*why = n < 2 ? "missing field name" : "only a struct field takes a size";
		return -EINVAL;
	}
	if (n - i != (is_struct ? 2 : 1)) {
		*why = "only a struct field takes a size";
		return -EINVAL;
	}
	const char *name = tok[i];
	if (!good_name(name) || strlen(name) > UFT_UEV_NAME_MAX) {
		*why = "bad field name";
		return -EINVAL;
	}
	uint32_t size = 0;
	if (loc) {
		const char *elem = type + (rel ? 10 : 11);
		size_t el = strlen(elem);
		if (el < 3 || strcmp(elem + el - 2, "[]") != 0) {
			*why = "a dynamic field's type ends in []";
			return -EINVAL;
		}
		f->kind = rel ? UFT_UEV_REL_LOC : UFT_UEV_DATA_LOC;
		f->is_char = strstr(elem, "char") != NULL;
		size = 4;
	} else if (is_struct) {
		char *end;
		if (!isdigit((unsigned char)tok[3][0])) {
			*why = "bad struct size";
			return -EINVAL;
		}
		unsigned long v = strtoul(tok[3], &end, 10);
		if (*end || v == 0 || v > UFT_UEV_RECORD_MAX) {
			*why = "bad struct size";
			return -EINVAL;
		}
		f->kind = UFT_UEV_STRUCT;
		size = (uint32_t)v;
	} else if ((size = char_array_len(type))) {
		f->kind = UFT_UEV_CHARS;
	} else {
		for (size_t k = 0; k < sizeof(num_types) / sizeof(num_types[0]); k++)
			if (strcmp(type, num_types[k].type) == 0)
				size = num_types[k].size;
		if (!size) {
			*why = "unknown type";
			return -EINVAL;
		}
		f->kind = UFT_UEV_NUM;
	}
	f->size = size;
	f->is_signed = type[0] != 'u';
	f->type = strdup(type);
	f->name = strdup(name);
	if (!f->type || !f->name) {
		free(f->type);
		free(f->name);
		return -ENOMEM;
	}
	return 0;
}

void uft_uev_def_free(struct uft_uev_def *d)
{
	for (uint32_t i = 0; d->f && i < d->nr; i++) {
		free(d->f[i].type);
		free(d->f[i].name);
	}
	free(d->f);
	free(d->name);
	memset(d, 0, sizeof(*d));
}

int uft_uev_parse(const char *def, struct uft_uev_def *out, const char **why)
{
	static const char *dummy;
	if (!why)
		why = &dummy;
	*why = NULL;
	memset(out, 0, sizeof(*out));
	if (!def) {
		*why = "no definition";
		return -EINVAL;
	}
	size_t len = strnlen(def, UFT_UEV_DEF_MAX + 1);
	if (len > UFT_UEV_DEF_MAX) {
		*why = "definition too long";
		return -E2BIG;
	}
	char *s = strndup(def, len), *p = s;
	if (!s)
		return -ENOMEM;
	int rc = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	char *args = p + strcspn(p, " \t");
	if (*args)
		*args++ = 0;
	if (strchr(p, ':')) {
		*why = "unknown flag"; /* no flag is defined for the string form */
		rc = -EINVAL;
		goto out;
	}
	if (!*p || !good_name(p) || strlen(p) > UFT_UEV_NAME_MAX) {
		*why = "bad event name";
		rc = -EINVAL;
		goto out;
	}
	out->name = strdup(p);
	out->f = calloc(UFT_UEV_FIELDS_MAX, sizeof(*out->f));
	if (!out->name || !out->f) {
		rc = -ENOMEM;
		goto out;
	}
	out->size = 8;
	for (char *fld = strsep(&args, ";"); fld; fld = strsep(&args, ";")) {
		char *q = fld;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!*q)
			continue; /* an empty field, as after a trailing ';' */
		if (out->nr == UFT_UEV_FIELDS_MAX) {
			*why = "too many fields";
			rc = -EINVAL;
			goto out;
		}
		struct uft_uev_field *f = &out->f[out->nr];
		rc = parse_field(q, f, why);
		if (rc)
			goto out;
		out->nr++;
		for (uint32_t i = 0; i + 1 < out->nr; i++) {
			if (strcmp(out->f[i].name, f->name) == 0) {
				*why = "duplicate field name";
				rc = -EINVAL;
				goto out;
			}
		}
		f->offset = out->size;
		out->size += f->size;
		if (out->size > UFT_UEV_RECORD_MAX) {
			*why = "record too large";
			rc = -E2BIG;
			goto out;
		}
	}
out:
	free(s);
	if (rc)
		uft_uev_def_free(out);
	return rc;
}

bool uft_uev_same(const struct uft_uev_def *a, const struct uft_uev_def *b)
{
	if (strcmp(a->name, b->name) != 0 || a->nr != b->nr)
		return false;
	for (uint32_t i = 0; i < a->nr; i++)
		if (strcmp(a->f[i].type, b->f[i].type) != 0 ||
		    strcmp(a->f[i].name, b->f[i].name) != 0 || a->f[i].size != b->f[i].size)
			return false;
	return true;
}

static char *text_done(struct uft_text *t)
{
	if (t->len >= t->cap)
		return NULL;
	return t->buf;
}

/* Runs fill twice: to measure, then into a buffer of that size. */
static char *make_text(const struct uft_uev_def *d,
		       void (*fill)(struct uft_text *, const struct uft_uev_def *))
{
	struct uft_text m = {0};
	fill(&m, d);
	struct uft_text t = {.buf = malloc(m.len + 1), .cap = m.len + 1};
	if (!t.buf)
		return NULL;
	t.buf[0] = 0;
	fill(&t, d);
	return text_done(&t);
}

static void fill_listing(struct uft_text *t, const struct uft_uev_def *d)
{
	uft_text_put(t, "%s", d->name);
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_uev_field *f = &d->f[i];
		uft_text_put(t, "%s%s %s", i ? "; " : " ", f->type, f->name);
		if (f->kind == UFT_UEV_STRUCT)
			uft_text_put(t, " %u", f->size);
	}
}

char *uft_uev_listing(const struct uft_uev_def *d)
{
	return make_text(d, fill_listing);
}

static const char *conv_of(const struct uft_uev_field *f)
{
	for (size_t k = 0; k < sizeof(num_types) / sizeof(num_types[0]); k++)
		if (strcmp(f->type, num_types[k].type) == 0)
			return num_types[k].conv;
	if (strstr(f->type, "char["))
		return "%s";
	return "%llu"; /* a struct, or a dynamic array of anything else */
}

static void fill_print_fmt(struct uft_text *t, const struct uft_uev_def *d)
{
	uft_text_put(t, "\"");
	for (uint32_t i = 0; i < d->nr; i++)
		uft_text_put(t, "%s%s=%s", i ? " " : "", d->f[i].name, conv_of(&d->f[i]));
	uft_text_put(t, "\"");
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_uev_field *f = &d->f[i];
		if (f->kind == UFT_UEV_DATA_LOC && f->is_char)
			uft_text_put(t, ", __get_str(%s)", f->name);
		else if (f->kind == UFT_UEV_REL_LOC && f->is_char)
			uft_text_put(t, ", __get_rel_str(%s)", f->name);
		else
			uft_text_put(t, ", REC->%s", f->name);
	}
}

char *uft_uev_print_fmt(const struct uft_uev_def *d)
{
	return make_text(d, fill_print_fmt);
}

void uft_uev_fields_free(struct uft_field *f, uint32_t nr)
{
	for (uint32_t i = 0; f && i < nr; i++) {
		free((char *)f[i].type);
		free((char *)f[i].name);
	}
	free(f);
}

struct uft_field *uft_uev_fields(const struct uft_uev_def *d)
{
	struct uft_field *out = calloc(d->nr + 1, sizeof(*out));
	if (!out)
		return NULL;
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_uev_field *f = &d->f[i];
		struct uft_field *o = &out[i];
		o->offset = f->offset;
		o->size = f->size;
		o->is_signed = f->is_signed;
		o->elem_size = (uint16_t)f->size;
		if (f->kind == UFT_UEV_CHARS) {
			/* "char[20] msg" shows as "char msg[20]", as the kernel's format. */
			const char *br = strchr(f->type, '[');
			o->type = strndup(f->type, (size_t)(br - f->type));
			if (asprintf((char **)&o->name, "%s%s", f->name, br) < 0)
				o->name = NULL;
			o->kind = UFT_FIELD_ARRAY;
			o->elem_size = 1;
		} else {
			o->type = strdup(f->type);
			o->name = strdup(f->name);
			o->kind = f->kind == UFT_UEV_DATA_LOC || f->kind == UFT_UEV_REL_LOC
				      ? UFT_FIELD_DYN
				  : f->kind == UFT_UEV_STRUCT && f->size > 8 ? UFT_FIELD_ARRAY
									     : UFT_FIELD_SCALAR;
			if (o->kind == UFT_FIELD_DYN || o->kind == UFT_FIELD_ARRAY)
				o->elem_size = 1;
		}
		if (!o->type || !o->name) {
			uft_uev_fields_free(out, d->nr);
			return NULL;
		}
	}
	return out;
}

int uft_uev_validate(const struct uft_uev_def *d, const uint8_t *rec, uint32_t len)
{
	if (len < d->size)
		return -EINVAL;
	if (len > UFT_UEV_RECORD_MAX)
		return -E2BIG;
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_uev_field *f = &d->f[i];
		if (f->kind != UFT_UEV_DATA_LOC && f->kind != UFT_UEV_REL_LOC)
			continue;
		uint32_t loc;
		memcpy(&loc, rec + f->offset, sizeof(loc));
		uint64_t off = loc & 0xffff, size = loc >> 16;
		if (f->kind == UFT_UEV_REL_LOC)
			off += f->offset + 4;
		/* The data lies after the fixed part and inside the record. */
		if (off < d->size || off + size > len)
			return -EFAULT;
		if (f->is_char && (size == 0 || rec[off + size - 1] != 0))
			return -EFAULT;
	}
	return 0;
}
