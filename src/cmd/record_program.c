/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A program is linked with libuft when it needs libuft.so or defines
 * uft_init (libuft.a). Otherwise a dynamic one gets libuft by LD_PRELOAD,
 * which its children inherit; a program that needs libuft through one of
 * its libraries gets the preloaded copy, as the loader matches a needed
 * name against the sonames already loaded. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/libuft_path.h"
#include "cmd/record_program.h"

static bool runnable(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	if (S_ISDIR(st.st_mode)) {
		errno = EACCES;
		return false;
	}
	return access(path, X_OK) == 0;
}

char *program_find(const char *cmd)
{
	if (!*cmd) {
		errno = ENOENT;
		return NULL;
	}
	if (strchr(cmd, '/'))
		return runnable(cmd) ? strdup(cmd) : NULL;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	int first_err = ENOENT;
	for (const char *p = path;;) {
		const char *end = strchrnul(p, ':');
		char *full;
		/* An empty element is the current directory, as execvp has it. */
		if (asprintf(&full, "%.*s%s%s", (int)(end - p), p, end == p ? "" : "/", cmd) < 0)
			return NULL;
		if (runnable(full))
			return full;
		if (errno != ENOENT && first_err == ENOENT)
			first_err = errno;
		free(full);
		if (!*end)
			break;
		p = end + 1;
	}
	errno = first_err;
	return NULL;
}

static bool needs_libuft(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	for (size_t i = 0; d && sh->sh_entsize && i < sh->sh_size / sh->sh_entsize; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, dyn.d_un.d_val);
		if (name && strncmp(name, "libuft.so", 9) == 0)
			return true;
	}
	return false;
}

static bool defines_uft_init(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	for (size_t i = 0; d && sh->sh_entsize && i < sh->sh_size / sh->sh_entsize; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (name && strcmp(name, "uft_init") == 0)
			return true;
	}
	return false;
}

enum program_kind program_inspect(const char *path)
{
	enum program_kind kind = PROGRAM_OTHER;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kind;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		goto out;
	bool interp = false, linked = false;
	size_t nph = 0;
	elf_getphdrnum(e, &nph);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP)
			interp = true;
	}
	for (Elf_Scn *scn = NULL; !linked && (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNAMIC)
			linked = needs_libuft(e, scn, &sh);
		else if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			linked = defines_uft_init(e, scn, &sh);
	}
	kind = linked ? PROGRAM_LINKED : interp ? PROGRAM_DYNAMIC : PROGRAM_STATIC;
out:
	if (e)
		elf_end(e);
	close(fd);
	return kind;
}

/* LD_PRELOAD with lib before what it held (malloc'd). */
static char *preload_value(const char *lib, const char *old)
{
	char *v;
	if (asprintf(&v, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "") < 0)
		return NULL;
	return v;
}

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) ||                               \
    __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZER_BUILD 1
#else
#define SANITIZER_BUILD 0
#endif

void program_preload(enum program_kind kind)
{
	/* A sanitizer's libuft cannot go into a program built without it. */
	if (SANITIZER_BUILD)
		return;
	if (kind != PROGRAM_DYNAMIC && kind != PROGRAM_OTHER)
		return;
	char lib[PATH_MAX];
	char *v = preload_value(uft_libuft_path(lib, sizeof(lib)), getenv("LD_PRELOAD"));
	if (v)
		setenv("LD_PRELOAD", v, 1);
	free(v);
}
