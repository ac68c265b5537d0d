/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The event registry: descriptors found in the uft_events sections of every
 * loaded object, their ids and formats. Enable specs and filters are in
 * registry_enable.c, triggers in registry_triggers.c, hist triggers in
 * registry_hist.c.
 *
 * Descriptors of the same SYSTEM:EVENT with the same format share one id (an
 * event header included by two libraries); a different format under a name
 * already taken is refused. An id is only ever reused by the same name with
 * the same format (a removed event defined again), so a recorded id always
 * means one format. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/format/format.h"
#include "engine/format/print_fmt.h"
#include "engine/format/printf_event.h"
#include "runtime/core/grace.h"
#include "engine/filter/filter.h"
#include "runtime/core/registry.h"
#include "runtime/core/registry_priv.h"
#include "runtime/core/runtime.h"
#include "runtime/core/trigger_run.h"
#include "util/atomics.h"
#include <uft/uft.h>

struct reg_section {
	struct uft_event *const *start, *const *stop;
	unsigned refs;
};

pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
struct reg_event *reg_events;
uint32_t reg_nr_events;
static uint32_t cap_events;
static struct reg_section *sections;
static uint32_t nr_sections, cap_sections;
static uint32_t next_id = UFT_ID_FIRST_DYNAMIC;
void (*uft_registry_enable_hook)(const struct uft_event *d, bool on);
/* What must outlive every writer: kept for good. */
static void **retired;
static uint32_t nr_retired, cap_retired;

static void lock_for_fork(void)
{
	pthread_mutex_lock(&reg_lock);
}

static void unlock_after_fork(void)
{
	pthread_mutex_unlock(&reg_lock);
}

/* A fork never catches the registry half-changed, and handlers that run in
 * the child after this one's (the tree's) may use it. */
void uft_registry_fork_setup(void)
{
	pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

static void *grow(void *p, uint32_t *cap, size_t elem)
{
	uint32_t n = *cap ? *cap * 2 : 16;
	void *q = realloc(p, n * elem);
	if (!q)
		return NULL;
	*cap = n;
	return q;
}

void reg_retire_free(const void *p)
{
	uft_grace_defer((void *)p, free);
}

void reg_retire_filter(const void *p)
{
	uft_grace_defer((void *)p, (void (*)(void *))uft_filter_free);
}

void reg_keep(const void *p)
{
	if (!p)
		return;
	if (nr_retired == cap_retired) {
		void *q = grow(retired, &cap_retired, sizeof(*retired));
		if (!q)
			return; /* leaked rather than freed under a reader */
		retired = q;
	}
	retired[nr_retired++] = (void *)p;
}

/* The private data of a registered descriptor (attach_state gave it). */
static struct uft_event_priv *desc_priv(const struct uft_event *d)
{
	return d->state->priv;
}

const struct uft_event *reg_view(const struct uft_event *d)
{
	return &desc_priv(d)->view;
}

/* Publishes where the event's records go: one target per buffer it is
 * enabled in (soft mode included), with that buffer's filter, soft-disable
 * flag and triggers. */
void reg_publish_targets(struct reg_event *e)
{
	struct uft_targets *tg = NULL;
	uint32_t n = (uint32_t)__builtin_popcount(e->on_mask);
	if (n) {
		tg = calloc(1, sizeof(*tg) + n * sizeof(tg->t[0]));
		if (!tg)
			return; /* the old list stays */
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
			if (!(e->on_mask & (1u << b)))
				continue;
			struct uft_target *t = &tg->t[tg->nr++];
			t->buffer = b;
			t->filter = e->filter[b];
			t->st = e->sm_ref[b] ? &e->st[b] : NULL;
			t->trig = e->tlist[b];
		}
	}
	uint8_t slow = !(e->on_mask == 1u && !e->filter[0] && !e->sm_ref[0]);
	/* A filter on the global buffer alone keeps the fast reservation, and
	 * so do plain histograms there (with or without a filter). */
	const void *ff = e->on_mask == 1u && e->filter[0] && !e->sm_ref[0] ? e->filter[0] : NULL;
	const void *tf = reg_trig_fast(e);
	if (tf)
		ff = tf;
	const void *old = e->nr_descs ? e->descs[0]->state->targets : NULL;
	for (uint32_t i = 0; i < e->nr_descs; i++) {
		struct uft_event *d = e->descs[i];
		struct uft_event_state *st = d->state;
		/* Off the fast path before the list changes; back on after. Fields
		 * writers read are stored only when they change, so republishing a
		 * list (a trigger added) leaves what they read alone. */
		if (slow && READ_ONCE(st->fast_type))
			WRITE_ONCE(st->fast_type, 0);
		if (st->fast_filter != ff) {
			smp_store_release(&st->fast_filter, NULL);
			smp_store_release(&uft_grace_fast_filter[st->id], NULL);
		}
		smp_store_release(&st->targets, tg);
		if (n && !st->enabled) {
			st->enabled = 1;
			uft_add_return_relaxed(d->gate, 1);
			if (uft_registry_enable_hook)
				uft_registry_enable_hook(d, true);
		} else if (!n && st->enabled) {
			st->enabled = 0;
			uft_sub_return_relaxed(d->gate, 1);
			if (uft_registry_enable_hook)
				uft_registry_enable_hook(d, false);
		}
		uint64_t ft = n && !slow ? st->id : 0;
		struct uft_event_priv *p = desc_priv(d);
		if (p->layout) {
			/* A one-liner: its own writer always may; the call site's
			 * inline writer only when it lays the record out alike. */
			if (READ_ONCE(p->fast_type) != ft)
				WRITE_ONCE(p->fast_type, ft);
			if (!p->inline_ok)
				ft = 0;
		}
		if (READ_ONCE(st->fast_type) != ft)
			WRITE_ONCE(st->fast_type, ft);
		if (st->fast_filter != ff) {
			smp_store_release(&uft_grace_fast_filter[st->id], ff);
			smp_store_release(&st->fast_filter, ff);
		}
	}
	if (old != tg)
		reg_retire_free(old);
}

