/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `uft attach` learns of a process from /proc and its ELF files: its
 * mappings, its executable's kind, and where a function of one of its
 * libraries is in its address space. */
#ifndef UFT_ATTACH_REMOTE_SYM_H
#define UFT_ATTACH_REMOTE_SYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct remote_map {
	uint64_t lo, hi, off;
	bool exec;
	char *path; /* "" when anonymous */
};

struct remote_maps {
	struct remote_map *v;
	size_t n, cap;
};

/* /proc/PID/maps. 0 or -errno. */
int remote_maps_read(pid_t pid, struct remote_maps *m);
void remote_maps_free(struct remote_maps *m);
/* The path of the first file mapped whose last component starts with one of
 * the prefixes (NULL-terminated list), or NULL. */
const char *remote_maps_find(const struct remote_maps *m, const char *const *prefixes);

/* The ELF class (ELFCLASS32, ELFCLASS64) of pid's executable and whether
 * it has a program interpreter (is dynamically linked). 0 or -errno. */
int remote_exe_kind(pid_t pid, int *elf_class, bool *dynamic);

/* The address in pid of the function sym defined by the object mapped from
 * path (a path of remote_maps). 0, -ENOENT (no such symbol), or -errno. */
int remote_sym_addr(pid_t pid, const struct remote_maps *m, const char *path, const char *sym,
		    uint64_t *addr);

/* Whether the ELF file at path has sym as an undefined, not weak, dynamic
 * symbol (a runtime it needs from the program, as a sanitizer's). */
bool remote_elf_needs(const char *path, const char *sym);

#endif
