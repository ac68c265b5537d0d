/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Records of other tasks written into the tree (tfs_inject.c). */
#ifndef UFT_TFS_INJECT_H
#define UFT_TFS_INJECT_H

#include <stdint.h>

/* While a record of another task is written, that task's name: what the
 * writer gives filters (COMM) and triggers (.execname) instead of the
 * writing thread's. NULL otherwise. */
extern __thread const char *uft_inject_comm;

/* The names of other tasks seen in injected records, as saved_cmdlines. */
void tfs_inject_comms(void (*fn)(void *ctx, int pid, const char *comm), void *ctx);

#endif