struct reg_event *reg_find_event(const char *sys, const char *name)
{
	for (uint32_t i = 0; i < reg_nr_events; i++)
		if (reg_events[i].live && strcmp(reg_events[i].system, sys) == 0 &&
		    strcmp(reg_events[i].name, name) == 0)
			return &reg_events[i];
	return NULL;
}

/* The end of the oldest descriptor layout this runtime reads: the members up
 * to line. Later layouts only append (uft/event.h), so a larger descriptor
 * is read up to here and the rest ignored. */
#define DESC_SIZE_OLDEST ((uint32_t)(offsetof(struct uft_event, line) + sizeof(uint32_t)))
/* Whether descriptor d is large enough to hold member m. */
#define DESC_HAS(d, m) ((d)->size >= offsetof(struct uft_event, m) + sizeof((d)->m))

/* The file of the object that holds p, for messages. */
static const char *object_of(const void *p)
{
	Dl_info info;
	return dladdr(p, &info) && info.dli_fname ? info.dli_fname : "?";
}

/* Whether a descriptor found in a section has a layout this runtime reads;
 * says why on stderr when not. A descriptor from before the size member
 * has the magic where the size is now: it fails the magic test. */
static bool desc_layout_ok(const struct uft_event *d)
{
	if (d->magic == UFT_EVENT_MAGIC && d->size >= DESC_SIZE_OLDEST)
		return true;
	if (d->magic != UFT_EVENT_MAGIC) {
		fprintf(stderr,
			"uft: %s: event descriptor at %p has a wrong magic (%#x); rebuild "
			"against this uft; not registered\n",
			object_of(d), (const void *)d, d->magic);
		return false;
	}
	fprintf(stderr,
		"uft: %s:%u: event %s:%s: descriptor of %u bytes, this uft needs at least %u; "
		"rebuild against this uft; not registered\n",
		DESC_HAS(d, file) && d->file ? d->file : object_of(d),
		DESC_HAS(d, line) ? d->line : 0, DESC_HAS(d, system) && d->system ? d->system : "?",
		DESC_HAS(d, name) && d->name ? d->name : "?", d->size, DESC_SIZE_OLDEST);
	return false;
}

/* Gives a descriptor its private data, and a state when it has none (the
 * runtime's own descriptors may leave it out). */
static int attach_state(struct uft_event *d)
{
	bool own = !d->state;
	if (own && !(d->state = calloc(1, sizeof(*d->state))))
		return -1;
	if (d->state->priv)
		return 0;
	struct uft_event_priv *p = calloc(1, sizeof(*p));
	if (!p) {
		if (own) {
			free(d->state);
			d->state = NULL;
		}
		return -1;
	}
	p->own_state = own;
	/* The runtime's own descriptors are built with this header, whatever
	 * their size member says. */
	size_t n = d->size && d->size < sizeof(p->view) ? d->size : sizeof(p->view);
	memcpy(&p->view, d, n);
	p->view.size = sizeof(p->view);
	p->view.state = d->state;
	smp_store_release(&d->state->priv, p);
	return 0;
}

