/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The FUSE low-level operations over a door backend (door.h). */
#ifndef UFT_FUSE_OPS_H
#define UFT_FUSE_OPS_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include "fuse/door.h"

struct uft_fuse_fs; /* the operations' state: inodes and open files */

extern const struct fuse_lowlevel_ops uft_fuse_ops;

/* shared: mounted for other users too (allow_other): they get what the
 * modes give the tree's group, nothing as "other". */
struct uft_fuse_fs *uft_fuse_fs_new(const struct uft_door_backend *be, bool shared);
void uft_fuse_fs_free(struct uft_fuse_fs *fs);
/* Ends every pending read, for shutting down; later reads are not stopped. */
void uft_fuse_fs_interrupt_all(struct uft_fuse_fs *fs);

#endif
