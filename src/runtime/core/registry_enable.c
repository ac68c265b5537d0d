/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which events are enabled, and their filters: the specs and filters set
 * through the API or the environment (kept, for events registered later),
 * and the per-buffer switches of the tracefs tree. */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/event_spec.h"
#include "engine/filter/filter.h"
#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/registry_priv.h"
#include "runtime/core/symtab.h"
#include "runtime/core/runtime.h"
#include "runtime/core/trigger_run.h"
#include "util/atomics.h"
#include <uft/uft.h>

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

static void set_enabled_in(struct reg_event *e, uint32_t buffer, bool on)
{
	/* In soft mode the event stays armed; `enable` sets its soft-disable. */
	if (e->sm_ref[buffer]) {
		uft_store_seq_cst(&e->st[buffer].soft_disabled, !on);
		return;
	}
	uint32_t mask = on ? e->on_mask | (1u << buffer) : e->on_mask & ~(1u << buffer);
	if (mask == e->on_mask)
		return;
	e->on_mask = mask;
	reg_publish_targets(e);
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
	const struct uft_event *d = reg_view(e->descs[0]);
	struct uft_filter *f = NULL;
	int rc =
	    uft_filter_compile_syms(expr, d->fields, d->nr_fields, &uft_proc_filter_syms, &f, fe);
	if (rc < 0)
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	char *text = rc == UFT_FILTER_CLEAR ? NULL : strdup(expr);
	if (rc != UFT_FILTER_CLEAR && !text)
		return -ENOMEM;
	reg_retire_filter(e->filter[buffer]);
	free(e->filter_text[buffer]);
	e->filter[buffer] = rc == UFT_FILTER_CLEAR ? NULL : f;
	e->filter_text[buffer] = text;
	reg_publish_targets(e);
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

void reg_apply_settings(struct reg_event *e)
{
	apply_filters(e);
	if (wanted(e))
		set_enabled(e, true);
}

static int apply_spec(const char *spec, int on)
{
	int changed = 0;
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
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
	uft_grace_reclaim(false); /* the target lists replaced (grace.h) */
	return n;
}

/* Sets expr on every live event spec matches that takes it, as the kernel
 * sets a subsystem filter: an event without the fields keeps no filter, and
 * the write fails only when no event takes it (err: the first refusal's
 * text). refused(), when given, hears of each event that did not take it. */
static int set_filter_spec(const char *spec, const char *expr, char *err, size_t errlen,
			   void (*refused)(void *ctx, const char *sys, const char *name), void *ctx)
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
	int installed = 0, matched = 0, took = 0, rc = 0;
	bool have_err = false;
	for (uint32_t i = 0; i < reg_nr_events && rc != -ENOMEM; i++) {
		struct reg_event *e = &reg_events[i];
		if (!e->live || !uft_event_spec_matches(spec, e->system, e->name))
			continue;
		matched++;
		char *to = have_err ? NULL : err;
		int r = install_filter_text(e, text, to, to ? errlen : 0);
		if (r == -ENOMEM) {
			rc = r;
		} else if (r < 0) {
			have_err = true;
			if (refused)
				refused(ctx, e->system, e->name);
		} else {
			took++;
			installed += r;
		}
	}
	if (rc == 0 && matched && !took)
		rc = -EINVAL;
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
	uft_grace_reclaim(false); /* the filters replaced (grace.h) */
	return rc ? rc : installed;
}

int uft_set_filter(const char *spec, const char *expr, char *err, size_t errlen)
{
	return set_filter_spec(spec, expr, err, errlen, NULL, NULL);
}

/* The events a filter of the environment did not apply to: a few names
 * say enough, the count says the rest. */
struct refusals {
	char names[4][64];
	unsigned n;
};

static void note_refusal(void *ctx, const char *sys, const char *name)
{
	struct refusals *rf = ctx;
	if (rf->n < ARRAY_SIZE(rf->names))
		snprintf(rf->names[rf->n], sizeof(rf->names[0]), "%s:%s", sys, name);
	rf->n++;
}

