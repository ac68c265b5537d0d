/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.dat version 7 writer (trace-cmd's trace-cmd.dat.v7(5)) for compressed
 * files. Sections follow each other to the end of the file, as trace-cmd
 * lays them out: strings, the metadata sections (each one compressed block),
 * the top instance's flyrecord section (each CPU's pages in compressed
 * chunks), and last the one options section that names them all. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "wire/page_headers.h"
#include "tracedat/tracedat.h"
#include "tracedat/writer_priv.h"

/* Pages per compressed chunk of CPU data. */
#define CHUNK_PAGES 64u
#define SEC_COMPRESSED 1

/* The description strings; each section names one by its offset here. */
static const char strings[] = "options\0headers\0ftrace events\0events format\0kallsyms\0"
			      "printk\0command lines\0flyrecord\0strings";
enum {
	S_OPTIONS = 0,
	S_HEADERS = 8,
	S_FTRACE = 16,
	S_EVENTS = 30,
	S_KALLSYMS = 44,
	S_PRINTK = 53,
	S_CMDLINES = 60,
	S_FLYRECORD = 74,
	S_STRINGS = 84
};
_Static_assert(sizeof(strings) == S_STRINGS + sizeof("strings"), "string offsets");

struct v7 {
	struct tracedat_writer *w;
	struct wbuf out; /* everything before the CPU data */
	uint64_t meta_off[TRACEDAT_OPT_CMDLINES + 1];
};

static void section_header(struct wbuf *b, uint16_t id, uint16_t flags, uint32_t desc,
			   uint64_t size)
{
	wb_u16(b, id);
	wb_u16(b, flags);
	wb_u32(b, desc);
	wb_u64(b, size);
}

/* A section whose body is one compressed block: u32 compressed size, u32
 * uncompressed size, the bytes. */
static int put_compressed_section(struct v7 *v, uint16_t id, uint32_t desc, const struct wbuf *body)
{
	uint8_t *z;
	size_t zlen;
	if (body->oom)
		return -ENOMEM;
	if (body->len > UINT32_MAX)
		return -EFBIG;
	int rc =
	    td_compress(v->w->comp, body->p ? (const void *)body->p : "", body->len, &z, &zlen);
	if (rc)
		return rc;
	if (id <= TRACEDAT_OPT_CMDLINES)
		v->meta_off[id] = v->out.len;
	section_header(&v->out, id, SEC_COMPRESSED, desc, 8 + (uint64_t)zlen);
	wb_u32(&v->out, (uint32_t)zlen);
	wb_u32(&v->out, (uint32_t)body->len);
	wb_put(&v->out, z, zlen);
	free(z);
	return v->out.oom ? -ENOMEM : 0;
}

