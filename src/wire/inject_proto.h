/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The payload of the control socket's INJECT operation (wire/ctl_proto.h):
 * events of other tasks, taken from the kernel by `uft ns --kernel-events`
 * (cmd/ns_bridge.c), for the traced program to write as its own events of
 * the same name (runtime/tracefs/tfs_inject.c, docs/design/tracefs.md,
 * "Kernel events of other tasks").
 *
 * Records one after another, each a header then `len` bytes of record,
 * padded to 8 bytes, all little-endian:
 *   u32 len      the record's bytes: the tree's common header (its
 *                common_type the tree's id of the event, common_pid the
 *                kernel task's) and the event's fields in the tree's layout
 *   u32 cpu      the CPU the kernel recorded it on
 *   u64 mono_ns  when, in CLOCK_MONOTONIC nanoseconds
 *   char comm[16] the task's name (NUL-padded), for .execname, COMM and
 *                the trace's comm-pid column
 * The process checks every record as hostile input and answers with the
 * number it took (written, or left out by its filters as its own would
 * be); it refuses the rest, counts them and logs why in error_log. */
#ifndef UFT_INJECT_PROTO_H
#define UFT_INJECT_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uft/event.h>

struct uft_inject_hdr {
	uint32_t len;
	uint32_t cpu;
	uint64_t mono_ns;
	char comm[16];
};

#define UFT_INJECT_HDR_SIZE 32u
#define UFT_INJECT_ALIGN(n) (((n) + 7u) & ~7u)
#define UFT_INJECT_MIN_REC 8u /* a common header */

/* The next record of buf[0, len) at *pos: 1 with its header and bytes (and
 * *pos past it), 0 at the end, -EPROTO when the rest is malformed (a header
 * cut short, a length under a common header or past the message). */
int uft_inject_next(const uint8_t *buf, size_t len, size_t *pos, struct uft_inject_hdr *h,
		    const uint8_t **rec);
/* Whether a record of `len` bytes holds an event's fixed part (`fixed`
 * bytes) and each of its __data_loc fields points inside it, after that
 * part. */
bool uft_inject_locs_ok(const struct uft_field *fields, uint32_t nr, uint32_t fixed,
			const uint8_t *rec, uint32_t len);

#endif
