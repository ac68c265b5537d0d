/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.dat writer: version 6 (trace-cmd's trace-cmd.dat.v6(5)), or version 7
 * when compressed (tracedat_write_v7.c). Pages are spooled to an
 * unlinked temporary file beside the output while recording, because the
 * metadata that precedes them is only complete at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/page_headers.h"
#include "tracedat/tracedat.h"
#include "tracedat/writer_priv.h"
#include "util/util.h"

/* Integers are stored in host order, which must be the file's (little endian). */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "little-endian hosts only");

/* An anonymous file on the output's file system, so large traces don't fill
 * a RAM-backed /tmp. */
int tracedat_open_spool(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return -1;
	char *dir = dirname(copy);
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		char tmpl[4096];
		if (snprintf(tmpl, sizeof(tmpl), "%s/.uft-spool-XXXXXX", dir) < (int)sizeof(tmpl)) {
			fd = mkostemp(tmpl, O_CLOEXEC);
			if (fd >= 0)
				unlink(tmpl);
		}
	}
	free(copy);
	if (fd < 0) {
		FILE *f = tmpfile();
		if (f) {
			fd = dup(fileno(f));
			fclose(f);
		}
	}
	return fd;
}

static bool valid_page_size(uint32_t ps)
{
	return ps >= 256 && ps <= (1u << 24) && (ps & (ps - 1)) == 0;
}

struct tracedat_writer *tracedat_writer_open(const char *path, int nr_cpus, uint32_t page_size,
					     const char *clock)
{
	if (!path || nr_cpus < 1 || nr_cpus > MAX_CPUS || !valid_page_size(page_size) || !clock ||
	    !clock[0] || strlen(clock) >= sizeof(((struct tracedat_writer *)0)->clock) ||
	    strpbrk(clock, "[] \n")) {
		errno = EINVAL;
		return NULL;
	}
	struct tracedat_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->fd = w->spool = -1;
	w->spool_direct = w->out_direct = -1;
	w->nr_cpus = nr_cpus;
	w->page_size = page_size;
	strcpy(w->clock, clock);
	w->path = strdup(path);
	w->cpus = calloc((size_t)nr_cpus, sizeof(*w->cpus));
	if (!w->path || !w->cpus)
		goto fail;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0)
		goto fail;
	w->created = true;
	w->spool = tracedat_open_spool(path);
	if (w->spool < 0)
		goto fail;
	return w;
fail:;
	int e = errno ? errno : ENOMEM;
	tracedat_writer_abort(w);
	errno = e;
	return NULL;
}

int tracedat_writer_add_format(struct tracedat_writer *w, const char *system,
			       const char *format_text)
{
	if (!system || !system[0] || !format_text || !format_text[0])
		return -EINVAL;
	if (uft_array_reserve(w->fmts, w->cap_fmts, w->nr_fmts + 1, 16))
		return -ENOMEM;
	struct wformat *f = &w->fmts[w->nr_fmts];
	f->system = strdup(system);
	f->len = strlen(format_text);
	f->text = strdup(format_text);
	if (!f->system || !f->text) {
		free(f->system);
		free(f->text);
		return -ENOMEM;
	}
	w->nr_fmts++;
	return 0;
}

int tracedat_writer_set_compression(struct tracedat_writer *w, const char *name)
{
	int alg = name ? td_comp_by_name(name) : -1;
	if (alg < 0)
		return -EINVAL;
	w->comp = (enum td_comp)alg;
	return 0;
}

int tracedat_writer_add_cmdline(struct tracedat_writer *w, int pid, const char *comm)
{
	char line[64];
	if (!comm || strchr(comm, '\n'))
		return -EINVAL;
	int n = snprintf(line, sizeof(line), "%d %.16s\n", pid, comm);
	wb_put(&w->cmdlines, line, (size_t)n);
	return w->cmdlines.oom ? -ENOMEM : 0;
}

