/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tree's call contract: the types every door to a tracefs tree shares.
 * The runtime implements the calls (runtime/tracefs/tracefs.h), the control
 * socket carries them between processes (wire/ctl_proto.h, client/ctl_client.h)
 * and the FUSE door serves them as a file system (fuse/door.h); none of those
 * includes another's header for these types. Paths are relative to the tree's
 * root without a leading slash; errors are negative errno values. */
#ifndef UFT_WIRE_TREE_CALLS_H
#define UFT_WIRE_TREE_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum uft_tfs_type {
	UFT_TFS_FILE = 1,
	UFT_TFS_DIR = 2,
};

struct uft_tfs_stat {
	int type;      /* enum uft_tfs_type */
	unsigned mode; /* permission bits as tracefs shows them (0444, 0644, 0200, 0750 ...) */
	/* The group a door shows, when the tree has an access group (the FUSE
	 * door otherwise shows its own); zero-initialise: not set. */
	unsigned group_set;
	gid_t gid;
};

/* Open flags: the subset of open(2)'s that changes what a control file does. */
enum {
	UFT_TFS_READ = 1u << 0,
	UFT_TFS_WRITE = 1u << 1,
	UFT_TFS_TRUNC = 1u << 2,    /* O_TRUNC: `>` (clears trace, replaces set_event ...) */
	UFT_TFS_APPEND = 1u << 3,   /* O_APPEND: `>>` */
	UFT_TFS_NONBLOCK = 1u << 4, /* O_NONBLOCK: trace_pipe returns -EAGAIN when empty */
};

typedef int (*uft_tfs_dirent_fn)(void *ctx, const char *name, int type);

/* The calls above as a door serves them: the tree's own functions (the
 * runtime's tracefs.h) or their remote form over the control socket
 * (client/ctl_client.h), with an open file as a void *. */
struct uft_door_backend {
	void *ctx;
	void (*thread_init)(void); /* once in each thread that serves; may be NULL */
	int (*stat)(void *ctx, const char *path, struct uft_tfs_stat *st);
	int (*readdir)(void *ctx, const char *path, uft_tfs_dirent_fn fn, void *fn_ctx);
	int (*open)(void *ctx, const char *path, unsigned flags, void **file);
	ssize_t (*read)(void *file, char *buf, size_t len, uint64_t off);
	ssize_t (*write)(void *file, const char *buf, size_t len, uint64_t off);
	/* Non-zero when a read would not block (NULL: always). */
	int (*poll)(void *file);
	/* poll(2)'s events (uft_tracefs_poll_events: POLLPRI on a hist file
	 * ...); peek changes nothing. NULL: POLLIN|POLLRDNORM when poll says. */
	unsigned (*poll_events)(void *file, int peek);
	/* From another thread: the file's pending read ends with -EINTR. */
	void (*interrupt)(void *file);
	void (*release)(void *file);
	int (*mkdir)(void *ctx, const char *path);
	int (*rmdir)(void *ctx, const char *path);
};

/* The FUSE door library's entry points (fuse/door.h), as libuft finds them in
 * libuft_fuse.so with dlsym. */
struct uft_fuse_door;
typedef struct uft_fuse_door *(*uft_fuse_door_open_fn)(const struct uft_door_backend *,
						       const char *, char *, size_t);
typedef void (*uft_fuse_door_close_fn)(struct uft_fuse_door *);
typedef void (*uft_fuse_door_forget_fn)(struct uft_fuse_door *);

#endif
