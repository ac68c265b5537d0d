/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The texts of a probe event the kernel makes: the listing line of
 * dynamic_events and friends (trace_kprobe_show, trace_uprobe_show,
 * trace_fprobe_show, eprobe_dyn_event_show), the format's fields
 * (traceprobe_define_arg_fields), the print fmt (__set_print_fmt) and the
 * args of a trace line (trace_probe_print_args). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/probe/probe_impl.h"

#include <uft/event.h>

/* The stream's text: fclose() sets *s. */
static char *close_stream(FILE *m, char **s)
{
	if (fclose(m) != 0) {
		free(*s);
		return NULL;
	}
	return *s;
}

static void put_symbol_loc(FILE *m, const struct uft_probe_def *d)
{
	if (d->has_addr) {
		fprintf(m, " 0x%" PRIx64, d->addr);
		return;
	}
	fprintf(m, " %s%s%s", d->lib ? d->lib : "", d->lib ? ":" : "", d->symbol);
	if (d->offset)
		fprintf(m, "+%ld", d->offset);
}

char *uft_probe_listing(const struct uft_probe_def *d)
{
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);
	if (!m)
		return NULL;
	switch (d->kind) {
	case UFT_PROBE_EPROBE:
		fprintf(m, "e:%s/%s %s.%s", d->group, d->event, d->sys, d->sys_event);
		break;
	case UFT_PROBE_FPROBE:
		fputc('f', m);
		if (d->is_return && d->maxactive)
			fprintf(m, "%u", d->maxactive);
		fprintf(m, ":%s/%s %s%s%s%s", d->group, d->event, d->lib ? d->lib : "",
			d->lib ? ":" : "", d->symbol, d->is_return ? "%return" : "");
		break;
	case UFT_PROBE_UPROBE:
		fprintf(m, "%c:%s/%s", d->is_return ? 'r' : 'p', d->group, d->event);
		if (d->symbol || d->has_addr) {
			put_symbol_loc(m, d);
			break;
		}
		fprintf(m, " %s:0x%016lx", d->lib, (unsigned long)d->offset);
		if (d->refctr)
			fprintf(m, "(0x%" PRIx64 ")", d->refctr);
		break;
	default:
		fputc(d->is_return ? 'r' : 'p', m);
		if (d->is_return && d->maxactive)
			fprintf(m, "%u", d->maxactive);
		fprintf(m, ":%s/%s", d->group, d->event);
		put_symbol_loc(m, d);
		break;
	}
	for (uint32_t i = 0; i < d->nr_args; i++)
		fprintf(m, " %s=%s", d->args[i].name, d->args[i].comm);
	return close_stream(m, &s);
}

static bool is_ret_head(const struct uft_probe_def *d)
{
	return d->kind != UFT_PROBE_EPROBE && d->is_return;
}

char *uft_probe_print_fmt(const struct uft_probe_def *d)
{
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);
	if (!m)
		return NULL;
	const char *fmt = "", *args = "";
	if (d->kind != UFT_PROBE_EPROBE) {
		fmt = is_ret_head(d) ? "(%lx <- %lx)" : "(%lx)";
		args = is_ret_head(d) ? ", REC->__probe_func, REC->__probe_ret_ip"
				      : ", REC->__probe_ip";
	}
	fprintf(m, "\"%s", fmt);
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		fprintf(m, " %s=", a->name);
		if (!a->count) {
			fputs(a->type->fmt, m);
			continue;
		}
		fprintf(m, "{%s", a->type->fmt);
		for (uint32_t j = 1; j < a->count; j++)
			fprintf(m, ",%s", a->type->fmt);
		fputc('}', m);
	}
	fprintf(m, "\"%s", args);
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		if (a->count) {
			const char *f = a->type->is_string && a->store != UFT_PST_SYMSTR
					    ? ", __get_str(%s[%u])"
					    : ", REC->%s[%u]";
			for (uint32_t j = 0; j < a->count; j++)
				fprintf(m, f, a->name, j);
		} else {
			fprintf(m, a->type->is_string ? ", __get_str(%s)" : ", REC->%s", a->name);
		}
	}
	return close_stream(m, &s);
}

