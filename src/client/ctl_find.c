/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding a process's control socket, in this namespace or a container's
 * (ctl_client.h: uft_ctl_connect_pid, uft_ctl_list_pids).
 *
 * A process names its socket by its pid as it sees it and, outside the
 * initial pid namespace, by its namespace too (wire/ctl_rundir.h). Asked for
 * pid P (a pid of our namespace), the client reads P's pid in its own
 * namespace (the last NSpid of /proc/P/status) and its namespace, and tries
 * that name in our run directory, then in the run directories P may use as
 * seen through /proc/P/root (its UFT_RUNDIR, its XDG_RUNTIME_DIR, /tmp/uft-
 * <its uid>). A connection counts only if the kernel names P as the peer
 * (SO_PEERCRED, translated to our namespace): the name alone proves
 * nothing. Listing scans our run directory and those of processes in other
 * mount or pid namespaces, and removes the sockets of processes that are
 * gone from our own directory. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/ctl_client.h"
#include "util/util.h"
#include "wire/ctl_rundir.h"
#include "wire/env_names.h"

/* What /proc says of a process: its pid in its own namespace, its pid
 * namespace (0: the initial one) and effective uid. False if it is gone. */
struct proc_ident {
	pid_t nspid;
	uint64_t pidns;
	unsigned euid;
};

static bool proc_ident(pid_t pid, struct proc_ident *id)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	*id = (struct proc_ident){.nspid = pid};
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Uid:", 4) == 0) {
			unsigned r, e;
			if (sscanf(line + 4, "%u %u", &r, &e) == 2)
				id->euid = e;
		} else if (strncmp(line, "NSpid:", 6) == 0) {
			char *last = strrchr(line, '\t');
			long v = last ? strtol(last + 1, NULL, 10) : 0;
			if (v > 0)
				id->nspid = (pid_t)v;
		}
	}
	fclose(f);
	id->pidns = uft_pidns_of(pid);
	return true;
}

/* The run directories pid may use, as we reach them (through its root). */
struct dirs {
	char v[4][108];
	int n;
};

static void dirs_add(struct dirs *d, const char *root, const char *dir, const char *suffix)
{
	if (d->n < 4 && dir && *dir == '/') {
		int n = snprintf(d->v[d->n], sizeof(d->v[0]), "%s%s%s", root, dir, suffix);
		if (n > 0 && (size_t)n < sizeof(d->v[0]))
			d->n++;
	}
}

static void proc_dirs(pid_t pid, const struct proc_ident *id, struct dirs *d)
{
	char root[40], path[64], tmp[32];
	snprintf(root, sizeof(root), "/proc/%d/root", (int)pid);
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	enum { ENV_MAX = 1 << 16 };
	char *env = malloc(ENV_MAX);
	int fd = env ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		ssize_t n = read(fd, env, ENV_MAX - 1);
		close(fd);
		env[n > 0 ? n : 0] = 0;
		const char *rundir = NULL, *xdg = NULL;
		for (ssize_t i = 0; i < n; i += (ssize_t)strlen(env + i) + 1) {
			if (strncmp(env + i, UFT_ENV_RUNDIR "=", sizeof(UFT_ENV_RUNDIR)) == 0)
				rundir = env + i + sizeof(UFT_ENV_RUNDIR);
			else if (strncmp(env + i, "XDG_RUNTIME_DIR=", 16) == 0)
				xdg = env + i + 16;
		}
		if (rundir && *rundir)
			dirs_add(d, root, rundir, "");
		else if (xdg && *xdg)
			dirs_add(d, root, xdg, "/uft");
	}
	free(env);
	snprintf(tmp, sizeof(tmp), "/tmp/uft-%u", id->euid);
	dirs_add(d, root, tmp, "");
}

/* Connects to path if the process listening there is pid (0: anyone we can
 * see). -ECONNREFUSED or -ENOENT when nobody listens. */
static int connect_checked(const char *path, pid_t pid, struct uft_ctl_conn **out)
{
	struct uft_ctl_conn *c;
	int rc = uft_ctl_connect_path(path, &c);
	if (rc)
		return rc;
	pid_t peer = uft_ctl_peer_pid(c);
	if (!uft_ctl_peer_visible(c) || (pid && peer != pid)) {
		uft_ctl_close(c);
		return -ESRCH;
	}
	*out = c;
	return 0;
}

/* connect_checked, keeping the path that worked. */
static int try_path(const char *path, pid_t pid, struct uft_ctl_conn **out, char *where, size_t cap)
{
	int rc = connect_checked(path, pid, out);
	if (rc == 0 && where)
		snprintf(where, cap, "%s", path);
	return rc;
}

int uft_ctl_connect_pid(pid_t pid, struct uft_ctl_conn **out)
{
	return uft_ctl_connect_pid_path(pid, out, NULL, 0);
}

