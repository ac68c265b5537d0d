/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sqlhist fields: which event a written field belongs to, its name in a
 * hist trigger, and its type in a synthetic event definition. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sqlhist/sqlhist_impl.h"
#include "util/util.h"

/* Every event's common fields, which format_parse leaves out. */
static const struct uft_field common[] = {
    {"unsigned short", "common_type", 0, 2, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned char", "common_flags", 2, 1, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned char", "common_preempt_count", 3, 1, 0, UFT_FIELD_SCALAR, 0},
    {"int", "common_pid", 4, 4, 1, UFT_FIELD_SCALAR, 0},
};

static const struct {
	const char *name;
	enum sql_special sp;
	const char *hist;
} specials[] = {
    {"TIMESTAMP", SQL_SP_TS, "common_timestamp"},
    {"common_timestamp", SQL_SP_TS, "common_timestamp"},
    {"TIMESTAMP_USECS", SQL_SP_TS_USECS, "common_timestamp.usecs"},
    {"TIMESTAMP_DELTA", SQL_SP_DELTA, NULL},
    {"TIMESTAMP_DELTA_USECS", SQL_SP_DELTA_USECS, NULL},
    {"STACKTRACE", SQL_SP_STACK, "common_stacktrace"},
    {"common_stacktrace", SQL_SP_STACK, "common_stacktrace"},
    {"COMM", SQL_SP_COMM, "COMM"},
    {"CPU", SQL_SP_CPU, "common_cpu"},
    {"common_cpu", SQL_SP_CPU, "common_cpu"},
};

/* A field's name without its array length. */
static bool name_is(const struct uft_field *f, const char *name)
{
	size_t n = strcspn(f->name, "[");
	return strlen(name) == n && !strncmp(f->name, name, n);
}

static const struct uft_field *event_field(const struct uft_sql_event *ev, const char *name)
{
	for (uint32_t i = 0; i < ev->nr_fields; i++)
		if (name_is(&ev->fields[i], name))
			return &ev->fields[i];
	for (size_t i = 0; i < ARRAY_SIZE(common); i++)
		if (name_is(&common[i], name))
			return &common[i];
	return NULL;
}

static enum sql_special special(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(specials); i++)
		if (!strcmp(specials[i].name, name))
			return specials[i].sp;
	return SQL_SP_NONE;
}

/* The event a qualifier names: alias first, then "event" or "system.event". */
static int qualifier(const struct sql_events *evs, const char *q, size_t qlen, int pos,
		     struct uft_sql_error *err)
{
	int found = -1, n = 0;

	for (int i = 0; i < evs->nr; i++)
		if (evs->alias[i] && strlen(evs->alias[i]) == qlen &&
		    !strncmp(evs->alias[i], q, qlen))
			return i;
	for (int i = 0; i < evs->nr; i++) {
		const struct uft_sql_event *e = evs->ev[i];
		size_t sl = strlen(e->system);
		bool full = qlen > sl && q[sl] == '.' && !strncmp(q, e->system, sl) &&
			    strlen(e->name) == qlen - sl - 1 &&
			    !strncmp(q + sl + 1, e->name, qlen - sl - 1);
		bool bare = strlen(e->name) == qlen && !strncmp(e->name, q, qlen);
		if (full || bare) {
			found = i;
			n++;
		}
	}
	if (n == 1)
		return found;
	if (n > 1)
		return sql_fail(err, pos, "'%.*s' names both events: use their aliases", (int)qlen,
				q);
	return sql_fail(err, pos, "'%.*s' is not an event or alias of the statement", (int)qlen, q);
}

int sql_resolve(const struct sql_events *evs, const struct uft_sql_field *in,
		struct sql_rfield *out, struct uft_sql_error *err)
{
	const char *text = in->text, *name = strrchr(text, '.');
	int ev = -1;

