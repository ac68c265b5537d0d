/* The event registry: descriptors found in the uft_events sections of every
 * loaded object, their ids and formats, and which of them are enabled.
 *
 * Descriptors of the same SYSTEM:EVENT with the same format share one id (an
 * event header included by two libraries); a different format under a name
 * already taken is refused. Ids are never reused while the process lives, so a
 * recorded id always means one format. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/filter/filter.h"
#include "engine/format/format.h"
#include "engine/hist/hist.h"
#include "engine/format/print_fmt.h"
#include "engine/format/printf_event.h"
#include "engine/filter/event_spec.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/synth_live.h"
#include "runtime/core/trigger_run.h"
#include <uft/uft.h>

struct reg_event {
	char *system;
	char *name;
	uint16_t id;
	bool live;
	uint32_t on_mask; /* buffers the event is enabled in (bit 0: global) */
	/* Per buffer: the compiled filter and the text it came from. */
	struct uft_filter *filter[UFT_MAX_BUFFERS];
	char *filter_text[UFT_MAX_BUFFERS];
	/* Per buffer: soft-mode references (the event's own triggers count
	 * once, each enable/disable_event aimed at it once), its triggers in
	 * the kernel's list order (newest first, hist triggers at the tail) and
	 * the list published from them. */
	uint32_t sm_ref[UFT_MAX_BUFFERS];
	struct uft_trig **trig[UFT_MAX_BUFFERS];
	uint32_t nr_trig[UFT_MAX_BUFFERS];
	struct uft_trig_list *tlist[UFT_MAX_BUFFERS];
	struct uft_evstate *st;	  /* [UFT_MAX_BUFFERS], never freed */
	struct uft_print_fmt *pf; /* compiled print fmt, for the live trace files */
	bool pf_failed;
	char *format; /* format file text */
	uint32_t format_len;
	struct uft_event **descs;
	uint32_t nr_descs, cap_descs;
};

struct reg_section {
	struct uft_event *const *start, *const *stop;
	unsigned refs;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reg_event *events;
static uint32_t nr_events, cap_events;
static struct reg_section *sections;
static uint32_t nr_sections, cap_sections;
static uint32_t next_id = UFT_ID_FIRST_DYNAMIC;
/* Enable specs in the order given; applied to events registered later too. */
static char **specs;
static uint32_t nr_specs;
/* Filter settings in the order given, likewise. */
struct filter_spec {
	char *spec;
	char *expr;
};
static struct filter_spec *fspecs;
static uint32_t nr_fspecs;
/* Filters and target lists replaced while a writer may still be reading
 * them: kept, never freed, as nothing tells when the last reader is done. */
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

static void retire(const void *p)
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

/* Publishes where the event's records go: one target per buffer it is
 * enabled in (soft mode included), with that buffer's filter, soft-disable
 * flag and triggers. */
static void publish_targets(struct reg_event *e)
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
	/* A filter on the global buffer alone keeps the fast reservation. */
	const void *ff = e->on_mask == 1u && e->filter[0] && !e->sm_ref[0] ? e->filter[0] : NULL;
	const void *old = e->nr_descs ? e->descs[0]->targets : NULL;
	for (uint32_t i = 0; i < e->nr_descs; i++) {
		struct uft_event *d = e->descs[i];
		/* Off the fast path before the list changes; back on after. Fields
		 * writers read are stored only when they change, so republishing a
		 * list (a trigger added) leaves what they read alone. */
		if (slow && d->fast_type)
			d->fast_type = 0;
		if (d->fast_filter != ff)
			__atomic_store_n(&d->fast_filter, NULL, __ATOMIC_RELEASE);
		__atomic_store_n(&d->targets, tg, __ATOMIC_RELEASE);
		if (n && !d->enabled) {
			d->enabled = 1;
			__atomic_add_fetch(d->gate, 1, __ATOMIC_RELAXED);
		} else if (!n && d->enabled) {
			d->enabled = 0;
			__atomic_sub_fetch(d->gate, 1, __ATOMIC_RELAXED);
		}
		uint64_t ft = n && !slow ? d->id : 0;
		if (d->fast_type != ft)
			d->fast_type = ft;
		if (d->fast_filter != ff)
			__atomic_store_n(&d->fast_filter, ff, __ATOMIC_RELEASE);
	}
	if (old != tg)
		retire(old);
}

static void set_enabled_in(struct reg_event *e, uint32_t buffer, bool on)
{
	/* In soft mode the event stays armed; `enable` sets its soft-disable. */
	if (e->sm_ref[buffer]) {
		atomic_store(&e->st[buffer].soft_disabled, !on);
		return;
	}
	uint32_t mask = on ? e->on_mask | (1u << buffer) : e->on_mask & ~(1u << buffer);
	if (mask == e->on_mask)
		return;
	e->on_mask = mask;
	publish_targets(e);
}

static void set_enabled(struct reg_event *e, bool on)
{
	set_enabled_in(e, 0, on);
}

static bool wanted(const struct reg_event *e)
{
	bool on = false;
	for (uint32_t i = 0; i < nr_specs; i++) {
		const char *s = specs[i];
		bool neg = s[0] == '!';
		if (uft_event_spec_matches(s + neg, e->system, e->name))
			on = !neg;
	}
	return on;
}

/* Compiles `expr` for one event and installs it in one buffer. Returns 1 if
 * installed, 0 if cleared, -EINVAL with the error position in fe. */
static int install_filter(struct reg_event *e, uint32_t buffer, const char *expr,
			  struct uft_filter_error *fe)
{
	struct uft_event *d = e->descs[0];
	struct uft_filter *f = NULL;
	int rc = uft_filter_compile(expr, d->fields, d->nr_fields, &f, fe);
	if (rc < 0)
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	char *text = rc == UFT_FILTER_CLEAR ? NULL : strdup(expr);
	if (rc != UFT_FILTER_CLEAR && !text)
		return -ENOMEM;
	retire(e->filter[buffer]);
	free(e->filter_text[buffer]);
	e->filter[buffer] = rc == UFT_FILTER_CLEAR ? NULL : f;
	e->filter_text[buffer] = text;
	publish_targets(e);
	return rc == UFT_FILTER_CLEAR ? 0 : 1;
}

