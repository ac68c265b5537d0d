/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User events in the tree: dynamic_events' `u:NAME FIELDS` lines (defined
 * without an enable bit, kept until deleted), `-:NAME` of a user event
 * (tfs_synth.c hands both over), their listing, and user_events_status as
 * the kernel prints it. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/uevent/uevent.h"
#include "runtime/core/user_events.h"
#include "runtime/tracefs/tfs.h"

/* NAME of a `-:NAME` or `-:user_events/NAME` line, in buf; NULL otherwise. */
static const char *deletion_name(const char *line, char *buf, size_t len)
{
	if (line[0] != '-' || line[1] != ':')
		return NULL;
	snprintf(buf, len, "%s", line + 2);
	buf[strcspn(buf, " \t")] = 0;
	char *slash = strpbrk(buf, "/.");
	if (!slash)
		return buf;
	*slash = 0;
	return strcmp(buf, UFT_UEV_SYSTEM) == 0 ? slash + 1 : NULL;
}

bool tfs_user_owns(const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (line[0] == 'u' && line[1] == ':')
		return true;
	char buf[2 * UFT_UEV_NAME_MAX + 2];
	const char *name = deletion_name(line, buf, sizeof(buf));
	return name && uft_user_event_exists(name);
}

int tfs_user_line(char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (line[0] == 'u') {
		/* The string after "u:" is the registration string. */
		size_t n = strlen(line);
		while (n > 2 && isspace((unsigned char)line[n - 1]))
			line[--n] = 0;
		return uft_user_event_define(line + 2, NULL, NULL);
	}
	char buf[2 * UFT_UEV_NAME_MAX + 2];
	const char *name = deletion_name(line, buf, sizeof(buf));
	return name ? uft_user_event_remove(name) : -ENOENT;
}

static void show_one(void *ctx, const struct uft_user_event_info *info)
{
	fprintf(ctx, "u:%s\n", info->listing);
}

void tfs_user_show(FILE *out)
{
	uft_user_event_each(show_one, out);
}

struct status {
	FILE *out;
	unsigned active, busy;
};

static void status_one(void *ctx, const struct uft_user_event_info *info)
{
	struct status *s = ctx;
	fprintf(s->out, "%s%s\n", info->name, info->busy ? " # Used by ftrace" : "");
	s->active++;
	s->busy += info->busy;
}

static int show_status(const struct tfs_node *n, FILE *out)
{
	struct status s = {out, 0, 0};
	uft_user_event_each(status_one, &s);
	fprintf(out, "\nActive: %u\nBusy: %u\n", s.active, s.busy);
	return 0;
}

const struct tfs_file tfs_user_files[] = {
    {.name = "user_events_status",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_status},
    {0},
};
