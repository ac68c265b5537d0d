/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The live hist host: hist triggers on live events, and the environment
 * through which the engine's histograms of one buffer find each other's
 * variables, synthetic events and the snapshot. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist.h"
#include "runtime/core/registry.h"
#include "runtime/core/registry_priv.h"
#include "runtime/core/symtab.h"
#include "runtime/core/runtime.h"
#include "runtime/core/synth_live.h"
#include "runtime/core/trigger_run.h"
#include <uft/uft.h>

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
	for (uint32_t k = 0; k < reg_nr_events; k++)
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
			for (uint32_t i = 0; i < reg_events[k].nr_trig[b]; i++) {
				struct uft_hist *h = reg_events[k].trig[b][i]->hist;
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
	for (uint32_t k = 0; k < reg_nr_events; k++)
		for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++)
			for (uint32_t i = 0; i < reg_events[k].nr_trig[b]; i++) {
				struct uft_hist *o = reg_events[k].trig[b][i]->hist;
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
	for (uint32_t k = 0; k < reg_nr_events; k++) {
		struct reg_event *e = &reg_events[k];
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
	struct reg_event *e = reg_find_event(system, event);
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
		kinds[i] = uft_synth_param_of(s->def.f[i].kind, true);
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
	for (uint32_t k = 0; k < reg_nr_events; k++)
		for (uint32_t i = 0; i < reg_events[k].nr_trig[b]; i++) {
			const struct uft_hist *h = reg_events[k].trig[b][i]->hist;
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
	struct reg_event *e = reg_find_event(system, event);
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
		struct reg_event *e = reg_find_event(sys, ev);
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
	struct reg_event *e = reg_find_event(system, name);
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
	    .fields = reg_view(e->descs[0])->fields,
	    .nr_fields = reg_view(e->descs[0])->nr_fields,
	    .raw_clock = !uft_clock_is_ns(bf->clock),
	    .syms = &uft_proc_filter_syms,
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
		/* none that matches: nothing to do, and no error (the kernel's) */
		rc = i < 0 ? 0 : reg_trig_remove_at(e, buffer, (uint32_t)i, NULL);
		/* what it made for SYS.EVENT.field params goes too, once the
		 * command's own parse no longer reads it */
		uft_hist_free(h);
		h = NULL;
		if (rc == 0 && old)
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
		WRITE_ONCE(t->count, UFT_TRIG_UNLIMITED);
		t->hist = h;
		if ((rc = reg_trig_insert(e, buffer, t, NULL)) == 0)
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
	struct reg_event *e = reg_find_event(system, name);
	/* While another histogram reads variables of one of them, none goes
	 * and the open still succeeds: the kernel's hist_unreg_all() returns
	 * without a word. */
	for (uint32_t i = 0; e && i < e->nr_trig[buffer]; i++)
		if (e->trig[buffer][i]->hist && uft_hist_busy(e->trig[buffer][i]->hist))
			e = NULL;
	/* (a removal may take hidden hist triggers of this event too) */
	for (uint32_t i = e ? e->nr_trig[buffer] : 0; i-- > 0 && rc == 0;) {
		if (i >= e->nr_trig[buffer] || !e->trig[buffer][i]->hist)
			continue;
		struct uft_hist *old = e->trig[buffer][i]->hist;
		if ((rc = reg_trig_remove_at(e, buffer, i, NULL)) == 0)
			remove_field_var_hists(buffer, old);
	}
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

int uft_registry_hist_updates(uint32_t buffer, const char *system, const char *name,
			      uint64_t *updates)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	uint64_t sum = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = reg_find_event(system, name);
	for (uint32_t i = 0; e && i < e->nr_trig[buffer]; i++) {
		const struct uft_hist *h = e->trig[buffer][i]->hist;
		if (h)
			sum += uft_hist_hits(h) + uft_hist_drops(h);
	}
	pthread_mutex_unlock(&reg_lock);
	*updates = sum;
	return e ? 0 : -ENOENT;
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
	struct reg_event *e = reg_find_event(system, name);
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