static int install_filter_text(struct reg_event *e, const char *expr, char *err, size_t errlen)
{
	struct uft_filter_error fe = {0, 0};
	int rc = install_filter(e, 0, expr, &fe);
	if (rc == -EINVAL && err && errlen)
		uft_filter_error_text(expr, &fe, err, errlen);
	return rc;
}

static void apply_filters(struct reg_event *e)
{
	for (uint32_t i = 0; i < nr_fspecs; i++) {
		if (!uft_event_spec_matches(fspecs[i].spec, e->system, e->name))
			continue;
		char err[1024];
		if (install_filter_text(e, fspecs[i].expr, err, sizeof(err)) < 0)
			fprintf(stderr, "uft: filter of %s:%s:\n%s", e->system, e->name, err);
	}
}

static struct reg_event *find_event(const char *sys, const char *name)
{
	for (uint32_t i = 0; i < nr_events; i++)
		if (events[i].live && strcmp(events[i].system, sys) == 0 &&
		    strcmp(events[i].name, name) == 0)
			return &events[i];
	return NULL;
}

/* Fills in what a printf-style descriptor derives from its format string. */
static int prepare_printf(struct uft_event *d)
{
	if (d->priv)
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
	d->fields = l->fields;
	d->nr_fields = l->nr_args;
	d->fixed_size = l->fixed_size;
	d->print_fmt = l->print_fmt;
	d->nr_args = l->nr_args;
	d->priv = l;
	return 0;
}

static char *make_format(struct uft_event *d, uint16_t id, uint32_t *len)
{
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

static void add_desc(struct reg_event *e, struct uft_event *d)
{
	if (e->nr_descs == e->cap_descs) {
		void *p = grow(e->descs, &e->cap_descs, sizeof(*e->descs));
		if (!p)
			return;
		e->descs = p;
	}
	e->descs[e->nr_descs++] = d;
	d->id = e->id;
	if (e->on_mask)
		publish_targets(e);
}

/* Registers a descriptor under a new id, or under fixed_id (the ftrace
 * entries' small ids) when non-zero. */
static void register_desc_id(struct uft_event *d, uint16_t fixed_id)
{
	if (d->magic != UFT_EVENT_MAGIC || d->id)
		return;
	if (d->style == UFT_STYLE_PRINTF && prepare_printf(d) != 0)
		return;
	if (d->style == UFT_STYLE_STRUCT && d->fields_fn && !d->fields)
		d->fields = d->fields_fn(&d->nr_fields);

	struct reg_event *e = find_event(d->system, d->name);
	if (e) {
		uint32_t len;
		char *text = make_format(d, e->id, &len);
		if (!text)
			return;
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
			return;
		}
		add_desc(e, d);
		return;
	}
	if (!fixed_id && next_id > 0xffff) {
		fprintf(stderr, "uft: event id space exhausted; %s:%s not registered\n", d->system,
			d->name);
		return;
	}
	if (nr_events == cap_events) {
		void *p = grow(events, &cap_events, sizeof(*events));
		if (!p)
			return;
		events = p;
	}
	e = &events[nr_events];
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
		return;
	}
	if (!fixed_id)
		next_id++;
	nr_events++;
	e->live = true;
	add_desc(e, d);
	if (uft_sess.hdr)
		uft_shm_add_format(uft_sess.hdr, e->id, e->system, e->format, e->format_len);
	apply_filters(e);
	if (wanted(e))
		set_enabled(e, true);
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
	if (find_event(d->system, d->name)) {
		rc = -EEXIST;
	} else {
		register_desc_id(d, 0);
		if (!d->id)
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
		if (*p)
			register_desc(*p);
	pthread_mutex_unlock(&reg_lock);
}

static void unregister_desc(struct uft_event *d)
{
	for (uint32_t i = 0; i < nr_events; i++) {
		struct reg_event *e = &events[i];
		for (uint32_t j = 0; j < e->nr_descs; j++) {
			if (e->descs[j] != d)
				continue;
			d->fast_type = 0;
			__atomic_store_n(&d->fast_filter, NULL, __ATOMIC_RELEASE);
			if (d->enabled) {
				d->enabled = 0;
				__atomic_sub_fetch(d->gate, 1, __ATOMIC_RELAXED);
			}
			const void *tg = d->targets;
			__atomic_store_n(&d->targets, NULL, __ATOMIC_RELEASE);
			e->descs[j] = e->descs[--e->nr_descs];
			if (e->nr_descs == 0) {
				e->live = false; /* the id stays retired */
				retire(tg);	 /* no descriptor holds the list any more */
			}
			d->id = 0;
			if (d->style == UFT_STYLE_PRINTF && d->priv) {
				/* The descriptor leaves with its object; its layout with it. */
				uft_printf_layout_free(d->priv);
				free(d->priv);
				d->priv = NULL;
				d->fields = NULL;
				d->print_fmt = NULL;
			}
			return;
		}
	}
}

/* Enabled or in soft mode anywhere, or holding triggers. */
static bool event_busy(const struct reg_event *e)
{
	if (e->on_mask)
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
	for (uint32_t i = 0; i < nr_events; i++) {
		struct reg_event *e = &events[i];
		if (!e->live || !e->nr_descs || e->descs[0] != d)
			continue;
		rc = event_busy(e) ? -EBUSY : 0;
		if (rc == 0 && !check_only) {
			for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
				retire(e->filter[b]);
				free(e->filter_text[b]);
				e->filter[b] = NULL;
				e->filter_text[b] = NULL;
			}
			unregister_desc(d);
		}
		break;
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
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
					unregister_desc(*p);
			sections[i] = sections[--nr_sections];
		}
		break;
	}
	pthread_mutex_unlock(&reg_lock);
}

