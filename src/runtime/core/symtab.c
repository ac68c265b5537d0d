/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Symbol lookup for printing addresses: dladdr() when the exported symbol
 * holds the address, else the .symtab of the object the address belongs
 * to or of its separate debug file, mapped once and kept (objects seldom
 * change under a tracing session). */
#define _GNU_SOURCE
#include "runtime/core/symtab.h"

#include "engine/filter/filter.h"
#include "util/debugfile.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct mapped {
	char path[256];
	const unsigned char *m;
	size_t size;
};

/* Objects and their debug files; a lookup may map both of one object. */
#define NR_MAPPED 16
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mapped cache[NR_MAPPED];
static unsigned next_slot;

static const struct mapped *map_file(const char *path)
{
	for (unsigned i = 0; i < NR_MAPPED; i++)
		if (cache[i].m && strcmp(cache[i].path, path) == 0)
			return &cache[i];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	const unsigned char *m = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(ElfW(Ehdr)))
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	struct mapped *c = &cache[next_slot++ % NR_MAPPED];
	if (c->m)
		munmap((void *)c->m, c->size);
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->m = m;
	c->size = (size_t)st.st_size;
	return c;
}

/* The .symtab of a file and its strings, checked to lie inside it. */
struct symtab_view {
	const ElfW(Sym) * sym;
	size_t n;
	const char *str;
	size_t str_size;
};

static int symtab_view(const struct mapped *f, struct symtab_view *v)
{
	const unsigned char *m = f->m;
	const ElfW(Ehdr) *eh = (const void *)m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > f->size)
		return -1;
	const ElfW(Shdr) *sh = (const void *)(m + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_entsize != sizeof(ElfW(Sym)))
			continue;
		const ElfW(Shdr) *strs = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + sh[i].sh_size > f->size ||
		    strs->sh_offset + strs->sh_size > f->size)
			return -1;
		v->sym = (const void *)(m + sh[i].sh_offset);
		v->n = sh[i].sh_size / sizeof(*v->sym);
		v->str = (const char *)m + strs->sh_offset;
		v->str_size = strs->sh_size;
		return 0;
	}
	return -1;
}

static bool is_function(const ElfW(Sym) * sym)
{
	int type = ELF64_ST_TYPE(sym->st_info);
	return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_value &&
	       sym->st_shndx != SHN_UNDEF;
}

/* Whether the function symbol holds the file address off: inside its
 * extent, or, without a size, exactly at its address (a size-less
 * symbol's end is unknown: naming what follows it would guess). */
static bool holds(const ElfW(Sym) * sym, uintptr_t off)
{
	return sym->st_size ? off - sym->st_value < sym->st_size : off == sym->st_value;
}

/* The function symbol of the file-relative address off in the .symtab:
 * its name into buf, its file address and size. The innermost one holding
 * it, a global before a local alias. */
static int from_symtab(const struct mapped *f, uintptr_t off, char *buf, size_t len,
		       uintptr_t *start, size_t *size)
{
	struct symtab_view v;
	if (symtab_view(f, &v) != 0)
		return -1;
	const ElfW(Sym) *best = NULL;
	for (size_t k = 0; k < v.n; k++) {
		const ElfW(Sym) *sym = &v.sym[k];
		if (!is_function(sym) || !holds(sym, off) || sym->st_name >= v.str_size)
			continue;
		if (!best || sym->st_value > best->st_value ||
		    (sym->st_value == best->st_value && ELF64_ST_BIND(best->st_info) == STB_LOCAL &&
		     ELF64_ST_BIND(sym->st_info) != STB_LOCAL))
			best = sym;
	}
	if (!best)
		return -1;
	const char *name = v.str + best->st_name;
	snprintf(buf, len, "%.*s", (int)strnlen(name, v.str_size - best->st_name), name);
	*start = best->st_value;
	*size = best->st_size;
	return 0;
}

/* The object's .symtab, else its separate debug file's (debugfile.h):
 * Debian strips local symbols such as libc's start_thread. */
static int from_file(const char *path, uintptr_t off, char *buf, size_t len, uintptr_t *start,
		     size_t *size)
{
	const struct mapped *f = map_file(path);
	if (!f)
		return -1;
	struct symtab_view v;
	if (symtab_view(f, &v) == 0)
		return from_symtab(f, off, buf, len, start, size);
	char debug[256];
	if (!uft_debug_file(path, f->m, f->size, debug, sizeof(debug)))
		return -1;
	f = map_file(debug);
	return f ? from_symtab(f, off, buf, len, start, size) : -1;
}

