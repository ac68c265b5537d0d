/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file offset of an address of a loaded object, as uprobe_events and
 * PATH:OFFSET probes take it: dl_iterate_phdr(foff_one, &io) with io the
 * address in, the offset out (1 when found). */
#ifndef UFT_TEST_FILE_OFFSET_H
#define UFT_TEST_FILE_OFFSET_H

#include <link.h>
#include <stdint.h>

static int foff_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	uint64_t *io = arg; /* in: the address, out: the file offset */
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t v = *io - info->dlpi_addr;
		if (ph->p_type == PT_LOAD && v >= ph->p_vaddr && v < ph->p_vaddr + ph->p_filesz) {
			*io = v - ph->p_vaddr + ph->p_offset;
			return 1;
		}
	}
	return 0;
}

#endif
