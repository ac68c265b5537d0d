/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the function tracers' text on any record stream, as a damaged
 * trace.dat would feed it: records are cut from the input (a length byte, a
 * CPU byte, then the bytes), typed as function, funcgraph entry or exit, a
 * marker or another event, and rendered with their successors on the same
 * CPU; nothing may read outside a record or print without bound. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text/ftrace_text.h"
#include "fuzz_check.h"

#define MAX_RECS 256

static bool sym(void *ctx, uint64_t addr, struct uft_sym *out)
{
	if (addr < 0x1000 || addr >= 0x9000)
		return false;
	*out = (struct uft_sym){"fn", addr & ~0xfffull, 0x1000, addr & 0x800 ? "lib.so" : NULL};
	return true;
}

static const char *comm(void *ctx, int pid)
{
	return pid & 1 ? "a-rather-long-thread-name" : NULL;
}

static void comment(void *ctx, FILE *f, const struct uft_ftrace_rec *r)
{
	fwrite(r->data, 1, r->len > 8 ? 8 : r->len, f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uft_ftrace_rec recs[MAX_RECS];
	uint8_t *copies[MAX_RECS];
	size_t n = 0;
	unsigned flags = size ? data[0] : 0;
	for (size_t off = 1; off + 2 <= size && n < MAX_RECS;) {
		size_t len = data[off], cpu = data[off + 1] % 5;
		off += 2;
		if (len > size - off)
			len = size - off;
		/* Each record in its own allocation: a read past it is caught. */
		copies[n] = malloc(len ? len : 1);
		CHECK(copies[n]);
		memcpy(copies[n], data + off, len);
		if (len >= 2) /* types 1, 10, 11, 5 or others */
			copies[n][0] = (uint8_t)(copies[n][0] % 4 == 0	 ? 1
						 : copies[n][0] % 4 == 1 ? 10
						 : copies[n][0] % 4 == 2 ? 11
									 : copies[n][0]),
			copies[n][1] = 0;
		recs[n] = (struct uft_ftrace_rec){(int)cpu, off, copies[n], (uint32_t)len};
		off += len;
		n++;
	}
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	CHECK(f);
	struct uft_graph g = {.flags = flags,
			      .nr_cpus = 4,
			      .id_function = 1,
			      .id_entry = 11,
			      .id_exit = 10,
			      .sym = sym,
			      .comm = comm,
			      .comment = comment};
	CHECK(uft_graph_init(&g) == 0);
	uft_graph_header(f, flags);
	bool skip[MAX_RECS] = {0};
	for (size_t i = 0; i < n; i++) {
		if (skip[i])
			continue;
		size_t j = i + 1;
		while (j < n && recs[j].cpu != recs[i].cpu)
			j++;
		int rc = uft_graph_line(&g, f, &recs[i], j < n ? &recs[j] : NULL);
		CHECK(rc == UFT_GRAPH_PLAIN || rc == UFT_GRAPH_DONE || rc == UFT_GRAPH_LEAF);
		CHECK(rc != UFT_GRAPH_LEAF || j < n);
		if (rc == UFT_GRAPH_LEAF)
			skip[j] = true;
		if (rc == UFT_GRAPH_PLAIN)
			uft_ftrace_fn_body(f, recs[i].data, recs[i].len, flags & 7, sym, NULL);
	}
	uft_graph_free(&g);
	CHECK(fclose(f) == 0);
	/* Bounded: the deepest indentation of every line. */
	CHECK(tlen <= 4096 + (n + 1) * (2 * 4096 + 512));
	free(text);
	for (size_t i = 0; i < n; i++)
		free(copies[i]);
	return 0;
}
