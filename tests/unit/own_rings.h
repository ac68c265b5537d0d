/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests that read their own process's rings back. */
#ifndef UFT_TEST_OWN_RINGS_H
#define UFT_TEST_OWN_RINGS_H

#include "wire/ring_reader.h"
#include "runtime/core/runtime.h"

/* Hands every event of this process's rings to `fn`: from the start when `cur`
 * is NULL, else from where the cursors (one per ring slot, `nr` of them)
 * stopped last time. */
static inline void drain_own_rings(struct uft_ring_cursor *cur, uint32_t nr, uft_ring_record_fn fn,
				   void *ctx)
{
	struct uft_shm_header *h = uft_sess.hdr;
	for (uint32_t i = 0; h && i < h->nr_rings && (!cur || i < nr); i++) {
		struct uft_ring *r = (struct uft_ring *)((char *)h + h->ring_off[i]);
		struct uft_ring_cursor fresh, *c = cur ? &cur[i] : &fresh;
		if (!cur)
			uft_ring_cursor_init(&fresh, r);
		uft_ring_drain(r, c, true, fn, ctx);
	}
}

#endif
