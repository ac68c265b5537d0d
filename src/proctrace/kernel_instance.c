/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel backend's tracefs instance: finding tracefs, making a private
 * instance (instances/uft-<pid>-<n>), writing its control files, reading
 * event ids and format files, removing it, and removing those left by uft processes that died
 * without cleaning up (SIGKILL). Nothing here is needed by the ptrace
 * backend: when tracefs is not usable the kernel backend is refused. */
#define _GNU_SOURCE
#include "proctrace/proc_events.h"
#include "proctrace/proc_info.h"
#include "proctrace/kernel_backend.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const mounts[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

static bool exists(const char *root, const char *file)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", root, file);
	return access(p, F_OK) == 0;
}

/* The first mount with the files the backend needs, and why none is. */
static const char *find_tracefs(char *why, size_t len)
{
	if (why && len)
		snprintf(why, len,
			 "no tracefs at /sys/kernel/tracing or /sys/kernel/debug/tracing");
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		const char *m = mounts[i];
		if (access(m, F_OK) == 0 && faccessat(AT_FDCWD, m, X_OK, AT_EACCESS) != 0) {
			if (why && len)
				snprintf(why, len,
					 "%s: not accessible (root or a tracing group needed)", m);
			continue;
		}
		if (!exists(m, "instances"))
			continue;
		char p[512];
		snprintf(p, sizeof(p), "%s/instances", m);
		if (faccessat(AT_FDCWD, p, W_OK | X_OK, AT_EACCESS) != 0) {
			if (why && len)
				snprintf(why, len,
					 "%s: not writable (root or a tracing group needed)", p);
			continue;
		}
		if (!exists(m, "set_event_pid") || !exists(m, "events/raw_syscalls/sys_enter") ||
		    !exists(m, "events/sched/sched_process_fork")) {
			if (why && len)
				snprintf(
				    why, len,
				    "%s lacks set_event_pid or the sched and raw_syscalls events",
				    m);
			continue;
		}
		return m;
	}
	return NULL;
}

const char *pt_tracefs(void)
{
	static const char *cached;
	static bool done;
	if (!done) {
		cached = find_tracefs(NULL, 0);
		done = true;
	}
	return cached;
}

bool pt_kernel_usable(char *why, size_t len)
{
	return find_tracefs(why, len) != NULL;
}

int pt_ki_write(const char *dir, const char *file, const char *val, bool append)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -errno;
	size_t n = strlen(val);
	ssize_t w = write(fd, val, n);
	int rc = w == (ssize_t)n ? 0 : w < 0 ? -errno : -EIO;
	close(fd);
	return rc;
}

int pt_ki_event_id(const char *dir, const char *system, const char *name)
{
	char p[512], line[256];
	snprintf(p, sizeof(p), "%s/events/%s/%s/id", dir, system, name);
	FILE *f = fopen(p, "re");
	if (!f)
		return -1;
	int id = fgets(line, sizeof(line), f) ? atoi(line) : -1;
	fclose(f);
	return id > 0 ? id : -1;
}

void pt_ki_remove(const char *dir)
{
	if (!dir[0])
		return;
	pt_ki_write(dir, "tracing_on", "0", false);
	pt_ki_write(dir, "events/enable", "0", false);
	pt_ki_write(dir, "set_event_pid", "", false);
	/* the kernel refuses while a reader still holds a per-CPU file */
	if (rmdir(dir) != 0 && errno == EBUSY) {
		usleep(10000);
		rmdir(dir);
	}
}

/* instances/uft-<pid>-<n> whose pid is gone: a uft killed before cleaning up. */
static void remove_stale(const char *root)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/instances", root);
	DIR *d = opendir(p);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		int pid, n;
		if (sscanf(de->d_name, "uft-%d-%d", &pid, &n) != 2 || pid <= 0)
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		char inst[768];
		snprintf(inst, sizeof(inst), "%s/%s", p, de->d_name);
		pt_ki_remove(inst);
	}
	closedir(d);
}

int pt_ki_create(char *dir, size_t dirlen, char *err, size_t errlen)
{
	char why[256];
	const char *root = find_tracefs(why, sizeof(why));
	if (!root) {
		snprintf(err, errlen, "kernel backend: %s", why);
		return -1;
	}
	remove_stale(root);
	static unsigned seq;
	for (int tries = 0; tries < 100; tries++) {
		snprintf(dir, dirlen, "%s/instances/uft-%d-%u", root, (int)getpid(), seq++);
		if (mkdir(dir, 0700) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	snprintf(err, errlen, "kernel backend: mkdir %s: %s", dir, strerror(errno));
	dir[0] = 0;
	return -1;
}

/* The kernel's format files. */

/* The field lines of a format text: from "format:" to "print fmt:". */
static const char *fields_of(const char *t, size_t *len)
{
	const char *a = strstr(t, "\nformat:"), *b = strstr(t, "\nprint fmt:");
	if (!a || !b || b < a)
		return NULL;
	*len = (size_t)(b - a);
	return a;
}

int pt_k_format_fixup(unsigned id, const char *system, char *buf, size_t len, int n)
{
	const char *root = pt_tracefs();
	if (!root || n < 0 || strncmp(buf, "name: ", 6) != 0)
		return n;
	char name[128], path[512], kt[8192];
	const char *nl = strchr(buf, '\n');
	snprintf(name, sizeof(name), "%.*s", nl ? (int)(nl - buf - 6) : 0, buf + 6);
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, system, name);
	if (pt_read_text(path, kt, sizeof(kt)) <= 0)
		return n; /* uft's own event, or none in this kernel */
	size_t la, lb;
	const char *fa = fields_of(buf, &la), *fb = fields_of(kt, &lb);
	if (!fa || !fb || (la == lb && memcmp(fa, fb, la) == 0) ||
	    pt_fields_widened(fa, la, fb, lb))
		return n;
	/* the kernel's own layout: its text, with the ID line set to ours */
	const char *idl = strstr(kt, "\nID: ");
	if (!idl)
		return n;
	const char *rest = strchr(idl + 1, '\n');
	int m = snprintf(buf, len, "%.*sID: %u%s", (int)(idl + 1 - kt), kt, id, rest ? rest : "\n");
	return m;
}

int pt_ki_exclude_self(const char *dir)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -errno;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d)) && !rc)
		if (atoi(de->d_name) > 0)
			rc = pt_ki_write(dir, "set_event_notrace_pid", de->d_name, true);
	closedir(d);
	return rc;
}
