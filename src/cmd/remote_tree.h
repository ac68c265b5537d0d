/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A running process's tracefs tree, served through its control socket, as a
 * door backend (fuse/door.h), for uft mount and uft ns. */
#ifndef UFT_REMOTE_TREE_H
#define UFT_REMOTE_TREE_H

#include "fuse/door.h"

struct uft_ctl_conn;

struct remote {
	char sock[108]; /* set before remote_tree_connect for -S SOCKET */
	struct uft_ctl_conn *shared;
};

/* Connects r->shared to r->sock, or to the socket of process pid when
 * r->sock is empty. Returns 0, or the exit status after a message on
 * standard error: 2 when the socket or pid is refused (no such process, not
 * traced, no socket there), 1 when the connection fails otherwise. */
int remote_tree_connect(struct remote *r, long pid);
/* The backend over r, which must outlive the door. */
struct uft_door_backend remote_tree_backend(struct remote *r);

#endif
