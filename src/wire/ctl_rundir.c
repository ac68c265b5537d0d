/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The control sockets' directory (ctl_rundir.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "wire/ctl_rundir.h"
#include "wire/env_names.h"

static int check_private(const char *dir)
{
	struct stat st;
	if (lstat(dir, &st) != 0)
		return -errno;
	/* Group search alone is let through: a process with an access group
	 * opens the directory so to its members (their sockets stay 0600). */
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 067))
		return -EPERM;
	return 0;
}

static int make_dir(const char *dir, bool create)
{
	if (create && mkdir(dir, 0700) != 0 && errno != EEXIST)
		return -errno;
	return check_private(dir);
}

static int fits(int n, size_t cap)
{
	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

/* The user's own cache directory: nobody else can create names in it, so
 * it is the way out when /tmp/uft-<uid> was taken by another user. */
static int home_rundir(char *buf, size_t cap, bool create)
{
	const char *home = secure_getenv("HOME");
	struct passwd pw, *res = NULL;
	char pwbuf[1024];
	if (!home || *home != '/') {
		if (getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &res) != 0 || !res)
			return -ENOENT;
		home = res->pw_dir;
	}
	int rc = fits(snprintf(buf, cap, "%s/.cache", home), cap);
	if (rc == 0 && create && mkdir(buf, 0700) != 0 && errno != EEXIST)
		rc = -errno;
	if (rc == 0)
		rc = fits(snprintf(buf, cap, "%s/.cache/uft", home), cap);
	return rc ? rc : make_dir(buf, create);
}

/* /tmp/uft-<uid>, unless another user made that name first (or it is not a
 * private directory): then ~/.cache/uft, which the tools find the same way. */
static int tmp_rundir(char *buf, size_t cap, bool create)
{
	int rc = fits(snprintf(buf, cap, "/tmp/uft-%u", (unsigned)geteuid()), cap);
	if (rc)
		return rc;
	rc = make_dir(buf, create);
	if (rc != -EPERM)
		return rc;
	char taken[64];
	snprintf(taken, sizeof(taken), "%s", buf);
	rc = home_rundir(buf, cap, create);
	if (rc == 0 && create)
		fprintf(stderr, "uft: %s is not a private directory of this user; using %s\n",
			taken, buf);
	return rc;
}

int uft_ctl_rundir(char *buf, size_t cap, bool create)
{
	const char *env = secure_getenv(UFT_ENV_RUNDIR);
	const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
	int rc;
	if (env && *env)
		rc = fits(snprintf(buf, cap, "%s", env), cap);
	else if (xdg && *xdg)
		rc = fits(snprintf(buf, cap, "%s/uft", xdg), cap);
	else
		return tmp_rundir(buf, cap, create);
	return rc ? rc : make_dir(buf, create);
}

int uft_ctl_sock_path(char *buf, size_t cap, const char *dir, pid_t pid)
{
	return uft_ctl_sock_path_ns(buf, cap, dir, pid, 0);
}

/* The kernel's fixed inode of the initial pid namespace (PROC_PID_INIT_INO). */
#define INIT_PIDNS_INO 0xEFFFFFFCull

uint64_t uft_ns_inode(pid_t pid, const char *kind)
{
	char path[64];
	struct stat st;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, kind);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/%s", kind);
	return stat(path, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

uint64_t uft_pidns_of(pid_t pid)
{
	uint64_t ino = uft_ns_inode(pid, "pid");
	return ino == INIT_PIDNS_INO ? 0 : ino;
}

int uft_ctl_sock_path_ns(char *buf, size_t cap, const char *dir, pid_t nspid, uint64_t ns)
{
	int n = ns ? snprintf(buf, cap, "%s/%d@%llu.sock", dir, (int)nspid, (unsigned long long)ns)
		   : snprintf(buf, cap, "%s/%d.sock", dir, (int)nspid);
	if (n < 0 || (size_t)n >= cap || (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return -ENAMETOOLONG;
	return 0;
}
