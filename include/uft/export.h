/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UFT_EXPORT marks libuft's API. libuft is compiled with hidden visibility
 * and linked with a version script (src/runtime/libuft.map), so only what a
 * public header declares with this macro is exported from libuft.so; every
 * other symbol stays inside the library and cannot be replaced by a traced
 * program's own symbol of the same name. */
#ifndef UFT_EXPORT_H
#define UFT_EXPORT_H

/**
 * UFT_EXPORT - marks a declaration as part of libuft's exported API
 */
#define UFT_EXPORT __attribute__((visibility("default")))

#endif
