/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Finds the uft_events sections of every loaded object from their ELF section
 * headers, so the registry can be complete before any object's constructors
 * ran (`uft list` stops the program at that point). */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/core/runtime.h"
#include <uft/uft.h>

static void scan_file(const char *path, ElfW(Addr) bias)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(ElfW(Ehdr))) {
		close(fd);
		return;
	}
	size_t size = (size_t)st.st_size;
	const unsigned char *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	const ElfW(Ehdr) *eh = (const void *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shoff == 0 ||
	    eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > size)
		goto out;
	const ElfW(Shdr) *sh = (const void *)(m + eh->e_shoff);
	const ElfW(Shdr) *strs = &sh[eh->e_shstrndx];
	if (strs->sh_offset + strs->sh_size > size)
		goto out;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size)
			continue;
		const char *name = (const char *)m + strs->sh_offset + sh[i].sh_name;
		if (strcmp(name, UFT_SECTION) != 0 || !sh[i].sh_addr)
			continue;
		struct uft_event *const *start = (void *)(bias + sh[i].sh_addr);
		struct uft_event *const *stop = (void *)(bias + sh[i].sh_addr + sh[i].sh_size);
		uft__register_section(start, stop);
	}
out:
	munmap((void *)m, size);
}

static int each_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	const char *path = info->dlpi_name;
	if (!path || !*path)
		path = "/proc/self/exe";
	if (strstr(path, "linux-vdso"))
		return 0;
	scan_file(path, info->dlpi_addr);
	return 0;
}

void uft_registry_scan_loaded(void)
{
	dl_iterate_phdr(each_object, NULL);
}
