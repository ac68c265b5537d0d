/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Triggers on live events (the events/.../trigger files and the function
 * commands), and the kernel's soft mode they put events in. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/filter.h"
#include "engine/hist/hist.h"
#include "engine/trigger/trigger.h"
#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/registry_priv.h"
#include "runtime/core/symtab.h"
#include "runtime/core/runtime.h"
#include "runtime/core/trigger_run.h"
#include "util/atomics.h"
#include "util/util.h"
#include <uft/uft.h>

/* Named histograms whose trigger is gone while another still uses their
 * table: kept (reachable) until the last sharer goes, then freed. */
static struct {
	struct uft_hist **v;
	size_t n, cap;
} kept;

static void keep_named(struct uft_hist *h)
{
	if (h && uft_hist_named(h) && !uft_hist_unused(h)) {
		if (uft_vec_reserve(&kept, kept.n + 1) != 0)
			return; /* no memory to list it: it stays, unlisted */
		kept.v[kept.n++] = h;
	} else {
		uft_hist_free(h);
	}
	for (size_t i = 0; i < kept.n;)
		if (uft_hist_unused(kept.v[i])) {
			uft_hist_free(kept.v[i]);
			kept.v[i] = kept.v[--kept.n];
		} else {
			i++;
		}
}

/* Frees a trigger a grace period after it left every list. */
static void trig_free(void *p)
{
	struct uft_trig *t = p;
	keep_named(t->hist);
	uft_filter_free((struct uft_filter *)t->filter);
	free(t);
}

static void trig_retire(struct uft_trig *t)
{
	uft_hist_unlink(t->hist);
	free(t->filter_text);
	t->filter_text = NULL;
	uft_grace_defer(t, trig_free); /* a writer may be in it yet */
}

void reg_triggers_reset(struct reg_event *e, uint32_t b)
{
	for (uint32_t k = 0; k < e->nr_trig[b]; k++)
		trig_retire(e->trig[b][k]);
	free(e->trig[b]);
	e->trig[b] = NULL;
	e->nr_trig[b] = 0;
	reg_retire_free(e->tlist[b]);
	e->tlist[b] = NULL;
	uft_store_seq_cst(&e->st[b].list, NULL);
	e->sm_ref[b] = 0;
	uft_store_seq_cst(&e->st[b].soft_disabled, 0);
}

/* ---- triggers (tfs_triggers.c) ---- */

/* An ftrace entry (trace_marker's print) is never enabled: its file writes
 * it, and its triggers arm it only for that write to run them
 * (uft_write_to_buffer_trig), never soft-disabled. */
static bool is_entry(const struct reg_event *e)
{
	return strcmp(e->system, "ftrace") == 0;
}

/* The kernel's soft mode: while referenced, the event is armed in the
 * buffer; if it was off, it is armed soft-disabled. When the last reference
 * goes, a soft-disabled event is off again, an enabled one stays on. */
static void soft_get(struct reg_event *e, uint32_t b)
{
	if (e->sm_ref[b]++)
		return;
	/* Set either way: a command of an old list may have flipped it late. */
	uft_store_seq_cst(&e->st[b].soft_disabled, !(e->on_mask & (1u << b)) && !is_entry(e));
	e->on_mask |= 1u << b;
}

static void soft_put(struct reg_event *e, uint32_t b)
{
	if (--e->sm_ref[b])
		return;
	if (uft_load_seq_cst(&e->st[b].soft_disabled) || is_entry(e))
		e->on_mask &= ~(1u << b);
	uft_store_seq_cst(&e->st[b].soft_disabled, 0);
}

