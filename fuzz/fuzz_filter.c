/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes filter expressions against a fixed event: failures must carry a
 * sane code and position and render; compiled filters must evaluate on
 * good, corrupt and short records without reading outside them, and
 * "!(E)" must give the opposite answer to E on a good record. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/filter.h"

#include "fuzz_check.h"

/* 8-byte common header, then the fields; strings after offset 80. */
static const struct uft_field fields[] = {
    {"int", "pid", 8, 4, 1, UFT_FIELD_SCALAR, 4},
    {"unsigned char", "flag", 12, 1, 0, UFT_FIELD_SCALAR, 1},
    {"short", "s16", 14, 2, 1, UFT_FIELD_SCALAR, 2},
    {"u64", "bytes", 16, 8, 0, UFT_FIELD_SCALAR, 8},
    {"char", "comm[16]", 24, 16, 0, UFT_FIELD_ARRAY, 1},
    {"__data_loc char[]", "name", 40, 4, 0, UFT_FIELD_DYN, 1},
    {"__data_loc cpumask_t[]", "mask", 44, 4, 0, UFT_FIELD_DYN, 1},
    {"__rel_loc char[]", "rel", 48, 4, 0, UFT_FIELD_DYN, 1},
    {"unsigned int", "target_cpu", 52, 4, 0, UFT_FIELD_SCALAR, 4},
    {"const char *", "str", 56, 8, 0, UFT_FIELD_SCALAR, 8},
    {"void *", "ptr", 64, 8, 0, UFT_FIELD_SCALAR, 8},
    {"unsigned long", "call_site", 72, 8, 0, UFT_FIELD_SCALAR, 8},
};
#define NR_FIELDS ((uint32_t)(sizeof(fields) / sizeof(fields[0])))
#define REC_LEN 112u

static const char pointed[] = "pointed string";

static void build_record(uint8_t *r)
{
	uint32_t w;
	uint64_t v;
	const char *p;

	memset(r, 0, REC_LEN);
	r[0] = 7;
	r[4] = 42;
	r[8] = 0xfe;
	r[9] = 0xff;
	r[10] = 0xff;
	r[11] = 0xff;
	r[12] = 0x80;
	r[14] = 0x00;
	r[15] = 0x80;
	v = 123456789;
	memcpy(r + 16, &v, 8);
	memcpy(r + 24, "bash", 5);
	memcpy(r + 80, "hello", 6);
	w = 80 | 6u << 16;
	memcpy(r + 40, &w, 4);
	r[88] = 0x0a;
	w = 88 | 1u << 16;
	memcpy(r + 44, &w, 4);
	memcpy(r + 96, "rel", 4);
	w = (96 - 52) | 4u << 16;
	memcpy(r + 48, &w, 4);
	w = 3;
	memcpy(r + 52, &w, 4);
	p = pointed;
	memcpy(r + 56, &p, 8);
	p = NULL;
	memcpy(r + 64, &p, 8);
	v = 0x1234;
	memcpy(r + 72, &v, 8);
}

/* Runs f over an exact-size heap copy so sanitizers see overreads. */
static bool run(const struct uft_filter *f, const uint8_t *src, uint32_t len, uint32_t cpu,
		const char *comm)
{
	uint8_t *r = malloc(len ? len : 1);
	CHECK(r);
	memcpy(r, src, len);
	bool m = uft_filter_match(f, r, len, cpu, comm);
	free(r);
	return m;
}

static void check_error(const char *expr, const struct uft_filter_error *err)
{
	char text[64];
	size_t len = strlen(expr);

	CHECK(err->code == -ENOMEM || (err->code >= 0 && err->code <= UFT_FILTER_ERR_NO_FILTER));
	/* "x == CPUS" at the very end points two past it, as in the kernel */
	CHECK(err->pos >= 0 && (size_t)err->pos <= len + 2);
	CHECK(uft_filter_strerror(err->code) != NULL);
	int n = uft_filter_error_text(expr, err, NULL, 0);
	CHECK(n > 0 && (size_t)n > len);
	char *full = malloc((size_t)n + 1);
	CHECK(full);
	CHECK(uft_filter_error_text(expr, err, full, (size_t)n + 1) == n);
	CHECK(strlen(full) == (size_t)n && !strncmp(full, expr, len) && full[n - 1] == '\n');
	CHECK(uft_filter_error_text(expr, err, text, sizeof(text)) == n);
	CHECK(strlen(text) == ((size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1));
	free(full);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t cpus[] = {0, 3, 1023, 5000};
	static const char *const comms[] = {"bash", NULL, "abcdefghijklmnopqrstu"};
	uint8_t good[REC_LEN], bad[REC_LEN];
	struct uft_filter *f = NULL, *nf = NULL;
	struct uft_filter_error err;

	if (size > 4096)
		return 0;
	char *expr = malloc(size + 1);
	CHECK(expr);
	memcpy(expr, data, size);
	expr[size] = '\0';

	int rc = uft_filter_compile(expr, fields, NR_FIELDS, &f, &err);
	if (rc == UFT_FILTER_CLEAR) {
		CHECK(!f);
		goto out;
	}
	if (rc) {
		CHECK(rc == -EINVAL && !f);
		check_error(expr, &err);
		goto out;
	}
	CHECK(f);

	build_record(good);
	/* corrupt every __data_loc word with bytes from the input */
	memcpy(bad, good, REC_LEN);
	uint32_t junk = 0;
	memcpy(&junk, data, size < 4 ? size : 4);
	junk ^= 0x00ff0070;
	memcpy(bad + 40, &junk, 4);
	memcpy(bad + 44, &junk, 4);
	memcpy(bad + 48, &junk, 4);

	size_t nlen = size + 4;
	char *neg = malloc(nlen);
	CHECK(neg);
	snprintf(neg, nlen, "!(%s)", expr);
	if (uft_filter_compile(neg, fields, NR_FIELDS, &nf, NULL) != 0)
		nf = NULL;

	for (size_t c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
		for (size_t k = 0; k < sizeof(comms) / sizeof(comms[0]); k++) {
			bool m = run(f, good, REC_LEN, cpus[c], comms[k]);
			if (nf)
				CHECK(run(nf, good, REC_LEN, cpus[c], comms[k]) == !m);
			run(f, bad, REC_LEN, cpus[c], comms[k]);
		}
	}
	for (uint32_t len = 0; len < REC_LEN; len += 7)
		run(f, good, len, 3, "x");
	free(neg);
out:
	uft_filter_free(f);
	uft_filter_free(nf);
	free(expr);
	return 0;
}