static int apply_spec(const char *spec, int on)
{
	int changed = 0;
	for (uint32_t i = 0; i < nr_events; i++) {
		struct reg_event *e = &events[i];
		if (!e->live || !uft_event_spec_matches(spec, e->system, e->name))
			continue;
		if (!!(e->on_mask & 1u) != (on != 0))
			changed++;
		set_enabled(e, on != 0);
	}
	return changed;
}

static void remember_spec(const char *spec, int on)
{
	char **p = realloc(specs, (nr_specs + 1) * sizeof(*specs));
	if (!p)
		return;
	specs = p;
	if (asprintf(&specs[nr_specs], "%s%s", on ? "" : "!", spec) >= 0)
		nr_specs++;
}

int uft_set_event(const char *spec, int on)
{
	if (!spec || !*spec)
		return -EINVAL;
	uft_init();
	if (on && uft_session_start() != 0)
		return -ENOMEM;
	pthread_mutex_lock(&reg_lock);
	remember_spec(spec, on);
	int n = apply_spec(spec, on);
	pthread_mutex_unlock(&reg_lock);
	return n;
}

int uft_set_filter(const char *spec, const char *expr, char *err, size_t errlen)
{
	if (!spec || !*spec || !expr)
		return -EINVAL;
	uft_init();
	char *text = strdup(expr);
	if (!text)
		return -ENOMEM;
	size_t n = strlen(text);
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n'))
		text[--n] = 0; /* as the kernel trims a write */
	pthread_mutex_lock(&reg_lock);
	int installed = 0, rc = 0;
	for (uint32_t i = 0; i < nr_events && rc == 0; i++) {
		struct reg_event *e = &events[i];
		if (!e->live || !uft_event_spec_matches(spec, e->system, e->name))
			continue;
		int r = install_filter_text(e, text, err, errlen);
		if (r < 0)
			rc = r;
		else
			installed += r;
	}
	if (rc == 0) {
		struct filter_spec *p = realloc(fspecs, (nr_fspecs + 1) * sizeof(*fspecs));
		if (p) {
			fspecs = p;
			fspecs[nr_fspecs].spec = strdup(spec);
			fspecs[nr_fspecs].expr = text;
			text = NULL;
			nr_fspecs++;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	free(text);
	return rc ? rc : installed;
}

/* UFT_FILTERS: records "SPEC\x1fEXPR" separated by \x1e. */
int uft_registry_apply_filter_list(const char *list)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return -ENOMEM;
	for (char *rec = strtok_r(copy, "\x1e", &save); rec; rec = strtok_r(NULL, "\x1e", &save)) {
		char *sep = strchr(rec, '\x1f');
		if (!sep)
			continue;
		*sep = 0;
		char err[1024];
		if (uft_set_filter(rec, sep + 1, err, sizeof(err)) < 0)
			fprintf(stderr, "uft: filter of %s:\n%s", rec, err);
	}
	free(copy);
	return 0;
}

/* UFT_EVENTS: comma-separated specs, "!" before one disables. */
int uft_registry_apply_spec_list(const char *list)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&reg_lock);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		bool neg = tok[0] == '!';
		remember_spec(tok + neg, !neg);
		apply_spec(tok + neg, !neg);
	}
	pthread_mutex_unlock(&reg_lock);
	free(copy);
	return 0;
}

struct uft_event *uft_find_event(const char *system, const char *name)
{
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	struct uft_event *d = e && e->nr_descs ? e->descs[0] : NULL;
	pthread_mutex_unlock(&reg_lock);
	return d;
}

/* Called with the region just created: every format registered so far. */
void uft_registry_publish_formats(struct uft_shm_header *h)
{
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < nr_events; i++)
		uft_shm_add_format(h, events[i].id, events[i].system, events[i].format,
				   events[i].format_len);
	pthread_mutex_unlock(&reg_lock);
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
	for (uint32_t i = 0; i < nr_events; i++) {
		struct reg_event *e = &events[i];
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
	for (uint32_t i = 0; i < nr_events && rc == 0; i++) {
		struct reg_event *e = &events[i];
		if (!e->live)
			continue;
		struct uft_reg_view v = {e->system,  e->name,	  e->id, e->format, e->format_len,
					 e->on_mask, e->descs[0], 0,	 0};
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
			if (!e->sm_ref[b])
				continue;
			v.soft_mask |= 1u << b;
			if (atomic_load(&e->st[b].soft_disabled))
				v.sd_mask |= 1u << b;
		}
		rc = fn(ctx, &v);
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

static bool name_matches(const char *pat, const char *s)
{
	return !pat || (pat[0] == '*' && !pat[1]) || strcmp(pat, s) == 0;
}

int uft_registry_enable_in(uint32_t buffer, const char *system, const char *name, bool on)
{
	int n = 0;
	if (buffer >= UFT_MAX_BUFFERS)
		return 0;
	if (on && uft_session_start() != 0)
		return -ENOMEM;
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < nr_events; i++) {
		struct reg_event *e = &events[i];
		if (!e->live || !name_matches(system, e->system) || !name_matches(name, e->name))
			continue;
		set_enabled_in(e, buffer, on);
		n++;
	}
	pthread_mutex_unlock(&reg_lock);
	return n;
}

int uft_registry_filter_in(uint32_t buffer, const char *system, const char *name, const char *expr,
			   struct uft_filter_error *fe)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	int rc = e ? install_filter(e, buffer, expr, fe) : -ENOENT;
	pthread_mutex_unlock(&reg_lock);
	return rc < 0 ? rc : 0;
}