struct uft_evstate *uft_registry_event_state(uint32_t buffer, const char *system, const char *name,
					     const char **rsys, const char **rname)
{
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = reg_find_event(system, name);
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
	for (uint32_t i = 0; i < reg_nr_events; i++) {
		struct reg_event *e = &reg_events[i];
		if (e->st + buffer != st)
			continue;
		if (get)
			soft_get(e, buffer);
		else if (e->sm_ref[buffer])
			soft_put(e, buffer);
		reg_publish_targets(e);
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
		if (v[i]->filter || v[i]->cmd == UFT_TRIG_TRACEOFF || v[i]->cmd == UFT_TRIG_EPROBE)
			l->cond = true; /* an eprobe reads the record's fields */
		if (v[i]->filter && (uft_filter_needs(v[i]->filter) & UFT_FILTER_NEEDS_COMM))
			l->needs_comm = true;
		if (v[i]->hist) {
			l->cond = l->has_hist = true;
			l->needs_comm |= uft_hist_needs_comm(v[i]->hist);
		}
	}
	return l;
}

/* Whether e's global-buffer triggers may run on the inline path: every one
 * a plain histogram without a trigger filter. */
static bool trig_fast_ok(const struct reg_event *e)
{
	const struct uft_trig_list *l = e->tlist[0];
	if (e->on_mask != 1u || !e->sm_ref[0] || !l || !l->nr || is_entry(e))
		return false;
	for (uint32_t i = 0; i < l->nr; i++) {
		const struct uft_trig *t = l->t[i];
		if (t->cmd != UFT_TRIG_HIST || t->filter || !t->hist || !uft_hist_plain(t->hist))
			return false;
	}
	return true;
}

static bool trig_fast_same(const struct uft_trig_fast *f, const struct reg_event *e)
{
	const struct uft_trig_list *l = e->tlist[0];
	if (!f || f->filter != e->filter[0] || f->nr != l->nr)
		return false;
	for (uint32_t i = 0; i < l->nr; i++)
		if (f->h[i] != l->t[i]->hist)
			return false;
	return true;
}

const void *reg_trig_fast(struct reg_event *e)
{
	struct uft_trig_fast *f = e->trig_fast;
	if (!trig_fast_ok(e)) {
		f = NULL;
	} else if (!trig_fast_same(f, e)) {
		const struct uft_trig_list *l = e->tlist[0];
		f = calloc(1, sizeof(*f) + l->nr * sizeof(f->h[0]));
		if (f) { /* else the general path serves */
			f->filter = e->filter[0];
			f->st = &e->st[0];
			f->nr = l->nr;
			for (uint32_t i = 0; i < l->nr; i++)
				f->h[i] = l->t[i]->hist;
		}
	}
	if (f != e->trig_fast) {
		/* Unpublished by the caller before this control operation ends. */
		reg_retire_free(e->trig_fast);
		e->trig_fast = f;
	}
	return f ? (const void *)((uintptr_t)f + UFT_TRIG_FAST_TAG) : NULL;
}

/* Swaps in the trigger array `v` (n entries) of one event in one buffer. */
static void set_triggers(struct reg_event *e, uint32_t b, struct uft_trig **v, uint32_t n,
			 struct uft_trig_list *l)
{
	free(e->trig[b]);
	e->trig[b] = v;
	e->nr_trig[b] = n;
	reg_retire_free(e->tlist[b]);
	e->tlist[b] = l;
	smp_store_release(&e->st[b].list, l);
}

static bool is_enable_cmd(int cmd)
{
	return uft_trigger_cmd_has_target(cmd);
}

/* The target of an enable/disable_event command, or NULL. The ftrace
 * entries cannot be enabled, so they are no target. */
static struct reg_event *trig_target(const struct uft_trig_spec *sp)
{
	struct reg_event *t = reg_find_event(sp->sys, sp->event);
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
int reg_trig_insert(struct reg_event *e, uint32_t b, struct uft_trig *t, struct reg_event *te)
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
		reg_publish_targets(te);
	reg_publish_targets(e);
	return 0;
}

