/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Finding separate debug files (debugfile.h). Only 64-bit little-endian
 * objects of this machine's kind are read, as those are what run here. */
#define _GNU_SOURCE
#include "util/debugfile.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const void *uft_elf_section(const void *image, size_t size, unsigned type, const char *name,
			    size_t *len)
{
	const unsigned char *m = image;
	const Elf64_Ehdr *eh = image;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr))
		return NULL;
	const Elf64_Shdr *sh = (const void *)(m + eh->e_shoff);
	const Elf64_Shdr *names = eh->e_shstrndx < eh->e_shnum ? &sh[eh->e_shstrndx] : NULL;
	if (name && (!names || names->sh_offset > size || names->sh_size > size - names->sh_offset))
		return NULL;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != type || sh[i].sh_offset > size ||
		    sh[i].sh_size > size - sh[i].sh_offset)
			continue;
		if (name) {
			size_t nl = strlen(name);
			if (sh[i].sh_name >= names->sh_size ||
			    names->sh_size - sh[i].sh_name <= nl ||
			    memcmp(m + names->sh_offset + sh[i].sh_name, name, nl + 1) != 0)
				continue;
		}
		*len = sh[i].sh_size;
		return m + sh[i].sh_offset;
	}
	return NULL;
}

/* The GNU build-id note's bytes among the image's note sections. */
static const unsigned char *build_id(const void *image, size_t size, size_t *len)
{
	size_t n;
	const unsigned char *p = uft_elf_section(image, size, SHT_NOTE, ".note.gnu.build-id", &n);
	while (p && n >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		memcpy(&nh, p, sizeof(nh));
		size_t name_sz = (nh.n_namesz + 3) & ~3u, desc_sz = (nh.n_descsz + 3) & ~3u;
		if (name_sz + desc_sz > n - sizeof(nh))
			return NULL;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp(p + sizeof(nh), "GNU", 4) == 0 && nh.n_descsz) {
			*len = nh.n_descsz;
			return p + sizeof(nh) + name_sz;
		}
		p += sizeof(nh) + name_sz + desc_sz;
		n -= sizeof(nh) + name_sz + desc_sz;
	}
	return NULL;
}

static const char *debug_root(void)
{
	const char *r = secure_getenv("UFT_DEBUG_ROOT") /* UFT_ENV_DEBUG_ROOT */;
	return r && r[0] ? r : "/usr/lib/debug";
}

static bool readable(const char *path, const char *object)
{
	return strcmp(path, object) != 0 && access(path, R_OK) == 0;
}

bool uft_debug_file(const char *path, const void *image, size_t size, char *out, size_t len)
{
	const char *root = debug_root();
	size_t n;
	const unsigned char *id = build_id(image, size, &n);
	if (id && n >= 2 && n <= 64) {
		char hex[130];
		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		if ((size_t)snprintf(out, len, "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2) <
			len &&
		    readable(out, path))
			return true;
	}
	const char *link = uft_elf_section(image, size, SHT_PROGBITS, ".gnu_debuglink", &n);
	if (!link || !n || !memchr(link, 0, n) || strchr(link, '/'))
		return false;
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path) : 1;
	const char *d = slash ? path : ".";
	const char *forms[] = {"%.*s/%s", "%.*s/.debug/%s"};
	for (int i = 0; i < 2; i++)
		if ((size_t)snprintf(out, len, forms[i], dir, d, link) < len && readable(out, path))
			return true;
	return (size_t)snprintf(out, len, "%s%.*s/%s", root, dir, d, link) < len &&
	       readable(out, path);
}
