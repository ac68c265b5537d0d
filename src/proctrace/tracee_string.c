/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strings read from a tracee with process_vm_readv, one page at a time: a
 * read that spans an unmapped page fails whole, so a string that ends
 * before the hole must not be read across it. */
#define _GNU_SOURCE
#include "proctrace/tracee_string.h"

#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define PAGE 4096u /* x86-64; a smaller step than the real page is still right */

size_t pt_tracee_str(pid_t tid, uint64_t addr, char *out, size_t cap)
{
	size_t n = 0;
	while (n + 1 < cap) {
		uint64_t a = addr + n;
		size_t chunk = PAGE - (size_t)(a % PAGE);
		if (chunk > cap - 1 - n)
			chunk = cap - 1 - n;
		if (a + chunk < a) /* past the top of the address space */
			break;
		struct iovec local = {out + n, chunk};
		struct iovec remote = {(void *)(uintptr_t)a, chunk};
		ssize_t got = process_vm_readv(tid, &local, 1, &remote, 1, 0);
		if (got <= 0)
			break;
		char *z = memchr(out + n, 0, (size_t)got);
		if (z)
			return (size_t)(z - out);
		n += (size_t)got;
		if ((size_t)got < chunk)
			break;
	}
	out[n] = 0;
	return n;
}
