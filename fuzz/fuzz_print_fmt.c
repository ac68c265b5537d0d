/* Fuzzes the in-process print fmt renderer. Input: a print fmt, a NUL, then
 * the record bytes after the 8-byte common header. Accepted formats must
 * render without reading outside the record, and every buffer size must
 * give a prefix of the full text with the same snprintf-like length. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/print_fmt.h"

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static const struct uft_field fields[] = {
    {"signed char", "c8", 8, 1, 1, UFT_FIELD_SCALAR, 1},
    {"unsigned char", "b", 9, 1, 0, UFT_FIELD_SCALAR, 1},
    {"short", "s16", 10, 2, 1, UFT_FIELD_SCALAR, 2},
    {"unsigned short", "u16", 12, 2, 0, UFT_FIELD_SCALAR, 2},
    {"bool", "flag", 14, 1, 0, UFT_FIELD_SCALAR, 1},
    {"int", "i32", 16, 4, 1, UFT_FIELD_SCALAR, 4},
    {"unsigned int", "u32", 20, 4, 0, UFT_FIELD_SCALAR, 4},
    {"long", "l64", 24, 8, 1, UFT_FIELD_SCALAR, 8},
    {"unsigned long", "u64", 32, 8, 0, UFT_FIELD_SCALAR, 8},
    {"char", "name[8]", 40, 8, 1, UFT_FIELD_ARRAY, 1},
    {"__data_loc char[]", "str", 48, 4, 0, UFT_FIELD_DYN, 1},
    {"__data_loc unsigned char[]", "arr", 52, 4, 0, UFT_FIELD_DYN, 1},
    {"void *", "ptr", 56, 8, 0, UFT_FIELD_SCALAR, 8},
};

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
	int ret = uft_print_fmt_compile(fmt, fields, sizeof(fields) / sizeof(fields[0]), &pf, err,
					sizeof(err));
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