char *uft_registry_filter_text(uint32_t buffer, const char *system, const char *name)
{
	char *t = NULL;
	if (buffer >= UFT_MAX_BUFFERS)
		return NULL;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	if (e && e->filter_text[buffer])
		t = strdup(e->filter_text[buffer]);
	pthread_mutex_unlock(&reg_lock);
	return t;
}

static void trig_retire(struct uft_trig *t)
{
	uft_hist_unlink(t->hist);
	retire(t->hist); /* a writer may be in it yet: never freed */
	retire(t->filter);
	free(t->filter_text);
	t->filter_text = NULL;
	retire(t);
}

void uft_registry_buffer_reset(uint32_t buffer)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return;
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < nr_events; i++) {
		struct reg_event *e = &events[i];
		for (uint32_t k = 0; k < e->nr_trig[buffer]; k++)
			trig_retire(e->trig[buffer][k]);
		free(e->trig[buffer]);
		e->trig[buffer] = NULL;
		e->nr_trig[buffer] = 0;
		retire(e->tlist[buffer]);
		e->tlist[buffer] = NULL;
		atomic_store(&e->st[buffer].list, NULL);
		e->sm_ref[buffer] = 0;
		atomic_store(&e->st[buffer].soft_disabled, 0);
		retire(e->filter[buffer]);
		free(e->filter_text[buffer]);
		e->filter[buffer] = NULL;
		e->filter_text[buffer] = NULL;
		e->on_mask &= ~(1u << buffer);
		if (e->nr_descs)
			publish_targets(e);
	}
	pthread_mutex_unlock(&reg_lock);
}

