/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the libuft that belongs to this uft is: the one to load into a
 * program that was not linked with it. */
#ifndef UFT_LIBUFT_PATH_H
#define UFT_LIBUFT_PATH_H

#include <stddef.h>

/* The absolute path of the libuft beside this uft (../lib/ of its binary,
 * as the build tree and `make install` lay it out) in buf; else its soname,
 * for the dynamic loader to search. Returns buf. */
const char *uft_libuft_path(char *buf, size_t len);

#endif