int uft_ctl_connect_pid_path(pid_t pid, struct uft_ctl_conn **out, char *where, size_t cap)
{
	if (pid <= 0)
		return -ESRCH;
	struct proc_ident id;
	bool known = proc_ident(pid, &id);
	if (!known && kill(pid, 0) != 0 && errno == ESRCH)
		return -ESRCH;
	if (!known) /* no /proc: the name in our namespace is all there is */
		id = (struct proc_ident){.nspid = pid};
	char dir[108], path[108];
	int own = uft_ctl_rundir(dir, sizeof(dir), false);
	if (own == 0 && uft_ctl_sock_path_ns(path, sizeof(path), dir, id.nspid, id.pidns) == 0 &&
	    try_path(path, pid, out, where, cap) == 0)
		return 0;
	if (known) {
		struct dirs d = {0};
		proc_dirs(pid, &id, &d);
		for (int i = 0; i < d.n; i++)
			if (uft_ctl_sock_path_ns(path, sizeof(path), d.v[i], id.nspid, id.pidns) ==
				0 &&
			    try_path(path, pid, out, where, cap) == 0)
				return 0;
	}
	if (own == -EPERM)
		return -EACCES; /* our directory is not this user's own */
	return -ENOTCONN;
}

const char *uft_ctl_connect_error(int rc)
{
	switch (rc) {
	case -ESRCH:
		return "No such process";
	case -ENOTCONN:
		return "not traced by uft (no control socket)";
	default:
		return strerror(-rc);
	}
}

/* ---- listing ---- */

struct pids {
	pid_t *v;
	size_t n, cap;
};

static void pids_add(struct pids *p, pid_t pid)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i] == pid)
			return;
	if (uft_array_reserve(p->v, p->cap, p->n + 1, 16) == 0)
		p->v[p->n++] = pid;
}

/* A socket nobody listens on whose process is gone for good: a plain name
 * whose pid is free, or a namespace's whose namespace no process has. */
static bool gone_for_good(const char *name, const char *path)
{
	char *end;
	long pid = strtol(name, &end, 10);
	if (pid <= 0)
		return false;
	struct uft_ctl_conn *c;
	int rc = uft_ctl_connect_path(path, &c);
	if (rc == 0) {
		uft_ctl_close(c);
		return false;
	}
	if (rc != -ECONNREFUSED)
		return false;
	if (strcmp(end, ".sock") == 0)
		return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
	unsigned long long ns;
	if (sscanf(end, "@%llu.sock", &ns) != 1)
		return false;
	DIR *d = opendir("/proc");
	if (!d)
		return false;
	bool used = false;
	struct dirent *e;
	while (!used && (e = readdir(d))) {
		long n = strtol(e->d_name, &end, 10);
		used = n > 0 && !*end && uft_pidns_of((pid_t)n) == ns;
	}
	closedir(d);
	return !used;
}

/* The processes answering in dir; with `own`, removes what is left of gone
 * ones. */
static void scan_dir(const char *dir, bool own, struct pids *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".sock") != 0)
			continue;
		char path[108];
		int n = snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		struct uft_ctl_conn *c;
		if (connect_checked(path, 0, &c) == 0) {
			pids_add(out, uft_ctl_peer_pid(c));
			uft_ctl_close(c);
		} else if (own && gone_for_good(e->d_name, path)) {
			unlink(path);
		}
	}
	closedir(d);
}

/* Run directories of processes in other mount or pid namespaces
 * (containers), each directory once. */
static void scan_containers(struct pids *out)
{
	uint64_t my_mnt = uft_ns_inode(0, "mnt"), my_pid = uft_ns_inode(0, "pid");
	struct {
		dev_t dev;
		ino_t ino;
	} seen[64];
	int nseen = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (pid <= 0 || *end)
			continue;
		uint64_t mnt = uft_ns_inode((pid_t)pid, "mnt"),
			 pidns = uft_ns_inode((pid_t)pid, "pid");
		if (!mnt || !pidns || (mnt == my_mnt && pidns == my_pid))
			continue;
		struct proc_ident id;
		if (!proc_ident((pid_t)pid, &id))
			continue;
		struct dirs ds = {0};
		proc_dirs((pid_t)pid, &id, &ds);
		for (int i = 0; i < ds.n; i++) {
			struct stat st;
			if (stat(ds.v[i], &st) != 0 || !S_ISDIR(st.st_mode))
				continue;
			bool dup = false;
			for (int k = 0; k < nseen && !dup; k++)
				dup = seen[k].dev == st.st_dev && seen[k].ino == st.st_ino;
			if (dup || nseen == 64)
				continue;
			seen[nseen].dev = st.st_dev;
			seen[nseen++].ino = st.st_ino;
			scan_dir(ds.v[i], false, out);
		}
	}
	closedir(d);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return x < y ? -1 : x > y;
}

int uft_ctl_list_pids(pid_t **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	struct pids p = {0};
	char dir[108];
	int rc = uft_ctl_rundir(dir, sizeof(dir), false);
	if (rc < 0 && rc != -ENOENT)
		return rc;
	if (rc == 0)
		scan_dir(dir, true, &p);
	scan_containers(&p);
	if (p.n)
		qsort(p.v, p.n, sizeof(*p.v), cmp_pid);
	*out = p.v;
	*nout = p.n;
	return 0;
}
