/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UFT_BOOTCONFIG (bootconfig_apply.h): the kernel's boot-time tracing keys
 * written into the tree before main(), as one would write them by hand, in
 * the kernel's order (docs/design/bootconfig.md):
 *
 *   kernel.* command-line keys; every synthetic event definition; then the
 *   top instance and each ftrace.instance.NAME (made first) in turn:
 *   options, tracing_on, trace_clock, buffer_size, alloc_snapshot, cpumask;
 *   event.GROUP.EVENT filter, actions, hists, enable (file order), a group's
 *   enable after its events, event.enable last; events; ftrace.filters and
 *   notraces; the tracer.
 *
 * Every write that succeeds leaves a note of how to take it back (the old
 * value, "!" + the trigger, rmdir), and the first refusal takes them all back
 * in reverse order, so a bad file leaves the program as it was: untraced. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/core/bootconfig_apply.h"
#include "runtime/core/runtime.h"
#include "runtime/core/secure_env.h"
#include "runtime/tracefs/tracefs.h"
#include "util/util.h"
#include "wire/env_names.h"

enum undo_kind { UNDO_WRITE, UNDO_APPEND, UNDO_RMDIR, UNDO_LIST };

struct undo {
	enum undo_kind kind;
	char *path, *text; /* UNDO_LIST: the file's old lines */
};

struct apply {
	const char *file;
	struct undo *v;
	size_t n, cap;
	int rc;
};

static void note(struct apply *a, enum undo_kind kind, const char *path, const char *text)
{
	if (uft_array_reserve(a->v, a->cap, a->n + 1, 16))
		return; /* out of memory: that one setting stays if we must undo */
	char *p = strdup(path), *t = text ? strdup(text) : NULL;
	if (!p || (text && !t)) {
		free(p);
		free(t);
		return;
	}
	a->v[a->n++] = (struct undo){kind, p, t};
}

static void undo_all(struct apply *a)
{
	while (a->n) {
		struct undo *u = &a->v[--a->n];
		if (u->kind == UNDO_RMDIR) {
			uft_tracefs_rmdir(u->path);
		} else if (u->kind == UNDO_LIST) {
			uft_tracefs_put_text(u->path, "", UFT_TFS_TRUNC);
			char *save = NULL;
			for (char *l = strtok_r(u->text, "\n", &save); l;
			     l = strtok_r(NULL, "\n", &save))
				if (*l != '#')
					uft_tracefs_put_text(u->path, l, UFT_TFS_APPEND);
		} else {
			uft_tracefs_put_text(u->path, u->text,
					     u->kind == UNDO_APPEND ? UFT_TFS_APPEND
								    : UFT_TFS_TRUNC);
		}
		free(u->path);
		free(u->text);
	}
	free(a->v);
	a->v = NULL;
	a->cap = 0;
}

/* The instance part of a path ("" or "instances/NAME/"), for its error_log. */
static void errlog_of(const char *path, char *out, size_t len)
{
	size_t n = 0;
	if (strncmp(path, "instances/", 10) == 0)
		n = 10 + strcspn(path + 10, "/") + 1;
	snprintf(out, len, "%.*serror_log", (int)n, path);
}

/* Where messages go: stderr, or the recorder's report (session.c). */
static FILE *bc_out;

static void __attribute__((format(printf, 3, 4)))
report(struct apply *a, const struct uft_bc_node *key, const char *fmt, ...)
{
	char k[UFT_BC_KEYLEN_MAX + 1];
	fprintf(bc_out, "uft: bootconfig %s:%u: %s: ", a->file, key->vline ? key->vline : key->line,
		uft_bc_key(key, k, sizeof(k)));
	va_list ap;
	va_start(ap, fmt);
	vfprintf(bc_out, fmt, ap);
	va_end(ap);
	fputc('\n', bc_out);
}

