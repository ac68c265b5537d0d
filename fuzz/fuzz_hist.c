/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes hist specifications and format files. Input byte 0 picks the
 * parser: 'F' reads the rest as a format file, anything else as a hist
 * spec compiled against a fixed event. Refusals must carry a sane error;
 * compiled histograms must take good, short and corrupt records and print. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/format/format_parse.h"
#include "engine/hist/hist.h"

#include "fuzz_check.h"

static const struct uft_field fields[] = {
    {"int", "pid", 8, 4, 1, UFT_FIELD_SCALAR, 4},
    {"unsigned char", "flag", 12, 1, 0, UFT_FIELD_SCALAR, 1},
    {"short", "s16", 14, 2, 1, UFT_FIELD_SCALAR, 2},
    {"u64", "bytes", 16, 8, 0, UFT_FIELD_SCALAR, 8},
    {"char", "comm[16]", 24, 16, 0, UFT_FIELD_ARRAY, 1},
    {"__data_loc char[]", "name", 40, 4, 0, UFT_FIELD_DYN, 1},
    {"__rel_loc char[]", "rel", 44, 4, 0, UFT_FIELD_DYN, 1},
    {"long", "id", 48, 8, 1, UFT_FIELD_SCALAR, 8},
    {"unsigned long", "call_site", 56, 8, 0, UFT_FIELD_SCALAR, 8},
};
#define REC_LEN 96u

static const char *comm(void *ctx, int pid)
{
	return pid & 1 ? "odd" : NULL;
}

static int sym(void *ctx, uint64_t addr, bool off, char *buf, size_t len)
{
	if (addr & 1)
		return -1;
	snprintf(buf, len, off ? "f+0x%llx/0x10" : "f", (unsigned long long)(addr & 0xf));
	return 0;
}

/* A fixed stack for common_stacktrace keys, one frame unnamed. */
static uint32_t stack(void *ctx, uint64_t *pcs, uint32_t max)
{
	(void)ctx;
	static const uint64_t frames[] = {0x11, 0x22, 0x1000};
	uint32_t n = 0;
	for (; n < max && n < 3; n++)
		pcs[n] = frames[n];
	return n;
}

static void fuzz_format(const uint8_t *data, size_t size)
{
	struct uft_format_parsed p;
	int rc = uft_format_parse((const char *)data, size, &p);

	CHECK(rc == 0 || rc == -EINVAL || rc == -ENOMEM);
	if (rc)
		return;
	CHECK(p.name != NULL);
	for (uint32_t i = 0; i < p.nr_fields; i++)
		CHECK(p.fields[i].name && p.fields[i].type && p.fields[i].offset <= 65536);
	uft_format_parsed_free(&p);
}

static void fuzz_spec(const uint8_t *data, size_t size)
{
	static const struct uft_hist_event ev = {
	    "fz", "ev", fields, sizeof(fields) / sizeof(fields[0]), false, NULL};
	struct uft_hist_comm cm = {comm, NULL, stack};
	struct uft_hist_syms sy = {sym, NULL};
	struct uft_hist_error e;
	struct uft_hist *h;
	char *spec = malloc(size + 1);

	CHECK(spec);
	memcpy(spec, data, size);
	spec[size] = '\0';
	int rc = uft_hist_create(spec, &ev, &h, &e);
	if (rc) {
		CHECK(!h && rc == e.err);
		CHECK(rc == -EINVAL || rc == -ENOENT || rc == -ENOMEM || rc == -EOPNOTSUPP ||
		      rc == -EEXIST || rc == -EBUSY);
		CHECK(e.code >= 0 && e.code < UFT_HIST_NR_ERRS && e.pos >= 0);
		CHECK(e.n_prior <= 8);
		for (uint32_t i = 0; i < e.n_prior; i++)
			CHECK(e.prior[i].code > 0 && e.prior[i].code < UFT_HIST_NR_ERRS &&
			      e.prior[i].pos >= 0 && (size_t)e.prior[i].pos <= size + 5);
		CHECK((size_t)e.pos <= size + 5);
		CHECK(uft_hist_strerror(e.code) != NULL);
		free(spec);
		return;
	}
	uint8_t rec[REC_LEN];
	for (int i = 0; i < 64; i++) {
		memset(rec, 0, sizeof(rec));
		for (size_t j = 0; j < sizeof(rec); j++)
			rec[j] =
			    (uint8_t)(j * 7 + (size_t)i * 13 + (size ? data[(size_t)i % size] : 0));
		uint32_t loc = 72u | 8u << 16;
		if (i % 3 == 0)
			memcpy(rec + 40, &loc, 4);
		/* exact-size heap copies, some short, so sanitizers see overreads */
		uint32_t len = i % 5 == 0 ? (uint32_t)i : REC_LEN;
		uint8_t *r = malloc(len ? len : 1);
		CHECK(r);
		memcpy(r, rec, len);
		uft_hist_update(h, r, len, (uint64_t)i * 1000003, (uint32_t)i % 4, &cm);
		free(r);
	}
	char *out = NULL;
	size_t olen = 0;
	FILE *f = open_memstream(&out, &olen);
	CHECK(f);
	CHECK(uft_hist_print(h, f, &sy) == 0);
	fclose(f);
	CHECK(strncmp(out, "# event histogram\n", 18) == 0);
	free(out);
	int n = uft_hist_info(h, NULL, 0);
	CHECK(n > 0);
	uft_hist_free(h);
	free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	if (size && data[0] == 'F')
		fuzz_format(data + 1, size - 1);
	else
		fuzz_spec(data, size);
	return 0;
}
