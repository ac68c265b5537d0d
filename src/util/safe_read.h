/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reading memory of this process that may not be mapped, without faulting. */
#ifndef UFT_SAFE_READ_H
#define UFT_SAFE_READ_H

#include <stddef.h>
#include <sys/types.h>

/* Copies up to n bytes from src into dst through process_vm_readv() on this
 * process, stopping at the first unreadable page. Returns the bytes copied
 * (0 when src itself is unreadable). Async-signal-safe; errno is preserved. */
size_t uft_safe_read(void *dst, const void *src, size_t n);

#endif
