/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include "proctrace/spawn_held.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t pt_spawn_held(const struct pt_options *o, char *const argv[], const struct pt_bpf *filter,
		    int *release, char *err, size_t errlen)
{
	int go[2];
	if (pipe2(go, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (pid == 0) {
		char c;
		close(go[1]);
		/* Held until the tracer is ready: a call the filter traces fails
		 * with ENOSYS while no tracer is attached. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (filter) {
			int rc = pt_bpf_install(filter);
			if (rc) {
				dprintf(2, "seccomp filter: %s\n", strerror(-rc));
				_exit(127);
			}
		}
		if (o->exec_path)
			execv(o->exec_path, argv);
		else
			execvp(argv[0], argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	*release = go[1];
	if (o->held)
		o->held(o->held_ctx, pid);
	return pid;
}

int pt_spawn_release(int release, char *err, size_t errlen)
{
	int rc = 0;
	if (write(release, "g", 1) != 1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		rc = -1;
	}
	close(release);
	return rc;
}

void pt_spawn_abort(pid_t pid, int release)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(release);
}
