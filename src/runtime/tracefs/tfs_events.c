/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* events/, set_event, available_events, set_event_pid and
 * set_event_notrace_pid (Documentation/trace/events.rst,
 * docs/design/filters.md).
 *
 * Enable state and filters live in the registry, per buffer; each instance
 * reads and changes those of its own buffer. A filter's text is what the
 * `filter` file shows: the expression written. A write that does not parse
 * returns EINVAL, logs the error with its caret in error_log and changes
 * nothing.
 *
 * set_event_pid is enforced by the filters: while an instance lists pids,
 * every event's filter in its buffer is compiled from
 * `(common_pid == A || common_pid == B ...) && (EXPRESSION)` (or the pid part
 * alone), while the text shown stays the expression written; a
 * set_event_notrace_pid list adds `common_pid != C && ...` (it wins over
 * set_event_pid, as in the kernel). Records of other threads are then
 * rejected before they take buffer space, as any filtered record is.
 * common_pid is the writing thread's id, the kernel's task pid. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/filter.h"
#include "wire/page_headers.h"
#include "runtime/core/registry.h"
#include "runtime/core/symtab.h"
#include "runtime/tracefs/tfs.h"
#include "util/util.h"

/* The most pids set_event_pid holds: each is a predicate of every filter. */
#define TFS_MAX_PIDS 4096
/* Pids are below the kernel's PID_MAX_LIMIT. */
#define TFS_PID_LIMIT 4194304ul

static const char default_sys_filter[] = "### global filter ###\n"
					 "# Use this to set filters for multiple events.\n"
					 "# Only events with the given fields will be affected.\n"
					 "# If no events are modified, an error message will be "
					 "displayed here\n";

/* ---- the registry's events, copied out of a visit ---- */

struct ev_ref {
	const char *sys, *name; /* valid for the life of the process */
	uint16_t id;
	uint32_t on_mask;
	uint32_t soft_mask, sd_mask; /* soft mode, soft-disabled (triggers) */
};

struct ev_list {
	struct ev_ref *v;
	size_t n, cap;
	const char *sys; /* NULL: all systems */
	const char *name;
	int err;
};

static int collect_cb(void *ctx, const struct uft_reg_view *v)
{
	struct ev_list *l = ctx;
	/* The ftrace entries (markers) are written by their files, never enabled. */
	if (strcmp(v->system, "ftrace") == 0)
		return 0;
	if ((l->sys && strcmp(l->sys, v->system) != 0) ||
	    (l->name && strcmp(l->name, v->name) != 0))
		return 0;
	struct ev_ref e = {v->system, v->name, v->id, v->on_mask, v->soft_mask, v->sd_mask};
	if (uft_vec_push(l, e)) {
		l->err = -ENOMEM;
		return 1;
	}
	return 0;
}

/* Events of a system (sys NULL: all), one event when name is set. */
static int collect(struct ev_list *l, const char *sys, const char *name)
{
	memset(l, 0, sizeof(*l));
	l->sys = sys;
	l->name = name;
	uft_registry_visit(collect_cb, l);
	if (l->err) {
		free(l->v);
		l->v = NULL;
		l->n = 0;
	}
	return l->err;
}

static bool enabled_in(const struct ev_ref *e, const struct tfs_inst *in)
{
	return e->on_mask & (1u << in->buffer);
}

/* ---- filters ---- */

static bool has_pid_lists(const struct tfs_inst *in)
{
	return in->nr_pids || in->pids_emptied || in->nr_no_pids;
}

/* The set_event_pid and set_event_notrace_pid check as an expression,
 * malloc'd; NULL without pids (or out of memory: *err set). */
static char *pid_expr(const struct tfs_inst *in, int *err)
{
	*err = 0;
	if (!has_pid_lists(in))
		return NULL;
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	bool group = in->nr_pids > 1 && in->nr_no_pids;
	bool none = !in->nr_pids && in->pids_emptied; /* a list of no thread */
	fputs(group ? "(" : "", m);
	for (size_t i = 0; i < in->nr_pids; i++)
		fprintf(m, "%scommon_pid == %d", i ? " || " : "", in->pids[i]);
	fputs(group ? ")" : none ? "common_pid == -1" : "", m);
	for (size_t i = 0; i < in->nr_no_pids; i++)
		fprintf(m, "%scommon_pid != %d", i || in->nr_pids || none ? " && " : "",
			in->no_pids[i]);
	if (fclose(m) != 0) {
		free(s);
		*err = -ENOMEM;
		return NULL;
	}
	return s;
}

