/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A running process's tree as a door backend (fuse/door.h): names, attributes
 * and directories over one shared connection to its control socket, and a
 * connection of its own for each open file, so a read sleeping on trace_pipe
 * holds up nothing else. Shared by uft mount and uft ns. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/ctl_client.h"
#include "client/live.h"
#include "cmd/remote_tree.h"
#include "wire/ctl_rundir.h"

struct remote_file {
	struct uft_ctl_conn *c;
	int h;
	volatile sig_atomic_t intr; /* an interrupt came, maybe before the read began */
};

/* Once the process is gone, calls fail as on a FUSE mount whose server died. */
static int gone(int rc)
{
	return rc == -ECONNRESET || rc == -EPIPE ? -ENOTCONN : rc;
}

static int r_stat(void *ctx, const char *path, struct uft_tfs_stat *st)
{
	return gone(uft_ctl_stat(((struct remote *)ctx)->shared, path, st));
}

static int r_readdir(void *ctx, const char *path, uft_tfs_dirent_fn fn, void *fn_ctx)
{
	return gone(uft_ctl_readdir(((struct remote *)ctx)->shared, path, fn, fn_ctx));
}

static int r_open(void *ctx, const char *path, unsigned flags, void **file)
{
	struct remote *r = ctx;
	struct remote_file *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	int rc = uft_ctl_connect_path(r->sock, &f->c);
	if (rc == 0) {
		uft_ctl_set_interrupt_flag(f->c, &f->intr);
		rc = f->h = uft_ctl_open(f->c, path, flags);
	}
	if (rc < 0) {
		uft_ctl_close(f->c);
		free(f);
		return rc == -ECONNREFUSED || rc == -ENOENT ? -ENOTCONN : gone(rc);
	}
	*file = f;
	return 0;
}

static ssize_t r_read(void *file, char *buf, size_t len, uint64_t off)
{
	struct remote_file *f = file;
	ssize_t n = uft_ctl_read(f->c, f->h, buf, len, off);
	f->intr = 0;
	return gone((int)n) == -ENOTCONN ? -ENOTCONN : n;
}

static ssize_t r_write(void *file, const char *buf, size_t len, uint64_t off)
{
	struct remote_file *f = file;
	ssize_t n = uft_ctl_write(f->c, f->h, buf, len, off);
	return gone((int)n) == -ENOTCONN ? -ENOTCONN : n;
}

static int r_poll(void *file)
{
	struct remote_file *f = file;
	int rc = uft_ctl_poll(f->c, f->h);
	return rc != 0; /* a gone process reads as ready: the read tells */
}

static unsigned r_poll_events(void *file, int peek)
{
	struct remote_file *f = file;
	int rc = uft_ctl_poll_events(f->c, f->h, peek != 0);
	return rc < 0 ? POLLIN | POLLRDNORM | POLLERR : (unsigned)rc; /* the read tells */
}

static void r_interrupt(void *file)
{
	struct remote_file *f = file;
	f->intr = 1;
	uft_ctl_interrupt(f->c);
}

static void r_release(void *file)
{
	struct remote_file *f = file;
	uft_ctl_release(f->c, f->h);
	uft_ctl_close(f->c);
	free(f);
}

static int r_mkdir(void *ctx, const char *path)
{
	return gone(uft_ctl_mkdir(((struct remote *)ctx)->shared, path));
}

static int r_rmdir(void *ctx, const char *path)
{
	return gone(uft_ctl_rmdir(((struct remote *)ctx)->shared, path));
}

/* The shared connection, to -S SOCKET or to the process's socket. Returns 0
 * or the exit status after a message (2: the socket or pid is refused). */
int remote_tree_connect(struct remote *r, long pid)
{
	int rc;
	if (r->sock[0]) {
		rc = uft_ctl_connect_path(r->sock, &r->shared);
		if (rc < 0)
			fprintf(stderr, "uft: %s: %s\n", r->sock, strerror(-rc));
	} else {
		rc = uft_ctl_connect_pid_path((pid_t)pid, &r->shared, r->sock, sizeof(r->sock));
		if (rc < 0)
			fprintf(stderr, "uft: process %ld: %s\n", pid, uft_ctl_connect_error(rc));
	}
	return rc == 0 ? 0 : live_refused(rc) ? 2 : 1;
}

struct uft_door_backend remote_tree_backend(struct remote *r)
{
	return (struct uft_door_backend){
	    .ctx = r,
	    .stat = r_stat,
	    .readdir = r_readdir,
	    .open = r_open,
	    .read = r_read,
	    .write = r_write,
	    .poll = r_poll,
	    .poll_events = r_poll_events,
	    .interrupt = r_interrupt,
	    .release = r_release,
	    .mkdir = r_mkdir,
	    .rmdir = r_rmdir,
	};
}