	*out = (struct sql_rfield){.ev = -1};
	if (name) {
		ev = qualifier(evs, text, (size_t)(name - text), in->pos, err);
		if (ev < 0)
			return ev;
		name++;
		if (!*name)
			return sql_fail(err, in->pos, "'%s' names no field", text);
	} else {
		name = text;
		int n = 0;
		for (int i = 0; i < evs->nr; i++)
			if (event_field(evs->ev[i], name)) {
				ev = i;
				n++;
			}
		if (n > 1)
			return sql_fail(err, in->pos, "both events have '%s': write ALIAS.%s", name,
					name);
		if (!n && evs->nr == 1)
			ev = 0;
		enum sql_special sp = special(name);
		if (!n && (sp == SQL_SP_DELTA || sp == SQL_SP_DELTA_USECS)) {
			out->sp = sp;
			return 0;
		}
		if (!n && sp && evs->nr > 1)
			return sql_fail(err, in->pos, "give the event of '%s': write ALIAS.%s",
					name, name);
	}
	if (ev < 0)
		return sql_fail(err, in->pos, "no field '%s' in %s or %s", name, evs->ev[0]->name,
				evs->ev[1]->name);
	out->ev = ev;
	out->f = event_field(evs->ev[ev], name);
	if (out->f)
		return 0;
	out->sp = special(name);
	if (out->sp == SQL_SP_DELTA || out->sp == SQL_SP_DELTA_USECS)
		return sql_fail(err, in->pos, "%s belongs to no event: write it alone", name);
	if (!out->sp)
		return sql_fail(err, in->pos, "%s.%s has no field '%s'", evs->ev[ev]->system,
				evs->ev[ev]->name, name);
	return 0;
}

const char *sql_hist_name(const struct sql_rfield *r, char *buf, size_t len)
{
	if (r->f) {
		snprintf(buf, len, "%.*s", (int)strcspn(r->f->name, "["), r->f->name);
		return buf;
	}
	for (size_t i = 0; i < ARRAY_SIZE(specials); i++)
		if (specials[i].sp == r->sp && specials[i].hist)
			return specials[i].hist;
	return "common_timestamp";
}

bool sql_is_string(const struct sql_rfield *r)
{
	if (!r->f)
		return r->sp == SQL_SP_COMM;
	if (r->f->kind == UFT_FIELD_SCALAR)
		return false;
	return strstr(r->f->type, "char") != NULL;
}

/* Scalars keep pid_t, gfp_t and bool; others take a type of their size. */
static const char *scalar_type(const struct uft_field *f)
{
	static const char *const kept[] = {"pid_t", "gfp_t", "bool"};
	const char *t = f->type;

	if (!strncmp(t, "const ", 6))
		t += 6;
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++)
		if (!strcmp(t, kept[i]))
			return kept[i];
	switch (f->size) {
	case 1:
		return f->is_signed ? "char" : "unsigned char";
	case 2:
		return f->is_signed ? "s16" : "u16";
	case 4:
		return f->is_signed ? "s32" : "u32";
	case 8:
		return f->is_signed ? "s64" : "u64";
	}
	return NULL;
}

int sql_synth_field(const struct sql_rfield *r, const char *label, char *buf, size_t len)
{
	const struct uft_field *f = r->f;
	int n;

	if (!f) {
		switch (r->sp) {
		case SQL_SP_COMM:
			n = snprintf(buf, len, "char %s[16]", label);
			break;
		case SQL_SP_CPU:
			n = snprintf(buf, len, "u32 %s", label);
			break;
		case SQL_SP_STACK:
			n = snprintf(buf, len, "unsigned long[] %s", label);
			break;
		default:
			n = snprintf(buf, len, "u64 %s", label);
		}
	} else if (f->kind == UFT_FIELD_DYN) {
		/* "__data_loc char[]" -> "char LABEL[]" */
		const char *t = strchr(f->type, ' ');
		t = t ? t + 1 : f->type;
		n = snprintf(buf, len, "%.*s %s[]", (int)strcspn(t, "["), t, label);
	} else if (f->kind == UFT_FIELD_ARRAY) {
		const char *br = strchr(f->name, '[');
		n = snprintf(buf, len, "%s %s%s", f->type, label, br ? br : "[]");
	} else {
		const char *t = scalar_type(f);
		if (!t)
			return -EINVAL;
		n = snprintf(buf, len, "%s %s", t, label);
	}
	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}
