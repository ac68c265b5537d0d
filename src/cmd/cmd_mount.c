/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft mount: a running process's tracefs tree as a FUSE file system, served
 * from here through the process's control socket. Each open file gets a
 * connection of its own, so a read sleeping on trace_pipe holds up nothing
 * else; names, attributes and directories share one. Runs in the foreground
 * until SIGINT, SIGTERM or SIGHUP, the process's exit, or an unmount from
 * outside, and unmounts on the way out. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuse/door.h"
#include "cmd/commands.h"
#include "client/ctl_client.h"
#include "cmd/remote_tree.h"
#include "cmd/cli.h"
#include "wire/env_names.h"

static const char usage[] =
    "usage: uft mount (-p PID | -S SOCKET) DIR\n"
    "  serves the process's tracefs tree at DIR with FUSE until interrupted or\n"
    "  the process exits, then unmounts; " UFT_ENV_FUSE_ALLOW_OTHER "=1 lets other users in\n";

/* Sleeps until a signal, the process's end or an unmount from outside. */
static void wait_for_end(pid_t pid, int door_fd, const sigset_t *sigs)
{
	int sfd = signalfd(-1, sigs, SFD_CLOEXEC);
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		struct pollfd p[3] = {{.fd = door_fd, .events = POLLIN},
				      {.fd = sfd, .events = POLLIN},
				      {.fd = pidfd, .events = POLLIN}};
		/* Without pidfds, the process is looked at twice a second. */
		int rc = poll(p, 3, pidfd < 0 ? 500 : -1);
		if (rc < 0 && errno != EINTR)
			break;
		if (p[0].revents || p[1].revents || p[2].revents)
			break;
		if (pidfd < 0 && kill(pid, 0) != 0 && errno == ESRCH)
			break;
	}
	if (sfd >= 0)
		close(sfd);
	if (pidfd >= 0)
		close(pidfd);
}

struct mount_opts {
	struct remote *r; /* -S fills r->sock */
	long pid;
	const char *dir;
};

static int take(void *opts, int opt, char *arg)
{
	struct mount_opts *o = opts;
	if (opt == 'p' && !cli_pid("uft mount", arg, &o->pid))
		return CLI_USAGE;
	if (opt == 'S')
		snprintf(o->r->sock, sizeof(o->r->sock), "%s", arg);
	return CLI_OK;
}

static int parse(struct mount_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {{"pid", required_argument, NULL, 'p'},
						 {"socket", required_argument, NULL, 'S'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	static const struct cli cli = {"uft mount", usage, "p:S:h", longopts, take};
	int first;
	int rc = cli_parse(&cli, o, argc, argv, &first);
	if (rc != CLI_OK)
		return rc;
	if ((!o->pid && !o->r->sock[0]) || first != argc - 1)
		return cli_usage_error(&cli);
	o->dir = argv[first];
	return CLI_OK;
}

/* Serves the tree at dir until the end; returns the exit status. */
static int serve(struct remote *r, const char *dir)
{
	/* The signals that end us are taken by wait_for_end, in this thread only. */
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, NULL);

	const struct uft_door_backend be = remote_tree_backend(r);
	char err[300];
	struct uft_fuse_door *d = uft_fuse_door_open(&be, dir, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "uft: %s: %s\n", dir, err);
		uft_ctl_close(r->shared);
		return 1;
	}
	wait_for_end(uft_ctl_peer_pid(r->shared), uft_fuse_door_event_fd(d), &sigs);
	uft_fuse_door_close(d); /* the shared connection may still serve a late request */
	return 0;
}

int cmd_mount(int argc, char **argv)
{
	struct remote r = {.shared = NULL};
	struct mount_opts o = {&r, 0, NULL};
	int rc = parse(&o, argc, argv);
	if (rc != CLI_OK)
		return rc;
	/* The directory first: a refused argument touches no process. */
	struct stat st;
	errno = 0;
	if (stat(o.dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "uft: %s: %s\n", o.dir, strerror(errno ? errno : ENOTDIR));
		return CLI_USAGE;
	}
	rc = remote_tree_connect(&r, o.pid);
	if (rc)
		return rc;
	return serve(&r, o.dir);
}