/* How a setting comes back: the file's value as one writes it. */
static char *old_value(const char *path, const char *file)
{
	char *t = uft_tracefs_read_text(path);
	if (!t)
		return NULL;
	char *v = t + strspn(t, " \t\n");
	if (strcmp(file, "trace_clock") == 0 && strchr(v, '[')) {
		v = strchr(v, '[') + 1;
		v[strcspn(v, "]")] = 0;
	} else if (strcmp(file, "filter") == 0) {
		v[strcspn(v, "\n")] = 0;
		if (strcmp(v, "none") == 0)
			v = (char *)"0";
	} else {
		v[strcspn(v, " \t\n*")] = 0;
	}
	char *r = strdup(v);
	free(t);
	return r;
}

enum put_kind {
	PUT_SCALAR,  /* undo: the old value */
	PUT_LIST,    /* appended to a list file; undo: the old list */
	PUT_TRIGGER, /* undo: "!" + the command */
	PUT_SYNTH,   /* undo: "!NAME" */
	PUT_RAW,     /* undo: the caller's note */
};

/* Notes a list file's contents before its first change. */
static void save_list(struct apply *a, const char *path)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].kind == UNDO_LIST && strcmp(a->v[i].path, path) == 0)
			return;
	char *old = uft_tracefs_read_text(path);
	note(a, UNDO_LIST, path, old ? old : "");
	free(old);
}

/* One write of a setting; on refusal the error with the key and line and the
 * tree's error_log entry, and a->rc set. */
static int put(struct apply *a, const struct uft_bc_node *key, const char *prefix, const char *file,
	       const char *text, enum put_kind kind)
{
	if (a->rc)
		return a->rc;
	char path[512], log[300];
	snprintf(path, sizeof(path), "%s%s", prefix, file);
	errlog_of(path, log, sizeof(log));
	char *before = uft_tracefs_read_text(log);
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	char *old = NULL;
	if (kind == PUT_SCALAR)
		old = old_value(path, base);
	if (kind == PUT_LIST)
		save_list(a, path);
	int rc =
	    uft_tracefs_put_text(path, text, kind == PUT_SCALAR ? UFT_TFS_TRUNC : UFT_TFS_APPEND);
	if (rc) {
		report(a, key, "%s: cannot write '%s': %s", path, text, strerror(-rc));
		char *after = uft_tracefs_read_text(log);
		if (after && (!before || strcmp(before, after) != 0)) {
			/* The newest entry: from the last line that starts one. */
			char *e = after, *l;
			for (l = after; (l = strchr(l, '\n')) && l[1]; l++)
				if (l[1] == '[')
					e = l + 1;
			fprintf(bc_out, "uft: %s:\n%s", log, e);
		}
		free(after);
		a->rc = rc;
	} else if (kind == PUT_SCALAR && old) {
		note(a, UNDO_WRITE, path, old);
	} else if (kind == PUT_TRIGGER || kind == PUT_SYNTH) {
		/* A trigger goes by its whole command, a synthetic event by name. */
		int len = kind == PUT_TRIGGER ? (int)strlen(text) : (int)strcspn(text, " \t");
		char *un;
		if (asprintf(&un, "!%.*s", len, text) >= 0) {
			note(a, UNDO_APPEND, path, un);
			free(un);
		}
	}
	free(old);
	free(before);
	return rc;
}

static struct uft_bc_node *take(struct uft_bc_node *n, const char *path)
{
	struct uft_bc_node *k = uft_bc_find(n, path);
	if (k)
		k->used = true;
	return k;
}

static const char *val(const struct uft_bc_node *k)
{
	return k && k->nr_vals ? k->vals[0] : "";
}

/* memparse: a number with an optional K, M or G (KB, MB: the B is read too). */
static int parse_size(const char *s, unsigned long long *bytes)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (end == s || errno)
		return -EINVAL;
	int shift = 0;
	switch (toupper((unsigned char)*end)) {
	case 'G':
		shift += 10;
		/* fall through */
	case 'M':
		shift += 10;
		/* fall through */
	case 'K':
		shift += 10;
		end++;
		if (toupper((unsigned char)*end) == 'B')
			end++;
	}
	if (*end)
		return -EINVAL;
	*bytes = v << shift;
	return 0;
}

