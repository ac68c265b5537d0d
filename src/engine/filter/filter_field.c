/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Field names in a filter: the event's fields, then the CPU and COMM pseudo
 * fields, then the common fields; each gets the kernel's filter class. */
#include <string.h>

#include "engine/filter/filter_parse.h"
#include "util/util.h"

static bool has(const char *s, const char *sub)
{
	return s && strstr(s, sub);
}

/* "char *" or "const char *", spaced any way. */
static bool is_char_ptr(const char *type)
{
	char t[32];
	size_t n = 0;

	for (; type && *type && n < sizeof(t) - 1; type++)
		if (*type != ' ' && *type != '\t')
			t[n++] = *type;
	t[n] = '\0';
	return !strcmp(t, "char*") || !strcmp(t, "constchar*");
}

static void classify(const struct uft_field *f, struct uft_ffield *r)
{
	const char *type = f->type;

	r->offset = f->offset;
	r->size = f->size;
	r->is_signed = f->is_signed;
	r->is_ptr = f->kind == UFT_FIELD_SCALAR && f->size == sizeof(void *) && has(type, "*");
	r->cls = FC_NUM;
	if (has(type, "__rel_loc") && has(type, "char"))
		r->cls = FC_RDYN;
	else if (f->kind == UFT_FIELD_DYN || has(type, "__data_loc"))
		r->cls = has(type, "char") ? FC_DYN : has(type, "cpumask_t") ? FC_CPUMASK : FC_NUM;
	else if (f->kind == UFT_FIELD_ARRAY && has(type, "char"))
		r->cls = FC_STATIC;
	else if (r->is_ptr && is_char_ptr(type))
		r->cls = FC_PTR;
}

/* Field names of arrays carry "[N]"; filters name the field without it. */
static bool name_is(const char *name, const char *s, size_t n)
{
	return name && !strncmp(name, s, n) && (name[n] == '\0' || name[n] == '[');
}

bool uft_fparse_field(struct uft_fparse *p, const char *s, size_t n, struct uft_ffield *r)
{
	static const struct {
		const char *name;
		struct uft_ffield ref;
	} builtin[] = {
	    {"CPU", {0, 4, FC_CPU, true, false}},
	    {"cpu", {0, 4, FC_CPU, true, false}},
	    {"common_cpu", {0, 4, FC_CPU, true, false}},
	    {"COMM", {0, 8, FC_COMM, false, false}},
	    {"comm", {0, 8, FC_COMM, false, false}},
	    {"common_type", {0, 2, FC_NUM, false, false}},
	    {"common_flags", {2, 1, FC_NUM, false, false}},
	    {"common_preempt_count", {3, 1, FC_NUM, false, false}},
	    {"common_pid", {4, 4, FC_NUM, true, false}},
	};

	/* The event's own fields first, so a real "comm" hides the pseudo one. */
	for (uint32_t i = 0; i < p->nr_fields; i++) {
		if (name_is(p->fields[i].name, s, n)) {
			classify(&p->fields[i], r);
			return true;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(builtin); i++) {
		if (strlen(builtin[i].name) == n && !memcmp(builtin[i].name, s, n)) {
			*r = builtin[i].ref;
			if (r->cls == FC_CPU)
				p->needs |= UFT_FILTER_NEEDS_CPU;
			if (r->cls == FC_COMM)
				p->needs |= UFT_FILTER_NEEDS_COMM;
			return true;
		}
	}
	return false;
}
