/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A protocol buffers wire-format encoder (developers.google.com/protocol-
 * buffers/docs/encoding): varints, fixed 64-bit, length-delimited fields and
 * nested messages, written into one growable buffer. Only what the Perfetto
 * export needs; no schema, the caller names each field by number. */
#ifndef UFT_EXPORT_PB_H
#define UFT_EXPORT_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PB_MAX_NEST 8

struct pb {
	uint8_t *buf;
	size_t len, cap;
	size_t open[PB_MAX_NEST]; /* body offsets of the messages begun */
	unsigned depth;
	bool oom; /* an allocation failed: the buffer is incomplete */
};

/* Wire types. */
enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2 };

void pb_reset(struct pb *p);
void pb_free(struct pb *p);
/* The bytes of a varint (1..10) written at out. */
unsigned pb_varint_put(uint8_t *out, uint64_t v);
void pb_uint(struct pb *p, uint32_t field, uint64_t v);
/* int64/int32 fields: two's complement, ten bytes when negative. */
void pb_int(struct pb *p, uint32_t field, int64_t v);
void pb_double(struct pb *p, uint32_t field, double v);
void pb_bytes(struct pb *p, uint32_t field, const void *data, size_t len);
void pb_str(struct pb *p, uint32_t field, const char *s);
/* A nested message: fields written between begin and end form its body.
 * Beyond PB_MAX_NEST levels the message is marked out of memory. */
void pb_begin(struct pb *p, uint32_t field);
void pb_end(struct pb *p);

#endif