static void put_size(struct apply *a, struct uft_bc_node *k, const char *prefix)
{
	unsigned long long bytes;
	if (parse_size(val(k), &bytes) != 0) {
		report(a, k, "'%s': not a size (N, NK[B], NM[B])", val(k));
		a->rc = -EINVAL;
		return;
	}
	char kb[32];
	snprintf(kb, sizeof(kb), "%llu", (bytes + 1023) / 1024);
	put(a, k, prefix, "buffer_size_kb", kb, PUT_SCALAR);
}

/* Each comma-separated item of each value into a list file. */
static void put_items(struct apply *a, struct uft_bc_node *k, const char *prefix, const char *file,
		      enum put_kind kind)
{
	for (uint32_t i = 0; k && i < k->nr_vals && !a->rc; i++) {
		char *copy = strdup(k->vals[i]), *save = NULL;
		if (!copy) {
			a->rc = -ENOMEM;
			return;
		}
		for (char *t = strtok_r(copy, ",", &save); t && !a->rc;
		     t = strtok_r(NULL, ",", &save)) {
			t += strspn(t, " \t");
			if (*t)
				put(a, k, prefix, file, t, kind);
		}
		free(copy);
	}
}

/* An option "OPT" or "noOPT"; undone through options/OPT. */
static void put_option(struct apply *a, struct uft_bc_node *k, const char *prefix, const char *opt)
{
	const char *name = strncmp(opt, "no", 2) == 0 ? opt + 2 : opt;
	char path[512];
	snprintf(path, sizeof(path), "%soptions/%s", prefix, name);
	char *old = uft_tracefs_read_text(path);
	if (put(a, k, prefix, "trace_options", opt, PUT_RAW) == 0 && old) {
		old[strcspn(old, "\n")] = 0;
		note(a, UNDO_WRITE, path, old);
	}
	free(old);
}

static void put_options(struct apply *a, struct uft_bc_node *k, const char *prefix)
{
	for (uint32_t i = 0; k && i < k->nr_vals && !a->rc; i++) {
		char *copy = strdup(k->vals[i]), *save = NULL;
		if (!copy) {
			a->rc = -ENOMEM;
			return;
		}
		for (char *t = strtok_r(copy, ", \t", &save); t && !a->rc;
		     t = strtok_r(NULL, ", \t", &save))
			put_option(a, k, prefix, t);
		free(copy);
	}
}

/* Keys of probe kinds the kernel's bootconfig does not define (uprobes,
 * eprobes): one notice each, nothing applied. */
static void not_available(struct apply *a, struct uft_bc_node *n)
{
	n->used = true;
	if (n->has_value || !n->child)
		report(a, n, "not available in this uft, ignored");
	for (struct uft_bc_node *c = n->child; c; c = c->next)
		not_available(a, c);
}

static bool is_probe_group(const struct uft_bc_node *g)
{
	return strcmp(g->word, "uprobes") == 0 || strcmp(g->word, "eprobes") == 0;
}

/* event.kprobes.EVENT.probes = PROBE[, PROBE] of one instance node: global
 * definitions, `p:kprobes/EVENT PROBE` each (SYM%return a return probe);
 * the event's other keys are an event's like any other. */
static void define_kprobes(struct apply *a, struct uft_bc_node *inst)
{
	struct uft_bc_node *s = uft_bc_find(inst, "event.kprobes");
	for (struct uft_bc_node *e = s ? s->child : NULL; e && !a->rc; e = e->next) {
		struct uft_bc_node *k = take(e, "probes");
		for (uint32_t i = 0; k && i < k->nr_vals && !a->rc; i++) {
			char *def;
			if (asprintf(&def, "p:kprobes/%s %s", e->word, k->vals[i]) < 0) {
				a->rc = -ENOMEM;
				return;
			}
			if (put(a, k, "", "dynamic_events", def, PUT_RAW) == 0 && i == 0) {
				char *un;
				if (asprintf(&un, "-:kprobes/%s", e->word) >= 0) {
					note(a, UNDO_APPEND, "dynamic_events", un);
					free(un);
				}
			}
			free(def);
		}
	}
}

