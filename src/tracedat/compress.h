/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The block compression of trace.dat version 7 files ("zstd" and "zlib",
 * through libzstd and zlib): one call per block, as trace-cmd's
 * tracecmd_compress_block and tracecmd_uncompress_block see them. */
#ifndef UFT_TRACEDAT_COMPRESS_H
#define UFT_TRACEDAT_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

enum td_comp {
	TD_COMP_NONE = 0,
	TD_COMP_ZSTD,
	TD_COMP_ZLIB,
};

/* The algorithm a file header names ("" and "none" are TD_COMP_NONE), or -1. */
int td_comp_by_name(const char *name);
const char *td_comp_name(enum td_comp alg);
/* The library version written next to the name ("1.5.4"). */
const char *td_comp_version(enum td_comp alg);

/* Decompresses `srclen` bytes that claim to hold exactly `want` bytes into a
 * malloc'ed *out. The buffer grows with the output actually produced, so a
 * false claim costs no more memory than the data really expands to. 0, or -1
 * with a message in err. */
int td_decompress(enum td_comp alg, const uint8_t *src, size_t srclen, size_t want, uint8_t **out,
		  char *err, size_t errlen);

/* Compresses `len` bytes into a malloc'ed *out of *outlen bytes; 0 or -errno. */
int td_compress(enum td_comp alg, const void *src, size_t len, uint8_t **out, size_t *outlen);

#endif