static int put_metadata(struct v7 *v)
{
	struct tracedat_writer *w = v->w;
	struct wbuf b = {0};
	char hp[512];
	int hp_len = uft_header_page_format(hp, sizeof(hp), w->page_size);
	const char *he = uft_header_event_text();
	int rc;
	if (hp_len < 0 || (size_t)hp_len >= sizeof(hp))
		return -EINVAL;

	wb_put(&b, "header_page", 12);
	wb_u64(&b, (uint64_t)hp_len);
	wb_put(&b, hp, (size_t)hp_len);
	wb_put(&b, "header_event", 13);
	wb_u64(&b, strlen(he));
	wb_put(&b, he, strlen(he));
	rc = put_compressed_section(v, TRACEDAT_OPT_HEADER_INFO, S_HEADERS, &b);

	/* Both format lists come out of one buffer: split at the system count. */
	b.len = 0;
	struct wbuf all = {0};
	tdw_put_formats(w, &all);
	size_t ftrace_len = 4;
	uint32_t n_ftrace = 0;
	if (all.len >= 4)
		memcpy(&n_ftrace, all.p, 4);
	for (uint32_t i = 0; i < n_ftrace && !all.oom; i++) {
		uint64_t len;
		memcpy(&len, all.p + ftrace_len, 8);
		ftrace_len += 8 + (size_t)len;
	}
	if (!rc && all.oom)
		rc = -ENOMEM;
	if (!rc) {
		wb_put(&b, all.p, ftrace_len);
		rc = put_compressed_section(v, TRACEDAT_OPT_FTRACE_EVENTS, S_FTRACE, &b);
	}
	if (!rc) {
		b.len = 0;
		wb_put(&b, all.p + ftrace_len, all.len - ftrace_len);
		rc = put_compressed_section(v, TRACEDAT_OPT_EVENT_FORMATS, S_EVENTS, &b);
	}
	wb_free(&all);
	if (!rc) {
		b.len = 0;
		wb_u32(&b, (uint32_t)w->kallsyms.len);
		wb_put(&b, w->kallsyms.p, w->kallsyms.len);
		rc = put_compressed_section(v, TRACEDAT_OPT_KALLSYMS, S_KALLSYMS, &b);
	}
	if (!rc) {
		b.len = 0;
		wb_u32(&b, (uint32_t)w->printk.len);
		wb_put(&b, w->printk.p, w->printk.len);
		rc = put_compressed_section(v, TRACEDAT_OPT_PRINTK, S_PRINTK, &b);
	}
	if (!rc) {
		b.len = 0;
		wb_u64(&b, w->cmdlines.len);
		wb_put(&b, w->cmdlines.p, w->cmdlines.len);
		rc = put_compressed_section(v, TRACEDAT_OPT_CMDLINES, S_CMDLINES, &b);
	}
	wb_free(&b);
	return rc;
}

/* One CPU's pages from the spool as compressed chunks at the file's end:
 * u32 chunk count, then per chunk u32 compressed size, u32 uncompressed size
 * and the bytes. *size is what trace-cmd records: all but the count. */
static int write_cpu(struct tracedat_writer *w, int cpu, uint8_t *buf, uint64_t *size)
{
	struct cpu_pages *c = &w->cpus[cpu];
	struct wbuf b = {0};
	uint32_t chunks = (uint32_t)((c->n + CHUNK_PAGES - 1) / CHUNK_PAGES);
	int rc = 0;
	wb_u32(&b, chunks);
	for (size_t i = 0; i < c->n && !rc;) {
		size_t k = c->n - i < CHUNK_PAGES ? c->n - i : CHUNK_PAGES;
		for (size_t j = 0; j < k && !rc; j++)
			rc = tdw_read_all(w->spool, buf + j * w->page_size, w->page_size,
					  (off_t)c->idx[i + j]);
		uint8_t *z = NULL;
		size_t zlen = 0;
		if (!rc)
			rc = td_compress(w->comp, buf, k * w->page_size, &z, &zlen);
		if (!rc) {
			wb_u32(&b, (uint32_t)zlen);
			wb_u32(&b, (uint32_t)(k * w->page_size));
			wb_put(&b, z, zlen);
			free(z);
		}
		i += k;
	}
	if (!rc && b.oom)
		rc = -ENOMEM;
	if (!rc)
		rc = tdw_write_all(w->fd, b.p, b.len);
	*size = b.len - 4;
	wb_free(&b);
	return rc;
}

