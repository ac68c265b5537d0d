/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the trace.dat writer's two layouts share: the writer's state, a grown
 * byte buffer and the helpers both versions use (tracedat_write.c for
 * version 6, tracedat_write_v7.c for version 7 with compression). */
#ifndef UFT_TRACEDAT_WRITER_PRIV_H
#define UFT_TRACEDAT_WRITER_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "tracedat/compress.h"

#define MAX_CPUS 65536
#define COPY_CHUNK (256u * 1024u)
#define TDW_DIRECT_ALIGN 4096u
#define TDW_DIRECT_CHUNK (1u << 20)

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

struct wformat {
	char *system;
	char *text;
	size_t len;
};

struct cpu_pages {
	uint64_t *idx; /* byte offsets of the pages in the spool file */
	size_t n, cap;
};

struct tracedat_writer {
	char *path;
	bool created;
	int fd;
	int spool;
	uint64_t spooled; /* bytes of the spool in use */
	uint64_t hole;	  /* bytes before the spool's first page (a hole) */
	int nr_cpus;
	uint32_t page_size;
	char clock[64];
	struct cpu_pages *cpus;
	struct wformat *fmts;
	size_t nr_fmts, cap_fmts;
	struct wbuf cmdlines, options, kallsyms, printk;
	enum td_comp comp; /* TD_COMP_NONE: version 6 */
	/* Direct I/O for page runs copied from the spool (direct_io.c). */
	int spool_direct, out_direct;
	uint8_t *direct_buf;
	bool no_direct;
};

/* Copies what it can of *len bytes of the spool at *off to the output's
 * position with direct I/O, advancing both; the rest is the caller's. */
void tdw_copy_direct(struct tracedat_writer *w, uint64_t *off, uint64_t *len);
void tdw_direct_close(struct tracedat_writer *w);

static inline void wb_put(struct wbuf *b, const void *data, size_t len)
{
	if (b->oom || len == 0) /* len 0 may come with a NULL `data` */
		return;
	if (len > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap - b->len < len)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static inline void wb_u16(struct wbuf *b, uint16_t v)
{
	wb_put(b, &v, 2); /* host is little endian, as the file */
}

static inline void wb_u32(struct wbuf *b, uint32_t v)
{
	wb_put(b, &v, 4);
}

static inline void wb_u64(struct wbuf *b, uint64_t v)
{
	wb_put(b, &v, 8);
}

static inline void wb_str0(struct wbuf *b, const char *s)
{
	wb_put(b, s, strlen(s) + 1);
}

static inline void wb_zero(struct wbuf *b, size_t n)
{
	static const uint8_t zeros[64];
	while (n) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);
		wb_put(b, zeros, k);
		n -= k;
	}
}

static inline void wb_free(struct wbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int tdw_write_all(int fd, const void *p, size_t len);
/* Writes (pwrite) or reads (pread) all len bytes at off; 0 or -errno. */
int tdw_pwrite_all(int fd, const void *p, size_t len, off_t off);
int tdw_read_all(int fd, void *p, size_t len, off_t off);
/* The trace_clock file as the kernel prints it, with the chosen clock marked. */
void tdw_put_clock_list(struct wbuf *b, const char *clock);
/* The ftrace format list and the event systems, as both versions store them. */
void tdw_put_formats(struct tracedat_writer *w, struct wbuf *m);
/* Writes a version 7 file (sections, w->comp) to w->fd. */
int tdw_write_v7(struct tracedat_writer *w);

#endif