static int set_field(struct uft_field *f, const char *type, const char *name, uint32_t count,
		     uint32_t offset, uint32_t size, uint8_t is_signed, uint16_t elem)
{
	f->type = strdup(type);
	if (count) {
		if (asprintf((char **)&f->name, "%s[%u]", name, count) < 0)
			f->name = NULL;
	} else {
		f->name = strdup(name);
	}
	f->offset = offset;
	f->size = size;
	f->is_signed = is_signed;
	f->elem_size = elem;
	f->kind = count					 ? UFT_FIELD_ARRAY
		  : strncmp(type, "__data_loc", 10) == 0 ? UFT_FIELD_DYN
							 : UFT_FIELD_SCALAR;
	return f->type && f->name ? 0 : -ENOMEM;
}

void uft_probe_fields_free(struct uft_field *f, uint32_t nr)
{
	for (uint32_t i = 0; f && i < nr; i++) {
		free((char *)f[i].type);
		free((char *)f[i].name);
	}
	free(f);
}

struct uft_field *uft_probe_fields(const struct uft_probe_def *d, uint32_t *nr)
{
	uint32_t head = d->kind == UFT_PROBE_EPROBE ? 0 : is_ret_head(d) ? 2 : 1;
	uint32_t total = head + d->nr_args;
	struct uft_field *f = calloc(total ? total : 1, sizeof(*f));
	if (!f)
		return NULL;
	int rc = 0;
	if (head == 1) {
		rc |= set_field(&f[0], "unsigned long", "__probe_ip", 0, 8, 8, 0, 0);
	} else if (head == 2) {
		rc |= set_field(&f[0], "unsigned long", "__probe_func", 0, 8, 8, 0, 0);
		rc |= set_field(&f[1], "unsigned long", "__probe_ret_ip", 0, 16, 8, 0, 0);
	}
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		uint32_t size = a->type->size * (a->count ? a->count : 1);
		rc |= set_field(&f[head + i], a->type->fmttype, a->name, a->count, a->offset, size,
				a->type->is_signed, a->type->size);
	}
	if (rc) {
		uft_probe_fields_free(f, total);
		return NULL;
	}
	*nr = total;
	return f;
}

static uint64_t load(const uint8_t *p, unsigned size, bool is_signed)
{
	uint64_t v = 0;
	memcpy(&v, p, size);
	if (is_signed && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ull << (size * 8);
	return v;
}

static void put_value(FILE *m, const struct uft_probe_arg *a, const uint8_t *rec, uint32_t len,
		      uint32_t off)
{
	const struct uft_probe_type *t = a->type;
	if (off + t->size > len) {
		fputs("(fault)", m);
		return;
	}
	if (t->is_string) {
		uint32_t loc = (uint32_t)load(rec + off, 4, false);
		uint32_t sl = loc >> 16, so = loc & 0xffff;
		if (!sl || so + sl > len)
			fputs("(fault)", m);
		else
			fprintf(m, "\"%.*s\"", (int)(sl - 1), (const char *)rec + so);
		return;
	}
	uint64_t v = load(rec + off, t->size, t->is_signed);
	const char *n = t->name;
	if (t->is_signed)
		fprintf(m, "%" PRId64, (int64_t)v);
	else if (n[0] == 'x')
		fprintf(m, "0x%" PRIx64, v);
	else if (strcmp(n, "char") == 0)
		fprintf(m, "'%c'", (int)(uint8_t)v);
	else if (strcmp(n, "symbol") == 0)
		fprintf(m, "0x%" PRIx64, v);
	else
		fprintf(m, "%" PRIu64, v);
}

int uft_probe_args_text(const struct uft_probe_def *d, const uint8_t *rec, uint32_t len, char *buf,
			size_t cap)
{
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);
	if (!m)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		fprintf(m, " %s=", a->name);
		if (!a->count) {
			put_value(m, a, rec, len, a->offset);
			continue;
		}
		fputc('{', m);
		for (uint32_t j = 0; j < a->count; j++) {
			put_value(m, a, rec, len, a->offset + j * a->type->size);
			fputc(j + 1 == a->count ? '}' : ',', m);
		}
	}
	if (!close_stream(m, &s))
		return -ENOMEM;
	int r = snprintf(buf, cap, "%s", s);
	free(s);
	return r;
}
