/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The patchable sites of every loaded object: the addresses in its
 * __patchable_function_entries section (read in memory, where they are
 * relocated), named from the file's .symtab (else .dynsym). */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/ftrace/ftrace.h"
#include "util/atomics.h"
#include "util/util.h"

struct uft_ftrace_obj uft_ftrace_objs[UFT_FTRACE_MAX_OBJS];
uint32_t uft_ftrace_nr_objs;

struct elf_file {
	const unsigned char *m;
	size_t size;
};

static int map_elf(const char *path, struct elf_file *f)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	f->m = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(ElfW(Ehdr)))
		f->m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->m == MAP_FAILED)
		return -1;
	f->size = (size_t)st.st_size;
	const ElfW(Ehdr) *eh = (const void *)f->m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > f->size) {
		munmap((void *)f->m, f->size);
		return -1;
	}
	return 0;
}

static const ElfW(Shdr) * shdrs(const struct elf_file *f)
{
	return (const void *)(f->m + ((const ElfW(Ehdr) *)f->m)->e_shoff);
}

static unsigned nr_shdrs(const struct elf_file *f)
{
	return ((const ElfW(Ehdr) *)f->m)->e_shnum;
}

static const char *section_name(const struct elf_file *f, const ElfW(Shdr) * s)
{
	const ElfW(Shdr) *strs = &shdrs(f)[((const ElfW(Ehdr) *)f->m)->e_shstrndx];
	if (strs->sh_offset + strs->sh_size > f->size || s->sh_name >= strs->sh_size)
		return "";
	return (const char *)f->m + strs->sh_offset + s->sh_name;
}

struct fsym {
	uintptr_t value, size;
	const char *name;
};

static int by_value(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* The function symbols of one symbol table type, sorted; NULL if none. */
static struct fsym *function_symbols(const struct elf_file *f, unsigned type, size_t *nr)
{
	const ElfW(Shdr) *sh = shdrs(f);
	for (unsigned i = 0; i < nr_shdrs(f); i++) {
		if (sh[i].sh_type != type || sh[i].sh_link >= nr_shdrs(f) ||
		    sh[i].sh_entsize != sizeof(ElfW(Sym)))
			continue;
		const ElfW(Shdr) *strs = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + sh[i].sh_size > f->size ||
		    strs->sh_offset + strs->sh_size > f->size)
			return NULL;
		const ElfW(Sym) *sym = (const void *)(f->m + sh[i].sh_offset);
		size_t n = sh[i].sh_size / sizeof(*sym), k = 0;
		struct fsym *out = malloc((n ? n : 1) * sizeof(*out));
		if (!out)
			return NULL;
		for (size_t j = 0; j < n; j++) {
			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_value ||
			    sym[j].st_shndx == SHN_UNDEF || sym[j].st_name >= strs->sh_size)
				continue;
			const char *name = (const char *)f->m + strs->sh_offset + sym[j].st_name;
			if (!memchr(name, 0, strs->sh_size - sym[j].st_name) || !*name)
				continue;
			out[k++] = (struct fsym){sym[j].st_value, sym[j].st_size, name};
		}
		qsort(out, k, sizeof(*out), by_value);
		*nr = k;
		return out;
	}
	return NULL;
}

/* The function that holds file address a: the last symbol at or below it. */
static const struct fsym *function_of(const struct fsym *s, size_t n, uintptr_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s[mid].value <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct fsym *best = &s[lo - 1];
	if (best->size && a >= best->value + best->size)
		return NULL;
	return best;
}

/* Whether addr lies in an executable segment of the object. */
static bool in_text(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && addr >= start &&
		    addr + UFT_FTRACE_SLED <= start + ph->p_memsz)
			return true;
	}
	return false;
}

