/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The built-in marker events and their rendering. */
#ifndef UFT_LIB_TFS_MARKER_H
#define UFT_LIB_TFS_MARKER_H

#include <stdint.h>
#include <stdio.h>

#define UFT_ID_RAW_DATA 16

void tfs_marker_init(void);
/* Prints the body of a marker record (print or raw_data) as the kernel's
 * trace file does; returns 0 for any other record. */
int tfs_marker_render(FILE *f, const void *data, uint32_t len);

#endif