/* event.synthetic.NAME.fields of one instance node: global definitions. */
static void define_synthetics(struct apply *a, struct uft_bc_node *inst)
{
	struct uft_bc_node *s = uft_bc_find(inst, "event.synthetic");
	for (struct uft_bc_node *e = s ? s->child : NULL; e && !a->rc; e = e->next) {
		struct uft_bc_node *f = take(e, "fields");
		if (!f)
			continue;
		char *def = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&def, &len);
		if (!m) {
			a->rc = -ENOMEM;
			return;
		}
		fputs(e->word, m);
		for (uint32_t i = 0; i < f->nr_vals; i++)
			fprintf(m, "%s%s", i ? "; " : " ", f->vals[i]);
		if (fclose(m) == 0)
			put(a, f, "", "synthetic_events", def, PUT_SYNTH);
		free(def);
	}
}

static void put_hist(struct apply *a, struct uft_bc_node *h, const char *evdir)
{
	char *cmd;
	const struct uft_bc_node *at;
	const char *why;
	if (uft_bc_hist_cmd(h, &cmd, &at, &why) != 0) {
		report(a, at, "%s", why);
		a->rc = -EINVAL;
		return;
	}
	put(a, h, evdir, "trigger", cmd, PUT_TRIGGER);
	free(cmd);
}

struct names {
	char **v;
	size_t n, cap;
};

static int add_dir(void *ctx, const char *name, int type)
{
	struct names *l = ctx;
	char *d;
	if (type != UFT_TFS_DIR || uft_array_reserve(l->v, l->cap, l->n + 1, 16) ||
	    !(d = strdup(name)))
		return 0;
	l->v[l->n++] = d;
	return 0;
}

/* Notes the old state of each event's enable under dir (an event, a group
 * or all of events/, depth levels down), "0" or "1": what a trigger
 * soft-enabled ("0*") its removal takes back. */
static void save_enables(struct apply *a, const char *dir, int depth)
{
	char path[512];
	if (!depth) {
		snprintf(path, sizeof(path), "%senable", dir);
		char *old = old_value(path, "enable");
		if (old && (*old == '0' || *old == '1'))
			note(a, UNDO_WRITE, path, *old == '1' ? "1" : "0");
		free(old);
		return;
	}
	struct names l = {0};
	snprintf(path, sizeof(path), "%.*s", (int)strlen(dir) - 1, dir);
	uft_tracefs_readdir(path, add_dir, &l);
	for (size_t i = 0; i < l.n; i++) {
		snprintf(path, sizeof(path), "%s%s/", dir, l.v[i]);
		save_enables(a, path, depth - 1);
		free(l.v[i]);
	}
	free(l.v);
}

/* An event (depth 0), a group (1) or all events (2) enabled. */
static void put_enable(struct apply *a, struct uft_bc_node *k, const char *dir, int depth)
{
	if (a->rc)
		return;
	save_enables(a, dir, depth);
	put(a, k, dir, "enable", "1", PUT_RAW);
}

/* One event's filter, actions, hists and enable, in the kernel's order. */
static void apply_event(struct apply *a, struct uft_bc_node *g, struct uft_bc_node *e,
			const char *prefix)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%sevents/%s/%s/", prefix, g->word, e->word);
	e->used = true;
	struct uft_bc_node *k;
	if ((k = take(e, "filter")))
		put(a, k, dir, "filter", val(k), PUT_SCALAR);
	if ((k = take(e, "actions")))
		for (uint32_t i = 0; i < k->nr_vals && !a->rc; i++)
			put(a, k, dir, "trigger", k->vals[i], PUT_TRIGGER);
	if ((k = take(e, "hist")) && !a->rc) {
		bool any = uft_bc_find(k, "keys") != NULL;
		if (any)
			put_hist(a, k, dir);
		for (struct uft_bc_node *c = k->child; c && !a->rc; c = c->next)
			if (uft_bc_find(c, "keys") && strcmp(c->word, "var") != 0) {
				any = true;
				put_hist(a, c, dir);
			}
		if (!any && !a->rc) {
			report(a, k, "hist requires keys");
			a->rc = -EINVAL;
		}
	}
	if ((k = take(e, "enable")))
		put_enable(a, k, dir, 0);
}