int uft_symbol_find(uintptr_t addr, struct uft_symbol *out)
{
	Dl_info di;
	const ElfW(Sym) *ds = NULL;
	struct link_map *lm = NULL;
	memset(out, 0, sizeof(*out));
	if (!dladdr1((void *)addr, &di, (void **)&ds, RTLD_DL_SYMENT))
		return -1;
	if (dladdr1((void *)addr, &di, (void **)&lm, RTLD_DL_LINKMAP) && lm && lm->l_name &&
	    lm->l_name[0]) {
		const char *base = strrchr(lm->l_name, '/');
		snprintf(out->module, sizeof(out->module), "%s", base ? base + 1 : lm->l_name);
	}
	if (!di.dli_fname || !di.dli_fname[0])
		return -1;
	const char *path = di.dli_fname;
	char exe[256];
	if (!strchr(path, '/')) { /* the program, named as it was started */
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n > 0) {
			exe[n] = 0;
			path = exe;
		}
	}
	const char *slash = strrchr(path, '/');
	snprintf(out->object, sizeof(out->object), "%.127s", slash ? slash + 1 : path);
	/* Symbols are file addresses: the load bias of a PIE or a library is
	 * the object's base; a fixed executable has none. */
	const ElfW(Ehdr) *eh = di.dli_fbase;
	uintptr_t bias = eh && eh->e_type == ET_DYN ? (uintptr_t)di.dli_fbase : 0;
	out->base = bias;
	/* dladdr() names the nearest exported symbol below addr, whatever its
	 * size: only one that holds addr is its function. */
	if (di.dli_sname && di.dli_saddr && ds && holds(ds, addr - bias)) {
		snprintf(out->name, sizeof(out->name), "%s", di.dli_sname);
		out->start = (uintptr_t)di.dli_saddr;
		out->size = ds->st_size;
		return 0;
	}
	uintptr_t start = 0;
	size_t size = 0;
	pthread_mutex_lock(&lock);
	int rc = from_file(path, addr - bias, out->name, sizeof(out->name), &start, &size);
	pthread_mutex_unlock(&lock);
	if (rc != 0) {
		out->name[0] = 0;
		return -1;
	}
	out->start = start + bias;
	out->size = size;
	return 0;
}

int uft_symbol_tag(const struct uft_symbol *s, uintptr_t addr, char *buf, size_t len)
{
	if (!s->object[0])
		return -1;
	snprintf(buf, len, "[%s+0x%lx]", s->object, (unsigned long)(addr - s->base));
	return 0;
}

int uft_symbol_name(uintptr_t addr, char *buf, size_t len)
{
	struct uft_symbol s;
	if (uft_symbol_find(addr, &s) != 0)
		return -1;
	snprintf(buf, len, "%s", s.name);
	return 0;
}

/* The function named `name` in the .symtab of f: its file address and size. */
static int symtab_name(const struct mapped *f, const char *name, uintptr_t *start, size_t *size)
{
	struct symtab_view v;
	if (symtab_view(f, &v) != 0)
		return -1;
	size_t len = strlen(name);
	for (size_t k = 0; k < v.n; k++) {
		const ElfW(Sym) *sym = &v.sym[k];
		if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_value ||
		    sym->st_name + len >= v.str_size ||
		    memcmp(v.str + sym->st_name, name, len + 1) != 0)
			continue;
		*start = sym->st_value;
		*size = sym->st_size;
		return 0;
	}
	return -1;
}

struct name_query {
	const char *name;
	uintptr_t start;
	size_t size;
	bool found;
};

static int object_name(struct dl_phdr_info *info, size_t sz, void *arg)
{
	(void)sz;
	struct name_query *q = arg;
	char exe[256];
	const char *path = info->dlpi_name;
	if (!path || !path[0]) { /* the program */
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return 0;
		exe[n] = 0;
		path = exe;
	}
	const struct mapped *f = map_file(path);
	uintptr_t start;
	size_t size;
	if (!f || symtab_name(f, q->name, &start, &size) != 0)
		return 0;
	q->start = start + info->dlpi_addr;
	q->size = size;
	q->found = true;
	return 1;
}

int uft_symbol_by_name(const char *name, uintptr_t *start, size_t *size)
{
	void *a = dlsym(RTLD_DEFAULT, name);
	struct uft_symbol s;
	if (a && uft_symbol_find((uintptr_t)a, &s) == 0 && s.start == (uintptr_t)a) {
		*start = s.start;
		*size = s.size;
		return 0;
	}
	struct name_query q = {name, 0, 0, false};
	pthread_mutex_lock(&lock);
	dl_iterate_phdr(object_name, &q);
	pthread_mutex_unlock(&lock);
	if (!q.found)
		return -1;
	*start = q.start;
	*size = q.size;
	return 0;
}

static int filter_lookup(void *ctx, const char *name, uint64_t addr, uint64_t *start, uint64_t *end)
{
	(void)ctx;
	uintptr_t s;
	size_t n;
	struct uft_symbol sym;
	if (name) {
		if (uft_symbol_by_name(name, &s, &n) != 0)
			return -1;
	} else {
		if (uft_symbol_find((uintptr_t)addr, &sym) != 0)
			return -1;
		s = sym.start;
		n = sym.size;
	}
	*start = s;
	*end = s + (n ? n : 1); /* a symbol without size: its address */
	return 0;
}

const struct uft_filter_syms uft_proc_filter_syms = {filter_lookup, NULL};
