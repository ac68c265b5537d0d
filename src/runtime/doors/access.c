/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The control socket's access policy (access.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "runtime/core/secure_env.h"
#include "runtime/doors/access.h"
#include "runtime/tracefs/tracefs.h"
#include "util/util.h"
#include "wire/env_names.h"
#include "wire/tree_calls.h"

static const char *const level_names[] = {"none", "stats", "records", "control", "all"};

static struct {
	bool read;
	gid_t group;
	enum uft_access level;
} cfg = {.group = (gid_t)-1};

static int parse_group(const char *s, gid_t *out)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);
	if (*s && !*end) {
		*out = (gid_t)n;
		return 0;
	}
	struct group gr, *res = NULL;
	char buf[4096];
	if (getgrnam_r(s, &gr, buf, sizeof(buf), &res) != 0 || !res)
		return -1;
	*out = res->gr_gid;
	return 0;
}

static void read_settings(void)
{
	const char *group = uft_env(UFT_ENV_ACCESS_GROUP);
	const char *level = uft_env(UFT_ENV_ACCESS);
	if (!group || !*group)
		return;
	enum uft_access lv = UFT_ACCESS_STATS;
	if (level && *level) {
		lv = UFT_ACCESS_NONE;
		for (unsigned i = UFT_ACCESS_STATS; i < ARRAY_SIZE(level_names); i++)
			if (strcmp(level, level_names[i]) == 0)
				lv = (enum uft_access)i;
		if (lv == UFT_ACCESS_NONE) {
			fprintf(stderr,
				"uft: %s=%s: not stats, records, control or all; "
				"the tree serves its owner alone\n",
				UFT_ENV_ACCESS, level);
			return;
		}
	}
	gid_t gid;
	if (parse_group(group, &gid) != 0) {
		fprintf(stderr, "uft: %s=%s: no such group; the tree serves its owner alone\n",
			UFT_ENV_ACCESS_GROUP, group);
		return;
	}
	cfg.group = gid;
	cfg.level = lv;
}

void uft_access_init(void)
{
	if (!cfg.read)
		read_settings();
	cfg.read = true;
}

gid_t uft_access_group(void)
{
	uft_access_init();
	return cfg.group;
}

static bool in_group(int fd, gid_t primary, gid_t want)
{
	if (primary == want)
		return true;
	gid_t groups[256];
	socklen_t len = sizeof(groups);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) != 0)
		return false;
	for (size_t i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == want)
			return true;
	return false;
}

enum uft_access uft_access_of_peer(int fd, uid_t *uid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
		return UFT_ACCESS_NONE;
	*uid = cred.uid;
	if (cred.uid == 0)
		return UFT_ACCESS_ALL;
	/* A secure process serves root alone, as the kernel lets only root
	 * ptrace it: its user may not read its events. */
	if (uft_env_secure())
		return UFT_ACCESS_NONE;
	if (cred.uid == getuid() || cred.uid == geteuid())
		return UFT_ACCESS_ALL;
	uft_access_init();
	if (cfg.group != (gid_t)-1 && in_group(fd, cred.gid, cfg.group))
		return cfg.level;
	return UFT_ACCESS_NONE;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static bool named(const char *base, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(base, names[i]) == 0)
			return true;
	return false;
}

/* Files whose reading shows the records themselves. */
static bool shows_records(const char *base)
{
	static const char *const names[] = {"trace", "trace_pipe", "trace_pipe_raw", "snapshot",
					    "snapshot_raw"};
	return named(base, names, ARRAY_SIZE(names));
}

/* Files whose writing changes the program's code. */
static bool changes_code(const char *base)
{
	static const char *const names[] = {
	    "current_tracer",	  "set_ftrace_filter",	 "set_ftrace_notrace",
	    "set_graph_function", "set_graph_notrace",	 "dynamic_events",
	    "uprobe_events",	  "kprobe_events",	 "function_profile_enabled",
	    "stack_trace_filter", "stack_tracer_enabled"};
	return named(base, names, ARRAY_SIZE(names));
}

static enum uft_access needed(enum uft_access_op op, const char *base, unsigned flags,
			      const char **what)
{
	if (op != UFT_ACCESS_OP_OPEN) {
		*what = op == UFT_ACCESS_OP_MKDIR ? "mkdir" : "rmdir";
		return UFT_ACCESS_CONTROL;
	}
	if (flags & (UFT_TFS_WRITE | UFT_TFS_TRUNC | UFT_TFS_APPEND)) {
		*what = "write";
		return changes_code(base) ? UFT_ACCESS_ALL : UFT_ACCESS_CONTROL;
	}
	*what = "read";
	return shows_records(base) ? UFT_ACCESS_RECORDS : UFT_ACCESS_STATS;
}

int uft_access_check(enum uft_access level, uid_t uid, enum uft_access_op op, const char *path,
		     unsigned flags)
{
	const char *what;
	enum uft_access need = needed(op, base_name(path), flags, &what);
	if (level >= need)
		return 0;
	char cmd[320], msg[128];
	snprintf(cmd, sizeof(cmd), "%s %s", what, path);
	snprintf(msg, sizeof(msg), "Permission denied: uid %u has access '%s', this needs '%s'",
		 (unsigned)uid, level_names[level], level_names[need]);
	uft_tracefs_log_refusal(cmd, msg);
	return -EACCES;
}

void uft_access_door_stat(const char *path, struct uft_tfs_stat *st)
{
	uft_access_init();
	if (cfg.group == (gid_t)-1)
		return;
	unsigned own = st->mode & 0700, group = 0;
	if (st->type == UFT_TFS_DIR) {
		group = (own & 0500) >> 3;
		if ((own & 0200) && cfg.level >= UFT_ACCESS_CONTROL)
			group |= 0020;
	} else {
		const char *base = base_name(path);
		const char *what;
		if ((own & 0400) &&
		    cfg.level >= needed(UFT_ACCESS_OP_OPEN, base, UFT_TFS_READ, &what))
			group |= 0040;
		if ((own & 0200) &&
		    cfg.level >= needed(UFT_ACCESS_OP_OPEN, base, UFT_TFS_WRITE, &what))
			group |= 0020;
	}
	st->mode = (st->mode & ~070u) | group;
	st->group_set = 1;
	st->gid = cfg.group;
}