static void apply_events(struct apply *a, struct uft_bc_node *inst, const char *prefix)
{
	struct uft_bc_node *ev = take(inst, "event");
	for (struct uft_bc_node *g = ev ? ev->child : NULL; g && !a->rc; g = g->next) {
		if (strcmp(g->word, "enable") == 0)
			continue;
		if (is_probe_group(g)) {
			not_available(a, g);
			continue;
		}
		g->used = true;
		for (struct uft_bc_node *e = g->child; e && !a->rc; e = e->next)
			if (strcmp(e->word, "enable") != 0)
				apply_event(a, g, e, prefix);
		struct uft_bc_node *k = take(g, "enable");
		if (k) {
			char dir[512];
			snprintf(dir, sizeof(dir), "%sevents/%s/", prefix, g->word);
			put_enable(a, k, dir, 1);
		}
	}
	struct uft_bc_node *all = ev ? take(ev, "enable") : NULL;
	if (all) {
		char dir[512];
		snprintf(dir, sizeof(dir), "%sevents/", prefix);
		put_enable(a, all, dir, 2);
	}
}

static void apply_instance(struct apply *a, struct uft_bc_node *inst, const char *prefix)
{
	struct uft_bc_node *k;
	if ((k = take(inst, "options")))
		put_options(a, k, prefix);
	if ((k = take(inst, "tracing_on")) && *val(k))
		put(a, k, prefix, "tracing_on", val(k), PUT_SCALAR);
	if ((k = take(inst, "trace_clock")))
		put(a, k, prefix, "trace_clock", val(k), PUT_SCALAR);
	if ((k = take(inst, "buffer_size")) && !a->rc)
		put_size(a, k, prefix);
	if ((k = take(inst, "alloc_snapshot"))) {
		char path[512];
		snprintf(path, sizeof(path), "%ssnapshot", prefix);
		if (put(a, k, prefix, "snapshot", "1", PUT_RAW) == 0)
			note(a, UNDO_WRITE, path, "0");
	}
	if ((k = take(inst, "cpumask")))
		put(a, k, prefix, "tracing_cpumask", val(k), PUT_SCALAR);
	if (!a->rc)
		apply_events(a, inst, prefix);
	if ((k = take(inst, "events")))
		put_items(a, k, prefix, "set_event", PUT_LIST);
	if ((k = take(inst, "ftrace.filters")))
		put_items(a, k, prefix, "set_ftrace_filter", PUT_LIST);
	if ((k = take(inst, "ftrace.notraces")))
		put_items(a, k, prefix, "set_ftrace_notrace", PUT_LIST);
	if ((k = uft_bc_find(inst, "ftrace")))
		k->used = true;
	if ((k = take(inst, "tracer")))
		put(a, k, prefix, "current_tracer", val(k), PUT_SCALAR);
}

static void make_instance(struct apply *a, const struct uft_bc_node *key, const char *name,
			  char *prefix, size_t len)
{
	char path[300];
	snprintf(path, sizeof(path), "instances/%s", name);
	snprintf(prefix, len, "instances/%s/", name);
	struct uft_tfs_stat st;
	if (uft_tracefs_stat(path, &st) == 0)
		return; /* already there: settings merge into it */
	int rc = uft_tracefs_mkdir(path);
	if (rc) {
		report(a, key, "cannot make %s: %s", path, strerror(-rc));
		a->rc = rc;
		return;
	}
	note(a, UNDO_RMDIR, path, NULL);
}

