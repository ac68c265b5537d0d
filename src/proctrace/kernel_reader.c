/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads a tracefs instance's per-CPU raw pages (kernel_reader.h). */
#define _GNU_SOURCE
#include "proctrace/kernel_reader.h"
#include "proctrace/proc_info.h"
#include "wire/page.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One read of trace_pipe_raw returns one sub-buffer of this size. */
static uint32_t subbuf_size(const char *dir)
{
	char p[600], b[32];
	snprintf(p, sizeof(p), "%s/buffer_subbuf_size_kb", dir);
	int kb = pt_read_text(p, b, sizeof(b)) > 0 ? atoi(b) : 0;
	if (kb <= 0)
		kb = (int)(sysconf(_SC_PAGESIZE) / 1024);
	return (uint32_t)kb * 1024u;
}

int pt_kreader_open(struct pt_kreader *r, const char *dir)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->subbuf = subbuf_size(dir);
	long n = sysconf(_SC_NPROCESSORS_CONF);
	r->ncpu = n > 0 ? (int)n : 1;
	r->fd = malloc(sizeof(int) * (size_t)r->ncpu);
	r->page = malloc(r->subbuf);
	r->missed = calloc((size_t)r->ncpu, sizeof(*r->missed));
	r->counted = calloc((size_t)r->ncpu, sizeof(*r->counted));
	if (!r->fd || !r->page || !r->missed || !r->counted) {
		free(r->fd);
		free(r->page);
		free(r->missed);
		free(r->counted);
		memset(r, 0, sizeof(*r));
		return -1;
	}
	for (int c = 0; c < r->ncpu; c++) {
		char p[600];
		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, c);
		r->fd[c] = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	return 0;
}

static void lost(struct pt_kreader *r, int cpu, uint64_t n)
{
	r->missed[cpu] += n;
	r->counted[cpu] += n;
}

void pt_kreader_drain(struct pt_kreader *r, const uint16_t *map, struct pt_kmerge *m)
{
	for (int c = 0; c < r->ncpu; c++) {
		if (r->fd[c] < 0)
			continue;
		for (;;) {
			ssize_t n = read(r->fd[c], r->page, r->subbuf);
			if (n <= 0)
				break;
			struct uft_page_iter it;
			struct uft_page_rec rec;
			uft_page_iter_init(&it, r->page, r->subbuf);
			if (it.missed) /* overwritten before this page: some, or a count */
				lost(r, c, it.missed_stored ? it.missed_count : 1);
			while (uft_page_iter_next(&it, &rec) == 1) {
				uint16_t type;
				if (rec.len < 8)
					continue;
				memcpy(&type, rec.data, 2);
				if (map[type])
					pt_kmerge_add(m, (uint32_t)c, rec.ts, rec.data, rec.len,
						      map[type]);
			}
		}
	}
}

void pt_kreader_stats(struct pt_kreader *r)
{
	static const char *const keys[] = {
	    "\noverrun: ", "\ncommit overrun: ", "\ndropped events: "};
	for (int c = 0; c < r->ncpu; c++) {
		char p[600], b[1024];
		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/stats", r->dir, c);
		if (pt_read_text(p, b, sizeof(b)) <= 0)
			continue;
		uint64_t n = 0;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			const char *v = strstr(b, keys[i]);
			if (v)
				n += strtoull(v + strlen(keys[i]), NULL, 10);
		}
		if (n > r->counted[c])
			lost(r, c, n - r->counted[c]);
	}
}

uint64_t pt_kreader_take_lost(struct pt_kreader *r, int cpu)
{
	uint64_t n = r->missed[cpu];
	r->missed[cpu] = 0;
	return n;
}

void pt_kreader_close(struct pt_kreader *r)
{
	for (int c = 0; r->fd && c < r->ncpu; c++)
		if (r->fd[c] >= 0)
			close(r->fd[c]);
	free(r->fd);
	free(r->page);
	free(r->missed);
	free(r->counted);
	memset(r, 0, sizeof(*r));
}