static int by_addr(const void *a, const void *b)
{
	const struct uft_ftrace_site *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The first page of a stub area: the jumps to the trampolines. */
enum { THUNK_CALLER = 0, THUNK_GRAPH = UFT_ARCH_THUNK, THUNK_RETURN = 2 * UFT_ARCH_THUNK };

uintptr_t uft_ftrace_stub_of(const struct uft_ftrace_obj *o, const struct uft_ftrace_site *s)
{
	size_t k = (size_t)(s - o->sites);
	return o->stubs + k / UFT_FTRACE_STUBS_PER_PAGE * UFT_FTRACE_STUB_PAGE +
	       (k % UFT_FTRACE_STUBS_PER_PAGE + 1) * UFT_FTRACE_STUB;
}

static size_t stub_area_size(size_t nr)
{
	return UFT_FTRACE_STUB_PAGE *
	       (1 + (nr + UFT_FTRACE_STUBS_PER_PAGE - 1) / UFT_FTRACE_STUBS_PER_PAGE);
}

/* Writes the object's stub area at `at` if the range is free: 0 or -1.
 * Its first page holds the jumps to the trampolines, every later page a
 * header (its first site) and the stubs of the sites that follow:
 *	call graph thunk; call the body (the sled's end); jmp return thunk. */
static int place_stubs(uintptr_t at, struct uft_ftrace_site *sites, size_t nr)
{
	size_t size = stub_area_size(nr);
	void *p = mmap((void *)at, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	if ((uintptr_t)p != at) { /* a kernel that took the address as a hint */
		munmap(p, size);
		return -1;
	}
	uint8_t *c = p;
	uft_arch_put_thunk(c + THUNK_CALLER, (uintptr_t)uft_ftrace_caller);
	uft_arch_put_thunk(c + THUNK_GRAPH, (uintptr_t)uft_ftrace_graph_caller);
	uft_arch_put_thunk(c + THUNK_RETURN, (uintptr_t)uft_ftrace_return);
	for (size_t k = 0; k < nr; k++) {
		size_t j = k % UFT_FTRACE_STUBS_PER_PAGE;
		uint8_t *page = c + UFT_FTRACE_STUB_PAGE * (1 + k / UFT_FTRACE_STUBS_PER_PAGE);
		if (!j) {
			struct uft_ftrace_site *first = &sites[k];
			memcpy(page, &first, sizeof(first));
		}
		uft_arch_put_stub(page + (j + 1) * UFT_FTRACE_STUB, at + THUNK_GRAPH,
				  sites[k].addr + UFT_FTRACE_SLED, at + THUNK_RETURN);
	}
	if (mprotect(p, size, PROT_READ | PROT_EXEC) != 0) {
		munmap(p, size);
		return -1;
	}
	return 0;
}

/* Whether every sled in [lo, hi] reaches all of [at, at + size). */
static bool in_reach(uintptr_t at, size_t size, uintptr_t lo, uintptr_t hi)
{
	const uintptr_t reach = UFT_ARCH_REACH;
	uintptr_t up = at + size > lo ? at + size - lo : 0; /* lowest sled to the end */
	uintptr_t down = hi > at ? hi - at : 0;		    /* highest sled to the start */
	return up < reach && down < reach;
}

/* How far a candidate lies from the object: 0 in a gap between its parts. */
static uintptr_t distance(uintptr_t at, uintptr_t lo, uintptr_t hi)
{
	return at < lo ? lo - at : at > hi ? at - hi : 0;
}

/* Where `size` bytes of stubs fit within a call's reach (rel32) of every
 * sled in [lo, hi]: in the free gap of the address space nearest to the
 * object, from /proc/self/maps; 0 if none. */
static uintptr_t nearest_gap(uintptr_t lo, uintptr_t hi, size_t size)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/maps", "re");
	if (!f)
		return 0;
	uintptr_t best = 0, best_dist = UINTPTR_MAX, prev_end = (uintptr_t)page * 16;
	char line[512];
	for (;;) {
		unsigned long start = UINTPTR_MAX, end = UINTPTR_MAX;
		bool more = fgets(line, sizeof(line), f) != NULL;
		if (more && sscanf(line, "%lx-%lx", &start, &end) != 2)
			continue;
		if (!more)
			start = UFT_ARCH_USER_TOP;
		if (start >= prev_end + size) { /* a gap [prev_end, start) that fits */
			uintptr_t cand = start - size <= lo ? start - size : prev_end;
			if (in_reach(cand, size, lo, hi)) {
				uintptr_t d = distance(cand, lo, hi);
				if (d < best_dist) {
					best = cand;
					best_dist = d;
				}
			}
		}
		if (!more)
			break;
		if (end > prev_end)
			prev_end = end;
	}
	fclose(f);
	return best;
}

/* Another thread may map the gap first: then the next nearest is tried. */
static uintptr_t make_stubs(uintptr_t lo, uintptr_t hi, struct uft_ftrace_site *sites, size_t nr)
{
	for (int attempt = 0; attempt < 8; attempt++) {
		uintptr_t at = nearest_gap(lo, hi, stub_area_size(nr));
		if (!at)
			return 0;
		if (place_stubs(at, sites, nr) == 0)
			return at;
	}
	return 0;
}

/* The program's file, the path of a library. */
static const char *object_path(const struct dl_phdr_info *info)
{
	return info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
}

static const char *module_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

struct site_list {
	struct uft_ftrace_site *v;
	size_t nr, cap;
	struct fsym *syms; /* the object's functions, read at its first section */
	size_t nsyms;
};

static void free_sites(struct site_list *l)
{
	for (size_t k = 0; k < l->nr; k++)
		free((void *)l->v[k].name);
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

/* The site at a, if a holds a sled at the entry of a function (0), or
 * -ENOMEM. */
static int add_site(struct site_list *l, struct dl_phdr_info *info, uintptr_t a)
{
	if (!a || !in_text(info, a))
		return 0;
	/* e.g. clang's -fsanitize=function data before the sled */
	unsigned skip = uft_arch_sled_skip((const uint8_t *)a);
	if (skip && in_text(info, a + skip))
		a += skip;
	if (!uft_arch_is_sled((const uint8_t *)a))
		return 0;
	const struct fsym *s = function_of(l->syms, l->nsyms, a - info->dlpi_addr);
	if (!s || a - info->dlpi_addr - s->value > 16)
		return 0; /* a sled not at a function's entry */
	if (uft_array_reserve(l->v, l->cap, l->nr + 1, 256))
		return -ENOMEM;
	struct uft_ftrace_site *st = &l->v[l->nr];
	memset(st, 0, sizeof(*st));
	st->addr = a;
	st->func = info->dlpi_addr + s->value;
	st->name = strdup(s->name);
	if (!st->name)
		return -ENOMEM;
	memcpy(st->orig, (const void *)a, UFT_FTRACE_SLED);
	l->nr++;
	return 0;
}

/* Every site of the object's __patchable_function_entries sections. */
static int collect_sites(struct site_list *l, struct dl_phdr_info *info, const struct elf_file *f)
{
	const ElfW(Shdr) *sh = shdrs(f);
	int rc = 0;
	for (unsigned i = 0; !rc && i < nr_shdrs(f); i++) {
		if (strcmp(section_name(f, &sh[i]), "__patchable_function_entries") != 0 ||
		    !(sh[i].sh_flags & SHF_ALLOC) || sh[i].sh_type != SHT_PROGBITS)
			continue;
		if (!l->syms) {
			l->syms = function_symbols(f, SHT_SYMTAB, &l->nsyms);
			if (!l->syms)
				l->syms = function_symbols(f, SHT_DYNSYM, &l->nsyms);
			if (!l->syms)
				break;
		}
		const uintptr_t *e = (const void *)(info->dlpi_addr + sh[i].sh_addr);
		size_t n = sh[i].sh_size / sizeof(*e);
		for (size_t k = 0; !rc && k < n; k++)
			rc = add_site(l, info, e[k]);
	}
	return rc;
}

/* Publishes the object with its sites, sorted, one per sled, and their
 * stubs; an object out of reach of any free page is kept without sites, so
 * it is not read again at every scan. Takes the list's sites. */
static void publish_object(struct dl_phdr_info *info, const char *path, struct site_list *l)
{
	struct uft_ftrace_site *sites = l->v;
	qsort(sites, l->nr, sizeof(*sites), by_addr);
	size_t nr = 0;
	for (size_t k = 0; k < l->nr; k++)
		if (!nr || sites[nr - 1].addr != sites[k].addr)
			sites[nr++] = sites[k];
		else
			free((void *)sites[k].name);
	l->nr = nr;
	uintptr_t stub = make_stubs(sites[0].addr, sites[nr - 1].addr + UFT_FTRACE_SLED, sites, nr);
	struct uft_ftrace_obj *o = &uft_ftrace_objs[uft_ftrace_nr_objs];
	o->path = strdup(path);
	o->base = info->dlpi_addr;
	if (!stub) {
		free_sites(l);
		o->lo = 1;
		o->hi = 0;
	} else {
		o->mod = info->dlpi_name && *info->dlpi_name ? module_name(o->path) : NULL;
		o->lo = sites[0].addr;
		o->hi = sites[nr - 1].addr;
		o->stub = stub;
		o->stubs = stub + UFT_FTRACE_STUB_PAGE;
		o->sites = sites;
		o->nr = (uint32_t)nr;
		l->v = NULL;
		l->nr = 0;
	}
	smp_store_release(&uft_ftrace_nr_objs, uft_ftrace_nr_objs + 1);
}

static int add_object(struct dl_phdr_info *info)
{
	const char *path = object_path(info);
	struct elf_file f;
	if (map_elf(path, &f) != 0)
		return 0;
	struct site_list l = {0};
	int rc = collect_sites(&l, info, &f);
	if (!rc && l.nr)
		publish_object(info, path, &l);
	free_sites(&l);
	free(l.syms);
	munmap((void *)f.m, f.size);
	return rc;
}

struct scan {
	bool *seen; /* objects still loaded */
	int rc;
};

/* An object closed and loaded again at the same place has fresh code: its
 * patched sleds are NOPs again. */
static bool reloaded(const struct uft_ftrace_obj *o)
{
	for (uint32_t k = 0; k < o->nr; k++)
		if (o->sites[k].patched)
			return !uft_arch_sled_is_branch((const uint8_t *)o->sites[k].addr,
							o->sites[k].patched == UFT_SLED_STUB);
	return false;
}

uint32_t uft_ftrace_sites_gen;

/* Gone, and every site looked up before is to be looked up again. */
static void mark_gone(struct uft_ftrace_obj *o)
{
	o->gone = true;
	uft_fetch_add_release(&uft_ftrace_sites_gen, 1);
}

static int each_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct scan *sc = arg;
	const char *path = object_path(info);
	if (strstr(path, "linux-vdso"))
		return 0;
	for (uint32_t i = 0; i < uft_ftrace_nr_objs; i++) {
		struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		if (!o->gone && o->base == info->dlpi_addr && strcmp(o->path, path) == 0) {
			if (reloaded(o)) {
				mark_gone(o);
				continue;
			}
			sc->seen[i] = true;
			return 0;
		}
	}
	if (uft_ftrace_nr_objs >= UFT_FTRACE_MAX_OBJS)
		return 0;
	uint32_t before = uft_ftrace_nr_objs;
	int rc = add_object(info);
	if (rc)
		sc->rc = rc;
	if (uft_ftrace_nr_objs > before)
		sc->seen[before] = true;
	return 0;
}

int uft_ftrace_scan(void)
{
	static bool seen[UFT_FTRACE_MAX_OBJS];
	memset(seen, 0, sizeof(seen));
	struct scan sc = {seen, 0};
	dl_iterate_phdr(each_object, &sc);
	int n = 0;
	for (uint32_t i = 0; i < uft_ftrace_nr_objs; i++) {
		struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		if (!seen[i] && !o->gone)
			mark_gone(o);
		if (!o->gone)
			n += (int)o->nr;
	}
	return sc.rc ? sc.rc : n;
}

struct uft_ftrace_site *uft_ftrace_site_at(uintptr_t ret)
{
	uintptr_t a = ret - UFT_FTRACE_SLED;
	uint32_t n = smp_load_acquire(&uft_ftrace_nr_objs);
	for (uint32_t i = 0; i < n; i++) {
		struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		if (a < o->lo || a > o->hi || o->gone)
			continue;
		uint32_t lo = 0, hi = o->nr;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (o->sites[mid].addr < a)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < o->nr && o->sites[lo].addr == a)
			return &o->sites[lo];
	}
	return NULL;
}