static int write_options(struct v7 *v, uint64_t fly_off, const uint64_t *cpu_off,
			 const uint64_t *cpu_size)
{
	struct tracedat_writer *w = v->w;
	struct wbuf o = {0};
	for (uint16_t id = TRACEDAT_OPT_HEADER_INFO; id <= TRACEDAT_OPT_CMDLINES; id++) {
		wb_u16(&o, id);
		wb_u32(&o, 8);
		wb_u64(&o, v->meta_off[id]);
	}
	struct wbuf clk = {0};
	tdw_put_clock_list(&clk, w->clock);
	wb_u16(&o, TRACEDAT_OPT_TRACECLOCK);
	wb_u32(&o, (uint32_t)clk.len);
	wb_put(&o, clk.p, clk.len);
	o.oom |= clk.oom;
	wb_free(&clk);
	wb_u16(&o, TRACEDAT_OPT_CPUCOUNT);
	wb_u32(&o, 4);
	wb_u32(&o, (uint32_t)w->nr_cpus);
	wb_put(&o, w->options.p, w->options.len);

	/* The top instance: flyrecord section, name "", clock, page size and
	 * every CPU that has data. */
	uint32_t n = 0;
	for (int cpu = 0; cpu < w->nr_cpus; cpu++)
		n += w->cpus[cpu].n != 0;
	wb_u16(&o, TRACEDAT_OPT_BUFFER);
	wb_u32(&o, (uint32_t)(8 + 1 + strlen(w->clock) + 1 + 4 + 4 + (size_t)n * 20));
	wb_u64(&o, fly_off);
	wb_str0(&o, "");
	wb_str0(&o, w->clock);
	wb_u32(&o, w->page_size);
	wb_u32(&o, n);
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		if (!w->cpus[cpu].n)
			continue;
		wb_u32(&o, (uint32_t)cpu);
		wb_u64(&o, cpu_off[cpu]);
		wb_u64(&o, cpu_size[cpu]);
	}
	wb_u16(&o, TRACEDAT_OPT_DONE);
	wb_u32(&o, 8);
	wb_u64(&o, 0);

	struct wbuf s = {0};
	section_header(&s, TRACEDAT_OPT_DONE, 0, S_OPTIONS, o.len);
	wb_put(&s, o.p, o.len);
	int rc = s.oom || o.oom ? -ENOMEM : tdw_write_all(w->fd, s.p, s.len);
	wb_free(&o);
	wb_free(&s);
	return rc;
}

int tdw_write_v7(struct tracedat_writer *w)
{
	static const uint8_t magic[] = {0x17, 0x08, 0x44};
	struct v7 v = {.w = w};
	struct wbuf *m = &v.out;
	wb_put(m, magic, 3);
	wb_put(m, "tracing", 7);
	wb_str0(m, "7");
	wb_put(m, "\0\x08", 2); /* little endian, long size 8 */
	wb_u32(m, w->page_size);
	wb_str0(m, td_comp_name(w->comp));
	wb_str0(m, td_comp_version(w->comp));
	size_t options_ptr = m->len;
	wb_u64(m, 0); /* the options section's offset, patched at the end */
	section_header(m, TRACEDAT_OPT_STRINGS, 0, S_STRINGS, sizeof(strings));
	wb_put(m, strings, sizeof(strings));
	int rc = put_metadata(&v);

	/* The flyrecord section: padding to a page, then every CPU's chunks;
	 * its size is patched once they are written. */
	uint64_t fly_off = m->len;
	section_header(m, TRACEDAT_OPT_BUFFER, SEC_COMPRESSED, S_FLYRECORD, 0);
	wb_zero(m, (w->page_size - m->len % w->page_size) % w->page_size);
	if (!rc && m->oom)
		rc = -ENOMEM;
	if (!rc)
		rc = tdw_write_all(w->fd, m->p, m->len);
	uint64_t pos = m->len;
	uint64_t *cpu_off = calloc((size_t)w->nr_cpus, sizeof(*cpu_off));
	uint64_t *cpu_size = calloc((size_t)w->nr_cpus, sizeof(*cpu_size));
	uint8_t *buf = malloc((size_t)CHUNK_PAGES * w->page_size);
	if (!rc && (!cpu_off || !cpu_size || !buf))
		rc = -ENOMEM;
	for (int cpu = 0; cpu < w->nr_cpus && !rc; cpu++) {
		if (!w->cpus[cpu].n)
			continue;
		cpu_off[cpu] = pos;
		rc = write_cpu(w, cpu, buf, &cpu_size[cpu]);
		pos += cpu_size[cpu] + 4;
	}
	free(buf);
	if (!rc) {
		uint64_t fly_size = pos - fly_off - 16;
		rc = tdw_pwrite_all(w->fd, &fly_size, 8, (off_t)(fly_off + 8));
	}
	if (!rc)
		rc = write_options(&v, fly_off, cpu_off, cpu_size);
	if (!rc)
		rc = tdw_pwrite_all(w->fd, &pos, 8, (off_t)options_ptr);
	free(cpu_off);
	free(cpu_size);
	wb_free(m);
	return rc;
}
