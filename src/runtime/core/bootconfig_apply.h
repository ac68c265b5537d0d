/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UFT_BOOTCONFIG: a bootconfig file applied to the tree at start-up
 * (docs/design/bootconfig.md). */
#ifndef UFT_BOOTCONFIG_APPLY_H
#define UFT_BOOTCONFIG_APPLY_H

#include <stdio.h>

#include "engine/bootconfig/bootconfig.h"

/* Applies the file UFT_BOOTCONFIG names (uft_env: ignored in a secure
 * process), if any. Called from start-up with the program's events
 * registered. A file that does not parse changes nothing; a setting the tree
 * refuses undoes what the file had applied. Either way the error goes to
 * stderr with the key and its line, and the program runs on. */
void uft_bootconfig_apply_env(void);
/* The same with its messages on out (each line starts "uft: "); 0, or -1
 * when the file named was not applied. */
int uft_bootconfig_apply_env_to(FILE *out);

/* Applies a parsed tree; `file` names it in messages. 0 or the first error
 * (everything undone). */
int uft_bootconfig_apply(struct uft_bc_tree *t, const char *file);

#endif