const struct uft_print_fmt *uft_registry_print_fmt(uint16_t id, const char **system,
						   const char **name)
{
	const struct uft_print_fmt *pf = NULL;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = NULL;
	for (uint32_t i = 0; i < nr_events && !e; i++)
		if (events[i].id == id)
			e = &events[i];
	if (e) {
		*system = e->system;
		*name = e->name;
		if (!e->pf && !e->pf_failed && e->nr_descs) {
			const struct uft_event *d = e->descs[0];
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

/* ---- for the tracefs events/ files (tfs_events.c) ---- */

/* Installs in one buffer of one event the filter compiled from `expr` (NULL:
 * none) while the event's filter text becomes `text` (NULL: none). The tree
 * uses it to add its set_event_pid check around the expression written, and
 * to keep a failed expression's error text as the kernel's filter file shows
 * it. Returns 0, -ENOENT, -EINVAL with fe set, or -ENOMEM; on an error nothing
 * changes. */
int uft_registry_filter_set_in(uint32_t buffer, const char *system, const char *name,
			       const char *expr, const char *text, struct uft_filter_error *fe)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	struct uft_filter *f = NULL;
	char *t = NULL;
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	if (!e || !e->nr_descs) {
		rc = -ENOENT;
		goto out;
	}
	if (expr) {
		struct uft_event *d = e->descs[0];
		rc = uft_filter_compile(expr, d->fields, d->nr_fields, &f, fe);
		if (rc < 0) {
			rc = rc == -ENOMEM ? -ENOMEM : -EINVAL;
			goto out;
		}
		if (rc == UFT_FILTER_CLEAR)
			f = NULL;
		rc = 0;
	}
	if (text && !(t = strdup(text))) {
		uft_filter_free(f);
		rc = -ENOMEM;
		goto out;
	}
	retire(e->filter[buffer]);
	free(e->filter_text[buffer]);
	e->filter[buffer] = f;
	e->filter_text[buffer] = t;
	publish_targets(e);
out:
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

/* ---- triggers (tfs_triggers.c) ---- */

/* The kernel's soft mode: while referenced, the event is armed in the
 * buffer; if it was off, it is armed soft-disabled. When the last reference
 * goes, a soft-disabled event is off again, an enabled one stays on. */
static void soft_get(struct reg_event *e, uint32_t b)
{
	if (e->sm_ref[b]++)
		return;
	/* Set either way: a command of an old list may have flipped it late. */
	atomic_store(&e->st[b].soft_disabled, !(e->on_mask & (1u << b)));
	e->on_mask |= 1u << b;
}

static void soft_put(struct reg_event *e, uint32_t b)
{
	if (--e->sm_ref[b])
		return;
	if (atomic_load(&e->st[b].soft_disabled))
		e->on_mask &= ~(1u << b);
	atomic_store(&e->st[b].soft_disabled, 0);
}

struct uft_evstate *uft_registry_event_state(uint32_t buffer, const char *system, const char *name,
					     const char **rsys, const char **rname)
{
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	struct uft_evstate *st = NULL;
	if (e && e->nr_descs && strcmp(e->system, "ftrace") != 0) {
		st = &e->st[buffer];
		*rsys = e->system;
		*rname = e->name;
	}
	pthread_mutex_unlock(&reg_lock);
	return st;
}

void uft_registry_soft_ref(uint32_t buffer, struct uft_evstate *st, bool get)
{
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < nr_events; i++) {
		struct reg_event *e = &events[i];
		if (e->st + buffer != st)
			continue;
		if (get)
			soft_get(e, buffer);
		else if (e->sm_ref[buffer])
			soft_put(e, buffer);
		publish_targets(e);
		break;
	}
	pthread_mutex_unlock(&reg_lock);
}

/* Builds the list writers follow from `v` (n triggers); NULL when n is 0
 * (and on failure: *err). */
static struct uft_trig_list *trig_list(struct uft_trig **v, uint32_t n, int *err)
{
	*err = 0;
	if (!n)
		return NULL;
	struct uft_trig_list *l = calloc(1, sizeof(*l) + n * sizeof(l->t[0]));
	if (!l) {
		*err = -ENOMEM;
		return NULL;
	}
	l->nr = n;
	for (uint32_t i = 0; i < n; i++) {
		l->t[i] = v[i];
		if (v[i]->filter || v[i]->cmd == UFT_TRIG_TRACEOFF)
			l->cond = true;
		if (v[i]->filter && (uft_filter_needs(v[i]->filter) & UFT_FILTER_NEEDS_COMM))
			l->needs_comm = true;
		if (v[i]->hist) {
			l->cond = l->has_hist = true;
			l->needs_comm |= uft_hist_needs_comm(v[i]->hist);
		}
	}
	return l;
}

/* Swaps in the trigger array `v` (n entries) of one event in one buffer. */
static void set_triggers(struct reg_event *e, uint32_t b, struct uft_trig **v, uint32_t n,
			 struct uft_trig_list *l)
{
	free(e->trig[b]);
	e->trig[b] = v;
	e->nr_trig[b] = n;
	retire(e->tlist[b]);
	e->tlist[b] = l;
	atomic_store_explicit(&e->st[b].list, l, memory_order_release);
}

static bool is_enable_cmd(int cmd)
{
	return uft_trigger_cmd_has_target(cmd);
}

/* The target of an enable/disable_event command, or NULL. The ftrace
 * entries cannot be enabled, so they are no target. */
static struct reg_event *trig_target(const struct uft_trig_spec *sp)
{
	struct reg_event *t = find_event(sp->sys, sp->event);
	if (!t || !t->nr_descs || strcmp(t->system, "ftrace") == 0)
		return NULL;
	return t;
}

/* Index of the installed trigger of the same kind (and target), or -1. */
static int trig_find(const struct reg_event *e, uint32_t b, int cmd, const struct uft_evstate *st)
{
	int type = uft_trigger_cmd_type(cmd);
	for (uint32_t i = 0; i < e->nr_trig[b]; i++) {
		const struct uft_trig *t = e->trig[b][i];
		if (uft_trigger_cmd_type(t->cmd) == type &&
		    (!is_enable_cmd(cmd) || t->target == st))
			return (int)i;
	}
	return -1;
}

/* Appends t to the triggers of e in buffer b and publishes them; te is the
 * target of an enable/disable_event. Nothing changes on an error. */
static int trig_insert(struct reg_event *e, uint32_t b, struct uft_trig *t, struct reg_event *te)
{
	uint32_t n = e->nr_trig[b];
	struct uft_trig **v = malloc((n + 1) * sizeof(*v));
	int rc;
	if (!v)
		return -ENOMEM;
	/* The kernel adds a trigger at the head of the event's list and a hist
	 * trigger at its tail: that order is the trigger file's and the one
	 * they run in. */
	if (t->hist) {
		if (n)
			memcpy(v, e->trig[b], n * sizeof(*v));
		v[n] = t;
	} else {
		v[0] = t;
		if (n)
			memcpy(v + 1, e->trig[b], n * sizeof(*v));
	}
	struct uft_trig_list *l = trig_list(v, n + 1, &rc);
	if (rc) {
		free(v);
		return rc;
	}
	if (!n)
		soft_get(e, b);
	if (te)
		soft_get(te, b);
	set_triggers(e, b, v, n + 1, l);
	if (te && te != e)
		publish_targets(te);
	publish_targets(e);
	return 0;
}

/* Takes trigger i of e in buffer b out and retires it (te: its target). */
static int trig_remove_at(struct reg_event *e, uint32_t b, uint32_t i, struct reg_event *te)
{
	uint32_t n = e->nr_trig[b];
	struct uft_trig *t = e->trig[b][i];
	if (t->hist && uft_hist_busy(t->hist))
		return -EBUSY; /* another histogram reads its variables */
	struct uft_trig **v = n > 1 ? malloc((n - 1) * sizeof(*v)) : NULL;
	int rc;
	if (n > 1 && !v)
		return -ENOMEM;
	for (uint32_t k = 0, j = 0; k < n; k++)
		if (k != i)
			v[j++] = e->trig[b][k];
	struct uft_trig_list *l = trig_list(v, n - 1, &rc);
	if (rc) {
		free(v);
		return rc;
	}
	set_triggers(e, b, v, n - 1, l);
	if (n == 1)
		soft_put(e, b);
	if (te) {
		soft_put(te, b);
		if (te != e)
			publish_targets(te);
	}
	publish_targets(e);
	trig_retire(t);
	return 0;
}

int uft_registry_trigger_add(uint32_t buffer, const char *system, const char *name,
			     const struct uft_trig_spec *sp, struct uft_filter_error *fe,
			     bool *filter_failed)
{
	*filter_failed = false;
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	if (uft_session_start() != 0)
		return -ENOMEM;
	struct uft_trig *t = NULL;
	struct uft_filter *f = NULL;
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name), *te = NULL;
	if (!e || !e->nr_descs) {
		rc = -ENOENT;
		goto out;
	}
	if (is_enable_cmd(sp->cmd)) {
		if (!(te = trig_target(sp))) {
			rc = -EINVAL;
			goto out;
		}
		if ((rc = sp->late_err))
			goto out;
	}
	if (sp->filter) {
		struct uft_event *d = e->descs[0];
		rc = uft_filter_compile(sp->filter, d->fields, d->nr_fields, &f, fe);
		if (rc == UFT_FILTER_CLEAR) {
			/* The filter file's "0"; here a field that does not exist. */
			*fe = (struct uft_filter_error){UFT_FILTER_ERR_FIELD_NOT_FOUND, 2};
			rc = -EINVAL;
		}
		if (rc < 0) {
			*filter_failed = rc != -ENOMEM;
			rc = rc == -ENOMEM ? -ENOMEM : -EINVAL;
			goto out;
		}
	}
	if (trig_find(e, buffer, sp->cmd, te ? &te->st[buffer] : NULL) >= 0) {
		rc = -EEXIST;
		goto out;
	}
	t = calloc(1, sizeof(*t));
	if (!t || (sp->filter && !(t->filter_text = strdup(sp->filter)))) {
		rc = -ENOMEM;
		goto out;
	}
	t->cmd = sp->cmd;
	t->buffer = buffer;
	atomic_init(&t->count, sp->count);
	t->filter = f;
	if (te) {
		t->target = &te->st[buffer];
		t->tsys = te->system;
		t->tname = te->name;
	}
	if ((rc = trig_insert(e, buffer, t, te)))
		goto out;
	t = NULL;
	f = NULL;
out:
	pthread_mutex_unlock(&reg_lock);
	if (t)
		free(t->filter_text);
	free(t);
	uft_filter_free(f);
	return rc;
}

int uft_registry_trigger_remove(uint32_t buffer, const char *system, const char *name,
				const struct uft_trig_spec *sp)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name), *te = NULL;
	if (!e || !e->nr_descs) {
		rc = -ENOENT;
		goto out;
	}
	if (is_enable_cmd(sp->cmd) && !(te = trig_target(sp))) {
		rc = -EINVAL;
		goto out;
	}
	int i = trig_find(e, buffer, sp->cmd, te ? &te->st[buffer] : NULL);
	if (i < 0) {
		rc = -ENOENT;
		goto out;
	}
	rc = trig_remove_at(e, buffer, (uint32_t)i, te);
