/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tracedat/compress.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

int td_comp_by_name(const char *name)
{
	if (!name[0] || strcmp(name, "none") == 0)
		return TD_COMP_NONE;
	if (strcmp(name, "zstd") == 0)
		return TD_COMP_ZSTD;
	if (strcmp(name, "zlib") == 0)
		return TD_COMP_ZLIB;
	return -1;
}

const char *td_comp_name(enum td_comp alg)
{
	return alg == TD_COMP_ZSTD ? "zstd" : alg == TD_COMP_ZLIB ? "zlib" : "none";
}

const char *td_comp_version(enum td_comp alg)
{
	return alg == TD_COMP_ZSTD   ? ZSTD_versionString()
	       : alg == TD_COMP_ZLIB ? zlibVersion()
				     : "";
}

/* The output buffer: starts small and doubles up to the claimed size. */
struct outbuf {
	uint8_t *p;
	size_t cap, want;
};

static bool outbuf_grow(struct outbuf *o, size_t srclen)
{
	size_t cap = o->cap ? o->cap * 2 : srclen * 4 + 65536;
	if (cap > o->want || cap < o->cap)
		cap = o->want;
	uint8_t *p = realloc(o->p, cap ? cap : 1);
	if (!p)
		return false;
	o->p = p;
	o->cap = cap;
	return true;
}

static int zstd_run(const uint8_t *src, size_t srclen, struct outbuf *o, size_t *got,
		    const char **why)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	if (!d)
		return *why = "out of memory", -1;
	ZSTD_inBuffer in = {src, srclen, 0};
	ZSTD_outBuffer out = {NULL, 0, 0};
	int rc = -1;
	for (;;) {
		if (out.pos == o->cap) {
			if (o->cap == o->want) {
				*why = "the data is larger than the size it claims";
				break;
			}
			if (!outbuf_grow(o, srclen)) {
				*why = "out of memory";
				break;
			}
		}
		out.dst = o->p;
		out.size = o->cap;
		size_t r = ZSTD_decompressStream(d, &out, &in);
		if (ZSTD_isError(r)) {
			*why = ZSTD_getErrorName(r);
			break;
		}
		if (r == 0 && in.pos == in.size) { /* the frame ended with the input */
			rc = 0;
			break;
		}
		if (in.pos == in.size && out.pos < out.size) {
			*why = "truncated compressed data";
			break;
		}
	}
	*got = out.pos;
	ZSTD_freeDCtx(d);
	return rc;
}

static int zlib_run(const uint8_t *src, size_t srclen, struct outbuf *o, size_t *got,
		    const char **why)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return *why = "out of memory", -1;
	int rc = -1;
	size_t done = 0;
	z.next_in = (Bytef *)src;
	for (;;) {
		if (done == o->cap) {
			if (o->cap == o->want) {
				*why = "the data is larger than the size it claims";
				break;
			}
			if (!outbuf_grow(o, srclen)) {
				*why = "out of memory";
				break;
			}
		}
		/* zlib counts in uInt: feed and drain at most 1 GiB a step. */
		size_t in_left = srclen - (size_t)(z.next_in - src);
		z.avail_in = (uInt)(in_left < (1u << 30) ? in_left : (1u << 30));
		z.next_out = o->p + done;
		size_t room = o->cap - done;
		z.avail_out = (uInt)(room < (1u << 30) ? room : (1u << 30));
		uInt before = z.avail_out;
		int r = inflate(&z, Z_NO_FLUSH);
		done += before - z.avail_out;
		if (r == Z_STREAM_END) {
			rc = 0;
			break;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			*why = z.msg ? z.msg : "corrupt zlib data";
			break;
		}
		if (z.avail_out && (size_t)(z.next_in - src) == srclen) {
			*why = "truncated compressed data";
			break;
		}
	}
	*got = done;
	inflateEnd(&z);
	return rc;
}

int td_decompress(enum td_comp alg, const uint8_t *src, size_t srclen, size_t want, uint8_t **out,
		  char *err, size_t errlen)
{
	struct outbuf o = {NULL, 0, want};
	size_t got = 0;
	const char *why = "unknown compression";
	int rc = -1;
	if (want == 0) {
		o.p = malloc(1);
		rc = o.p ? 0 : (why = "out of memory", -1);
	} else if (alg == TD_COMP_ZSTD) {
		rc = zstd_run(src, srclen, &o, &got, &why);
	} else if (alg == TD_COMP_ZLIB) {
		rc = zlib_run(src, srclen, &o, &got, &why);
	}
	if (rc == 0 && got != want) {
		why = "the data is smaller than the size it claims";
		rc = -1;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s", why);
		free(o.p);
		return -1;
	}
	*out = o.p;
	return 0;
}

int td_compress(enum td_comp alg, const void *src, size_t len, uint8_t **out, size_t *outlen)
{
	size_t cap = alg == TD_COMP_ZSTD ? ZSTD_compressBound(len) : compressBound((uLong)len);
	uint8_t *p = malloc(cap ? cap : 1);
	if (!p)
		return -ENOMEM;
	if (alg == TD_COMP_ZSTD) {
		size_t r = ZSTD_compress(p, cap, src, len, ZSTD_CLEVEL_DEFAULT);
		if (ZSTD_isError(r)) {
			free(p);
			return -EIO;
		}
		*outlen = r;
	} else if (alg == TD_COMP_ZLIB) {
		uLongf n = (uLongf)cap;
		if (compress2(p, &n, src, (uLong)len, Z_DEFAULT_COMPRESSION) != Z_OK) {
			free(p);
			return -EIO;
		}
		*outlen = n;
	} else {
		free(p);
		return -EINVAL;
	}
	*out = p;
	return 0;
}
