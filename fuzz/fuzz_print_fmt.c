/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the in-process print fmt renderer. Input: a print fmt, a NUL, then
 * the record bytes after the 8-byte common header. Accepted formats must
 * render without reading outside the record, and every buffer size must
 * give a prefix of the full text with the same snprintf-like length. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/format/print_fmt.h"

#include "../tests/unit/field_kinds.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t flen = nul ? (size_t)(nul - data) : size;
	char *fmt = malloc(flen + 1);
	CHECK(fmt);
	memcpy(fmt, data, flen);
	fmt[flen] = '\0';

	struct uft_print_fmt *pf;
	char err[256];
	int ret = uft_print_fmt_compile(
	    fmt, field_kinds, sizeof(field_kinds) / sizeof(field_kinds[0]), &pf, err, sizeof(err));
	free(fmt);
	if (ret) {
		CHECK(!pf && err[0]);
		return 0;
	}
	/* The record in a buffer of its exact size, so overreads trip ASan. */
	size_t body = nul ? size - flen - 1 : 0;
	uint32_t len = (uint32_t)(8 + (body > 65536 ? 65536 : body));
	uint8_t *rec = malloc(len);
	CHECK(rec);
	memset(rec, 0, 8);
	if (len > 8)
		memcpy(rec + 8, nul + 1, len - 8);

	static char full[1 << 16], part[64];
	int n = uft_print_fmt_render(pf, rec, len, full, sizeof(full));
	CHECK(n >= 0 && uft_print_fmt_render(pf, rec, len, NULL, 0) == n);
	if ((size_t)n < sizeof(full)) {
		CHECK(strlen(full) == (size_t)n);
		for (size_t cap = 1; cap <= sizeof(part); cap += 9) {
			CHECK(uft_print_fmt_render(pf, rec, len, part, cap) == n);
			size_t want = (size_t)n < cap - 1 ? (size_t)n : cap - 1;
			CHECK(strlen(part) == want && !memcmp(part, full, want));
		}
	}
	/* Every shorter record too, for the bounds checks. */
	for (uint32_t l = 0; l < len && l < 80; l += 7)
		uft_print_fmt_render(pf, rec, l, part, sizeof(part));
	free(rec);
	uft_print_fmt_free(pf);
	return 0;
}
