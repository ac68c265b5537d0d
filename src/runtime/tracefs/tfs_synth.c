/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* synthetic_events and dynamic_events (top only): define, list and delete
 * synthetic events. Lines run in order and the first refused one stops the
 * write, as the kernel's; errors go to the top's error_log under
 * "synthetic_events" with the kernel's message. dynamic_events hands its
 * probe lines (p, r, f, e, and `-:` of a probe) to tfs_probe.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uft/uft.h>

#include "runtime/core/synth_live.h"
#include "runtime/core/user_events.h"
#include "runtime/ftrace/eprobe.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "runtime/tracefs/tfs.h"

static bool exists(void *ctx, const char *name)
{
	return uft_synth_find(name) || uft_find_event(UFT_SYNTH_SYSTEM, name);
}

static int run_line(char *line, bool dyn)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	/* "!p:EVENT ..." (any kind's letter) deletes as "-:EVENT ..." does, as
	 * the kernel's dyn_event_release. */
	char *bang = line + strspn(line, " \t");
	char *colon = strchr(bang, ':');
	if (dyn && bang[0] == '!' && colon && colon - bang <= 16 &&
	    !memchr(bang, ' ', colon - bang)) {
		memmove(bang + 2, colon + 1, strlen(colon + 1) + 1);
		bang[0] = '-';
		bang[1] = ':';
	}
	if (dyn && tfs_user_owns(line))
		return tfs_user_line(line);
	if (dyn && tfs_probe_owns(line))
		return tfs_probe_line(line, UFT_PROBE_SRC_DYNAMIC);
	struct uft_synth_cmd c;
	struct uft_synth_error e;
	int rc = uft_synth_parse(line, dyn, exists, NULL, &c, &e);
	if (rc == 0 && c.op == UFT_SYNTH_OP_CREATE)
		rc = uft_synth_create(&c.def);
	else if (rc == 0 && c.op == UFT_SYNTH_OP_DELETE)
		rc = c.group && strcmp(c.group, UFT_SYNTH_SYSTEM) != 0 ? -ENOENT
								       : uft_synth_delete(c.name);
	if (rc && e.msg)
		tfs_log_error(tfs_insts[0], "synthetic_events", line + e.cmd_off, e.msg, e.pos);
	uft_synth_cmd_free(&c);
	return rc;
}

static int write_defs(char *buf, bool dyn)
{
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		int rc = run_line(line, dyn);
		if (rc)
			return rc;
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int write_synth(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	return write_defs(buf, false);
}

static int write_dyn(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	return write_defs(buf, true);
}

static void show_one(void *ctx, const struct uft_synth *s)
{
	FILE *out = ((void **)ctx)[0];
	const char *prefix = ((void **)ctx)[1];
	fprintf(out, "%s%s\n", prefix, s->desc);
}

static int show_synth(const struct tfs_node *n, FILE *out)
{
	void *ctx[2] = {out, ""};
	uft_synth_each(show_one, ctx);
	return 0;
}

static int show_dyn(const struct tfs_node *n, FILE *out)
{
	void *ctx[2] = {out, "s:" UFT_SYNTH_SYSTEM "/"};
	uft_synth_each(show_one, ctx);
	tfs_probe_show(out, UFT_PROBE_SRC_DYNAMIC);
	tfs_user_show(out);
	return 0;
}

static int open_defs(struct uft_tfs_handle *h)
{
	if ((h->flags & UFT_TFS_WRITE) && (h->flags & UFT_TFS_TRUNC))
		return uft_synth_delete_all();
	return 0;
}

/* dynamic_events truncated: every dynamic event goes, or none (-EBUSY). */
static int open_dyn(struct uft_tfs_handle *h)
{
	if (!(h->flags & UFT_TFS_WRITE) || !(h->flags & UFT_TFS_TRUNC))
		return 0;
	/* The eprobes go too: their sources are not kept busy by them. */
	int rc = uft_dprobe_delete_kind(UFT_PROBE_EPROBE, true);
	if (rc)
		return rc;
	uft_eprobe_uses_all(1);
	rc = uft_dprobe_delete_kind(-1, true);
	if (rc == 0)
		rc = uft_user_event_delete_all(true);
	if (rc == 0)
		rc = uft_synth_delete_all();
	if (rc == 0)
		rc = uft_user_event_delete_all(false);
	if (rc)
		uft_eprobe_uses_all(0);
	return rc ? rc : uft_dprobe_delete_kind(-1, false);
}

const struct tfs_file tfs_synth_files[] = {
    {.name = "synthetic_events",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_synth,
     .write = write_synth,
     .open = open_defs},
    {.name = "dynamic_events",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_dyn,
     .write = write_dyn,
     .open = open_dyn},
    {0},
};
