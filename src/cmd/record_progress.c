/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cmd/record_progress.h"

#include "util/atomics.h"

void record_progress_init(struct record_progress *rp, const struct collect *c, bool on)
{
	*rp = (struct record_progress){.c = c};
	progress_init(&rp->pr, "uft record", on);
}

/* A ring's losses as the writer counts them, and what its reader saw
 * overwritten; a ring that failed a check is not read. */
static uint64_t ring_lost(const struct collect_proc *p, const struct collect_ring *cr)
{
	if (cr->bad || !cr->off || cr->off >= p->map_len)
		return 0;
	const struct uft_ring *r = (const struct uft_ring *)((const char *)p->hdr + cr->off);
	return cr->cur.missed + uft_load_seq_cst(&r->dropped) + uft_load_seq_cst(&r->lost);
}

uint64_t record_lost_so_far(const struct collect *c)
{
	uint64_t n = c->totals.lost;
	for (size_t i = 0; i < c->nr_procs; i++) {
		const struct collect_proc *p = c->procs[i];
		if (!p->hdr)
			continue;
		for (uint32_t k = 0; k < p->nr_rings; k++)
			n += ring_lost(p, &p->rings[k]);
		for (uint32_t b = 0; b < UFT_SHM_MAX_BUFFERS; b++)
			n += uft_load_seq_cst(&p->hdr->ring_dropped[b]) +
			     uft_load_seq_cst(&p->hdr->ring_lost[b]) +
			     uft_load_seq_cst(&p->hdr->recycle_overrun[b]);
	}
	return n;
}

void record_progress_drained(void *ctx, bool final)
{
	struct record_progress *rp = ctx;
	if (final) {
		progress_end(&rp->pr);
		return;
	}
	if (!progress_due(&rp->pr, 1.0))
		return;
	const struct collect *c = rp->c;
	double t = progress_elapsed(&rp->pr);
	uint64_t events = c->totals.recorded;
	double dt = t - rp->last_t;
	double rate = dt > 0 ? (double)(events - rp->last_events) / dt : 0;
	rp->last_events = events;
	rp->last_t = t;
	char bytes[32];
	progress_bytes(bytes, sizeof(bytes), collect_spooled_bytes(c));
	uint64_t lost = record_lost_so_far(c);
	progress_line(&rp->pr, "%.1f s, %llu events (%.0f/s), %s written, %llu lost", t,
		      (unsigned long long)events, rate, bytes, (unsigned long long)lost);
}