/* Installs `expr` (NULL: none; already known to compile) with the pid check
 * `pids` (NULL: none) for one event of an instance, shown as `text`. */
static int install(const struct tfs_inst *in, const char *pids, const char *sys, const char *ev,
		   const char *expr, const char *text)
{
	char *both = NULL;
	const char *run = expr;
	if (pids && expr) {
		if (asprintf(&both, "(%s) && (%s)", pids, expr) < 0)
			return -ENOMEM;
		run = both;
	} else if (pids) {
		run = pids;
	}
	struct uft_filter_error fe = {0, 0};
	int rc = uft_registry_filter_set_in(in->buffer, sys, ev, run, text, &fe);
	free(both);
	return rc;
}

/* Recompiles the filters of the instance's events with its pid check,
 * keeping their texts:
 * every event, or (armed_only) those enabled or in soft mode in its buffer,
 * the ones a thread joining or leaving a list concerns (an event enabled
 * later gets the check when it is, see write_enable). */
static int refresh_pid_filters(const struct tfs_inst *in, bool armed_only)
{
	struct ev_list l;
	int err, rc = collect(&l, NULL, NULL);
	if (rc)
		return rc;
	char *pids = pid_expr(in, &err);
	if (err) {
		free(l.v);
		return err;
	}
	for (size_t i = 0; i < l.n; i++) {
		if (armed_only && !enabled_in(&l.v[i], in))
			continue;
		char *text = uft_registry_filter_text(in->buffer, l.v[i].sys, l.v[i].name);
		int r = install(in, pids, l.v[i].sys, l.v[i].name, text, text);
		if (r && r != -ENOENT && !rc)
			rc = r;
		free(text);
	}
	free(pids);
	free(l.v);
	return rc;
}

int tfs_events_refresh_pids(const struct tfs_inst *in)
{
	return refresh_pid_filters(in, false);
}

struct check_ctx {
	const char *sys, *ev, *expr;
	struct uft_filter_error *fe;
	int rc;
};

static int check_cb(void *ctx, const struct uft_reg_view *v)
{
	struct check_ctx *c = ctx;
	if (strcmp(v->system, c->sys) != 0 || strcmp(v->name, c->ev) != 0)
		return 0;
	struct uft_filter *f = NULL;
	int rc = uft_filter_compile_syms(c->expr, v->desc->fields, v->desc->nr_fields,
					 &uft_proc_filter_syms, &f, c->fe);
	uft_filter_free(f);
	c->rc = rc < 0 ? (rc == -ENOMEM ? -ENOMEM : -EINVAL) : 0;
	return 1;
}

/* Whether `expr` compiles for an event: 0, -EINVAL with fe, -ENOMEM or
 * -ENOENT (the event is gone). */
static int check_filter(const char *sys, const char *ev, const char *expr,
			struct uft_filter_error *fe)
{
	struct check_ctx c = {sys, ev, expr, fe, -ENOENT};
	uft_registry_visit(check_cb, &c);
	return c.rc;
}

/* The write's expression: trailing whitespace stripped as the kernel's
 * strstrip does (leading kept); whether it is the clearing "0". */
static bool is_clear(const char *expr)
{
	while (*expr == ' ' || *expr == '\t' || *expr == '\n')
		expr++;
	return strcmp(expr, "0") == 0;
}

static void log_filter_error(struct tfs_inst *in, const char *expr, int code, int pos)
{
	tfs_log_error(in, UFT_FILTER_ERR_LOC, expr, uft_filter_strerror(code),
		      code > 0 && pos > 0 ? (unsigned)pos : 0);
}

static int show_event_filter(const struct tfs_node *n, FILE *out)
{
	char *text = uft_registry_filter_text(n->inst->buffer, n->sys, n->ev);
	if (text)
		fprintf(out, "%s\n", text);
	else
		fputs("none\n", out);
	free(text);
	return 0;
}

