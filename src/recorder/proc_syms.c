/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbols of a traced process for the trace.dat kallsyms section. Objects
 * are read once per (file, load address); a process's maps are re-read at
 * every drain, which notices what dlopen brought. An object's text may show
 * as several mappings (a patched page, made private, splits it from its
 * neighbours): they share one base, their address less their file offset. */
#define _GNU_SOURCE
#include "recorder/proc_syms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/debugfile.h"
#include "util/util.h"
#include "wire/shm_layout.h"

struct seen_obj {
	char *path;
	uint64_t base; /* an executable mapping's address less its file offset */
};

struct seen_maps {
	pid_t pid;
	char *maps; /* the last text read */
};

struct proc_syms {
	struct seen_obj *objs;
	size_t nr_objs;
	struct seen_maps *procs;
	size_t nr_procs;
	char *text;
	size_t len, cap;
};

struct proc_syms *proc_syms_new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	return calloc(1, sizeof(struct proc_syms));
}

void proc_syms_free(struct proc_syms *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_objs; i++)
		free(s->objs[i].path);
	for (size_t i = 0; i < s->nr_procs; i++)
		free(s->procs[i].maps);
	free(s->objs);
	free(s->procs);
	free(s->text);
	free(s);
}

const char *proc_syms_text(const struct proc_syms *s, size_t *len)
{
	*len = s->len;
	return s->text ? s->text : "";
}

char *proc_syms_kallsyms(const struct proc_syms *s, size_t *len)
{
	size_t n = 0;
	const char *syms = s ? proc_syms_text(s, &n) : "";
	char *text = malloc(sizeof(UFT_MARKER_KALLSYMS) + n);
	if (!text)
		return NULL;
	memcpy(text, UFT_MARKER_KALLSYMS, sizeof(UFT_MARKER_KALLSYMS) - 1);
	memcpy(text + sizeof(UFT_MARKER_KALLSYMS) - 1, syms, n);
	*len = sizeof(UFT_MARKER_KALLSYMS) - 1 + n;
	text[*len] = 0;
	return text;
}

static int append(struct proc_syms *s, const char *line, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 65536;
		while (cap < s->len + n + 1)
			cap *= 2;
		char *t = realloc(s->text, cap);
		if (!t)
			return -ENOMEM;
		s->text = t;
		s->cap = cap;
	}
	memcpy(s->text + s->len, line, n);
	s->len += n;
	s->text[s->len] = 0;
	return 0;
}

/* The load bias of the object whose executable mapping starts at `start`
 * and maps file offset `off`: the segment holding that offset says. */
static bool load_bias(Elf *e, uint64_t start, uint64_t off, uint64_t *bias)
{
	size_t n;
	if (elf_getphdrnum(e, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off < (ph.p_offset & ~0xfffull) || off >= ph.p_offset + ph.p_filesz)
			continue;
		/* File offset X of the segment lies at start + (X - off). */
		*bias = start + ph.p_offset - off - ph.p_vaddr;
		return true;
	}
	return false;
}

/* One written symbol's extent, for the markers at symbol ends. */
struct extent {
	uint64_t start, end;
};

static int by_start(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The section of type `type` in e, NULL when none. */
static Elf_Scn *find_section(Elf *e, unsigned type)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	}
	return NULL;
}

/* Appends the function symbols of table `scn` of e at load bias `bias`,
 * and their extents to *ext (a symbol without size: its address only). */
static int add_symbols(struct proc_syms *s, Elf *e, Elf_Scn *scn, uint64_t bias, const char *module,
		       struct extent **ext, size_t *n_ext, size_t *cap)
{
	GElf_Shdr sh;
	Elf_Data *d = gelf_getshdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
	size_t nsyms = d && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	int rc = 0;
	for (size_t i = 0; i < nsyms && rc == 0; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym) || !sym.st_value || sym.st_shndx == SHN_UNDEF)
			continue;
		int type = GELF_ST_TYPE(sym.st_info), bind = GELF_ST_BIND(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
		if (!name || !name[0])
			continue;
		char line[PATH_MAX + 64];
		int n =
		    snprintf(line, sizeof(line), "%016llx %c %s%s%s%s\n",
			     (unsigned long long)(sym.st_value + bias),
			     bind == STB_LOCAL	? 't'
			     : bind == STB_WEAK ? 'W'
						: 'T',
			     name, module ? "\t[" : "", module ? module : "", module ? "]" : "");
		if (n > 0 && (size_t)n < sizeof(line))
			rc = append(s, line, (size_t)n);
		if (rc == 0 && uft_array_reserve(*ext, *cap, *n_ext + 1, 1024))
			rc = -ENOMEM;
		if (rc == 0)
			(*ext)[(*n_ext)++] =
			    (struct extent){sym.st_value + bias,
					    sym.st_value + bias + (sym.st_size ? sym.st_size : 1)};
	}
	return rc;
}

