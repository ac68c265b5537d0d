/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Separate debug files of ELF objects, where gdb and elfutils look for them:
 * ROOT/.build-id/xx/rest.debug by the object's build-id, else the
 * .gnu_debuglink name in the object's directory, its .debug subdirectory and
 * ROOT/<directory>. ROOT is /usr/lib/debug, or $UFT_DEBUG_ROOT for tests
 * (read with secure_getenv(): set-id programs ignore it). Works on an ELF
 * image in memory, so libuft (no libelf) and the tools share it. */
#ifndef UFT_DEBUGFILE_H
#define UFT_DEBUGFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The image's section of type `type` named `name` (NULL: any name): its
 * bytes and size, checked to lie inside the image; NULL when none. */
const void *uft_elf_section(const void *image, size_t size, unsigned type, const char *name,
			    size_t *len);

/* The path of the debug file of the object at `path` whose image is given,
 * into out; false when the object names none or none is there. */
bool uft_debug_file(const char *path, const void *image, size_t size, char *out, size_t len);

#endif
