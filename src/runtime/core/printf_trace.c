/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writer for UFT_TRACE one-liners: the layout comes from the format string,
 * parsed once at registration. */
#include "engine/format/printf_event.h"
#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "util/util.h"
#include <uft/fastpath.h>
#include <uft/uft.h>

/* Strings measured once: up to this many keep their lengths between the
 * measure and the fill. */
#define MAX_LENS 16

static inline void fill(const struct uft_printf_layout *l, const uint64_t *args,
			const uint32_t *lens, void *rec, uint32_t size)
{
	if (lens)
		uft_printf_record_fill_measured(l, args, lens, rec, size);
	else
		uft_printf_record_fill(l, args, rec, size);
}

__attribute__((noinline, cold)) static void
trace_printf_slow(struct uft_event *ev, const struct uft_printf_layout *l, const uint64_t *args,
		  const uint32_t *lens, uint32_t size, uint64_t tsc)
{
	/* Filtered, global buffer only: the fast reservation, then the filter. */
	const struct uft_event_state *st = ev->state;
	const void *flt = smp_load_acquire(&st->fast_filter);
	if (flt) {
		struct uft_fast_rsv frsv;
		void *rec = tsc ? uft_fast_reserve_at(st->id, tsc, size, &frsv)
				: uft_fast_reserve_type(st->id, size, &frsv);
		if (rec) {
			fill(l, args, lens, rec, size);
			if (uft__fast_filter_pass(flt, rec, size))
				uft_fast_commit(&frsv);
			else
				uft_fast_discard();
			return;
		}
	}
	struct uft_rsv rsv;
	for (void *rec = uft_reserve(&rsv, ev, size); rec; rec = uft_reserve_next(&rsv)) {
		fill(l, args, lens, rec, size);
		uft_commit(&rsv);
	}
}

void uft__trace_printf(struct uft_event *ev, const uint64_t *args, uint32_t nr_args)
{
	/* The TSC of a UFT_TRACE call site's failed inline reservation, if any:
	 * used up here whatever happens, so no later cold path takes it. */
	uint64_t tsc = uft_fast_take_hint();
	struct uft_event_state *st = ev->state;
	const struct uft_event_priv *p = smp_load_acquire(&st->priv);
	const struct uft_printf_layout *l = p ? p->layout : NULL;
	if (!l || nr_args != l->nr_args)
		return;
	uint32_t lens_buf[MAX_LENS], *lens = NULL, size = l->fixed_size;
	if (l->nr_strings) {
		lens = l->nr_strings <= MAX_LENS ? lens_buf : NULL;
		size = lens ? uft_printf_record_measure(l, args, lens)
			    : uft_printf_record_size(l, args);
	}
	struct uft_fast_rsv frsv;
	/* The event's fast type as its own: the state's is 0 for a call site
	 * whose inline writer does not fit the format. */
	uint64_t type = READ_ONCE(p->fast_type);
	void *rec = tsc ? uft_fast_reserve_at(type, tsc, size, &frsv)
			: uft_fast_reserve_type(type, size, &frsv);
	if (unlikely(!rec)) {
		if (st->enabled)
			trace_printf_slow(ev, l, args, lens, size, frsv.ts);
		return;
	}
	fill(l, args, lens, rec, size);
	uft_fast_commit(&frsv);
}
