/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Connection and file helpers of the live commands. */
#define _GNU_SOURCE
#include "client/live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/event_spec.h"
#include "util/util.h"
#include "wire/ctl_proto.h"

int live_fail(const char *what, int err)
{
	fprintf(stderr, "uft: %s: %s\n", what, strerror(-err));
	return 1;
}

/* The pid of the only process whose socket answers; 0 if none or several. */
static int only_process(int *count)
{
	pid_t *pids;
	size_t n;
	*count = 0;
	if (uft_ctl_list_pids(&pids, &n) < 0)
		return 0;
	*count = (int)n;
	int pid = n == 1 ? (int)pids[0] : 0;
	free(pids);
	return pid;
}

bool live_refused(int err)
{
	switch (err) {
	case -ECONNRESET:
	case -EPIPE:
	case -EPROTO:
	case -EINTR:
	case -ENOMEM:
	case -EIO:
	case -ETIMEDOUT:
		return false;
	default:
		return err < 0;
	}
}

int live_open(struct live *l, long pid, const char *instance)
{
	memset(l, 0, sizeof(*l));
	l->instance = instance;
	long p = pid;
	if (!p) {
		int n;
		p = only_process(&n);
		if (!p) {
			fprintf(stderr,
				n ? "uft: %d traceable processes: choose one with -p PID "
				    "(uft ctl --list)\n"
				  : "uft: no traceable process found: give -p PID\n",
				n);
			return 2;
		}
	}
	snprintf(l->pidstr, sizeof(l->pidstr), "%ld", p);
	int rc = uft_ctl_connect_pid((pid_t)p, &l->c);
	if (rc) {
		fprintf(stderr, "uft: process %ld: %s\n", p, uft_ctl_connect_error(rc));
		return live_refused(rc) ? 2 : 1;
	}
	if (instance) {
		char path[256];
		struct uft_tfs_stat st;
		int r = uft_ctl_stat(l->c, live_path(l, "", path, sizeof(path)), &st);
		if (r != 0 || st.type != UFT_TFS_DIR || strchr(instance, '/')) {
			if (r != 0 && !live_refused(r))
				live_fail(path, r);
			else
				fprintf(stderr, "uft: instance %s does not exist\n", instance);
			live_close(l);
			return r != 0 && !live_refused(r) ? 1 : 2;
		}
	}
	return 0;
}

void live_close(struct live *l)
{
	if (l->c)
		uft_ctl_close(l->c);
	l->c = NULL;
}

int live_put(struct live *l, const char *file, const char *text, unsigned flags)
{
	int rc = live_write(l, file, text, flags);
	if (rc == 0)
		return 0;
	fprintf(stderr, "uft: %s: %s: %s\n", file, text, strerror(-rc));
	int err;
	char *log = live_cat(l, "error_log", NULL, &err);
	if (log && *log) {
		/* The last entry: its three lines. */
		char *end = log + strlen(log), *p = end;
		for (int lines = 0; p > log && lines < 4; p--)
			if (p[-1] == '\n' && ++lines == 4)
				break;
		fputs(p, stderr);
	}
	free(log);
	return 1;
}

int live_for_events(struct live *l, const char *spec, live_event_fn fn, void *ctx)
{
	int err;
	char *all = live_cat(l, "/available_events", NULL, &err);
	if (!all)
		return live_fail("available_events", err);
	int rc = 0, n = 0;
	char *save = NULL;
	for (char *line = strtok_r(all, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		if (!uft_event_spec_matches(spec, line, colon + 1))
			continue;
		n++;
		rc = fn(l, line, colon + 1, ctx);
	}
	free(all);
	if (!rc && !n) {
		fprintf(stderr, "uft: no event matches '%s'\n", spec);
		return 1;
	}
	return rc;
}

const char *live_path(const struct live *l, const char *file, char *buf, size_t cap)
{
	if (file[0] == '/') /* a file of the top, shared by instances */
		snprintf(buf, cap, "%s", file + 1);
	else if (l->instance)
		snprintf(buf, cap, "instances/%s%s%s", l->instance, *file ? "/" : "", file);
	else
		snprintf(buf, cap, "%s", file);
	return buf;
}

char *live_cat(struct live *l, const char *file, size_t *len, int *err)
{
	char path[512];
	int h = uft_ctl_open(l->c, live_path(l, file, path, sizeof(path)),
			     UFT_TFS_READ | UFT_TFS_NONBLOCK);
	if (h < 0) {
		*err = h;
		return NULL;
	}
	size_t cap = 0, n = 0;
	char *buf = NULL;
	*err = 0;
	for (;;) {
		/* room for a whole read and the NUL */
		if (uft_array_reserve(buf, cap, n + UFT_CTL_MAX_IO + 1, 65536)) {
			free(buf);
			buf = NULL;
			*err = -ENOMEM;
			break;
		}
		ssize_t r = uft_ctl_read(l->c, h, buf + n, UFT_CTL_MAX_IO, n);
		if (r == -EAGAIN || r == 0)
			break;
		if (r < 0) {
			*err = (int)r;
			free(buf);
			buf = NULL;
			break;
		}
		n += (size_t)r;
	}
	uft_ctl_release(l->c, h);
	if (buf) {
		buf[n] = 0;
		if (len)
			*len = n;
	}
	return buf;
}

int live_write(struct live *l, const char *file, const char *text, unsigned flags)
{
	char path[512];
	int h = uft_ctl_open(l->c, live_path(l, file, path, sizeof(path)), UFT_TFS_WRITE | flags);
	if (h < 0)
		return h;
	size_t n = strlen(text);
	ssize_t w = n ? uft_ctl_write(l->c, h, text, n, 0) : 0;
	uft_ctl_release(l->c, h);
	return w < 0 ? (int)w : 0;
}

int live_names_add(void *ctx, const char *name, int type)
{
	struct live_names *ns = ctx;
	if (ns->dirs_only && type != UFT_TFS_DIR)
		return 0;
	char **v = realloc(ns->v, (ns->n + 1) * sizeof(*v));
	char *copy = strdup(name);
	if (!v || !copy) {
		free(copy);
		if (v)
			ns->v = v;
		return 1;
	}
	ns->v = v;
	ns->v[ns->n++] = copy;
	return 0;
}

void live_names_free(struct live_names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
	ns->v = NULL;
	ns->n = 0;
}

int live_readdir(struct live *l, const char *dir, struct live_names *ns)
{
	char path[512];
	return uft_ctl_readdir(l->c, live_path(l, dir, path, sizeof(path)), live_names_add, ns);
}
