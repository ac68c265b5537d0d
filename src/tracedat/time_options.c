/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A file whose pages hold raw cycle counts (TSC2NSEC option) or whose times
 * are shifted (OFFSET option) is read with its times in nanoseconds, as
 * trace-cmd's reader gives them: each record's time becomes
 * ((cycles * mult) >> shift) + offset, computed as libtracecmd computes it,
 * so `uft report` and `trace-cmd report` print the same times. The pages are
 * re-encoded once, into copies the struct tracedat owns. */
#include "tracedat/time_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire/page.h"

struct time_conv {
	bool tsc;
	uint64_t mult; /* as libtracecmd holds it: a signed int, widened */
	uint32_t shift;
	uint64_t offset;
};

/* libtracecmd's mul_u64_u32_shr(): two 32-bit halves, 64-bit wraparound. */
static uint64_t conv(const struct time_conv *t, uint64_t ts)
{
	if (t->tsc) {
		uint64_t lo = (uint32_t)ts, hi = ts >> 32;
		uint64_t r = (lo * t->mult) >> t->shift;
		if (hi)
			r += (hi * t->mult) << (32 - t->shift);
		ts = r;
	}
	return ts + t->offset;
}

struct out {
	uint8_t *p;
	size_t len, cap; /* bytes of finished pages, of room */
	uint32_t ps;
	struct uft_page_builder b;
};

static int start_page(struct out *o)
{
	if (o->len + o->ps > o->cap) {
		size_t ncap = o->cap * 2 > o->len + o->ps ? o->cap * 2 : o->len + o->ps;
		uint8_t *n = realloc(o->p, ncap);
		if (!n)
			return -ENOMEM;
		o->p = n;
		o->cap = ncap;
	}
	uft_page_builder_init(&o->b, o->p + o->len, o->ps);
	return 0;
}

static void end_page(struct out *o, uint64_t missed)
{
	uft_page_builder_finish(&o->b, missed);
	o->len += o->ps;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* One CPU's pages, converted: a page may become two when the new deltas
 * need more room; a gap (events lost) still starts a page. */
static int convert_cpu(struct tracedat *td, struct tracedat_cpu *cd, const struct time_conv *t)
{
	uint32_t ps = td->page_size;
	if (!ps || ps <= UFT_PAGE_HDR_SIZE || cd->size < ps)
		return 0;
	struct out o = {.ps = ps, .cap = (size_t)(cd->size / ps) * ps};
	o.p = malloc(o.cap);
	int rc = o.p ? start_page(&o) : -ENOMEM;
	uint64_t missed = 0;
	for (uint64_t off = 0; off + ps <= cd->size && !rc; off += ps) {
		struct uft_page_iter it;
		struct uft_page_rec rec;
		uft_page_iter_init(&it, cd->data + off, ps);
		uint64_t m = it.missed ? (it.missed_stored ? it.missed_count : UINT64_MAX) : 0;
		if (o.b.nr_records) {
			end_page(&o, missed);
			missed = 0;
			rc = start_page(&o);
		}
		missed = add_sat(missed, m);
		while (!rc && uft_page_iter_next(&it, &rec) > 0) {
			int r = uft_page_builder_add(&o.b, conv(t, rec.ts), rec.data, rec.len);
			if (r == -1) {
				end_page(&o, missed);
				missed = 0;
				rc = start_page(&o);
				if (!rc)
					r = uft_page_builder_add(&o.b, conv(t, rec.ts), rec.data,
								 rec.len);
			}
			if (r) /* a record a page cannot hold: not in a valid file */
				break;
		}
	}
	if (!rc && o.b.nr_records)
		end_page(&o, missed);
	uint8_t **slot = rc ? NULL : realloc(td->owned, (td->nr_owned + 1) * sizeof(*td->owned));
	if (!slot) {
		free(o.p);
		return rc ? rc : -ENOMEM;
	}
	td->owned = slot;
	td->owned[td->nr_owned++] = o.p;
	cd->data = o.p;
	cd->size = o.len;
	return 0;
}

int tracedat_apply_time_options(struct tracedat *td)
{
	struct time_conv t = {0};
	bool any = false;
	for (size_t i = 0; i < td->nr_options; i++) {
		const struct tracedat_option *o = &td->options[i];
		if (o->id == TRACEDAT_OPT_TSC2NSEC && o->size >= 16) {
			int32_t mult;
			uint32_t shift;
			memcpy(&mult, o->data, 4);
			memcpy(&shift, o->data + 4, 4);
			/* A multiplier of 0 leaves the times alone; a shift past 32
			 * has no meaning in the formula. */
			t.tsc = mult != 0 && shift <= 32;
			t.mult = (uint64_t)(int64_t)mult;
			t.shift = shift;
		} else if (o->id == TRACEDAT_OPT_OFFSET && o->size) {
			t.offset += (uint64_t)strtoll((const char *)o->data, NULL, 0);
			any = true;
		}
	}
	if (!t.tsc && !any)
		return 0;
	for (size_t i = 0; i < td->nr_cpu_data; i++) {
		int rc = convert_cpu(td, &td->cpus[i], &t);
		if (rc)
			return rc;
	}
	for (size_t k = 0; k < td->nr_instances; k++)
		for (size_t i = 0; i < td->instances[k].nr_cpu_data; i++) {
			int rc = convert_cpu(td, &td->instances[k].cpus[i], &t);
			if (rc)
				return rc;
		}
	return 0;
}