/* The descriptor leaves: its private data, and a state the registry made,
 * stay readable by writers that still hold them. A dynamic event's go after
 * a grace period (its descriptor goes with them, and only writers inside a
 * section can still hold it); an unloading object's are kept, since its
 * descriptor may stay mapped and reachable by its code. */
static void detach_state(struct uft_event *d, bool dynamic)
{
	struct uft_event_priv *p = desc_priv(d);
	smp_store_release(&d->state->priv, NULL);
	void (*retire)(const void *) = dynamic ? reg_retire_free : reg_keep;
	if (p->own_state)
		retire(d->state);
	retire(p);
}

/* Fills in the view of a printf-style descriptor from its format string. */
static int prepare_printf(struct uft_event *d)
{
	struct uft_event_priv *p = desc_priv(d);
	if (p->layout)
		return 0;
	struct uft_printf_layout *l = calloc(1, sizeof(*l));
	char err[256];
	if (!l)
		return -1;
	if (uft_printf_layout_parse(d->printf_fmt, l, err, sizeof(err)) != 0) {
		fprintf(stderr, "uft: %s:%u: event %s:%s: %s\n", d->file, d->line, d->system,
			d->name, err);
		free(l);
		return -1;
	}
	p->view.fields = l->fields;
	p->view.nr_fields = l->nr_args;
	p->view.fixed_size = l->fixed_size;
	p->view.print_fmt = l->print_fmt;
	p->view.nr_args = l->nr_args;
	p->inline_ok = uft_printf_inline_ok(l, DESC_HAS(d, arg_kinds) ? d->arg_kinds : NULL,
					    DESC_HAS(d, rec_size) ? d->rec_size : 0);
	p->layout = l;
	return 0;
}

static char *make_format(const struct uft_event *d, uint16_t id, uint32_t *len)
{
	d = reg_view(d);
	int n = uft_format_text(d, id, NULL, 0);
	if (n < 0)
		return NULL;
	char *buf = malloc((size_t)n + 1);
	if (!buf)
		return NULL;
	uft_format_text(d, id, buf, (size_t)n + 1);
	*len = (uint32_t)n;
	return buf;
}

static bool add_desc(struct reg_event *e, struct uft_event *d)
{
	if (e->nr_descs == e->cap_descs) {
		void *p = grow(e->descs, &e->cap_descs, sizeof(*e->descs));
		if (!p)
			return false;
		e->descs = p;
	}
	e->descs[e->nr_descs++] = d;
	d->state->id = e->id;
	if (e->on_mask)
		reg_publish_targets(e);
	return true;
}

/* A removed event of d's name whose format is d's. */
static struct reg_event *find_dead(struct uft_event *d)
{
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
		if (e->live || strcmp(e->system, d->system) != 0 || strcmp(e->name, d->name) != 0)
			continue;
		uint32_t len;
		char *text = make_format(d, e->id, &len);
		bool same = text && len == e->format_len && memcmp(text, e->format, len) == 0;
		free(text);
		if (same)
			return e;
	}
	return NULL;
}

/* Gives d its id: a new one, fixed_id, that of a live event with the same
 * name and format, or that of a removed one with both. False when d is not
 * registered. */
static bool place_desc(struct uft_event *d, uint16_t fixed_id)
{
	if (d->style == UFT_STYLE_PRINTF && prepare_printf(d) != 0)
		return false;
	struct uft_event *v = &desc_priv(d)->view;
	if (v->style == UFT_STYLE_STRUCT && v->fields_fn && !v->fields)
		v->fields = v->fields_fn(&v->nr_fields);

	struct reg_event *e = reg_find_event(d->system, d->name);
	if (e) {
		uint32_t len;
		char *text = make_format(d, e->id, &len);
		if (!text)
			return false;
		bool same = len == e->format_len && memcmp(text, e->format, len) == 0;
		free(text);
		if (!same) {
			fprintf(
			    stderr,
			    "uft: %s:%u: event %s:%s is already defined with a different format "
			    "(%s:%u); this definition is not registered\n",
			    d->file, d->line, d->system, d->name,
			    e->descs && e->nr_descs ? e->descs[0]->file : "?",
			    e->descs && e->nr_descs ? e->descs[0]->line : 0);
			return false;
		}
		return add_desc(e, d);
	}
	/* An event removed and defined again with the same format takes its
	 * old id back: records of either mean the same, and a cycle of
	 * add/remove (synthetic events) costs no new slot. */
	if (!fixed_id && (e = find_dead(d))) {
		e->live = true;
		if (!add_desc(e, d)) {
			e->live = false;
			return false;
		}
		reg_apply_settings(e);
		return true;
	}
	if (!fixed_id && next_id > 0xffff) {
		fprintf(stderr, "uft: event id space exhausted; %s:%s not registered\n", d->system,
			d->name);
		return false;
	}
	if (reg_nr_events == cap_events) {
		void *p = grow(reg_events, &cap_events, sizeof(*reg_events));
		if (!p)
			return false;
		reg_events = p;
	}
	e = &reg_events[reg_nr_events];
	memset(e, 0, sizeof(*e));
	e->id = fixed_id ? fixed_id : (uint16_t)next_id;
	e->format = make_format(d, e->id, &e->format_len);
	e->system = strdup(d->system);
	e->name = strdup(d->name);
	e->st = calloc(UFT_MAX_BUFFERS, sizeof(*e->st));
	if (!e->format || !e->system || !e->name || !e->st) {
		free(e->format);
		free(e->system);
		free(e->name);
		free(e->st);
		return false;
	}
	if (!fixed_id)
		next_id++;
	reg_nr_events++;
	e->live = true;
	if (!add_desc(e, d))
		return false; /* out of memory: the id stays, without a descriptor */
	if (uft_sess.hdr)
		uft_shm_add_format(uft_sess.hdr, e->id, e->system, e->format, e->format_len);
	reg_apply_settings(e);
	return true;
}

