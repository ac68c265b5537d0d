/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strings read from a tracee's memory for the syscall events' __NAME_val
 * fields. The memory is the tracee's, so hostile: any address, any content. */
#ifndef UFT_PT_TRACEE_STRING_H
#define UFT_PT_TRACEE_STRING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Reads the NUL-terminated string at addr in thread tid into out (cap bytes,
 * the NUL included; cap >= 1): the bytes before the first NUL, the first
 * fault or the bound. A fault at addr gives "". Returns the length. */
size_t pt_tracee_str(pid_t tid, uint64_t addr, char *out, size_t cap);

#endif
