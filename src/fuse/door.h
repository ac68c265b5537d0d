/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The FUSE door: a tracefs tree mounted as a file system, so ls, cat and echo
 * work on it. The file system's operations are written once against a
 * backend (wire/tree_calls.h): libuft's tree in the same process (UFT_TRACEFS, through
 * libuft_fuse.so) or a running process's tree through its control socket
 * (`uft mount`). This header needs no libfuse. */
#ifndef UFT_FUSE_DOOR_H
#define UFT_FUSE_DOOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire/tree_calls.h"

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

#endif
