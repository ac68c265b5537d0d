/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Parses "name:", "ID:" and the "field:TYPE NAME; offset:N; size:N;
 * signed:N;" lines of a format file; everything else is ignored. */
#define _GNU_SOURCE
#include "engine/format/format_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 1024
#define MAX_OFFSET 65536u

/* Value of "key:N;" inside [s, end), or -1. */
static long number_after(const char *s, const char *end, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = s; p + klen <= end; p++) {
		if (memcmp(p, key, klen))
			continue;
		p += klen;
		long v = 0;
		bool any = false;
		while (p < end && isdigit((unsigned char)*p)) {
			v = v * 10 + (*p++ - '0');
			any = true;
			if (v > (long)MAX_OFFSET)
				return -1;
		}
		return any ? v : -1;
	}
	return -1;
}

/* "TYPE NAME" up to the first ';': the name is the last word. */
static int split_decl(const char *s, const char *end, struct uft_field *f)
{
	const char *semi = memchr(s, ';', (size_t)(end - s));
	const char *sp;

	if (!semi || memchr(s, ':', (size_t)(semi - s)))
		return -EINVAL;
	while (s < semi && isspace((unsigned char)*s))
		s++;
	while (semi > s && isspace((unsigned char)semi[-1]))
		semi--;
	for (sp = semi; sp > s && !isspace((unsigned char)sp[-1]); sp--)
		;
	if (sp == s || sp == semi)
		return -EINVAL;
	f->name = strndup(sp, (size_t)(semi - sp));
	while (sp > s && isspace((unsigned char)sp[-1]))
		sp--;
	f->type = strndup(s, (size_t)(sp - s));
	return f->name && f->type ? 0 : -ENOMEM;
}

static void classify(struct uft_field *f)
{
	const char *br = strchr(f->name, '[');

	f->kind = UFT_FIELD_SCALAR;
	f->elem_size = (uint16_t)(f->size < 0xffff ? f->size : 0xffff);
	if (!strncmp(f->type, "__data_loc", 10) || !strncmp(f->type, "__rel_loc", 9)) {
		f->kind = UFT_FIELD_DYN;
		f->elem_size = 1;
	} else if (br) {
		unsigned long n = strtoul(br + 1, NULL, 10);
		f->kind = UFT_FIELD_ARRAY;
		f->elem_size = (uint16_t)(n && f->size / n ? f->size / n : 1);
	}
}

static int parse_field(const char *s, const char *end, struct uft_format_parsed *out)
{
	struct uft_field f = {0};
	long off = number_after(s, end, "offset:");
	long size = number_after(s, end, "size:");
	long sgn = number_after(s, end, "signed:");
	int rc;

	if (off < 0 || size < 0)
		return -EINVAL;
	rc = split_decl(s, end, &f);
	if (rc) {
		free((char *)f.name);
		free((char *)f.type);
		return rc;
	}
	if (!strncmp(f.name, "common_", 7)) {
		free((char *)f.name);
		free((char *)f.type);
		return 0;
	}
	if (out->nr_fields == MAX_FIELDS) {
		free((char *)f.name);
		free((char *)f.type);
		return -EINVAL;
	}
	f.offset = (uint32_t)off;
	f.size = (uint32_t)size;
	f.is_signed = sgn > 0;
	classify(&f);
	struct uft_field *m = realloc(out->fields, (out->nr_fields + 1) * sizeof(*m));
	if (!m) {
		free((char *)f.name);
		free((char *)f.type);
		return -ENOMEM;
	}
	out->fields = m;
	out->fields[out->nr_fields++] = f;
	return 0;
}

int uft_format_parse(const char *text, size_t len, struct uft_format_parsed *out)
{
	const char *p = text, *end = text + len;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *s = p;

		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if ((size_t)(eol - s) > 5 && !memcmp(s, "name:", 5) && !out->name) {
			s += 5;
			while (s < eol && isspace((unsigned char)*s))
				s++;
			const char *e = eol;
			while (e > s && isspace((unsigned char)e[-1]))
				e--;
			out->name = strndup(s, (size_t)(e - s));
			if (!out->name)
				rc = -ENOMEM;
		} else if ((size_t)(eol - s) > 3 && !memcmp(s, "ID:", 3)) {
			out->id = (unsigned)strtoul(s + 3, NULL, 10);
		} else if ((size_t)(eol - s) > 6 && !memcmp(s, "field:", 6)) {
			rc = parse_field(s + 6, eol, out);
		} else if ((size_t)(eol - s) >= 10 && !memcmp(s, "print fmt:", 10)) {
			break;
		}
		p = nl ? nl + 1 : end;
	}
	if (!rc && (!out->name || !*out->name))
		rc = -EINVAL;
	if (rc)
		uft_format_parsed_free(out);
	return rc;
}

void uft_format_parsed_free(struct uft_format_parsed *p)
{
	for (uint32_t i = 0; i < p->nr_fields; i++) {
		free((char *)p->fields[i].name);
		free((char *)p->fields[i].type);
	}
	free(p->fields);
	free(p->name);
	memset(p, 0, sizeof(*p));
}
