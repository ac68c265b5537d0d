/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The doors to the in-process tracefs tree that open at start-up. */
#ifndef UFT_LIB_DOORS_H
#define UFT_LIB_DOORS_H

/* ctl_server.c: serves the tree on <rundir>/<pid>.sock, unless UFT_CTL=0. */
void uft_ctl_server_start(void);

/* fuse_door.c: when UFT_TRACEFS names a directory, mounts the tree there
 * through libuft_fuse.so, loaded only then. */
void uft_fuse_door_start(void);

#endif