/* Takes trigger i of e in buffer b out and retires it (te: its target). */
int reg_trig_remove_at(struct reg_event *e, uint32_t b, uint32_t i, struct reg_event *te)
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
			reg_publish_targets(te);
	}
	reg_publish_targets(e);
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
	struct reg_event *e = reg_find_event(system, name), *te = NULL;
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
		const struct uft_event *d = reg_view(e->descs[0]);
		rc = uft_filter_compile_syms(sp->filter, d->fields, d->nr_fields,
					     &uft_proc_filter_syms, &f, fe);
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
	WRITE_ONCE(t->count, sp->count);
	t->filter = f;
	if (te) {
		t->target = &te->st[buffer];
		t->tsys = te->system;
		t->tname = te->name;
	}
	if ((rc = reg_trig_insert(e, buffer, t, te)))
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
	struct reg_event *e = reg_find_event(system, name), *te = NULL;
	if (!e || !e->nr_descs) {
		rc = -ENOENT;
		goto out;
	}
	if (is_enable_cmd(sp->cmd) && !(te = trig_target(sp))) {
		rc = -EINVAL;
		goto out;
	}
	/* Removing a trigger that is not there succeeds, as the kernel's
	 * unregister does (the selftests' reset relies on it). */
	int i = trig_find(e, buffer, sp->cmd, te ? &te->st[buffer] : NULL);
	if (i >= 0)
		rc = reg_trig_remove_at(e, buffer, (uint32_t)i, te);
out:
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

int uft_registry_eprobe_attach(uint32_t buffer, const char *system, const char *name, void *probe,
			       const char *filter, struct uft_filter_error *fe)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return -ENOENT;
	if (uft_session_start() != 0)
		return -ENOMEM;
	struct uft_trig *t = NULL;
	struct uft_filter *f = NULL;
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = reg_find_event(system, name);
	if (!e || !e->nr_descs) {
		rc = -ENOENT;
		goto out;
	}
	if (filter) {
		const struct uft_event *d = reg_view(e->descs[0]);
		rc = uft_filter_compile_syms(filter, d->fields, d->nr_fields, &uft_proc_filter_syms,
					     &f, fe);
		if (rc < 0 || rc == UFT_FILTER_CLEAR) {
			rc = rc == -ENOMEM ? -ENOMEM : -EINVAL;
			goto out;
		}
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		rc = -ENOMEM;
		goto out;
	}
	t->cmd = UFT_TRIG_EPROBE;
	t->buffer = buffer;
	WRITE_ONCE(t->count, UFT_TRIG_UNLIMITED);
	t->filter = f;
	t->eprobe = probe;
	if ((rc = reg_trig_insert(e, buffer, t, NULL)) == 0)
		t = NULL, f = NULL;
out:
	pthread_mutex_unlock(&reg_lock);
	free(t);
	uft_filter_free(f);
	return rc;
}

int uft_registry_eprobe_detach(uint32_t buffer, const char *system, const char *name, void *probe)
{
	if (buffer >= UFT_MAX_BUFFERS)
		return 0;
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	struct reg_event *e = reg_find_event(system, name);
	for (uint32_t i = 0; e && i < e->nr_trig[buffer]; i++)
		if (e->trig[buffer][i]->cmd == UFT_TRIG_EPROBE &&
		    e->trig[buffer][i]->eprobe == probe) {
			rc = reg_trig_remove_at(e, buffer, i, NULL);
			break;
		}
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
	struct reg_event *e = reg_find_event(system, name);
	uint32_t shown = 0;
	for (uint32_t i = 0; e && i < e->nr_trig[buffer]; i++)
		shown += e->trig[buffer][i]->cmd != UFT_TRIG_EPROBE;
	if (shown) {
		FILE *m = open_memstream(&s, &len);
		if (m) {
			/* The list's order: newest first, hist triggers at the tail. */
			for (uint32_t i = 0; i < e->nr_trig[buffer]; i++) {
				struct uft_trig *t = e->trig[buffer][i];
				if (!t->hist && t->cmd != UFT_TRIG_EPROBE)
					uft_trigger_print(m, t->cmd, t->tsys, t->tname,
							  uft_load_seq_cst(&t->count),
							  t->filter_text);
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