/* A descriptor that leaves, or could not be registered, keeps nothing of the
 * runtime's: its object may unload without telling. */
static void forget_desc(struct uft_event *d, bool dynamic)
{
	struct uft_event_priv *p = desc_priv(d);
	if (p->layout) {
		uft_printf_layout_free(p->layout);
		free(p->layout);
		p->layout = NULL;
		p->view.fields = NULL;
		p->view.print_fmt = NULL;
	}
	detach_state(d, dynamic);
}

/* Registers a descriptor under a new id, or under fixed_id (the ftrace
 * entries' small ids) when non-zero. */
static void register_desc_id(struct uft_event *d, uint16_t fixed_id)
{
	if (d->magic != UFT_EVENT_MAGIC || attach_state(d) != 0 || d->state->id)
		return;
	if (!place_desc(d, fixed_id))
		forget_desc(d, false);
}

static void register_desc(struct uft_event *d)
{
	register_desc_id(d, 0);
}

void uft_registry_add_fixed(struct uft_event *d, uint16_t id)
{
	pthread_mutex_lock(&reg_lock);
	register_desc_id(d, id);
	pthread_mutex_unlock(&reg_lock);
}

int uft_registry_add_dynamic(struct uft_event *d)
{
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	if (reg_find_event(d->system, d->name)) {
		rc = -EEXIST;
	} else {
		register_desc_id(d, 0);
		if (!uft_event_id(d))
			rc = -ENOMEM; /* no memory or no id left */
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

void uft__register_section(struct uft_event *const *start, struct uft_event *const *stop)
{
	uft_init();
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < nr_sections; i++) {
		if (sections[i].start == start) {
			sections[i].refs++;
			pthread_mutex_unlock(&reg_lock);
			return;
		}
	}
	if (nr_sections == cap_sections) {
		void *p = grow(sections, &cap_sections, sizeof(*sections));
		if (!p) {
			pthread_mutex_unlock(&reg_lock);
			return;
		}
		sections = p;
	}
	sections[nr_sections++] = (struct reg_section){start, stop, 1};
	for (struct uft_event *const *p = start; p < stop; p++)
		if (*p && desc_layout_ok(*p))
			register_desc(*p);
	pthread_mutex_unlock(&reg_lock);
}

static void unregister_desc(struct uft_event *d, bool dynamic)
{
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
		for (uint32_t j = 0; j < e->nr_descs; j++) {
			if (e->descs[j] != d)
				continue;
			struct uft_event_state *st = d->state;
			WRITE_ONCE(st->fast_type, 0);
			smp_store_release(&st->fast_filter, NULL);
			smp_store_release(&uft_grace_fast_filter[st->id], NULL);
			if (st->enabled) {
				st->enabled = 0;
				uft_sub_return_relaxed(d->gate, 1);
			}
			const void *tg = st->targets;
			smp_store_release(&st->targets, NULL);
			e->descs[j] = e->descs[--e->nr_descs];
			if (e->nr_descs == 0) {
				e->live = false;     /* the id stays retired */
				reg_retire_free(tg); /* no descriptor holds it any more */
				reg_retire_free(e->trig_fast);
				e->trig_fast = NULL;
			}
			st->id = 0;
			forget_desc(d, dynamic); /* its layout leaves with its object */
			return;
		}
	}
}

/* Enabled or in soft mode anywhere, holding triggers, or used by an eprobe. */
static bool event_busy(const struct reg_event *e)
{
	if (e->on_mask || e->users)
		return true;
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
		if (e->sm_ref[b] || e->nr_trig[b])
			return true;
	return false;
}

