/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Record fields for the exports: each field of an event's format decoded
 * by its type (numbers, strings, dynamic arrays), and the --counter
 * fields. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "export/export_priv.h"

static bool is_char_array(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char") != NULL);
}

/* Where a field's bytes lie in the record: false when beyond it. */
static bool field_span(const struct exp_rec *r, const struct tep_format_field *f, uint32_t *off,
		       uint32_t *len)
{
	uint32_t o = (uint32_t)f->offset, n = (uint32_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t v;
		if (o + 4u > r->len)
			return false;
		memcpy(&v, (const char *)r->data + o, 4);
		n = v >> 16;
		o = (f->flags & TEP_FIELD_IS_RELATIVE) ? o + 4 + (v & 0xffff) : (v & 0xffff);
	} else if (n == 0 && (f->flags & TEP_FIELD_IS_ARRAY)) {
		n = o <= r->len ? r->len - o : 0; /* "char buf[]": to the end */
	}
	if (o > r->len || n > r->len - o)
		return false;
	*off = o;
	*len = n;
	return true;
}

static void decode(const struct exp_rec *r, const struct tep_format_field *f, uint32_t off,
		   uint32_t len, struct exp_field *out)
{
	const char *p = (const char *)r->data + off;
	out->name = f->name;
	if (is_char_array(f)) {
		out->kind = EXP_STR;
		out->s = p;
		out->slen = strnlen(p, len);
		return;
	}
	uint64_t v = 0;
	if (len == 1 || len == 2 || len == 4 || len == 8)
		v = tep_read_number(r->ev->tep, p, (int)len);
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		out->kind = EXP_INT;
		unsigned sh = len < 8 ? 64 - 8 * len : 0;
		out->i = (int64_t)(v << sh) >> sh;
	} else {
		out->kind = EXP_UINT;
		out->u = v;
	}
}

int exp_fields(const struct exp_rec *r, int (*cb)(void *arg, const struct exp_field *f), void *arg)
{
	if (!r->ev)
		return 0;
	for (struct tep_format_field *f = r->ev->format.fields; f; f = f->next) {
		uint32_t off, len;
		if (!field_span(r, f, &off, &len))
			continue;
		struct exp_field x;
		/* Arrays of numbers are left out: no scalar says them. */
		if ((f->flags & TEP_FIELD_IS_ARRAY) && !is_char_array(f))
			continue;
		decode(r, f, off, len, &x);
		int rc = cb(arg, &x);
		if (rc)
			return rc;
	}
	return 0;
}

static int counter_add(struct exp *x, const char *spec)
{
	char *c = strdup(spec);
	if (!c)
		return -ENOMEM;
	char *ev = strchr(c, ':'), *fld = ev ? strchr(ev + 1, ':') : NULL;
	struct tep_event *e = NULL;
	struct tep_format_field *f = NULL;
	if (fld) {
		*ev++ = '\0';
		*fld++ = '\0';
		e = tep_find_event_by_name(x->tf->tep, c, ev);
		f = e ? tep_find_field(e, fld) : NULL;
	}
	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) ||
	    !(f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
		fprintf(x->err, "uft report: --counter %s: %s\n", spec,
			!fld ? "not SYSTEM:EVENT:FIELD"
			: !e ? "no such event in the file"
			: !f ? "no such field"
			     : "not a numeric field");
		free(c);
		return -EINVAL;
	}
	free(c);
	struct exp_counter *k = &x->counters[x->nr_counters];
	k->label = strdup(spec);
	if (!k->label)
		return -ENOMEM;
	k->id = (uint16_t)e->id;
	k->field = f;
	x->nr_counters++;
	return 0;
}

int exp_counters_init(struct exp *x, const struct exp_opts *o)
{
	for (size_t i = 0; i < o->nr_counters && i < EXPORT_MAX_COUNTERS; i++) {
		int rc = counter_add(x, o->counters[i]);
		if (rc)
			return rc;
	}
	return 0;
}

void exp_counters_free(struct exp *x)
{
	for (unsigned i = 0; i < x->nr_counters; i++)
		free(x->counters[i].label);
}

int exp_counters_feed(struct exp *x, struct exp_thread *t, uint16_t type, const struct exp_rec *r)
{
	for (unsigned i = 0; x->s->counter && i < x->nr_counters; i++) {
		struct exp_counter *k = &x->counters[i];
		if (k->id != type || (uint32_t)k->field->offset + (uint32_t)k->field->size > r->len)
			continue;
		struct exp_field v;
		decode(r, k->field, (uint32_t)k->field->offset, (uint32_t)k->field->size, &v);
		int rc = x->s->counter(x->s->ctx, x, t, i, r->ts,
				       v.kind == EXP_INT ? v.i : (int64_t)v.u);
		if (rc)
			return rc;
	}
	return 0;
}

const char *exp_counter_name(const struct exp *x, unsigned which)
{
	return which < x->nr_counters ? x->counters[which].label : "";
}