out:
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

/* A hist trigger's line in the trigger file. */
static void hist_info(FILE *m, const struct uft_hist *h)
{
	int n = uft_hist_info(h, NULL, 0);
	char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (line && uft_hist_info(h, line, (size_t)n + 1) == n)
		fputs(line, m);
	free(line);
}

char *uft_registry_trigger_text(uint32_t buffer, const char *system, const char *name)
{
	char *s = NULL;
	size_t len = 0;
	if (buffer >= UFT_MAX_BUFFERS)
		return NULL;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	if (e && e->nr_trig[buffer]) {
		FILE *m = open_memstream(&s, &len);
		if (m) {
			/* The list's order: newest first, hist triggers at the tail. */
			for (uint32_t i = 0; i < e->nr_trig[buffer]; i++) {
				struct uft_trig *t = e->trig[buffer][i];
				if (!t->hist)
					uft_trigger_print(m, t->cmd, t->tsys, t->tname,
							  atomic_load(&t->count), t->filter_text);
			}
			for (uint32_t i = 0; i < e->nr_trig[buffer]; i++)
				if (e->trig[buffer][i]->hist)
					hist_info(m, e->trig[buffer][i]->hist);
			if (fclose(m) != 0) {
				free(s);
				s = NULL;
			}
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return s;
}

/* ---- hist triggers (tfs_hist.c) ---- */

/* The installed hist trigger that `h` names (uft_hist_same), or -1. */
static int hist_find(const struct reg_event *e, uint32_t b, const struct uft_hist *h)
{
	for (uint32_t i = 0; i < e->nr_trig[b]; i++)
		if (e->trig[b][i]->hist && uft_hist_same(e->trig[b][i]->hist, h, false))
			return (int)i;
	return -1;
}

/* An installed histogram named `name` (in any buffer, as the kernel's
 * named triggers are global), or NULL. */
static struct uft_hist *named_hist(const char *name)
{
	for (uint32_t k = 0; k < nr_events; k++)
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
			for (uint32_t i = 0; i < events[k].nr_trig[b]; i++) {
				struct uft_hist *h = events[k].trig[b][i]->hist;
				const char *n = h ? uft_hist_name(h) : NULL;
				if (n && !strcmp(n, name))
					return h;
			}
	return NULL;
}

static int hist_fail(struct uft_hist_error *he, int err, int code)
{
	he->err = err;
	he->code = code;
	he->pos = 0;
	return err;
}

/* A new histogram reading common_timestamp sets the buffer's trace clock
 * to its clock=, as the kernel's does; its timestamps are then that
 * clock's (nanoseconds for the ns clocks, writer.c converting raw TSC). */
static int hist_set_clock(uint32_t buffer, struct uft_hist *h, struct uft_hist_error *he)
{
	int c = uft_clock_by_name(uft_hist_clock(h));
	if (c < 0 || !uft_registry_set_clock || uft_registry_set_clock(buffer, c) != 0) {
		const char *cmd = uft_hist_command(h), *at = strstr(cmd, uft_hist_clock(h));
		hist_fail(he, -EINVAL, UFT_HIST_ERR_SET_CLOCK_FAIL);
		he->pos = at ? (int)(at - cmd) : 0;
		return -EINVAL;
	}
	uft_hist_set_raw_clock(h, !uft_clock_is_ns((enum uft_clock)c));
	return 0;
}

/* Pauses or resumes h and, when it is named, every histogram of its name. */
static void hist_pause(struct uft_hist *h, bool pause)
{
	const char *name = uft_hist_name(h);
	if (!name) {
		uft_hist_set_paused(h, pause);
		return;
	}
	for (uint32_t k = 0; k < nr_events; k++)
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
			for (uint32_t i = 0; i < events[k].nr_trig[b]; i++) {
				struct uft_hist *o = events[k].trig[b][i]->hist;
				const char *n = o ? uft_hist_name(o) : NULL;
				if (n && !strcmp(n, name))
					uft_hist_set_paused(o, pause);
			}
}

/* Empties a live table (uft_hist_clear waits for writers inside it). */
static void hist_clear(struct uft_trig *t)
{
	uft_hist_clear(t->hist);
}

/* ---- what histograms of one buffer see of each other (reg_lock held) ---- */

static int env_find_var(void *ctx, const char *system, const char *event, const char *var,
			struct uft_hist **found)
{
	uint32_t b = (uint32_t)(uintptr_t)ctx;
	int n = 0;
	for (uint32_t k = 0; k < nr_events; k++) {
		struct reg_event *e = &events[k];
		if (system && (strcmp(e->system, system) || strcmp(e->name, event)))
			continue;
		for (uint32_t i = 0; i < e->nr_trig[b]; i++) {
			struct uft_hist *h = e->trig[b][i]->hist;
			if (h && uft_hist_var_index(h, var) >= 0 && n++ == 0)
				*found = h;
		}
	}
	return n;
}

static bool env_event_exists(void *ctx, const char *system, const char *event)
{
	(void)ctx;
	struct reg_event *e = find_event(system, event);
	return e && e->nr_descs;
}

/* Synthetic events live under the tree's lock, which the caller holds. */
static void *env_synth_get(void *ctx, const char *name, uint32_t *nr, uint8_t *kinds)
{
	(void)ctx;
	struct uft_synth *s = uft_synth_find(name);
	if (!s)
		return NULL;
	*nr = s->def.nr;
	for (uint32_t i = 0; i < s->def.nr && i < 128; i++)
		kinds[i] = s->def.f[i].kind == UFT_SYNTH_NUM	 ? 0
			   : s->def.f[i].kind == UFT_SYNTH_STACK ? 3
								 : 1;
	uft_synth_get(s);
	return s;
}

static void env_synth_put(void *ctx, void *synth)
{
	(void)ctx;
	uft_synth_put(synth);
}

static void env_synth_emit(void *ctx, void *synth, const uint64_t *vals, const char *const *strs)
{
	uft_synth_emit((uint32_t)(uintptr_t)ctx, synth, vals, strs);
}

int (*uft_registry_set_clock)(uint32_t buffer, int clock);

static void env_snapshot(void *ctx)
{
	uft_trig_hist_snapshot((uint32_t)(uintptr_t)ctx);
}

/* The hist trigger of buffer b with a snapshot() action, if any. */
static const struct uft_hist *snapshot_hist(uint32_t b)
{
	for (uint32_t k = 0; k < nr_events; k++)
		for (uint32_t i = 0; i < events[k].nr_trig[b]; i++) {
			const struct uft_hist *h = events[k].trig[b][i]->hist;
			if (h && uft_hist_has_snapshot(h))
				return h;
		}
	return NULL;
}

bool uft_registry_hist_snapshots(uint32_t buffer)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return false;
	pthread_mutex_lock(&reg_lock);
	bool r = snapshot_hist(buffer) != NULL;
	pthread_mutex_unlock(&reg_lock);
	return r;
}

/* The hidden hist triggers made for SYS.EVENT.field params while one
 * command runs (reg_lock held), removed again if the command fails. */
struct fv_made {
	uint32_t n;
	struct {
		struct reg_event *e;
		char *cmd;
	} v[64];
};
static struct fv_made *fv_made;

static int hist_cmd_locked(uint32_t buffer, struct reg_event *e, const char *cmd, bool remove,
			   struct uft_hist_error *he);

static struct uft_hist *env_field_var(void *ctx, const char *system, const char *event,
				      const char *field, const struct uft_hist *target, int *code,
				      char **created)
{
	uint32_t b = (uint32_t)(uintptr_t)ctx;
	struct reg_event *e = find_event(system, event);
	struct uft_hist *compat = NULL;
	char var[320], keys[512], *c = NULL;

	*created = NULL;
	if (!e || !e->nr_descs || !strcmp(e->system, "ftrace")) {
		*code = UFT_HIST_ERR_EVENT_FILE_NOT_FOUND;
		return NULL;
	}
	for (uint32_t i = 0; i < e->nr_trig[b] && !compat; i++) {
		struct uft_hist *h = e->trig[b][i]->hist;
		if (h && uft_hist_keys_compatible(target, h))
			compat = h;
	}
	if (!compat) {
		*code = UFT_HIST_ERR_HIST_NOT_FOUND;
		return NULL;
	}
	snprintf(var, sizeof(var), "synthetic_%s", field);
	for (uint32_t i = 0; i < e->nr_trig[b]; i++) {
		struct uft_hist *h = e->trig[b][i]->hist;
		if (h && uft_hist_var_index(h, var) >= 0)
			return h; /* made before: shared */
	}
	/* A histogram with the compatible one's keys and filter and the
	 * variable, as the kernel's create_field_var_hist(). */
	uft_hist_key_names(compat, keys, sizeof(keys));
	const char *f = uft_hist_filter_text(compat);
	struct uft_hist_error he;
	if (asprintf(&c, "keys=%s:%s=%s%s%s", keys, var, field, f ? " if " : "", f ? f : "") < 0)
		c = NULL;
	if (!c || hist_cmd_locked(b, e, c, false, &he) != 0) {
		free(c);
		*code = UFT_HIST_ERR_HIST_CREATE_FAIL;
		return NULL;
	}
	for (uint32_t i = 0; i < e->nr_trig[b]; i++) {
		struct uft_hist *h = e->trig[b][i]->hist;
		if (h && uft_hist_var_index(h, var) >= 0) {
			if (fv_made && fv_made->n < sizeof(fv_made->v) / sizeof(fv_made->v[0])) {
				fv_made->v[fv_made->n].e = e;
				fv_made->v[fv_made->n].cmd = strdup(c);
				fv_made->n++;
			}
			*created = c;
			return h;
		}
	}
	free(c);
	*code = UFT_HIST_ERR_SYNTH_VAR_NOT_FOUND;
	return NULL;
}

/* Removes the hidden hist triggers h made for its SYS.EVENT.field params
 * (h no longer reads them). */
static void remove_field_var_hists(uint32_t buffer, const struct uft_hist *h)
{
	const char *sys, *ev, *cmd;
	for (uint32_t i = 0; uft_hist_field_var_hist(h, i, &sys, &ev, &cmd); i++) {
		struct reg_event *e = find_event(sys, ev);
		struct uft_hist_error he;
		if (e)
			hist_cmd_locked(buffer, e, cmd, true, &he);
	}
}

int uft_registry_hist_cmd(uint32_t buffer, const char *system, const char *name, const char *cmd,
			  bool remove, struct uft_hist_error *he)
{
	memset(he, 0, sizeof(*he));
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	if (uft_session_start() != 0)
		return -ENOMEM;
	int rc;
	struct fv_made made = {0};
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	if (!e || !e->nr_descs) {
		rc = -ENOENT;
	} else {
		fv_made = &made;
		rc = hist_cmd_locked(buffer, e, cmd, remove, he);
		fv_made = NULL;
	}
	for (uint32_t i = 0; i < made.n; i++) {
		struct uft_hist_error tmp;
		if (rc)
			hist_cmd_locked(buffer, made.v[i].e, made.v[i].cmd, true, &tmp);
		free(made.v[i].cmd);
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

static int hist_cmd_locked(uint32_t buffer, struct reg_event *e, const char *cmd, bool remove,
			   struct uft_hist_error *he)
{
	struct uft_hist *h = NULL;
	struct uft_trig *t = NULL;
	int rc;
	memset(he, 0, sizeof(*he));
	const struct uft_buffer *bf = &uft_buffers[buffer];
	struct uft_hist_event ev = {
	    .system = e->system,
	    .name = e->name,
	    .fields = e->descs[0]->fields,
	    .nr_fields = e->descs[0]->nr_fields,
	    .raw_clock = !uft_clock_is_ns(bf->clock),
	};
	const struct uft_hist_env env = {
	    .find_var = env_find_var,
	    .event_exists = env_event_exists,
	    .synth_get = env_synth_get,
	    .synth_put = env_synth_put,
	    .synth_emit = env_synth_emit,
	    .ctx = (void *)(uintptr_t)buffer,
	    .snapshot = env_snapshot,
	    .field_var = env_field_var,
	};
	if ((rc = uft_hist_create_env(cmd, &ev, &env, &h, he)))
		return rc;
	/* What the engine logged while resolving the actions counts only when
	 * the kernel gets that far: a new trigger being installed. */
	uint32_t n_prior = he->n_prior;
	he->n_prior = 0;
	int i = hist_find(e, buffer, h);
	unsigned fl = uft_hist_flags(h);
	struct uft_hist *named = uft_hist_name(h) ? named_hist(uft_hist_name(h)) : NULL;
	if (remove) {
		struct uft_hist *old = i < 0 ? NULL : e->trig[buffer][i]->hist;
		rc = i < 0 ? -ENOENT : trig_remove_at(e, buffer, (uint32_t)i, NULL);
		/* what it made for SYS.EVENT.field params goes too, once the
		 * command's own parse no longer reads it */
		uft_hist_free(h);
		h = NULL;
		if (rc == 0)
			remove_field_var_hists(buffer, old);
	} else if (i >= 0 && (fl & (UFT_HIST_PAUSE | UFT_HIST_CONT | UFT_HIST_CLEAR))) {
		/* The kernel's order: pause, else continue, else clear; pause and
		 * continue act on every trigger sharing a name. */
		struct uft_trig *old = e->trig[buffer][i];
		if (fl & (UFT_HIST_PAUSE | UFT_HIST_CONT))
			hist_pause(old->hist, fl & UFT_HIST_PAUSE);
		else
			hist_clear(old);
		rc = 0;
	} else if (i >= 0) {
		rc = hist_fail(he, -EEXIST, UFT_HIST_ERR_TRIGGER_EEXIST);
	} else if (fl & (UFT_HIST_CONT | UFT_HIST_CLEAR)) {
		rc = hist_fail(he, -ENOENT, UFT_HIST_ERR_TRIGGER_ENOENT_CLEAR);
	} else if (named && (rc = uft_hist_share(h, named, he))) {
		/* keys, values, variables or actions differ from the name's */
	} else if ((he->n_prior = n_prior), uft_hist_has_snapshot(h) && snapshot_hist(buffer)) {
		rc = hist_fail(he, -EBUSY, 0); /* one conditional snapshot per instance */
	} else if (!(t = calloc(1, sizeof(*t)))) {
		rc = -ENOMEM;
	} else if (uft_hist_clock(h) && (rc = hist_set_clock(buffer, h, he))) {
		/* the clock could not be set */
	} else {
		t->cmd = UFT_TRIG_HIST;
		t->buffer = buffer;
		atomic_init(&t->count, UFT_TRIG_UNLIMITED);
		t->hist = h;
		if ((rc = trig_insert(e, buffer, t, NULL)) == 0)
			t = NULL, h = NULL;
	}
	free(t);
	uft_hist_free(h);
	return rc;
}

int uft_registry_hist_remove_all(uint32_t buffer, const char *system, const char *name)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	/* (a removal may take hidden hist triggers of this event too) */
	for (uint32_t i = e ? e->nr_trig[buffer] : 0; i-- > 0 && rc == 0;) {
		if (i >= e->nr_trig[buffer] || !e->trig[buffer][i]->hist)
			continue;
		struct uft_hist *old = e->trig[buffer][i]->hist;
		if ((rc = trig_remove_at(e, buffer, i, NULL)) == 0)
			remove_field_var_hists(buffer, old);
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

char *uft_registry_hist_text(uint32_t buffer, const char *system, const char *name,
			     const struct uft_hist_syms *syms)
{
	char *s = NULL;
	size_t len = 0;
	if (buffer >= UFT_MAX_BUFFERS)
		return NULL;
	FILE *m = open_memstream(&s, &len);
	if (!m)
		return NULL;
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = find_event(system, name);
	for (uint32_t i = 0, n = 0; e && i < e->nr_trig[buffer] && rc == 0; i++) {
		const struct uft_hist *h = e->trig[buffer][i]->hist;
		if (!h)
			continue;
		if (n++)
			fputs("\n\n", m); /* between triggers, as the kernel's hist file */
		rc = uft_hist_print(h, m, syms);
	}
	pthread_mutex_unlock(&reg_lock);
	if (fclose(m) != 0 || rc != 0) {
		free(s);
		return NULL;
	}
	return s;
}