int uft_registry_remove_dynamic(struct uft_event *d, bool check_only)
{
	int rc = -ENOENT;
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
		if (!e->live || !e->nr_descs || e->descs[0] != d)
			continue;
		rc = event_busy(e) ? -EBUSY : 0;
		if (rc == 0 && !check_only) {
			for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
				reg_retire_filter(e->filter[b]);
				free(e->filter_text[b]);
				e->filter[b] = NULL;
				e->filter_text[b] = NULL;
			}
			unregister_desc(d, true);
		}
		break;
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

int uft_registry_use(const char *system, const char *name, int delta)
{
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = reg_find_event(system, name);
	if (e)
		e->users += (uint32_t)delta;
	pthread_mutex_unlock(&reg_lock);
	return e ? 0 : -ENOENT;
}

uint32_t uft_registry_on_mask(const struct uft_event *d)
{
	uint32_t mask = 0;
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < reg_nr_events && !mask; i++)
		if (reg_events[i].live && reg_events[i].nr_descs && reg_events[i].descs[0] == d)
			mask = reg_events[i].on_mask;
	pthread_mutex_unlock(&reg_lock);
	return mask;
}

void uft__unregister_section(struct uft_event *const *start, struct uft_event *const *stop)
{
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < nr_sections; i++) {
		if (sections[i].start != start)
			continue;
		if (--sections[i].refs == 0) {
			for (struct uft_event *const *p = start; p < stop; p++)
				if (*p)
					unregister_desc(*p, false);
			sections[i] = sections[--nr_sections];
		}
		break;
	}
	pthread_mutex_unlock(&reg_lock);
}

struct uft_event *uft_find_event(const char *system, const char *name)
{
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = reg_find_event(system, name);
	struct uft_event *d = e && e->nr_descs ? e->descs[0] : NULL;
	pthread_mutex_unlock(&reg_lock);
	return d;
}

/* Called with the region just created: every format registered so far. */
void uft_registry_publish_formats(struct uft_shm_header *h)
{
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < reg_nr_events; i++)
		uft_shm_add_format(h, reg_events[i].id, reg_events[i].system, reg_events[i].format,
				   reg_events[i].format_len);
	pthread_mutex_unlock(&reg_lock);
}

uint32_t uft_registry_nr_live(void)
{
	uint32_t n = 0;
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < reg_nr_events; i++)
		n += reg_events[i].live;
	pthread_mutex_unlock(&reg_lock);
	return n;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* For `uft list`: "system\0" then the format text, each record framed by a
 * u32 length, on `fd`. */
void uft_registry_list_formats(int fd)
{
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
		if (!e->live)
			continue;
		uint32_t slen = (uint32_t)strlen(e->system) + 1;
		uint32_t total = slen + e->format_len;
		write_all(fd, (const char *)&total, sizeof(total));
		write_all(fd, e->system, slen);
		write_all(fd, e->format, e->format_len);
	}
	pthread_mutex_unlock(&reg_lock);
}

int uft_registry_visit(uft_reg_visit_fn fn, void *ctx)
{
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < reg_nr_events && rc == 0; i++) {
		struct reg_event *e = &reg_events[i];
		if (!e->live)
			continue;
		struct uft_reg_view v = {e->system,
					 e->name,
					 e->id,
					 e->format,
					 e->format_len,
					 e->on_mask,
					 reg_view(e->descs[0]),
					 0,
					 0};
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
			if (!e->sm_ref[b])
				continue;
			v.soft_mask |= 1u << b;
			if (uft_load_seq_cst(&e->st[b].soft_disabled))
				v.sd_mask |= 1u << b;
		}
		rc = fn(ctx, &v);
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

const struct uft_print_fmt *uft_registry_print_fmt(uint16_t id, const char **system,
						   const char **name)
{
	const struct uft_print_fmt *pf = NULL;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = NULL;
	for (uint32_t i = 0; i < reg_nr_events && !e; i++)
		if (reg_events[i].id == id)
			e = &reg_events[i];
	if (e) {
		*system = e->system;
		*name = e->name;
		if (!e->pf && !e->pf_failed && e->nr_descs) {
			const struct uft_event *d = reg_view(e->descs[0]);
			char err[256];
			if (uft_print_fmt_compile(d->print_fmt, d->fields, d->nr_fields, &e->pf,
						  err, sizeof(err)) != 0)
				e->pf_failed = true;
		}
		pf = e->pf;
	}
	pthread_mutex_unlock(&reg_lock);
	return pf;
}
