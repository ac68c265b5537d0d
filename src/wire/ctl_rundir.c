/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The control sockets' directory (ctl_rundir.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

int uft_ctl_rundir(char *buf, size_t cap, bool create)
{
	const char *env = secure_getenv(UFT_ENV_RUNDIR);
	const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
	int n;
	if (env && *env)
		n = snprintf(buf, cap, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, cap, "%s/uft", xdg);
	else
		n = snprintf(buf, cap, "/tmp/uft-%u", (unsigned)geteuid());
	if (n < 0 || (size_t)n >= cap)
		return -ENAMETOOLONG;
	if (create && mkdir(buf, 0700) != 0 && errno != EEXIST)
		return -errno;
	return check_private(buf);
}

int uft_ctl_sock_path(char *buf, size_t cap, const char *dir, pid_t pid)
{
	int n = snprintf(buf, cap, "%s/%d.sock", dir, (int)pid);
	if (n < 0 || (size_t)n >= cap || (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return -ENAMETOOLONG;
	return 0;
}
