/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test events of the buffer tests: a sequence number, the context that wrote
 * it, a variable-size blob and a checksum over all three, so a reader can tell
 * a torn or misplaced record from a good one. */
#undef UFT_SYSTEM
#define UFT_SYSTEM rtest

#if !defined(RING_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define RING_EVENTS_H

#include <uft/trace_event.h>

/* clang-format off */
UFT_EVENT(seq,
	UFT_PROTO(uint64_t seq, uint32_t ctx, uint32_t sum, const uint8_t *blob, uint32_t n),
	UFT_ARGS(seq, ctx, sum, blob, n),
	UFT_STRUCT(
		__field(uint64_t, seq)
		__field(uint32_t, ctx)
		__field(uint32_t, sum)
		__dynamic_array(uint8_t, blob, n)
	),
	UFT_ASSIGN(
		__entry->seq = seq;
		__entry->ctx = ctx;
		__entry->sum = sum;
		memcpy(__get_dynamic_array(blob), blob, n);
	),
	UFT_PRINT("seq=%llu ctx=%u sum=%u", (unsigned long long)__entry->seq, __entry->ctx,
		  __entry->sum))
/* clang-format on */

#endif

#ifndef RING_EVENTS_HELPERS
#define RING_EVENTS_HELPERS

/* Deterministic blob contents; returns the checksum the record carries.
 * Async-signal-safe: the stress test calls it from signal handlers. */
static inline uint32_t rtest_fill(uint8_t *blob, uint64_t seq, uint32_t ctx, uint32_t n)
{
	uint32_t h = 2166136261u ^ (uint32_t)seq ^ (uint32_t)(seq >> 32) * 31u ^ ctx * 7919u;
	for (uint32_t i = 0; i < n; i++) {
		blob[i] = (uint8_t)(seq * 131u + i * 7u + ctx);
		h = (h ^ blob[i]) * 16777619u;
	}
	return h ^ n;
}

/* The record as stored, common header first. */
struct rtest_rec {
	uint16_t type;
	uint8_t flags;
	uint8_t preempt_count;
	int32_t pid;
	uint64_t seq;
	uint32_t ctx;
	uint32_t sum;
	uint32_t blob_loc; /* __data_loc: offset | length << 16 */
};

/* Checks a delivered payload: layout, blob bounds and checksum. */
static inline bool rtest_valid(const void *data, uint32_t len)
{
	const struct rtest_rec *r = data;
	if (len < sizeof(*r))
		return false;
	uint32_t off = r->blob_loc & 0xffff, n = r->blob_loc >> 16;
	if (off < offsetof(struct rtest_rec, blob_loc) + 4 || off + n > len)
		return false;
	const uint8_t *b = (const uint8_t *)data + off;
	uint32_t h =
	    2166136261u ^ (uint32_t)r->seq ^ (uint32_t)(r->seq >> 32) * 31u ^ r->ctx * 7919u;
	for (uint32_t i = 0; i < n; i++) {
		if (b[i] != (uint8_t)(r->seq * 131u + i * 7u + r->ctx))
			return false;
		h = (h ^ b[i]) * 16777619u;
	}
	return (h ^ n) == r->sum;
}

#endif

#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "ring_events.h"
#include <uft/define_events.h>