int tracedat_writer_add_option(struct tracedat_writer *w, uint16_t id, const void *data,
			       uint32_t size)
{
	if (id == TRACEDAT_OPT_DONE || id == TRACEDAT_OPT_BUFFER || id == TRACEDAT_OPT_TRACECLOCK ||
	    id == TRACEDAT_OPT_CPUCOUNT || id >= TRACEDAT_OPT_STRINGS || (size && !data))
		return -EINVAL;
	wb_u16(&w->options, id);
	wb_u32(&w->options, size);
	wb_put(&w->options, data, size);
	return w->options.oom ? -ENOMEM : 0;
}

static int set_text(struct wbuf *b, const char *text, size_t len)
{
	if (len > UINT32_MAX || (len && !text))
		return -EINVAL;
	b->len = 0;
	wb_put(b, text, len);
	return b->oom ? -ENOMEM : 0;
}

int tracedat_writer_set_kallsyms(struct tracedat_writer *w, const char *text, size_t len)
{
	return set_text(&w->kallsyms, text, len);
}

int tracedat_writer_set_printk(struct tracedat_writer *w, const char *text, size_t len)
{
	return set_text(&w->printk, text, len);
}

static int add_index(struct cpu_pages *c, uint64_t off)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		uint64_t *idx = realloc(c->idx, cap * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
		c->idx = idx;
		c->cap = cap;
	}
	c->idx[c->n++] = off;
	return 0;
}

int tracedat_writer_add_page(struct tracedat_writer *w, int cpu, const void *page)
{
	if (cpu < 0 || cpu >= w->nr_cpus || !page)
		return -EINVAL;
	int rc = tdw_pwrite_all(w->spool, page, w->page_size, (off_t)w->spooled);
	if (!rc)
		rc = add_index(&w->cpus[cpu], w->spooled);
	if (!rc)
		w->spooled += w->page_size;
	return rc;
}

int tracedat_writer_adopt_spool(struct tracedat_writer *w, int fd, uint64_t len)
{
	if (fd < 0 || w->spooled)
		return -EINVAL;
	close(w->spool);
	tdw_direct_close(w);
	w->spool = fd;
	w->spooled = len;
	return 0;
}

int tracedat_writer_adopt_spool_hole(struct tracedat_writer *w, int fd, uint64_t hole, uint64_t len)
{
	if (hole > len || hole % w->page_size)
		return -EINVAL;
	int rc = tracedat_writer_adopt_spool(w, fd, len);
	if (!rc)
		w->hole = hole;
	return rc;
}

int tracedat_writer_add_page_at(struct tracedat_writer *w, int cpu, uint64_t off)
{
	if (cpu < 0 || cpu >= w->nr_cpus || off > w->spooled || w->spooled - off < w->page_size)
		return -EINVAL;
	return add_index(&w->cpus[cpu], off);
}

int tdw_write_all(int fd, const void *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p = (const char *)p + n;
		len -= (size_t)n;
	}
	return 0;
}

