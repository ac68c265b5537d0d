/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every libuft carries an ELF note, so that a copy can tell whether the
 * program already has another: a program linked with libuft.a and run by
 * `uft record` through a launcher (taskset, env, a shell) inherits the
 * launcher's LD_PRELOAD of libuft.so, and two runtimes in one process would
 * each register, connect and write. The program's own copy is the one its
 * events and calls are bound to, so the preloaded one stands down. */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "runtime/core/runtime.h"

#define UFT_NOTE_TYPE 0x55465401u

/* name "uft", no descriptor: in a PT_NOTE segment of whatever links it */
__asm__(".pushsection .note.uft, \"a\", @note\n"
	".balign 4\n"
	".long 4\n"
	".long 0\n"
	".long 0x55465401\n"
	".asciz \"uft\"\n"
	".popsection\n");

static bool has_note(const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		const char *end = p + ph->p_memsz;
		while (p + 12 <= end) {
			uint32_t namesz, descsz, type;
			memcpy(&namesz, p, 4);
			memcpy(&descsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			const char *name = p + 12;
			size_t len = 12 + ((namesz + 3u) & ~3u) + ((descsz + 3u) & ~3u);
			if (len > (size_t)(end - p))
				break;
			if (type == UFT_NOTE_TYPE && namesz == 4 && memcmp(name, "uft", 4) == 0)
				return true;
			p += len;
		}
	}
	return false;
}

static bool contains(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && addr >= lo && addr < lo + ph->p_memsz)
			return true;
	}
	return false;
}

/* The first object dl_iterate_phdr reports is the main program. */
static int main_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	int *verdict = arg;
	*verdict = has_note(info) && !contains(info, (uintptr_t)&uft_runtime_stands_down);
	return 1;
}

bool uft_runtime_stands_down(void)
{
	int verdict = 0;
	dl_iterate_phdr(main_program, &verdict);
	return verdict;
}
