/* Connection and file helpers of the live commands. */
#define _GNU_SOURCE
#include "tools/live.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ctl_proto.h"
#include "common/ctl_rundir.h"

int live_fail(const char *what, int err)
{
	fprintf(stderr, "uft: %s: %s\n", what, strerror(-err));
	return 1;
}

/* The pid of the only process whose socket answers; 0 if none or several. */
static int only_process(int *count)
{
	char dir[108];
	*count = 0;
	if (uft_ctl_rundir(dir, sizeof(dir), false) < 0)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int found = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (pid <= 0 || strcmp(end, ".sock") != 0)
			continue;
		struct uft_ctl_conn *c;
		if (uft_ctl_connect_pid((pid_t)pid, &c) != 0)
			continue;
		uft_ctl_close(c);
		found = (int)pid;
		++*count;
	}
	closedir(d);
	return *count == 1 ? found : 0;
}

int live_open(struct live *l, const char *pid, const char *instance)
{
	memset(l, 0, sizeof(*l));
	l->instance = instance;
	long p;
	if (pid) {
		char *end;
		p = strtol(pid, &end, 10);
		if (p <= 0 || *end) {
			fprintf(stderr, "uft: bad pid '%s'\n", pid);
			return 1;
		}
	} else {
		int n;
		p = only_process(&n);
		if (!p) {
			fprintf(stderr,
				n ? "uft: %d traceable processes: choose one with -p PID "
				    "(uft ctl --list)\n"
				  : "uft: no traceable process found: give -p PID\n",
				n);
			return 1;
		}
	}
	snprintf(l->pidstr, sizeof(l->pidstr), "%ld", p);
	int rc = uft_ctl_connect_pid((pid_t)p, &l->c);
	if (rc) {
		fprintf(stderr, "uft: process %ld: %s\n", p,
			rc == -ESRCH ? "not traceable (no uft control socket)" : strerror(-rc));
		return 1;
	}
	if (instance) {
		char path[256];
		struct uft_tfs_stat st;
		if (uft_ctl_stat(l->c, live_path(l, "", path, sizeof(path)), &st) != 0) {
			fprintf(stderr, "uft: instance %s does not exist\n", instance);
			live_close(l);
			return 1;
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
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	*err = 0;
	while (buf) {
		if (cap - n < UFT_CTL_MAX_IO) {
			char *b = realloc(buf, cap * 2 + 1);
			if (!b) {
				free(buf);
				buf = NULL;
				*err = -ENOMEM;
				break;
			}
			buf = b;
			cap *= 2;
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
