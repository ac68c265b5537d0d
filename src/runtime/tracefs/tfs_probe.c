/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kprobe_events and uprobe_events (with their _profile counts), and the
 * probe lines of dynamic_events
 * (tfs_synth.c hands them over): definitions parsed by the probe engine
 * with the kernel's checks, errors in the top's error_log with the caret,
 * the events made and attached by ftrace_probe.c. Lines run in order and the
 * first refused one stops the write, as the kernel's. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uft/uft.h>

#include "runtime/core/registry.h"
#include "runtime/core/symtab.h"
#include "runtime/ftrace/eprobe.h"
#include "runtime/ftrace/ftrace_insn_probe.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "runtime/tracefs/tfs.h"
#include "util/atomics.h"

static int exists(void *ctx, const char *group, const char *event)
{
	(void)ctx;
	if (uft_dprobe_find(group, event))
		return UFT_PROBE_IS_PROBE;
	return uft_find_event(group, event) ? UFT_PROBE_OTHER_EVENT : UFT_PROBE_FREE;
}

static int sym_addr(void *ctx, const char *lib, const char *sym, uint64_t *addr)
{
	(void)ctx;
	(void)lib;
	uintptr_t start;
	size_t size;
	if (uft_symbol_by_name(sym, &start, &size) != 0)
		return -ENOENT;
	*addr = start;
	return 0;
}

struct fields_q {
	const char *sys, *event;
	const struct uft_field *f;
	uint32_t nr;
	bool found;
};

static int fields_one(void *ctx, const struct uft_reg_view *v)
{
	struct fields_q *q = ctx;
	if (strcmp(v->system, q->sys) != 0 || strcmp(v->name, q->event) != 0)
		return 0;
	q->found = true;
	q->f = v->desc->fields;
	q->nr = v->desc->nr_fields;
	return 1;
}

/* An eprobe's source event: its fields, as the registry sees them. The
 * ftrace entries and other eprobes are no source, as the kernel's
 * find_and_get_event skips them (uft takes kprobes and uprobes, which the
 * kernel skips too: a user-space probe is as cheap as a tracepoint). */
static const struct uft_field *event_fields(void *ctx, const char *sys, const char *event,
					    uint32_t *nr)
{
	static const struct uft_field none;
	(void)ctx;
	const struct uft_dprobe *p = uft_dprobe_find(sys, event);
	if (strcmp(sys, "ftrace") == 0 || (p && p->def.kind == UFT_PROBE_EPROBE))
		return NULL;
	struct fields_q q = {.sys = sys, .event = event};
	uft_registry_visit(fields_one, &q);
	if (!q.found)
		return NULL;
	*nr = q.nr;
	return q.f ? q.f : &none;
}

static const char *const locs[] = {"trace_kprobe", "trace_uprobe", "trace_fprobe", "event_probe"};

/* The line's words joined by single blanks, as the kernel logs a command,
 * and where its second word (the location) starts. */
static char *joined(const char *line, unsigned *second)
{
	char *out = malloc(strlen(line) + 1), *o = out;
	if (!out)
		return NULL;
	*second = 0;
	for (const char *p = line; *p;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (o != out)
			*o++ = ' ';
		if (o != out && !*second)
			*second = (unsigned)(o - out);
		while (*p && !isspace((unsigned char)*p))
			*o++ = *p++;
	}
	*o = 0;
	return out;
}

/* The point of a parsed definition cannot be attached: the kernel's
 * messages for a symbol it cannot find and a registration that fails. */
static void log_attach(const char *line, const struct uft_probe_def *d, int rc)
{
	unsigned pos;
	char *cmd = joined(line, &pos);
	if (!cmd)
		return;
	const char *msg = rc == -ENOENT	  ? "Invalid probed address or symbol"
			  : rc == -EILSEQ ? "Probe point is not an instruction boundary"
					  : "Failed to register probe event";
	/* An instruction-boundary probe refused says why (uft's addition). */
	const char *why = uft_insn_why_take();
	char full[320];
	if (why && rc != -ENOENT && rc != -EILSEQ) {
		snprintf(full, sizeof(full), "%s: %s", msg, why);
		msg = full;
	}
	tfs_log_error(tfs_insts[0], locs[d->kind & 3], cmd, msg, pos);
	free(cmd);
}

/* Where word `index` of a command joined by single blanks starts. */
static unsigned word_start(const char *cmd, unsigned index)
{
	const char *p = cmd;
	for (; index && *p; p++)
		if (*p == ' ')
			index--;
	return (unsigned)(p - cmd);
}

