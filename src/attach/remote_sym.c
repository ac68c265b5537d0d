/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A process's mappings, its executable's kind and its libraries' symbols
 * (remote_sym.h). Files are opened through /proc/PID/root, so a process in
 * another mount namespace has its own libc read. A symbol's address is the
 * object's load bias (where its first PT_LOAD is mapped, less that
 * segment's page-rounded address) plus its value in .dynsym. */
#define _GNU_SOURCE
#include "attach/remote_sym.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

int remote_maps_read(pid_t pid, struct remote_maps *m)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	*m = (struct remote_maps){0};
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	while (getline(&line, &cap, f) > 0) {
		struct remote_map r = {0};
		char perms[8];
		int name = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &r.lo, &r.hi,
			   perms, &r.off, &name) < 4)
			continue;
		char *p = name ? line + name : line + strlen(line);
		p[strcspn(p, "\n")] = 0;
		r.exec = perms[2] == 'x';
		if (!(r.path = strdup(p)) || uft_vec_push(m, r) != 0) {
			free(r.path);
			rc = -ENOMEM;
			break;
		}
	}
	free(line);
	fclose(f);
	if (rc)
		remote_maps_free(m);
	return rc;
}

void remote_maps_free(struct remote_maps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	*m = (struct remote_maps){0};
}

const char *remote_maps_find(const struct remote_maps *m, const char *const *prefixes)
{
	for (size_t i = 0; i < m->n; i++) {
		const char *base = strrchr(m->v[i].path, '/');
		if (!base)
			continue;
		for (const char *const *p = prefixes; *p; p++)
			if (strncmp(base + 1, *p, strlen(*p)) == 0)
				return m->v[i].path;
	}
	return NULL;
}

/* An ELF file of pid's (its own view of path) read with libelf. */
static Elf *open_elf(pid_t pid, const char *path, int *fd)
{
	char full[4200];
	if (pid)
		snprintf(full, sizeof(full), "/proc/%d/root%s", (int)pid, path);
	else
		snprintf(full, sizeof(full), "%s", path);
	elf_version(EV_CURRENT);
	if ((*fd = open(full, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	Elf *e = elf_begin(*fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		errno = ENOEXEC;
		return NULL;
	}
	return e;
}

static void close_elf(Elf *e, int fd)
{
	elf_end(e);
	close(fd);
}

int remote_exe_kind(pid_t pid, int *elf_class, bool *dynamic)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	int fd;
	Elf *e = open_elf(0, path, &fd);
	if (!e)
		return -errno;
	*elf_class = gelf_getclass(e);
	*dynamic = false;
	size_t n = 0;
	GElf_Phdr ph;
	if (elf_getphdrnum(e, &n) == 0)
		for (size_t i = 0; i < n; i++)
			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP)
				*dynamic = true;
	close_elf(e, fd);
	return 0;
}

/* The lowest PT_LOAD address, page-rounded down. */
static bool first_load(Elf *e, uint64_t *vaddr)
{
	size_t n = 0;
	GElf_Phdr ph;
	bool found = false;
	if (elf_getphdrnum(e, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (!found || ph.p_vaddr < *vaddr)) {
			*vaddr = ph.p_vaddr;
			found = true;
		}
	*vaddr &= ~(uint64_t)0xfff;
	return found;
}

/* sym's value among the defined functions of the file's .dynsym. */
static bool dynsym_value(Elf *e, const char *sym, uint64_t *value)
{
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym st;
			if (!gelf_getsym(d, (int)i, &st) || st.st_shndx == SHN_UNDEF ||
			    GELF_ST_TYPE(st.st_info) != STT_FUNC)
				continue;
			const char *name = elf_strptr(e, sh.sh_link, st.st_name);
			if (name && strcmp(name, sym) == 0) {
				*value = st.st_value;
				return true;
			}
		}
	}
	return false;
}

int remote_sym_addr(pid_t pid, const struct remote_maps *m, const char *path, const char *sym,
		    uint64_t *addr)
{
	const struct remote_map *base = NULL;
	for (size_t i = 0; i < m->n && !base; i++)
		if (m->v[i].off == 0 && strcmp(m->v[i].path, path) == 0)
			base = &m->v[i];
	if (!base)
		return -ENOENT;
	int fd;
	Elf *e = open_elf(pid, path, &fd);
	if (!e)
		return -errno;
	uint64_t vaddr = 0, value = 0;
	int rc = -ENOENT;
	if (first_load(e, &vaddr) && dynsym_value(e, sym, &value)) {
		*addr = base->lo - vaddr + value;
		rc = 0;
	}
	close_elf(e, fd);
	return rc;
}

bool remote_elf_needs(const char *path, const char *sym)
{
	int fd;
	Elf *e = open_elf(0, path, &fd);
	if (!e)
		return false;
	bool found = false;
	for (Elf_Scn *s = elf_nextscn(e, NULL); s && !found; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n && !found; i++) {
			GElf_Sym st;
			const char *name;
			found = gelf_getsym(d, (int)i, &st) && st.st_shndx == SHN_UNDEF &&
				GELF_ST_BIND(st.st_info) == STB_GLOBAL &&
				(name = elf_strptr(e, sh.sh_link, st.st_name)) &&
				strcmp(name, sym) == 0;
		}
	}
	close_elf(e, fd);
	return found;
}
