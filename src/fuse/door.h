/* The FUSE door: a tracefs tree mounted as a file system, so ls, cat and echo
 * work on it. The file system's operations are written once against the
 * backend below: libuft's tree in the same process (UFT_TRACEFS, through
 * libuft_fuse.so) or a running process's tree through its control socket
 * (`uft mount`). This header needs no libfuse, so both sides include it. */
#ifndef UFT_FUSE_DOOR_H
#define UFT_FUSE_DOOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runtime/tracefs/tracefs.h"

/* The tracefs calls (src/runtime/tracefs/tracefs.h) with an open file as a void *. */
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
	/* From another thread: the file's pending read ends with -EINTR. */
	void (*interrupt)(void *file);
	void (*release)(void *file);
	int (*mkdir)(void *ctx, const char *path);
	int (*rmdir)(void *ctx, const char *path);
};

struct uft_fuse_door;

/* Mounts the backend's tree at dir (private to the user unless
 * UFT_FUSE_ALLOW_OTHER=1) and serves it from threads of its own, which
 * block every signal. On failure returns NULL with one line in err. */
struct uft_fuse_door *uft_fuse_door_open(const struct uft_door_backend *be, const char *dir,
					 char *err, size_t errlen);
/* Readable once the file system has stopped (unmounted from outside). */
int uft_fuse_door_event_fd(const struct uft_fuse_door *d);
/* Interrupts pending reads, unmounts and frees the door. */
void uft_fuse_door_close(struct uft_fuse_door *d);
/* In a forked child: lets go of the parent's door without touching it. */
void uft_fuse_door_forget(struct uft_fuse_door *d);

/* The same three, as libuft finds them in libuft_fuse.so with dlsym. */
typedef struct uft_fuse_door *(*uft_fuse_door_open_fn)(const struct uft_door_backend *,
						       const char *, char *, size_t);
typedef void (*uft_fuse_door_close_fn)(struct uft_fuse_door *);
typedef void (*uft_fuse_door_forget_fn)(struct uft_fuse_door *);

#endif