/* A marker "ADDR ? [object+0xoffset]" at each symbol end no other symbol
 * covers: the nearest-symbol lookups of uft report and trace-cmd then
 * name what follows a function by its object and offset, not as the
 * function (docs/design/symbols.md). */
static int add_end_markers(struct proc_syms *s, struct extent *ext, size_t n, uint64_t bias,
			   const char *object)
{
	qsort(ext, n, sizeof(*ext), by_start);
	uint64_t covered = 0; /* the end of the symbols seen so far */
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (ext[i].end > covered)
			covered = ext[i].end;
		if (i + 1 < n && ext[i + 1].start <= covered)
			continue;
		char line[PATH_MAX + 64];
		int len = snprintf(line, sizeof(line), "%016llx ? [%s+0x%llx]\n",
				   (unsigned long long)covered, object,
				   (unsigned long long)(covered - bias));
		if (len > 0 && (size_t)len < sizeof(line))
			rc = append(s, line, (size_t)len);
	}
	return rc;
}

/* Appends the object's function symbols: its .symtab, else its separate
 * debug file's (debugfile.h), else its .dynsym; then the end markers. */
static int add_object(struct proc_syms *s, const char *path, uint64_t start, uint64_t off,
		      const char *module)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), dfd = -1;
	if (fd < 0)
		return 0; /* deleted or unreadable: nothing to name */
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL), *de = NULL;
	uint64_t bias;
	int rc = 0;
	struct extent *ext = NULL;
	size_t n_ext = 0, cap = 0;
	if (!e || elf_kind(e) != ELF_K_ELF || !load_bias(e, start, off, &bias))
		goto out;
	Elf *from = e;
	Elf_Scn *table = find_section(e, SHT_SYMTAB);
	size_t size;
	const char *image = table ? NULL : elf_rawfile(e, &size);
	char debug[PATH_MAX];
	if (image && uft_debug_file(path, image, size, debug, sizeof(debug)) &&
	    (dfd = open(debug, O_RDONLY | O_CLOEXEC)) >= 0 &&
	    (de = elf_begin(dfd, ELF_C_READ_MMAP, NULL)) && elf_kind(de) == ELF_K_ELF &&
	    (table = find_section(de, SHT_SYMTAB)))
		from = de;
	if (!table)
		table = find_section(e, SHT_DYNSYM);
	if (table)
		rc = add_symbols(s, from, table, bias, module, &ext, &n_ext, &cap);
	if (rc == 0 && n_ext)
		rc = add_end_markers(s, ext, n_ext, bias, strrchr(path, '/') + 1);
out:
	free(ext);
	if (de)
		elf_end(de);
	if (dfd >= 0)
		close(dfd);
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

static bool seen(struct proc_syms *s, const char *path, uint64_t base)
{
	for (size_t i = 0; i < s->nr_objs; i++)
		if (s->objs[i].base == base && strcmp(s->objs[i].path, path) == 0)
			return true;
	return false;
}

static int remember(struct proc_syms *s, const char *path, uint64_t base)
{
	void *v = realloc(s->objs, (s->nr_objs + 1) * sizeof(*s->objs));
	if (!v)
		return -ENOMEM;
	s->objs = v;
	char *p = strdup(path);
	if (!p)
		return -ENOMEM;
	s->objs[s->nr_objs++] = (struct seen_obj){p, base};
	return 0;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (m) {
		char buf[8192];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, m);
		if (fclose(m) != 0) {
			free(text);
			text = NULL;
		}
	}
	fclose(f);
	return text;
}

/* Whether pid's maps changed since the last scan (and keeps the new text). */
static bool maps_changed(struct proc_syms *s, pid_t pid, char *maps)
{
	for (size_t i = 0; i < s->nr_procs; i++) {
		if (s->procs[i].pid != pid)
			continue;
		if (strcmp(s->procs[i].maps, maps) == 0) {
			free(maps);
			return false;
		}
		free(s->procs[i].maps);
		s->procs[i].maps = maps;
		return true;
	}
	void *v = realloc(s->procs, (s->nr_procs + 1) * sizeof(*s->procs));
	if (!v) {
		free(maps);
		return true;
	}
	s->procs = v;
	s->procs[s->nr_procs++] = (struct seen_maps){pid, maps};
	return true;
}

int proc_syms_scan(struct proc_syms *s, pid_t pid)
{
	char path[64], exe[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	char *maps = read_file(path);
	if (!maps)
		return -errno;
	char *text = strdup(maps);
	if (!text) {
		free(maps);
		return -ENOMEM;
	}
	if (!maps_changed(s, pid, maps)) {
		free(text);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	int rc = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, off;
		char perms[8];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off, &pos) <
			4 ||
		    !pos || perms[2] != 'x')
			continue;
		const char *file = line + pos;
		if (file[0] != '/' || seen(s, file, start - off))
			continue;
		rc = remember(s, file, start - off);
		if (rc)
			break;
		const char *base = strrchr(file, '/') + 1;
		rc = add_object(s, file, start, off, strcmp(file, exe) == 0 ? NULL : base);
	}
	free(text);
	return rc;
}