static int write_event_filter(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	struct tfs_inst *in = n->inst;
	tfs_strip(buf, len);
	int err;
	char *pids = pid_expr(in, &err);
	if (err)
		return err;
	int rc;
	if (is_clear(buf)) {
		rc = install(in, pids, n->sys, n->ev, NULL, NULL);
		goto out;
	}
	struct uft_filter_error fe = {0, 0};
	rc = check_filter(n->sys, n->ev, buf, &fe);
	if (rc == 0) {
		rc = install(in, pids, n->sys, n->ev, buf, buf);
	} else if (rc == -EINVAL) {
		log_filter_error(in, buf, fe.code, fe.pos);
	}
out:
	free(pids);
	return rc == -ENOENT ? -ENODEV : rc;
}

/* The subsystem file shows the kernel's help text: the filter written there
 * lives on in each event's own file. */
static int show_sys_filter(const struct tfs_node *n, FILE *out)
{
	fputs(default_sys_filter, out);
	return 0;
}

static int write_sys_filter(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	struct tfs_inst *in = n->inst;
	tfs_strip(buf, len);
	struct ev_list l;
	int err, rc = collect(&l, n->sys, NULL);
	if (rc)
		return rc;
	if (!l.n) {
		free(l.v);
		return -ENODEV;
	}
	char *pids = pid_expr(in, &err);
	bool *ok = calloc(l.n, sizeof(*ok));
	if (err || !ok) {
		rc = err ? err : -ENOMEM;
		goto out;
	}
	if (is_clear(buf)) {
		for (size_t i = 0; i < l.n; i++) {
			int r = install(in, pids, l.v[i].sys, l.v[i].name, NULL, NULL);
			if (r && r != -ENOENT && !rc)
				rc = r;
		}
		goto out;
	}
	/* Parse against every event first: a write no event takes fails. */
	size_t accepted = 0;
	for (size_t i = 0; i < l.n; i++) {
		struct uft_filter_error fe = {0, 0};
		int r = check_filter(l.v[i].sys, l.v[i].name, buf, &fe);
		if (r == -ENOMEM) {
			rc = r;
			goto out;
		}
		ok[i] = r == 0;
		accepted += ok[i];
	}
	/* Nothing changes when no event takes it; else the events that take it
	 * get it and the others keep theirs, each with an error_log entry. */
	for (size_t i = 0; i < l.n; i++) {
		if (!ok[i])
			log_filter_error(in, buf, UFT_FILTER_ERR_BAD_SUBSYS_FILTER, 0);
		else if (accepted)
			install(in, pids, l.v[i].sys, l.v[i].name, buf, buf);
	}
	if (!accepted)
		rc = -EINVAL;
out:
	free(ok);
	free(pids);
	free(l.v);
	return rc;
}

/* ---- enable ---- */

static const char *node_sys(const struct tfs_node *n)
{
	return n->dir == TFS_D_EVENTS ? NULL : n->sys;
}

static const char *node_ev(const struct tfs_node *n)
{
	return n->dir == TFS_D_EVENT ? n->ev : NULL;
}

static int show_enable(const struct tfs_node *n, FILE *out)
{
	struct ev_list l;
	int rc = collect(&l, node_sys(n), node_ev(n));
	if (rc)
		return rc;
	size_t on = 0;
	for (size_t i = 0; i < l.n; i++)
		on += enabled_in(&l.v[i], n->inst);
	uint32_t bit = 1u << n->inst->buffer;
	if (n->dir == TFS_D_EVENT && l.n == 1 && (l.v[0].soft_mask & bit)) {
		/* The kernel's soft mode: armed for triggers, records kept or not. */
		fprintf(out, "%s\n", l.v[0].sd_mask & bit ? "0*" : "1*");
		free(l.v);
		return 0;
	}
	fprintf(out, "%s\n", !l.n ? "?" : on == l.n ? "1" : on ? "X" : "0");
	free(l.v);
	return 0;
}

/* A write of 0 or 1 (the kernel's kstrtoul base 10, a newline allowed). */
static int parse_bool(char *buf, size_t len, bool *on)
{
	tfs_strip(buf, len);
	const char *s = buf + (buf[0] == '+');
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	s += strspn(s, "0");
	if (!*s)
		*on = false;
	else if (strcmp(s, "1") == 0)
		*on = true;
	else
		return -EINVAL;
	return 0;
}