/* Whether a probe may be deleted through this file. */
static bool same_src(const struct uft_dprobe *p, int src)
{
	return !(src == UFT_PROBE_SRC_UPROBE && p->def.kind != UFT_PROBE_UPROBE) &&
	       !(src == UFT_PROBE_SRC_KPROBE && p->def.kind != UFT_PROBE_KPROBE);
}

struct group_q {
	const char *group;
	int src;
	struct uft_dprobe *found[256];
	unsigned n;
};

static void group_one(void *ctx, const struct uft_dprobe *p)
{
	struct group_q *q = ctx;
	if (strcmp(p->def.group, q->group) == 0 && same_src(p, q->src) &&
	    q->n < sizeof(q->found) / sizeof(q->found[0]))
		q->found[q->n++] = (struct uft_dprobe *)p;
}

/* -:GROUP/ deletes every probe of the group, as the kernel's
 * dyn_event_release with an empty event name: in order, the first refusal
 * stops it. */
static int delete_group(const char *group, int src)
{
	struct group_q q = {.group = group, .src = src};
	uft_dprobe_each(group_one, &q);
	if (!q.n)
		return -ENOENT;
	for (unsigned i = 0; i < q.n; i++) {
		int rc = uft_dprobe_delete(q.found[i]);
		if (rc)
			return rc;
	}
	return 0;
}

static int delete_cmd(const struct uft_probe_cmd *c, int src)
{
	if (c->group && !c->event[0])
		return delete_group(c->group, src);
	struct uft_dprobe *p = uft_dprobe_find(c->group, c->event);
	if (!p)
		return -ENOENT;
	/* The kind files delete their own kind only. */
	if (!same_src(p, src))
		return -ENOENT;
	return uft_dprobe_delete(p);
}

static int create_cmd(char *line, struct uft_probe_cmd *c)
{
	struct uft_probe_def *d = &c->def;
	struct uft_dprobe *old = uft_dprobe_find(d->group, d->event);
	if (old) {
		/* A second point for an event: the kernel's checks, then refused
		 * (one point per probe so far). */
		struct uft_probe_error e = {0};
		int rc = uft_probe_check_append(&old->def, d, &e);
		if (rc == 0) {
			log_attach(line, d, -EBUSY);
			return -EBUSY;
		}
		unsigned pos;
		char *cmd = joined(line, &pos);
		if (cmd && e.msg)
			tfs_log_error(tfs_insts[0], e.loc ? e.loc : locs[d->kind & 3], cmd, e.msg,
				      word_start(cmd, e.pos));
		free(cmd);
		return rc;
	}
	if (d->kind == UFT_PROBE_EPROBE) {
		/* The "if" part must compile on the source's fields: the
		 * filter's own error_log entry, as the kernel's. */
		struct uft_filter_error fe = {0, 0};
		int rc = uft_eprobe_check_filter(d, &fe);
		if (rc == -EINVAL)
			tfs_log_error(tfs_insts[0], UFT_FILTER_ERR_LOC, d->filter,
				      uft_filter_strerror(fe.code),
				      fe.code > 0 && fe.pos > 0 ? (unsigned)fe.pos : 0);
		return rc ? rc : uft_eprobe_create(d);
	}
	struct uft_ftrace_site *site = NULL;
	int rc = uft_dprobe_resolve(d, &site);
	if (rc == -ENOENT && uft_dprobe_may_wait(d))
		rc = 0; /* attached when its library is loaded */
	if (rc) {
		log_attach(line, d, rc);
		return rc;
	}
	return uft_dprobe_create(d, site);
}

int tfs_probe_line(char *line, int src)
{
	struct uft_probe_env env = {.src = (enum uft_probe_src)src,
				    .exists = exists,
				    .sym_addr = sym_addr,
				    .event_fields = event_fields,
				    .func_file = uft_dprobe_func_file};
	struct uft_probe_cmd c;
	struct uft_probe_error e = {0};
	memset(&c, 0, sizeof(c));
	int rc = uft_probe_parse(line, &env, &c, &e);
	if (rc) {
		if (e.msg && e.cmd)
			tfs_log_error(tfs_insts[0], e.loc, e.cmd, e.msg, e.pos);
		uft_probe_error_free(&e);
		return rc;
	}
	if (c.op == UFT_PROBE_OP_DELETE)
		rc = delete_cmd(&c, src);
	else if (c.op == UFT_PROBE_OP_CREATE)
		rc = create_cmd(line, &c);
	uft_probe_cmd_free(&c);
	return rc;
}

