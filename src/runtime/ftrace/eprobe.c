/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Eprobes. As in the kernel, an eprobe enabled in a buffer (soft mode
 * included) is a trigger on its source event in that buffer: the source is
 * put in soft mode, so its records are built (and kept only if it is
 * enabled itself), and the trigger, running with the source record at hand
 * (trigger_run.c), fills the eprobe's record from its fields and writes it
 * to the same buffer through the eprobe event's own filter and triggers.
 * The eprobe's "if FILTER" is that trigger's filter, on the source's
 * fields. While an eprobe exists its source cannot be deleted. */
#define _GNU_SOURCE
#include "runtime/ftrace/eprobe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uft/uft.h>

#include "engine/format/format.h"
#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/symtab.h"
#include "runtime/core/trigger_run.h"
#include "util/atomics.h"
#include "util/util.h"

#define EPROBE_REC 2048 /* a record at most, as a sled probe's: strings are cut */

/* What this file knows of each eprobe: where its trigger is, whether it
 * holds its source. Under the tree's lock. */
struct ep_state {
	const struct uft_dprobe *p;
	uint32_t mask; /* buffers with its trigger */
	bool holds;    /* a use of the source is taken */
};
static struct ep_state *eps;
static uint32_t nr_eps, cap_eps;

static struct ep_state *state_of(const struct uft_dprobe *p)
{
	for (uint32_t i = 0; i < nr_eps; i++)
		if (eps[i].p == p)
			return &eps[i];
	return NULL;
}

struct fields_q {
	const char *sys, *event;
	const struct uft_field *f;
	uint32_t nr;
};

static int fields_one(void *ctx, const struct uft_reg_view *v)
{
	struct fields_q *q = ctx;
	if (strcmp(v->system, q->sys) != 0 || strcmp(v->name, q->event) != 0)
		return 0;
	q->f = v->desc->fields;
	q->nr = v->desc->nr_fields;
	return 1;
}

int uft_eprobe_check_filter(const struct uft_probe_def *d, struct uft_filter_error *fe)
{
	if (!d->filter)
		return 0;
	struct fields_q q = {.sys = d->sys, .event = d->sys_event};
	uft_registry_visit(fields_one, &q);
	struct uft_filter *f = NULL;
	int rc = uft_filter_compile_syms(d->filter, q.f, q.nr, &uft_proc_filter_syms, &f, fe);
	uft_filter_free(f);
	if (rc == UFT_FILTER_CLEAR) {
		/* "0" is no filter rule on a source: a field that is not there. */
		*fe = (struct uft_filter_error){UFT_FILTER_ERR_FIELD_NOT_FOUND, 0};
		return -EINVAL;
	}
	return rc < 0 ? (rc == -ENOMEM ? rc : -EINVAL) : 0;
}

int uft_eprobe_create(struct uft_probe_def *d)
{
	char group[UFT_PROBE_NAME_MAX], event[UFT_PROBE_NAME_MAX];
	snprintf(group, sizeof(group), "%s", d->group);
	snprintf(event, sizeof(event), "%s", d->event);
	if (uft_array_reserve(eps, cap_eps, nr_eps + 1, 8))
		return -ENOMEM;
	int rc = uft_dprobe_create(d, NULL);
	if (rc)
		return rc;
	struct uft_dprobe *p = uft_dprobe_find(group, event);
	eps[nr_eps++] = (struct ep_state){
	    .p = p, .holds = uft_registry_use(p->def.sys, p->def.sys_event, 1) == 0};
	return 0;
}

void uft_eprobe_forget(const struct uft_dprobe *p)
{
	struct ep_state *s = state_of(p);
	if (!s)
		return;
	if (s->holds)
		uft_registry_use(p->def.sys, p->def.sys_event, -1);
	*s = eps[--nr_eps];
}

void uft_eprobe_uses_all(int release)
{
	for (uint32_t i = 0; i < nr_eps; i++) {
		struct ep_state *s = &eps[i];
		if (release ? !s->holds : s->holds)
			continue;
		if (uft_registry_use(s->p->def.sys, s->p->def.sys_event, release ? -1 : 1) == 0)
			s->holds = !release;
	}
}

void uft_eprobe_sync(void)
{
	for (uint32_t i = 0; i < nr_eps; i++) {
		struct ep_state *s = &eps[i];
		const struct uft_dprobe *p = s->p;
		uint32_t want = uft_registry_on_mask(&p->ev);
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
			uint32_t bit = 1u << b;
			if ((want & bit) && !(s->mask & bit)) {
				struct uft_filter_error fe = {0, 0};
				/* The filter compiled when the eprobe was made: only
				 * memory can fail, and the next operation tries again. */
				if (uft_registry_eprobe_attach(b, p->def.sys, p->def.sys_event,
							       (void *)p, p->def.filter, &fe) == 0)
					s->mask |= bit;
			} else if (!(want & bit) && (s->mask & bit)) {
				if (uft_registry_eprobe_detach(b, p->def.sys, p->def.sys_event,
							       (void *)p) == 0)
					s->mask &= ~bit;
			}
		}
	}
}

static int sym_name(void *ctx, uint64_t addr, char *buf, size_t len)
{
	(void)ctx;
	struct uft_symbol s;
	if (uft_symbol_find((uintptr_t)addr, &s) != 0)
		return -1;
	snprintf(buf, len, "%s+0x%llx/0x%llx", s.name, (unsigned long long)(addr - s.start),
		 (unsigned long long)s.size);
	return 0;
}

void uft_eprobe_fire(void *probe, uint32_t b, const void *rec, uint32_t len, const char *comm)
{
	const struct uft_dprobe *p = probe;
	uint8_t buf[EPROBE_REC] __attribute__((aligned(8)));
	struct uft_probe_regs r;
	memset(&r, 0, sizeof(r));
	struct uft_probe_ctx c = {.regs = &r,
				  .entry_regs = &r,
				  .event_rec = rec,
				  .event_len = len,
				  .comm = comm,
				  .sym_name = sym_name};
	/* The trigger runs inside the source's reservation: the eprobe's
	 * targets stay valid through this section. */
	uft_grace_enter();
	if (uft_event_targets(&p->ev)) {
		uint32_t n = uft_probe_record_fill(&p->def, &c, buf, sizeof(buf));
		struct uft_rsv rsv;
		char *out = uft_reserve_buffer(&rsv, &p->ev, n, b);
		if (out) {
			memcpy(out + UFT_COMMON_HDR_SIZE, buf + UFT_COMMON_HDR_SIZE,
			       n - UFT_COMMON_HDR_SIZE);
			uft_commit(&rsv);
		}
	}
	uft_grace_exit();
}

int uft_eprobe_render(FILE *f, const void *data, uint32_t len)
{
	if (len < UFT_COMMON_HDR_SIZE)
		return 0;
	uint16_t type = ((const struct uft_common_entry *)data)->type;
	for (uint32_t i = 0; i < nr_eps; i++) {
		const struct uft_dprobe *p = eps[i].p;
		if (uft_event_id(&p->ev) != type)
			continue;
		if (len < p->def.fixed_size)
			return 0;
		char args[4096];
		uft_probe_args_text(&p->def, data, len, args, sizeof(args));
		fprintf(f, "%s: (%s.%s)%s", p->def.event, p->def.sys, p->def.sys_event, args);
		return 1;
	}
	return 0;
}
