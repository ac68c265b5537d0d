/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where a probed function's DWARF is: the loaded object holding the
 * function a definition names (a sled's, as uft_dprobe_resolve() finds it,
 * else an exported or symbol-table one) and its address in that file's own
 * terms, for the probe engine's names (src/engine/probe/probe_dwarf.c).
 * Runs at definition time, under the tree's lock. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/core/symtab.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "util/atomics.h"

/* LIB as the probes take it: a file name, a path, or a name up to a '.'. */
static bool lib_is(const char *path, const char *mod, const char *lib)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(lib);
	return (mod && strcmp(mod, lib) == 0) || strcmp(path, lib) == 0 || strcmp(base, lib) == 0 ||
	       (strncmp(base, lib, n) == 0 && base[n] == '.');
}

struct where {
	const char *lib, *sym;
	uintptr_t addr;
	char path[PATH_MAX];
	uintptr_t bias;
	bool found;
};

static int by_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct where *w = arg;
	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name || !lib_is(info->dlpi_name, NULL, w->lib))
		return 0;
	void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return 0;
	w->addr = (uintptr_t)dlsym(h, w->sym);
	dlclose(h);
	return w->addr != 0;
}

static int holder(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct where *w = arg;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type != PT_LOAD || w->addr < lo || w->addr >= lo + ph->p_memsz)
			continue;
		w->bias = info->dlpi_addr;
		if (info->dlpi_name && *info->dlpi_name) {
			snprintf(w->path, sizeof(w->path), "%s", info->dlpi_name);
		} else {
			ssize_t n = readlink("/proc/self/exe", w->path, sizeof(w->path) - 1);
			if (n <= 0)
				return 1;
			w->path[n] = 0;
		}
		w->found = true;
		return 1;
	}
	return 0;
}

int uft_dprobe_func_file(void *ctx, const char *lib, const char *sym, char *path, size_t len,
			 uint64_t *vaddr)
{
	(void)ctx;
	struct where w = {.lib = lib, .sym = sym};
	uft_ftrace_scan();
	uint32_t nr = smp_load_acquire(&uft_ftrace_nr_objs);
	for (uint32_t i = 0; i < nr && !w.addr; i++) {
		const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		if (o->gone || (lib && !lib_is(o->path, o->mod, lib)))
			continue;
		for (uint32_t k = 0; k < o->nr; k++)
			if (o->sites[k].name && strcmp(o->sites[k].name, sym) == 0) {
				w.addr = o->sites[k].func;
				break;
			}
	}
	if (!w.addr && lib) {
		dl_iterate_phdr(by_lib, &w);
	} else if (!w.addr) {
		size_t size;
		if (uft_symbol_by_name(sym, &w.addr, &size) != 0)
			w.addr = 0;
	}
	if (!w.addr)
		return -ENOENT;
	dl_iterate_phdr(holder, &w);
	if (!w.found || strlen(w.path) >= len)
		return -ENOENT;
	memcpy(path, w.path, strlen(w.path) + 1);
	*vaddr = w.addr - w.bias;
	return 0;
}