static int write_enable(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	bool on;
	if (parse_bool(buf, len, &on))
		return -EINVAL;
	int rc = uft_registry_enable_in(n->inst->buffer, node_sys(n), node_ev(n), on);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return n->dir == TFS_D_EVENT ? -ENODEV : -EINVAL;
	if (on && has_pid_lists(n->inst))
		tfs_events_refresh_pids(n->inst); /* events registered since the pids were set */
	return 0;
}

/* ---- format, id, headers ---- */

struct one_ctx {
	const struct tfs_node *n;
	FILE *out;
	bool id; /* id rather than format */
	bool found;
};

static int one_cb(void *ctx, const struct uft_reg_view *v)
{
	struct one_ctx *c = ctx;
	if (strcmp(v->system, c->n->sys) != 0 || strcmp(v->name, c->n->ev) != 0)
		return 0;
	if (c->id)
		fprintf(c->out, "%d\n", (int)v->id);
	else
		fwrite(v->format, 1, v->format_len, c->out);
	c->found = true;
	return 1;
}

static int show_one(const struct tfs_node *n, FILE *out, bool id)
{
	struct one_ctx c = {n, out, id, false};
	uft_registry_visit(one_cb, &c);
	return c.found ? 0 : -ENODEV;
}

static int show_format(const struct tfs_node *n, FILE *out)
{
	return show_one(n, out, false);
}

static int show_id(const struct tfs_node *n, FILE *out)
{
	return show_one(n, out, true);
}

/* The data size follows the buffer's sub-buffer (buffer_subbuf_size_kb). */
static int show_header_page(const struct tfs_node *n, FILE *out)
{
	char text[512];
	uint32_t size =
	    n->inst ? uft_buffer_subbuf(&uft_buffers[n->inst->buffer]) : UFT_SUBBUF_SIZE;
	uft_header_page_format(text, sizeof(text), size);
	fputs(text, out);
	return 0;
}

static int show_header_event(const struct tfs_node *n, FILE *out)
{
	fputs(uft_header_event_text(), out);
	return 0;
}

/* ---- available_events, set_event ---- */

static int show_available_events(const struct tfs_node *n, FILE *out)
{
	struct ev_list l;
	int rc = collect(&l, NULL, NULL);
	for (size_t i = 0; i < l.n; i++)
		fprintf(out, "%s:%s\n", l.v[i].sys, l.v[i].name);
	free(l.v);
	return rc;
}

static int show_set_event(const struct tfs_node *n, FILE *out)
{
	struct ev_list l;
	int rc = collect(&l, NULL, NULL);
	for (size_t i = 0; i < l.n; i++)
		if (enabled_in(&l.v[i], n->inst))
			fprintf(out, "%s:%s\n", l.v[i].sys, l.v[i].name);
	free(l.v);
	return rc;
}

