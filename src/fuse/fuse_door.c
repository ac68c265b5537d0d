/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mounting, serving and unmounting a door (door.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuse/fuse_ops.h"
#include "wire/env_names.h"

struct uft_fuse_door {
	struct uft_door_backend be;
	struct fuse_session *se;
	struct uft_fuse_fs *fs;
	pthread_t loop;
	int done[2]; /* written when the loop has ended */
};

/* libfuse's complaints while mounting become the one line of err. */
static char mount_log[256];

static void capture_log(enum fuse_log_level level, const char *fmt, va_list ap)
{
	if (level <= FUSE_LOG_ERR && !mount_log[0]) {
		vsnprintf(mount_log, sizeof(mount_log), fmt, ap);
		mount_log[strcspn(mount_log, "\n")] = 0;
	}
}

static void *loop_main(void *arg)
{
	struct uft_fuse_door *d = arg;
	if (d->be.thread_init)
		d->be.thread_init();
	struct fuse_loop_config *cfg = fuse_loop_cfg_create();
	if (cfg) {
		fuse_loop_cfg_set_max_threads(cfg, 16);
		fuse_loop_cfg_set_idle_threads(cfg, 2);
		fuse_session_loop_mt(d->se, cfg);
		fuse_loop_cfg_destroy(cfg);
	}
	if (write(d->done[1], "", 1) < 0) {
		/* the door is being torn down already */
	}
	return NULL;
}

static void free_door(struct uft_fuse_door *d)
{
	if (d->se)
		fuse_session_destroy(d->se);
	if (d->fs)
		uft_fuse_fs_free(d->fs);
	for (int i = 0; i < 2; i++)
		if (d->done[i] >= 0)
			close(d->done[i]);
	free(d);
}

struct uft_fuse_door *uft_fuse_door_open(const struct uft_door_backend *be, const char *dir,
					 char *err, size_t errlen)
{
	struct uft_fuse_door *d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	d->be = *be;
	d->done[0] = d->done[1] = -1;
	const char *other = secure_getenv(UFT_ENV_FUSE_ALLOW_OTHER);
	bool shared = other && strcmp(other, "1") == 0;
	d->fs = uft_fuse_fs_new(&d->be, shared);
	if (!d->fs || pipe2(d->done, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		free_door(d);
		return NULL;
	}
	char opts[96];
	/* Shared with other users, the kernel checks the modes the tree shows
	 * (default_permissions): FUSE itself lets any user write any file. */
	snprintf(opts, sizeof(opts), "fsname=uft,subtype=uft%s",
		 shared ? ",allow_other,default_permissions" : "");
	char *argv[] = {"uft", "-o", opts, NULL};
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	mount_log[0] = 0;
	fuse_set_log_func(capture_log);
	d->se = fuse_session_new(&args, &uft_fuse_ops, sizeof(uft_fuse_ops), d->fs);
	int rc = d->se ? fuse_session_mount(d->se, dir) : -1;
	fuse_set_log_func(NULL);
	fuse_opt_free_args(&args);
	if (rc != 0) {
		snprintf(err, errlen, "cannot mount: %s",
			 mount_log[0] ? mount_log : "the FUSE session failed");
		if (d->se) {
			fuse_session_destroy(d->se);
			d->se = NULL;
		}
		free_door(d);
		return NULL;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the serving threads take no signals */
	rc = pthread_create(&d->loop, NULL, loop_main, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(err, errlen, "%s", strerror(rc));
		fuse_session_unmount(d->se);
		free_door(d);
		return NULL;
	}
	return d;
}

int uft_fuse_door_event_fd(const struct uft_fuse_door *d)
{
	return d->done[0];
}

void uft_fuse_door_close(struct uft_fuse_door *d)
{
	if (!d)
		return;
	fuse_session_exit(d->se);
	/* Workers sleeping in a read would keep the loop from ending. */
	uft_fuse_fs_interrupt_all(d->fs);
	/* Detaching the mount ends the kernel's connection, which wakes the
	 * workers waiting for requests. */
	fuse_session_unmount(d->se);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	if (pthread_timedjoin_np(d->loop, NULL, &ts) == 0)
		free_door(d);
	/* else a request still runs: the door is left to the process's end */
}

void uft_fuse_door_forget(struct uft_fuse_door *d)
{
	if (d)
		close(fuse_session_fd(d->se));
}