int tdw_pwrite_all(int fd, const void *p, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p = (const char *)p + n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

int tdw_read_all(int fd, void *p, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pread(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p = (char *)p + n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

void tdw_put_clock_list(struct wbuf *b, const char *clock)
{
	static const char *const known[] = {"local", "global",	 "counter", "uptime", "perf",
					    "mono",  "mono_raw", "boot",    "tai",    "x86-tsc"};
	bool found = false;
	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		bool sel = strcmp(known[i], clock) == 0;
		found |= sel;
		if (i)
			wb_put(b, " ", 1);
		if (sel)
			wb_put(b, "[", 1);
		wb_put(b, known[i], strlen(known[i]));
		if (sel)
			wb_put(b, "]", 1);
	}
	if (!found) {
		wb_put(b, " [", 2);
		wb_put(b, clock, strlen(clock));
		wb_put(b, "]", 1);
	}
	wb_put(b, "\n", 2); /* newline and NUL */
}

void tdw_put_formats(struct tracedat_writer *w, struct wbuf *m)
{
	uint32_t n = 0;
	for (size_t i = 0; i < w->nr_fmts; i++)
		n += strcmp(w->fmts[i].system, "ftrace") == 0;
	wb_u32(m, n);
	for (size_t i = 0; i < w->nr_fmts; i++) {
		if (strcmp(w->fmts[i].system, "ftrace") == 0) {
			wb_u64(m, w->fmts[i].len);
			wb_put(m, w->fmts[i].text, w->fmts[i].len);
		}
	}

	/* Systems in order of first appearance, each listing all its events. */
	uint32_t nr_sys = 0;
	for (size_t i = 0; i < w->nr_fmts; i++) {
		const char *s = w->fmts[i].system;
		bool first = strcmp(s, "ftrace") != 0;
		for (size_t j = 0; first && j < i; j++)
			first = strcmp(w->fmts[j].system, s) != 0;
		nr_sys += first;
	}
	wb_u32(m, nr_sys);
	for (size_t i = 0; i < w->nr_fmts; i++) {
		const char *s = w->fmts[i].system;
		bool first = strcmp(s, "ftrace") != 0;
		for (size_t j = 0; first && j < i; j++)
			first = strcmp(w->fmts[j].system, s) != 0;
		if (!first)
			continue;
		uint32_t cnt = 0;
		for (size_t j = i; j < w->nr_fmts; j++)
			cnt += strcmp(w->fmts[j].system, s) == 0;
		wb_str0(m, s);
		wb_u32(m, cnt);
		for (size_t j = i; j < w->nr_fmts; j++) {
			if (strcmp(w->fmts[j].system, s) == 0) {
				wb_u64(m, w->fmts[j].len);
				wb_put(m, w->fmts[j].text, w->fmts[j].len);
			}
		}
	}
}

/* Everything up to and including the "[clock]" block, padded so that the
 * per-CPU data that follows starts page aligned. */
/* `offs`: each CPU's data offset; NULL: one after another after the
 * metadata. The metadata's length does not depend on them. */
static void put_metadata(struct tracedat_writer *w, struct wbuf *m, const uint64_t *offs)
{
	static const uint8_t magic[] = {0x17, 0x08, 0x44};
	char hp[512];
	int hp_len = uft_header_page_format(hp, sizeof(hp), w->page_size);
	const char *he = uft_header_event_text();

	wb_put(m, magic, 3);
	wb_put(m, "tracing", 7);
	wb_str0(m, "6");
	wb_put(m, "\0\x08", 2); /* little endian, long size 8 */
	wb_u32(m, w->page_size);
	wb_put(m, "header_page", 12);
	wb_u64(m, (uint64_t)hp_len);
	wb_put(m, hp, (size_t)hp_len);
	wb_put(m, "header_event", 13);
	wb_u64(m, strlen(he));
	wb_put(m, he, strlen(he));
	tdw_put_formats(w, m);
	wb_u32(m, (uint32_t)w->kallsyms.len);
	wb_put(m, w->kallsyms.p, w->kallsyms.len);
	wb_u32(m, (uint32_t)w->printk.len);
	wb_put(m, w->printk.p, w->printk.len);
	wb_u64(m, w->cmdlines.len);
	wb_put(m, w->cmdlines.p, w->cmdlines.len);
	wb_u32(m, (uint32_t)w->nr_cpus);

	wb_put(m, "options  ", 10);
	struct wbuf clk = {0};
	tdw_put_clock_list(&clk, w->clock);
	wb_u16(m, TRACEDAT_OPT_TRACECLOCK);
	wb_u32(m, (uint32_t)clk.len);
	wb_put(m, clk.p, clk.len);
	m->oom |= clk.oom;
	wb_free(&clk);
	wb_u16(m, TRACEDAT_OPT_CPUCOUNT);
	wb_u32(m, 4);
	wb_u32(m, (uint32_t)w->nr_cpus);
	wb_put(m, w->options.p, w->options.len);
	wb_u16(m, TRACEDAT_OPT_DONE);

	wb_put(m, "flyrecord", 10);
	size_t clock_len = strlen(w->clock) + 2;
	uint64_t off = m->len + (uint64_t)w->nr_cpus * 16 + 8 + clock_len;
	off = (off + w->page_size - 1) / w->page_size * w->page_size;
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		uint64_t size = (uint64_t)w->cpus[cpu].n * w->page_size;
		wb_u64(m, offs ? offs[cpu] : off);
		wb_u64(m, size);
		off += size;
	}
	/* Present because TRACECLOCK is: trace-cmd parses its "[name]". */
	wb_u64(m, clock_len);
	wb_put(m, "[", 1);
	wb_put(m, w->clock, strlen(w->clock));
	wb_put(m, "]", 1);
	wb_zero(m, (w->page_size - m->len % w->page_size) % w->page_size);
}

/* Pages one CPU wrote in a row usually sit together in the spool: moved
 * in the kernel (copy_file_range: no copy at all where the file system
 * shares extents), else through a buffer. */
static int copy_span(struct tracedat_writer *w, uint8_t *buf, size_t cap, uint64_t off,
		     uint64_t len)
{
	static bool no_cfr;
	tdw_copy_direct(w, &off, &len);
	while (len && !no_cfr) {
		loff_t in = (loff_t)off;
		ssize_t n = copy_file_range(w->spool, &in, w->fd, NULL, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0 && errno != EXDEV && errno != ENOSYS && errno != EINVAL &&
			    errno != EOPNOTSUPP)
				return -errno;
			no_cfr = true;
			break;
		}
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	while (len) {
		size_t k = len < cap ? (size_t)len : cap;
		int rc = tdw_read_all(w->spool, buf, k, (off_t)off);
		if (!rc)
			rc = tdw_write_all(w->fd, buf, k);
		if (rc)
			return rc;
		off += k;
		len -= k;
	}
	return 0;
}

/* `len` bytes of the spool from `off` to the end of the output. */
static int copy_span_to(struct tracedat_writer *w, uint64_t off, uint64_t len)
{
	size_t cap = COPY_CHUNK > w->page_size ? COPY_CHUNK : w->page_size;
	uint8_t *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	int rc = copy_span(w, buf, cap, off, len);
	free(buf);
	return rc;
}

static int copy_pages(struct tracedat_writer *w)
{
	size_t cap = COPY_CHUNK > w->page_size ? COPY_CHUNK : w->page_size;
	uint8_t *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	int rc = 0;
	for (int cpu = 0; cpu < w->nr_cpus && !rc; cpu++) {
		struct cpu_pages *c = &w->cpus[cpu];
		for (size_t i = 0; i < c->n && !rc;) {
			size_t k = 1;
			while (i + k < c->n && c->idx[i + k] == c->idx[i] + k * w->page_size)
				k++;
			rc = copy_span(w, buf, cap, c->idx[i], (uint64_t)k * w->page_size);
			i += k;
		}
	}
	free(buf);
	return rc;
}

/* The spool made the file (tracedat_writer_adopt_spool_hole): 0 when done,
 * 1 when the pages must be copied instead (nothing lost: they are still
 * where they were), or -errno. */
static int spool_in_place(struct tracedat_writer *w)
{
	uint64_t ps = w->page_size, used = 0;
	struct stat sp, out;
	if (!w->hole || fstat(w->spool, &sp) != 0 || fstat(w->fd, &out) != 0 ||
	    sp.st_blksize <= 0 || ps % (uint64_t)sp.st_blksize != 0)
		return 1;
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		const struct cpu_pages *c = &w->cpus[cpu];
		for (size_t i = 1; i < c->n; i++)
			if (c->idx[i] != c->idx[0] + i * ps)
				return 1;
		used += (uint64_t)c->n * ps;
	}
	/* Pages no CPU uses (segments merged into new pages) would stay. */
	if (!used || w->hole + used != w->spooled)
		return 1;
	struct wbuf m = {0};
	put_metadata(w, &m, NULL);
	uint64_t meta = m.len; /* a multiple of the page size */
	bool oom = m.oom;
	wb_free(&m);
	if (oom || meta > w->hole)
		return 1;
	uint64_t *offs = calloc((size_t)w->nr_cpus, sizeof(*offs));
	if (!offs)
		return -ENOMEM;
	uint64_t cut = w->hole - meta;
	for (int cpu = 0; cpu < w->nr_cpus; cpu++)
		offs[cpu] = w->cpus[cpu].n ? w->cpus[cpu].idx[0] - cut : meta;
	m = (struct wbuf){0};
	put_metadata(w, &m, offs);
	free(offs);
	int rc = m.oom || m.len != meta ? 1 : 0;
	for (uint64_t done = 0; !rc && done < m.len;) {
		ssize_t n = pwrite(w->spool, m.p + done, m.len - done, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = 1;
		else
			done += (uint64_t)n;
	}
	wb_free(&m);
	/* Only the metadata went into the hole: the pages are untouched if
	 * anything below fails. */
	if (!rc && cut && fallocate(w->spool, FALLOC_FL_COLLAPSE_RANGE, (off_t)meta, (off_t)cut))
		return 1;
	if (rc)
		return 1;
	/* In the output's place: linked beside it, then renamed over it. */
	char proc[64], *tmp = NULL;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", w->spool);
	if (asprintf(&tmp, "%s.spool", w->path) < 0)
		return -ENOMEM;
	unlink(tmp);
	rc = 1;
	if (fchmod(w->spool, out.st_mode & 07777) == 0 &&
	    linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) {
		rc = rename(tmp, w->path) == 0 ? 0 : -errno;
		if (rc)
			unlink(tmp);
	}
	free(tmp);
	if (rc == 1) /* not linkable: the whole file, copied */
		rc = copy_span_to(w, 0, meta + used);
	return rc;
}

static void free_writer(struct tracedat_writer *w)
{
	tdw_direct_close(w);
	if (w->fd >= 0)
		close(w->fd);
	if (w->spool >= 0)
		close(w->spool);
	for (size_t i = 0; i < w->nr_fmts; i++) {
		free(w->fmts[i].system);
		free(w->fmts[i].text);
	}
	free(w->fmts);
	if (w->cpus) {
		for (int i = 0; i < w->nr_cpus; i++)
			free(w->cpus[i].idx);
		free(w->cpus);
	}
	wb_free(&w->cmdlines);
	wb_free(&w->options);
	wb_free(&w->kallsyms);
	wb_free(&w->printk);
	free(w->path);
	free(w);
}

int tracedat_writer_close(struct tracedat_writer *w)
{
	if (!w)
		return -EINVAL;
	struct wbuf m = {0};
	int rc = 0;
	if (w->options.oom || w->cmdlines.oom || w->kallsyms.oom || w->printk.oom)
		rc = -ENOMEM;
	if (!rc && w->comp != TD_COMP_NONE) {
		rc = tdw_write_v7(w);
	} else if (!rc && (rc = spool_in_place(w)) == 1) {
		put_metadata(w, &m, NULL);
		rc = m.oom ? -ENOMEM : tdw_write_all(w->fd, m.p, m.len);
		if (!rc)
			rc = copy_pages(w);
	}
	wb_free(&m);
	if (!rc) {
		int fd = w->fd;
		w->fd = -1;
		if (close(fd) != 0)
			rc = -errno;
	}
	if (rc) {
		tracedat_writer_abort(w);
		return rc;
	}
	free_writer(w);
	return 0;
}

void tracedat_writer_abort(struct tracedat_writer *w)
{
	if (!w)
		return;
	if (w->created)
		unlink(w->path);
	free_writer(w);
}

int tracedat_writer_add_uname(struct tracedat_writer *w)
{
	struct utsname u;
	if (uname(&u) != 0)
		return 0; /* the option is optional */
	char buf[512];
	int n =
	    snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
	return tracedat_writer_add_option(w, TRACEDAT_OPT_UNAME, buf, (uint32_t)n + 1);
}