static int open_set_event(struct uft_tfs_handle *h)
{
	/* `>` disables every event of the instance before anything is written. */
	if ((h->flags & UFT_TFS_WRITE) && (h->flags & UFT_TFS_TRUNC)) {
		int rc = uft_registry_enable_in(h->n.inst->buffer, NULL, NULL, false);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A set_event token without its '!': `event` (an event or a whole system of
 * that name), `sys:event`, `sys:*`, `sys:`, `*:event`, `:event`, `*:*`. */
struct ev_match {
	const char *match, *sub, *event;
};

static void parse_token(char *tok, struct ev_match *m)
{
	char *colon = strchr(tok, ':');
	m->match = tok;
	m->sub = m->event = NULL;
	if (!colon)
		return;
	*colon = 0;
	m->match = NULL;
	m->sub = *tok && strcmp(tok, "*") != 0 ? tok : NULL;
	m->event = colon[1] && strcmp(colon + 1, "*") != 0 ? colon + 1 : NULL;
}

static bool token_matches(const struct ev_match *m, const struct ev_ref *e)
{
	if (m->match && strcmp(m->match, e->name) != 0 && strcmp(m->match, e->sys) != 0)
		return false;
	if (m->sub && strcmp(m->sub, e->sys) != 0)
		return false;
	if (m->event && strcmp(m->event, e->name) != 0)
		return false;
	return true;
}

static int write_set_event(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	struct ev_list l;
	int rc = collect(&l, NULL, NULL);
	if (rc)
		return rc;
	size_t nt = 0, cap = 0;
	struct tok {
		struct ev_match m;
		bool on;
	} *toks = NULL;
	char *save = NULL;
	for (char *t = strtok_r(buf, " \t\n\r\f\v", &save); t;
	     t = strtok_r(NULL, " \t\n\r\f\v", &save)) {
		if (uft_array_reserve(toks, cap, nt + 1, 8)) {
			rc = -ENOMEM;
			goto out;
		}
		bool on = t[0] != '!';
		parse_token(t + !on, &toks[nt].m);
		toks[nt].on = on;
		/* A token that names no event fails the write before any change. */
		bool any = false;
		for (size_t i = 0; i < l.n && !any; i++)
			any = token_matches(&toks[nt].m, &l.v[i]);
		if (!any) {
			rc = -EINVAL;
			goto out;
		}
		nt++;
	}
	bool enabled = false;
	for (size_t k = 0; k < nt; k++) {
		for (size_t i = 0; i < l.n; i++) {
			if (!token_matches(&toks[k].m, &l.v[i]))
				continue;
			int r = uft_registry_enable_in(n->inst->buffer, l.v[i].sys, l.v[i].name,
						       toks[k].on);
			if (r < 0 && !rc)
				rc = r;
			enabled |= toks[k].on;
		}
	}
	if (enabled && has_pid_lists(n->inst))
		tfs_events_refresh_pids(n->inst);
out:
	free(toks);
	free(l.v);
	return rc;
}

/* ---- set_event_pid, set_event_notrace_pid ---- */

/* The list a file holds: set_event_pid's, or set_event_notrace_pid's. */
struct pid_vec {
	int **v;
	size_t *n;
};

static struct pid_vec pid_vec(struct tfs_inst *in, bool no)
{
	return no ? (struct pid_vec){&in->no_pids, &in->nr_no_pids}
		  : (struct pid_vec){&in->pids, &in->nr_pids};
}

static bool notrace_file(const struct tfs_node *n)
{
	return strcmp(n->file->name, "set_event_notrace_pid") == 0;
}

static int show_set_event_pid(const struct tfs_node *n, FILE *out)
{
	struct pid_vec l = pid_vec(n->inst, notrace_file(n));
	for (size_t i = 0; i < *l.n; i++)
		fprintf(out, "%d\n", (*l.v)[i]);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Replaces one of the instance's pid lists (sorted, unique) and its
 * filters. by_thread: a thread joining or leaving (event-fork), which
 * recompiles the armed events' filters only and, the last one gone from
 * set_event_pid, leaves a list of none (as in the kernel), not every
 * thread. */
static int set_pids(struct tfs_inst *in, bool no, int *pids, size_t nr, bool by_thread)
{
	if (nr)
		qsort(pids, nr, sizeof(*pids), cmp_int);
	size_t u = 0;
	for (size_t i = 0; i < nr; i++)
		if (!u || pids[u - 1] != pids[i])
			pids[u++] = pids[i];
	if (u > TFS_MAX_PIDS) {
		free(pids);
		return -ENOSPC;
	}
	struct pid_vec l = pid_vec(in, no);
	int *old = *l.v;
	size_t old_n = *l.n;
	bool old_emptied = in->pids_emptied;
	if (!no)
		in->pids_emptied = !u && by_thread;
	*l.v = u ? pids : NULL;
	*l.n = u;
	if (!u)
		free(pids);
	int rc = refresh_pid_filters(in, by_thread);
	if (rc) {
		/* Back to the old list, filters included. */
		free(*l.v);
		*l.v = old;
		*l.n = old_n;
		in->pids_emptied = old_emptied;
		tfs_events_refresh_pids(in);
		return rc;
	}
	free(old);
	return 0;
}

static int open_set_event_pid(struct uft_tfs_handle *h)
{
	/* `>` clears the list at open; each write then adds to it. */
	bool no = notrace_file(&h->n);
	if ((h->flags & UFT_TFS_WRITE) && (h->flags & UFT_TFS_TRUNC) &&
	    (*pid_vec(h->n.inst, no).n || (!no && h->n.inst->pids_emptied)))
		return set_pids(h->n.inst, no, NULL, 0, false);
	return 0;
}

static int write_set_event_pid(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	bool no = notrace_file(n);
	struct pid_vec l = pid_vec(n->inst, no);
	size_t nr = *l.n, cap = nr + 16;
	int *pids = malloc(cap * sizeof(*pids));
	if (!pids)
		return -ENOMEM;
	if (nr)
		memcpy(pids, *l.v, nr * sizeof(*pids));
	size_t added = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, " \t\n\r\f\v", &save); t;
	     t = strtok_r(NULL, " \t\n\r\f\v", &save)) {
		char *end;
		errno = 0;
		unsigned long v = t[0] >= '0' && t[0] <= '9' ? strtoul(t, &end, 0) : 0;
		if (t[0] < '0' || t[0] > '9' || errno || *end || v >= TFS_PID_LIMIT) {
			free(pids);
			return -EINVAL;
		}
		if (nr == cap) {
			cap *= 2;
			int *p = realloc(pids, cap * sizeof(*p));
			if (!p) {
				free(pids);
				return -ENOMEM;
			}
			pids = p;
		}
		pids[nr++] = (int)v;
		added++;
	}
	/* As the kernel's: a write without a pid clears the list. */
	if (!added)
		nr = 0;
	return set_pids(n->inst, no, pids, nr, false);
}

void tfs_events_follow(struct tfs_inst *in, int parent, int child)
{
	for (int no = 0; no < 2; no++) {
		struct pid_vec l = pid_vec(in, no);
		bool listed = false;
		for (size_t k = 0; k < *l.n && !listed; k++)
			listed = (*l.v)[k] == parent;
		int *pids = listed ? malloc((*l.n + 1) * sizeof(*pids)) : NULL;
		if (!pids)
			continue;
		memcpy(pids, *l.v, *l.n * sizeof(*pids));
		pids[*l.n] = child;
		set_pids(in, no, pids, *l.n + 1, true);
	}
}

void tfs_events_forget(struct tfs_inst *in, int tid)
{
	for (int no = 0; no < 2; no++) {
		struct pid_vec l = pid_vec(in, no);
		size_t at = 0;
		while (at < *l.n && (*l.v)[at] != tid)
			at++;
		int *pids = at < *l.n ? malloc(*l.n * sizeof(*pids)) : NULL;
		if (!pids)
			continue;
		size_t nr = 0;
		for (size_t k = 0; k < *l.n; k++)
			if (k != at)
				pids[nr++] = (*l.v)[k];
		set_pids(in, no, pids, nr, true);
	}
}

const struct tfs_file tfs_event_files[] = {
    {.name = "enable",
     .dir = TFS_D_EVENTS,
     .mode = 0644,
     .show = show_enable,
     .write = write_enable},
    {.name = "header_page", .dir = TFS_D_EVENTS, .mode = 0444, .show = show_header_page},
    {.name = "header_event", .dir = TFS_D_EVENTS, .mode = 0444, .show = show_header_event},
    {.name = "enable",
     .dir = TFS_D_SYS,
     .mode = 0644,
     .where = TFS_NOT_FTRACE,
     .show = show_enable,
     .write = write_enable},
    {.name = "filter",
     .dir = TFS_D_SYS,
     .mode = 0644,
     .where = TFS_NOT_FTRACE,
     .show = show_sys_filter,
     .write = write_sys_filter},
    {.name = "enable",
     .dir = TFS_D_EVENT,
     .mode = 0644,
     .where = TFS_NOT_FTRACE,
     .show = show_enable,
     .write = write_enable},
    {.name = "filter",
     .dir = TFS_D_EVENT,
     .mode = 0644,
     .where = TFS_NOT_FTRACE,
     .show = show_event_filter,
     .write = write_event_filter},
    {.name = "format", .dir = TFS_D_EVENT, .mode = 0444, .show = show_format},
    {.name = "id", .dir = TFS_D_EVENT, .mode = 0444, .show = show_id},
    {.name = "available_events",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_available_events},
    {.name = "set_event",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_set_event,
     .write = write_set_event,
     .open = open_set_event},
    {.name = "set_event_pid",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_set_event_pid,
     .write = write_set_event_pid,
     .open = open_set_event_pid},
    {.name = "set_event_notrace_pid",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_set_event_pid,
     .write = write_set_event_pid,
     .open = open_set_event_pid},
    {0},
};