/* UFT_FILTERS: records "SPEC\x1fEXPR" separated by \x1e. */
int uft_registry_apply_filter_list(const char *list, struct uft_start_report *r)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return -ENOMEM;
	for (char *rec = strtok_r(copy, "\x1e", &save); rec; rec = strtok_r(NULL, "\x1e", &save)) {
		char *sep = strchr(rec, '\x1f');
		if (!sep)
			continue;
		*sep = 0;
		const char *expr = sep + 1;
		char err[1024] = "";
		struct refusals rf = {.n = 0};
		int rc = set_filter_spec(rec, expr, err, sizeof(err), note_refusal, &rf);
		if (rc == -EINVAL) {
			uft_start_report_add(r, true, "filter of '%s' fits none of its events:\n%s",
					     rec, err);
			continue;
		}
		if (rc < 0) {
			uft_start_report_add(r, true, "filter of '%s': %s\n", rec, strerror(-rc));
			continue;
		}
		if (!rf.n)
			continue;
		char names[sizeof(rf.names) + 64] = "";
		for (unsigned i = 0; i < rf.n && i < ARRAY_SIZE(rf.names); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", rf.names[i]);
		if (rf.n > ARRAY_SIZE(rf.names))
			snprintf(names + strlen(names), sizeof(names) - strlen(names),
				 " and %u more", rf.n - (unsigned)ARRAY_SIZE(rf.names));
		uft_start_report_add(r, false,
				     "filter '%s' of '%s' does not apply to %s (no such field): "
				     "recorded unfiltered, as the kernel does\n",
				     expr, rec, names);
	}
	free(copy);
	return 0;
}

static uint32_t count_matches(const char *spec)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < reg_nr_events; i++)
		n += reg_events[i].live &&
		     uft_event_spec_matches(spec, reg_events[i].system, reg_events[i].name);
	return n;
}

/* Whether a "SYSTEM:EVENT" spec names a system the process has: then an
 * event it does not match is a mistake, not one of a library loaded later. */
static bool names_known_system(const char *spec)
{
	const char *colon = strchr(spec, ':');
	char sysp[128];
	size_t n = colon ? (size_t)(colon - spec) : 0;
	if (!n || n >= sizeof(sysp))
		return false;
	memcpy(sysp, spec, n);
	sysp[n] = 0;
	for (uint32_t i = 0; i < reg_nr_events; i++)
		if (reg_events[i].live && fnmatch(sysp, reg_events[i].system, 0) == 0)
			return true;
	return false;
}

/* UFT_EVENTS: comma-separated specs, "!" before one disables. A spec that
 * names no event of the process is an error in r when its system is one the
 * process has, else a warning: a library loaded later may define it ("all"
 * is neither: a program may have no events of its own). */
int uft_registry_apply_spec_list(const char *list, struct uft_start_report *r)
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
		if (neg || strcmp(tok, "all") == 0 || count_matches(tok))
			continue;
		if (names_known_system(tok))
			uft_start_report_add(r, true, "no event matches '%s'\n", tok);
		else
			uft_start_report_add(r, false,
					     "no event matches '%s' yet (a library loaded later "
					     "may define it)\n",
					     tok);
	}
	pthread_mutex_unlock(&reg_lock);
	free(copy);
	return 0;
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
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
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
	struct reg_event *e = reg_find_event(system, name);
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
	struct reg_event *e = reg_find_event(system, name);
	if (e && e->filter_text[buffer])
		t = strdup(e->filter_text[buffer]);
	pthread_mutex_unlock(&reg_lock);
	return t;
}

void uft_registry_buffer_reset(uint32_t buffer)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return;
	pthread_mutex_lock(&reg_lock);
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
		reg_triggers_reset(e, buffer);
		reg_retire_filter(e->filter[buffer]);
		free(e->filter_text[buffer]);
		e->filter[buffer] = NULL;
		e->filter_text[buffer] = NULL;
		e->on_mask &= ~(1u << buffer);
		if (e->nr_descs)
			reg_publish_targets(e);
	}
	pthread_mutex_unlock(&reg_lock);
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
	struct reg_event *e = reg_find_event(system, name);
	if (!e || !e->nr_descs) {
		rc = -ENOENT;
		goto out;
	}
	if (expr) {
		const struct uft_event *d = reg_view(e->descs[0]);
		rc = uft_filter_compile_syms(expr, d->fields, d->nr_fields, &uft_proc_filter_syms,
					     &f, fe);
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
	reg_retire_filter(e->filter[buffer]);
	free(e->filter_text[buffer]);
	e->filter[buffer] = f;
	e->filter_text[buffer] = t;
	reg_publish_targets(e);
out:
	pthread_mutex_unlock(&reg_lock);
	return rc;
}
