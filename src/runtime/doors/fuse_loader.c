/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UFT_TRACEFS=DIR: the process mounts its own tracefs tree at DIR.
 *
 * libuft does not link libfuse: libuft_fuse.so does, and is loaded only when
 * the variable is set — from next to libuft.so, else from $UFT_FUSE_LIB, else
 * by name. libuft hands it the tree's calls as a backend table, so the plugin
 * needs no libuft symbols. Any failure costs one line on stderr; the program
 * runs on. The variable is taken out of the environment so that programs this
 * one starts do not mount over the same directory. A setuid, setgid or
 * file-capability program ignores both variables (runtime/core/secure_env.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire/tree_calls.h"
#include "runtime/doors/access.h"
#include "runtime/doors/doors.h"
#include "runtime/core/secure_env.h"
#include "runtime/tracefs/tracefs.h"
#include "wire/env_names.h"

static int be_stat(void *ctx, const char *path, struct uft_tfs_stat *st)
{
	int rc = uft_tracefs_stat(path, st);
	if (rc == 0)
		uft_access_door_stat(path, st);
	return rc;
}

static int be_readdir(void *ctx, const char *path, uft_tfs_dirent_fn fn, void *fn_ctx)
{
	return uft_tracefs_readdir(path, fn, fn_ctx);
}

static int be_open(void *ctx, const char *path, unsigned flags, void **file)
{
	struct uft_tfs_handle *h = NULL;
	int rc = uft_tracefs_open(path, flags, &h);
	*file = h;
	return rc;
}

static ssize_t be_read(void *file, char *buf, size_t len, uint64_t off)
{
	return uft_tracefs_read(file, buf, len, off);
}

static ssize_t be_write(void *file, const char *buf, size_t len, uint64_t off)
{
	return uft_tracefs_write(file, buf, len, off);
}

static int be_poll(void *file)
{
	return uft_tracefs_poll(file);
}

static unsigned be_poll_events(void *file, int peek)
{
	return uft_tracefs_poll_events(file, peek != 0);
}

static void be_interrupt(void *file)
{
	uft_tracefs_interrupt(file);
}

static void be_release(void *file)
{
	uft_tracefs_release(file);
}

static int be_mkdir(void *ctx, const char *path)
{
	return uft_tracefs_mkdir(path);
}

static int be_rmdir(void *ctx, const char *path)
{
	return uft_tracefs_rmdir(path);
}

static const struct uft_door_backend in_process = {
    .thread_init = uft_tracefs_thread_notrace,
    .stat = be_stat,
    .readdir = be_readdir,
    .open = be_open,
    .read = be_read,
    .write = be_write,
    .poll = be_poll,
    .poll_events = be_poll_events,
    .interrupt = be_interrupt,
    .release = be_release,
    .mkdir = be_mkdir,
    .rmdir = be_rmdir,
};

static struct {
	struct uft_fuse_door *door;
	pid_t owner;
	uft_fuse_door_close_fn close;
	uft_fuse_door_forget_fn forget;
} fuse_door;

static void *load_plugin(void)
{
	Dl_info info;
	if (dladdr((void *)uft_fuse_door_start, &info) && info.dli_fname) {
		const char *slash = strrchr(info.dli_fname, '/');
		char path[PATH_MAX];
		int n = slash ? snprintf(path, sizeof(path), "%.*s/libuft_fuse.so",
					 (int)(slash - info.dli_fname), info.dli_fname)
			      : -1;
		if (n > 0 && (size_t)n < sizeof(path) && access(path, F_OK) == 0)
			return dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	const char *env = uft_env(UFT_ENV_FUSE_LIB);
	if (env && *env)
		return dlopen(env, RTLD_NOW | RTLD_LOCAL);
	return dlopen("libuft_fuse.so", RTLD_NOW | RTLD_LOCAL);
}

static void close_at_exit(void)
{
	if (fuse_door.door && fuse_door.owner == getpid())
		fuse_door.close(fuse_door.door);
	fuse_door.door = NULL;
}

/* A forked child shares the parent's mount but must not serve or end it. */
static void forget_in_child(void)
{
	if (fuse_door.door)
		fuse_door.forget(fuse_door.door);
	fuse_door.door = NULL;
}

void uft_fuse_door_start(void)
{
	const char *env = uft_env(UFT_ENV_TRACEFS);
	if (!env || !*env)
		return;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", env);
	unsetenv(UFT_ENV_TRACEFS);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		fprintf(stderr, "uft: " UFT_ENV_TRACEFS "=%s: %s\n", dir, strerror(errno));
		return;
	}
	void *lib = load_plugin();
	uft_fuse_door_open_fn open_door =
	    lib ? (uft_fuse_door_open_fn)dlsym(lib, "uft_fuse_door_open") : NULL;
	fuse_door.close = lib ? (uft_fuse_door_close_fn)dlsym(lib, "uft_fuse_door_close") : NULL;
	fuse_door.forget = lib ? (uft_fuse_door_forget_fn)dlsym(lib, "uft_fuse_door_forget") : NULL;
	if (!open_door || !fuse_door.close || !fuse_door.forget) {
		fprintf(stderr, "uft: " UFT_ENV_TRACEFS "=%s: no FUSE door: %s\n", dir,
			lib ? "libuft_fuse.so lacks its entry points" : dlerror());
		return;
	}
	char err[300];
	uft_access_init(); /* before the door's threads read it */
	fuse_door.door = open_door(&in_process, dir, err, sizeof(err));
	if (!fuse_door.door) {
		fprintf(stderr, "uft: " UFT_ENV_TRACEFS "=%s: %s\n", dir, err);
		return;
	}
	fuse_door.owner = getpid();
	atexit(close_at_exit);
	pthread_atfork(NULL, NULL, forget_in_child);
}
