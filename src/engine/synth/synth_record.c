/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A synthetic event's record in the kernel's layout (synth.h): numbers in
 * their slot's low bytes, static strings in their slots, dynamic strings
 * after the slots, stacks after the strings. No lock, no allocation: the
 * live emit calls it in event context, the replay over files alike. */
#include <stdint.h>
#include <string.h>

#include "engine/format/format.h"
#include "wire/shm_layout.h"
#include "engine/synth/synth.h"
#include "util/atomics.h"

/* The longest dynamic string looked at: a record never holds more. */
#define DSTR_MAX UFT_PAGE_DATA_SIZE

/* Words of a stack value the record takes: the kernel's trace_stack()
 * copies up to the first zero, UFT_SYNTH_STACK_WORDS at most. */
static uint32_t stack_words(const uint64_t *vals, uint32_t i)
{
	const uint64_t *w = vals ? (const uint64_t *)(uintptr_t)vals[i] : NULL;
	uint32_t n = 0;
	while (w && n < UFT_SYNTH_STACK_WORDS && READ_ONCE(w[n]))
		n++;
	return n;
}

uint32_t uft_synth_record_size(const struct uft_synth_def *d, const uint64_t *vals,
			       const char *const *strs)
{
	uint32_t len = d->fixed_size;
	for (uint32_t i = 0; i < d->nr; i++)
		if (d->f[i].kind == UFT_SYNTH_DSTR)
			len += (uint32_t)strnlen(strs && strs[i] ? strs[i] : "", DSTR_MAX) + 1;
		else if (d->f[i].kind == UFT_SYNTH_STACK)
			len += stack_words(vals, i) * 8;
	return len;
}

void uft_synth_record_fill(const struct uft_synth_def *d, const uint64_t *vals,
			   const char *const *strs, char *rec, uint32_t len)
{
	memset(rec + UFT_COMMON_HDR_SIZE, 0, d->fixed_size - UFT_COMMON_HDR_SIZE);
	uint32_t dyn = d->fixed_size, left = 0; /* dynamic strings still to come */
	for (uint32_t i = 0; i < d->nr; i++)
		left += d->f[i].kind == UFT_SYNTH_DSTR;
	/* The stacks come after the strings: their room is known exactly. */
	uint32_t stack_room = 0;
	for (uint32_t i = 0; i < d->nr; i++)
		if (d->f[i].kind == UFT_SYNTH_STACK)
			stack_room += stack_words(vals, i) * 8;
	if (stack_room > len - dyn)
		stack_room = len - dyn;
	len -= stack_room;
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_synth_field *f = &d->f[i];
		const char *str = strs && strs[i] ? strs[i] : "";
		if (f->kind == UFT_SYNTH_NUM) {
			/* The value's low bytes, as the kernel's union of sizes. */
			uint64_t v = vals ? vals[i] : 0;
			memcpy(rec + f->offset, &v, f->size);
		} else if (f->kind == UFT_SYNTH_STR) {
			memcpy(rec + f->offset, str, strnlen(str, f->len - 1));
		} else if (f->kind == UFT_SYNTH_DSTR) {
			/* Bounded by the room measured, a NUL kept for each string
			 * after it: the texts may change meanwhile. */
			uint32_t n = (uint32_t)strnlen(str, len - dyn - left);
			left--;
			uint32_t loc = dyn | (n + 1) << 16;
			memcpy(rec + f->offset, &loc, sizeof(loc));
			memcpy(rec + dyn, str, n);
			rec[dyn + n] = 0;
			dyn += n + 1;
		}
	}
	/* A stack: the words of the value up to its first zero, as measured
	 * (the value may change meanwhile: a zero stops it early, padding
	 * with zeros). */
	uint32_t end = len + stack_room;
	dyn = len;
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_synth_field *f = &d->f[i];
		if (f->kind != UFT_SYNTH_STACK)
			continue;
		const uint64_t *w = vals ? (const uint64_t *)(uintptr_t)vals[i] : NULL;
		uint32_t n = stack_words(vals, i);
		if (n * 8 > end - dyn)
			n = (end - dyn) / 8;
		for (uint32_t k = 0; k < n; k++) {
			uint64_t x = READ_ONCE(w[k]);
			memcpy(rec + dyn + k * 8, &x, 8);
		}
		uint32_t loc = dyn | (n * 8) << 16;
		memcpy(rec + f->offset, &loc, sizeof(loc));
		dyn += n * 8;
	}
}
