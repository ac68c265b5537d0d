/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Live synthetic events. A definition becomes a descriptor of its own,
 * registered like any event (id, format in the shared region, events/
 * directory, per-buffer enable, filter and triggers); the emit builds the
 * kernel's record layout in place in the buffer.
 *
 * A deleted event is freed after a grace period: an emit that loaded it (from
 * a hist action, inside a writer's section) may still be writing it. Its id
 * stays retired, for its records, until the same definition comes back. */
#define _GNU_SOURCE
#include "runtime/core/grace.h"
#include "runtime/core/synth_live.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uft/uft.h>

#include "engine/format/format.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "util/util.h"

static struct uft_synth **all;
static uint32_t nr_all, cap_all;

static void synth_free(struct uft_synth *s)
{
	for (uint32_t i = 0; s->fields && i < s->def.nr; i++) {
		free((char *)s->fields[i].type);
		free((char *)s->fields[i].name);
	}
	free(s->fields);
	free(s->desc);
	free((char *)s->ev.print_fmt);
	uft_synth_def_free(&s->def);
	free(s);
}

int uft_synth_create(struct uft_synth_def *def)
{
	if (uft_synth_find(def->name))
		return -EEXIST;
	if (uft_array_reserve(all, cap_all, nr_all + 1, 8))
		return -ENOMEM;
	struct uft_synth *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->def = *def;
	memset(def, 0, sizeof(*def));
	s->fields = calloc(s->def.nr, sizeof(*s->fields));
	int rc = s->fields ? 0 : -ENOMEM;
	for (uint32_t i = 0; rc == 0 && i < s->def.nr; i++)
		rc = uft_synth_format_field(&s->def.f[i], &s->fields[i]);
	s->desc = uft_synth_desc(&s->def);
	s->ev.print_fmt = uft_synth_print_fmt(&s->def);
	if (rc == 0 && (!s->desc || !s->ev.print_fmt))
		rc = -ENOMEM;
	if (rc) {
		synth_free(s);
		return rc;
	}
	s->ev.magic = UFT_EVENT_MAGIC;
	s->ev.style = UFT_STYLE_STRUCT;
	s->ev.gate = &s->gate;
	s->ev.system = UFT_SYNTH_SYSTEM;
	s->ev.name = s->def.name;
	s->ev.fields = s->fields;
	s->ev.nr_fields = s->def.nr;
	s->ev.fixed_size = s->def.fixed_size;
	s->ev.file = "synthetic_events";
	rc = uft_registry_add_dynamic(&s->ev);
	if (rc) {
		synth_free(s);
		return rc;
	}
	for (uint32_t i = 0; i < s->def.nr; i++)
		s->has_stack |= s->def.f[i].kind == UFT_SYNTH_STACK;
	s->live = true;
	all[nr_all++] = s;
	return 0;
}

struct uft_synth *uft_synth_find(const char *name)
{
	for (uint32_t i = 0; i < nr_all; i++)
		if (all[i]->live && strcmp(all[i]->def.name, name) == 0)
			return all[i];
	return NULL;
}

static int busy(struct uft_synth *s)
{
	if (smp_load_acquire(&s->refs))
		return -EBUSY;
	return uft_registry_remove_dynamic(&s->ev, true);
}

static void drop(uint32_t i)
{
	struct uft_synth *s = all[i];
	uft_registry_remove_dynamic(&s->ev, false);
	s->live = false;
	memmove(&all[i], &all[i + 1], (nr_all - i - 1) * sizeof(*all));
	nr_all--;
	uft_grace_defer(s, (void (*)(void *))synth_free);
}

int uft_synth_delete(const char *name)
{
	for (uint32_t i = 0; i < nr_all; i++) {
		if (strcmp(all[i]->def.name, name) != 0)
			continue;
		int rc = busy(all[i]);
		if (rc == 0)
			drop(i);
		return rc;
	}
	return -ENOENT;
}

int uft_synth_delete_all(void)
{
	for (uint32_t i = 0; i < nr_all; i++)
		if (busy(all[i]))
			return -EBUSY;
	while (nr_all)
		drop(nr_all - 1);
	return 0;
}

void uft_synth_each(void (*fn)(void *ctx, const struct uft_synth *s), void *ctx)
{
	for (uint32_t i = 0; i < nr_all; i++)
		fn(ctx, all[i]);
}

void uft_synth_get(struct uft_synth *s)
{
	uft_add_return_acq_rel(&s->refs, 1);
}

void uft_synth_put(struct uft_synth *s)
{
	uft_sub_return_acq_rel(&s->refs, 1);
}

uint32_t uft_synth_size(const struct uft_synth *s, const uint64_t *vals, const char *const *strs)
{
	return uft_synth_record_size(&s->def, vals, strs);
}

void uft_synth_fill(const struct uft_synth *s, const uint64_t *vals, const char *const *strs,
		    char *rec, uint32_t len)
{
	uft_synth_record_fill(&s->def, vals, strs, rec, len);
}

int uft_synth_emit(uint32_t buffer, const struct uft_synth *s, const uint64_t *vals,
		   const char *const *strs)
{
	if (buffer >= UFT_MAX_BUFFERS || !uft_event_targets(&s->ev))
		return 0;
	uint32_t len = uft_synth_size(s, vals, strs);
	struct uft_rsv rsv;
	/* The target list stays valid until the commit (grace.h). */
	uft_grace_enter();
	char *rec = uft_reserve_buffer(&rsv, &s->ev, len, buffer);
	if (rec) {
		uft_synth_fill(s, vals, strs, rec, len);
		uft_commit(&rsv);
	}
	uft_grace_exit();
	return rec != NULL;
}

static const struct uft_synth *synth_of_type(uint16_t type)
{
	for (uint32_t i = 0; i < nr_all; i++)
		if (uft_event_id(&all[i]->ev) == type)
			return all[i];
	return NULL;
}

/* One number field as print_synth_event() prints it: the slot's bytes of
 * the field's size, unsigned, through the type's conversion. */
static void render_num(FILE *f, const struct uft_synth_field *sf, const uint8_t *rec)
{
	const char *fmt = uft_synth_num_fmt(sf->type);
	uint64_t v = 0;
	memcpy(&v, rec + sf->offset, sf->size <= 8 ? sf->size : 8);
	fprintf(f, "%s=", sf->name);
	if (sf->size == 8)
		fprintf(f, fmt, (unsigned long long)v);
	else
		fprintf(f, fmt, (unsigned)v);
}

int uft_synth_render(FILE *f, const void *data, uint32_t len,
		     int (*sym)(uint64_t addr, char *buf, size_t len))
{
	const uint8_t *rec = data;
	if (len < UFT_COMMON_HDR_SIZE)
		return 0;
	const struct uft_synth *s = synth_of_type(((const struct uft_common_entry *)data)->type);
	if (!s || !s->has_stack || len < s->def.fixed_size)
		return 0;
	fprintf(f, "%s: ", s->def.name);
	for (uint32_t i = 0; i < s->def.nr; i++) {
		const struct uft_synth_field *sf = &s->def.f[i];
		const char *sep = i + 1 < s->def.nr ? " " : "";
		if (sf->kind == UFT_SYNTH_NUM) {
			render_num(f, sf, rec);
			fputs(sep, f);
		} else if (sf->kind == UFT_SYNTH_STR) {
			fprintf(f, "%s=%.*s%s", sf->name,
				(int)strnlen((const char *)rec + sf->offset, sf->len),
				rec + sf->offset, sep);
		} else {
			uint32_t loc, off, n;
			memcpy(&loc, rec + sf->offset, 4);
			off = loc & 0xffff;
			n = loc >> 16;
			if (off > len || n > len - off)
				n = 0;
			if (sf->kind == UFT_SYNTH_DSTR) {
				fprintf(f, "%s=%.*s%s", sf->name,
					(int)strnlen((const char *)rec + off, n), rec + off, sep);
				continue;
			}
			/* The first word is the number of frames: skipped; so are
			 * leading frames of generated event writers (uft__*), as
			 * in the stacktrace trigger's text. */
			fprintf(f, "%s=STACK:\n", sf->name);
			bool leading = true;
			for (uint32_t j = 1; j < n / 8; j++) {
				uint64_t pc;
				char name[300];
				memcpy(&pc, rec + off + j * 8, 8);
				if (sym(pc, name, sizeof(name)) != 0)
					snprintf(name, sizeof(name), "0x%llx",
						 (unsigned long long)pc);
				else if (leading && strncmp(name, "uft__", 5) == 0)
					continue;
				leading = false;
				fprintf(f, "=> %s\n", name);
			}
		}
	}
	return 1;
}
