/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small zlib workload for bench/real/run.sh: MiB of generated text
 * compressed with deflate (level 6) through a 16 KiB output window, then
 * inflated back through the same window and checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zlib.h"

#define WIN 16384

static const char *const words[] = {
    "the",     "ring",	"buffer", "event",  "trace",   "function",  "graph",  "kernel",
    "record",  "drain", "page",	  "commit", "reader",  "writer",    "sample", "thread",
    "process", "clock", "stamp",  "filter", "trigger", "histogram", "\n",     "of",
};

int main(int argc, char **argv)
{
	size_t len = (size_t)(argc > 1 ? atoi(argv[1]) : 16) << 20;
	unsigned char *in = malloc(len), *back = malloc(len), *z = malloc(len + len / 8 + 1024);
	unsigned char win[WIN];
	if (!in || !back || !z)
		return 1;
	unsigned x = 2024;
	for (size_t i = 0; i < len;) {
		x = x * 1103515245u + 12345u;
		const char *w = words[(x >> 16) % (sizeof(words) / sizeof(words[0]))];
		for (; *w && i < len; w++)
			in[i++] = (unsigned char)*w;
		if (i < len)
			in[i++] = (x >> 8) % 5 ? ' ' : ',';
	}

	z_stream s = {0};
	if (deflateInit(&s, 6) != Z_OK)
		return 1;
	s.next_in = in;
	s.avail_in = (uInt)len;
	size_t zlen = 0;
	int rc;
	do {
		s.next_out = win;
		s.avail_out = WIN;
		rc = deflate(&s, Z_FINISH);
		memcpy(z + zlen, win, WIN - s.avail_out);
		zlen += WIN - s.avail_out;
	} while (rc == Z_OK);
	deflateEnd(&s);
	if (rc != Z_STREAM_END)
		return 1;

	z_stream d = {0};
	if (inflateInit(&d) != Z_OK)
		return 1;
	d.next_in = z;
	d.avail_in = (uInt)zlen;
	size_t blen = 0;
	do {
		d.next_out = win;
		d.avail_out = WIN;
		rc = inflate(&d, Z_NO_FLUSH);
		memcpy(back + blen, win, WIN - d.avail_out);
		blen += WIN - d.avail_out;
	} while (rc == Z_OK);
	inflateEnd(&d);
	if (rc != Z_STREAM_END || blen != len || memcmp(in, back, len))
		return 1;
	printf("zlib %zu bytes -> %zu, crc %08lx\n", len, zlen, crc32(0, in, (uInt)len));
	return 0;
}