/* kernel.trace_instance = NAME[^FLAG...][,SYS:EVENT...] */
static void kernel_instance(struct apply *a, struct uft_bc_node *k, const char *spec)
{
	char *copy = strdup(spec), *save = NULL;
	if (!copy) {
		a->rc = -ENOMEM;
		return;
	}
	char *head = strtok_r(copy, ",", &save), prefix[300];
	char *flags = head ? strchr(head, '^') : NULL;
	if (flags)
		*flags++ = 0;
	if (!head || !*head || *head == '.' || strchr(head, '/')) {
		report(a, k, "'%s': not an instance name", spec);
		a->rc = -EINVAL;
	} else {
		make_instance(a, k, head, prefix, sizeof(prefix));
	}
	for (char *f = flags, *fs = NULL; f && !a->rc; f = fs) {
		fs = strchr(f, '^');
		if (fs)
			*fs++ = 0;
		if (strcmp(f, "traceoff") == 0)
			put(a, k, prefix, "tracing_on", "0", PUT_SCALAR);
		else
			report(a, k, "instance flag '%s' has no meaning here, ignored", f);
	}
	for (char *ev = strtok_r(NULL, ",", &save); ev && !a->rc; ev = strtok_r(NULL, ",", &save))
		put(a, k, prefix, "set_event", ev, PUT_LIST);
	free(copy);
}

/* kernel.* keys: the tracing command-line parameters uft has a meaning for. */
static void apply_kernel(struct apply *a, struct uft_bc_node *kern)
{
	static const struct {
		const char *key, *file;
		enum put_kind kind;
	} map[] = {
	    {"trace_options", "trace_options", PUT_LIST},
	    {"trace_event", "set_event", PUT_LIST},
	    {"trace_clock", "trace_clock", PUT_SCALAR},
	    {"fgraph_max_depth", "max_graph_depth", PUT_SCALAR},
	    {"fgraph_filters", "set_graph_function", PUT_LIST},
	    {"fgraph_notraces", "set_graph_notrace", PUT_LIST},
	    {"ftrace_filter", "set_ftrace_filter", PUT_LIST},
	    {"ftrace_notrace", "set_ftrace_notrace", PUT_LIST},
	};
	struct uft_bc_node *k;
	for (size_t i = 0; i < ARRAY_SIZE(map) && !a->rc; i++) {
		if (!(k = take(kern, map[i].key)))
			continue;
		if (strcmp(map[i].key, "trace_options") == 0)
			put_options(a, k, "");
		else if (map[i].kind == PUT_LIST)
			put_items(a, k, "", map[i].file, PUT_LIST);
		else
			put(a, k, "", map[i].file, val(k), PUT_SCALAR);
	}
	if ((k = take(kern, "trace_buf_size")) && !a->rc)
		put_size(a, k, "");
	if ((k = take(kern, "alloc_snapshot")) && put(a, k, "", "snapshot", "1", PUT_RAW) == 0)
		note(a, UNDO_WRITE, "snapshot", "0");
	if ((k = take(kern, "trace_instance")))
		for (uint32_t i = 0; i < k->nr_vals && !a->rc; i++)
			kernel_instance(a, k, k->vals[i]);
	if ((k = take(kern, "ftrace")))
		put(a, k, "", "current_tracer", val(k), PUT_SCALAR);
	for (k = kern->child; k && !a->rc; k = k->next)
		if (!k->used)
			report(a, k, "no meaning in uft, ignored");
	kern->used = true;
}

/* Keys nothing took: named once each, so a misspelt key does not pass quietly. */
static void report_unused(struct apply *a, struct uft_bc_node *n)
{
	for (; n; n = n->next) {
		if (!n->used && (n->has_value || !n->child)) {
			report(a, n, "unknown key, ignored");
			continue;
		}
		report_unused(a, n->child);
	}
}