bool tfs_probe_owns(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (line[0] == '-' && line[1] == ':') {
		/* A deletion is a probe's when a probe has that name. */
		char name[2 * UFT_PROBE_NAME_MAX + 2];
		snprintf(name, sizeof(name), "%s", line + 2);
		name[strcspn(name, " \t")] = 0;
		char *slash = strpbrk(name, "/.");
		if (slash)
			*slash = 0;
		if (slash && !slash[1]) { /* -:GROUP/: a probe's when one is in it */
			struct group_q q = {.group = name, .src = UFT_PROBE_SRC_DYNAMIC};
			uft_dprobe_each(group_one, &q);
			return q.n > 0;
		}
		return uft_dprobe_find(slash ? name : NULL, slash ? slash + 1 : name) != NULL;
	}
	return line[0] && line[0] != 's' && line[0] != '-' && line[0] != '!';
}

static void show_one(void *ctx, const struct uft_dprobe *p)
{
	FILE *out = ((void **)ctx)[0];
	int src = *(const int *)((void **)ctx)[1];
	if ((src == UFT_PROBE_SRC_KPROBE && p->def.kind != UFT_PROBE_KPROBE) ||
	    (src == UFT_PROBE_SRC_UPROBE && p->def.kind != UFT_PROBE_UPROBE))
		return;
	fprintf(out, "%s\n", p->listing);
}

void tfs_probe_show(FILE *out, int src)
{
	void *ctx[2] = {out, &src};
	uft_dprobe_each(show_one, ctx);
}

static int write_lines(char *buf, int src)
{
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		int rc = tfs_probe_line(line, src);
		if (rc)
			return rc;
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int write_kprobe(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	return write_lines(buf, UFT_PROBE_SRC_KPROBE);
}

static int write_uprobe(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	return write_lines(buf, UFT_PROBE_SRC_UPROBE);
}

static int show_kprobe(const struct tfs_node *n, FILE *out)
{
	tfs_probe_show(out, UFT_PROBE_SRC_KPROBE);
	return 0;
}

static int show_uprobe(const struct tfs_node *n, FILE *out)
{
	tfs_probe_show(out, UFT_PROBE_SRC_UPROBE);
	return 0;
}

/* kprobe_profile: name, hits, misses (a return the thread's shadow stack
 * had no room to hook; an entry hit is never missed);
 * uprobe_profile: file, name, hits. */
static void profile_one(void *ctx, const struct uft_dprobe *p)
{
	FILE *out = ((void **)ctx)[0];
	int src = *(const int *)((void **)ctx)[1];
	unsigned long hits = (unsigned long)uft_dprobe_hits(p);
	if (src == UFT_PROBE_SRC_KPROBE && p->def.kind == UFT_PROBE_KPROBE)
		fprintf(out, "  %-44s %15lu %15lu\n", p->def.event, hits,
			(unsigned long)READ_ONCE(p->misses));
	else if (src == UFT_PROBE_SRC_UPROBE && p->def.kind == UFT_PROBE_UPROBE)
		fprintf(out, "  %s %-44s %15lu\n", p->def.lib, p->def.event, hits);
}

static int show_kprofile(const struct tfs_node *n, FILE *out)
{
	int src = UFT_PROBE_SRC_KPROBE;
	void *ctx[2] = {out, &src};
	uft_dprobe_each(profile_one, ctx);
	return 0;
}

static int show_uprofile(const struct tfs_node *n, FILE *out)
{
	int src = UFT_PROBE_SRC_UPROBE;
	void *ctx[2] = {out, &src};
	uft_dprobe_each(profile_one, ctx);
	return 0;
}

static int open_kprobe(struct uft_tfs_handle *h)
{
	if ((h->flags & UFT_TFS_WRITE) && (h->flags & UFT_TFS_TRUNC))
		return uft_dprobe_delete_kind(UFT_PROBE_KPROBE, false);
	return 0;
}

static int open_uprobe(struct uft_tfs_handle *h)
{
	if ((h->flags & UFT_TFS_WRITE) && (h->flags & UFT_TFS_TRUNC))
		return uft_dprobe_delete_kind(UFT_PROBE_UPROBE, false);
	return 0;
}

const struct tfs_file tfs_probe_files[] = {
    {.name = "kprobe_events",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_kprobe,
     .write = write_kprobe,
     .open = open_kprobe},
    {.name = "uprobe_events",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_uprobe,
     .write = write_uprobe,
     .open = open_uprobe},
    {.name = "kprobe_profile",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_kprofile},
    {.name = "uprobe_profile",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_uprofile},
    {0},
};