int uft_bootconfig_apply(struct uft_bc_tree *t, const char *file)
{
	if (!bc_out)
		bc_out = stderr;
	struct apply a = {.file = file};
	struct uft_bc_node *kern = uft_bc_find(&t->root, "kernel");
	struct uft_bc_node *top = uft_bc_find(&t->root, "ftrace");
	struct uft_bc_node *insts = top ? take(top, "instance") : NULL;
	if (kern)
		apply_kernel(&a, kern);
	/* Definitions are global wherever they are written: all of them first. */
	if (top && !a.rc)
		define_synthetics(&a, top);
	for (struct uft_bc_node *i = insts ? insts->child : NULL; i && !a.rc; i = i->next)
		define_synthetics(&a, i);
	if (top && !a.rc)
		define_kprobes(&a, top);
	for (struct uft_bc_node *i = insts ? insts->child : NULL; i && !a.rc; i = i->next)
		define_kprobes(&a, i);
	if (top && !a.rc) {
		top->used = true;
		apply_instance(&a, top, "");
	}
	for (struct uft_bc_node *i = insts ? insts->child : NULL; i && !a.rc; i = i->next) {
		char prefix[300];
		i->used = true;
		make_instance(&a, i, i->word, prefix, sizeof(prefix));
		if (!a.rc)
			apply_instance(&a, i, prefix);
	}
	if (a.rc) {
		undo_all(&a);
		fprintf(bc_out, "uft: bootconfig %s: nothing applied, the program runs untraced\n",
			file);
		return a.rc;
	}
	for (size_t i = 0; i < a.n; i++) {
		free(a.v[i].path);
		free(a.v[i].text);
	}
	free(a.v);
	struct uft_bc_node *init = uft_bc_find(&t->root, "init");
	if (init)
		init->used = true; /* init's command line: not ours */
	for (struct uft_bc_node *n = t->root.child; n; n = n->next)
		if (n != kern && n != top && n != init)
			report(&a, n, "not a tracing key, ignored");
	if (top)
		report_unused(&a, top->child);
	return 0;
}

static char *read_file(const char *path, size_t *len, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	size_t cap = UFT_BC_DATA_MAX + 2;
	char *text = malloc(cap);
	*len = 0;
	while (text && *len < cap) {
		ssize_t n = read(fd, text + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0) {
				*err = -errno;
				free(text);
				text = NULL;
			}
			break;
		}
		*len += (size_t)n;
	}
	close(fd);
	if (!text && !*err)
		*err = -ENOMEM;
	return text;
}

int uft_bootconfig_apply_env_to(FILE *out)
{
	bc_out = out;
	const char *file = uft_env(UFT_ENV_BOOTCONFIG);
	if (!file || !*file)
		return 0;
	size_t len;
	int err = 0;
	char *text = read_file(file, &len, &err);
	if (!text) {
		fprintf(bc_out, "uft: bootconfig %s: %s; the program runs untraced\n", file,
			strerror(-err));
		return -1;
	}
	struct uft_bc_tree *t;
	struct uft_bc_error e;
	if (uft_bc_parse(text, len, &t, &e) != 0) {
		if (e.line)
			fprintf(bc_out, "uft: bootconfig %s:%u:%u: %s\n", file, e.line, e.col,
				e.msg);
		else
			fprintf(bc_out, "uft: bootconfig %s: %s\n", file, e.msg);
		fprintf(bc_out, "uft: bootconfig %s: nothing applied, the program runs untraced\n",
			file);
		free(text);
		return -1;
	}
	free(text);
	/* The program's own events are registered by its constructors, which
	 * have not all run yet: take them from the loaded objects now, so the
	 * first event of main() is already configured. */
	uft_registry_scan_loaded();
	int rc = uft_bootconfig_apply(t, file);
	uft_bc_free(t);
	return rc ? -1 : 0;
}

void uft_bootconfig_apply_env(void)
{
	uft_bootconfig_apply_env_to(stderr);
}
