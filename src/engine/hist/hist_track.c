/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* onmax() and onchange() (Documentation/trace/histogram.rst): the tracked value of each
 * entry, the fields save() keeps with it and the details of the last
 * snapshot(), all updated at event time by any number of writers (signal
 * handlers included) without a lock or an allocation.
 *
 * A tracked value alone is one word per entry moved with compare-and-swap
 * when the new value is larger (onmax) or different (onchange). A value
 * with saved fields must stay with them, so the pair is a record: the
 * writer whose value wins claims a free slot of a pool allocated with the
 * table, writes value and fields there, and publishes it by swapping the
 * entry's word (a generation and the slot) for its own, after checking
 * again that its value still wins against the record now published; the
 * record it replaced goes back to the pool. A reader copies the record of
 * the word it loaded and keeps the copy only if the word is the same after
 * the copy: a slot is reused only after its word moved on, and generations
 * never repeat, so a copy that passes is the record that was published. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_impl.h"
#include "util/atomics.h"

/* Records in flight beyond the published ones: writers racing on the same
 * entries at the same moment. A writer that finds none free skips its save
 * (the next larger value saves again). */
#define POOL_SPARE 64

static void pool_reset(struct hist_pool *p)
{
	memset(p->slots, 0, (size_t)p->n_slots * p->words * sizeof(*p->slots));
	memset(p->free, 0, p->n_free_words * sizeof(*p->free));
	for (uint32_t i = 0; i < p->n_slots; i++)
		p->free[i / 64] |= 1ull << (i % 64);
}

static int pool_init(struct hist_pool *p, uint32_t n_slots, uint32_t words)
{
	p->n_slots = n_slots;
	p->words = words;
	p->n_free_words = (n_slots + 63) / 64;
	p->slots = calloc((size_t)n_slots * words, sizeof(*p->slots));
	p->free = calloc(p->n_free_words, sizeof(*p->free));
	if (!p->slots || !p->free)
		return -ENOMEM;
	p->gen = 0;
	pool_reset(p);
	return 0;
}

static void pool_free(struct hist_pool *p)
{
	free(p->slots);
	free(p->free);
	p->slots = NULL;
	p->free = NULL;
}

static int64_t pool_claim(struct hist_pool *p, uint32_t hint)
{
	for (uint32_t k = 0; k < p->n_free_words; k++) {
		uint64_t *w = &p->free[(hint / 64 + k) % p->n_free_words];
		uint64_t bits = READ_ONCE(*w);
		while (bits) {
			unsigned b = (unsigned)__builtin_ctzll(bits);
			if (uft_try_cmpxchg_acquire(w, &bits, bits & ~(1ull << b)))
				return (int64_t)(w - p->free) * 64 + b;
		}
	}
	return -1;
}

static void pool_release(struct hist_pool *p, uint32_t slot)
{
	uft_fetch_or_release(&p->free[slot / 64], 1ull << (slot % 64));
}

static bool wins(uint8_t handler, uint64_t v, uint64_t old)
{
	return handler == HANDLER_ONMAX ? v > old : v != old;
}

/* The value of the record published in *cur (0 when there is none, as the
 * kernel's unset variable) and the word it was read under. */
static uint64_t published_value(const struct hist_pool *p, const uint64_t *cur, uint64_t *word)
{
	for (;;) {
		uint64_t w = smp_load_acquire(cur);
		if (!w) {
			*word = 0;
			return 0;
		}
		uint64_t v = READ_ONCE(*(&p->slots[(size_t)((uint32_t)w - 1) * p->words]));
		uft_fence_acquire();
		if (READ_ONCE(*cur) == w) {
			*word = w;
			return v;
		}
	}
}

static bool read_record(const struct hist_pool *p, const uint64_t *cur, uint64_t *out)
{
	for (;;) {
		uint64_t w = smp_load_acquire(cur);
		if (!w)
			return false;
		const uint64_t *s = &p->slots[(size_t)((uint32_t)w - 1) * p->words];
		for (uint32_t i = 0; i < p->words; i++)
			out[i] = READ_ONCE(s[i]);
		uft_fence_acquire();
		if (READ_ONCE(*cur) == w)
			return true;
	}
}

/* Publishes value v with the payload `fill` writes if v wins against the
 * published record; true when it did. */
static bool publish(struct hist_pool *p, uint64_t *cur, uint8_t handler, uint64_t v, uint32_t hint,
		    void (*fill)(void *ctx, uint64_t *payload), void *ctx)
{
	uint64_t w;

	if (!wins(handler, v, published_value(p, cur, &w)))
		return false;
	int64_t s = pool_claim(p, hint);
	if (s < 0)
		return false;
	uint64_t *slot = &p->slots[(size_t)s * p->words];
	/* Pairs with a reader's acquire fence: a reader that sees these stores
	 * sees the word that unpublished the slot before. */
	uft_fence_release();
	WRITE_ONCE(slot[0], v);
	fill(ctx, slot + 1);
	uint32_t g = uft_add_return_relaxed(&p->gen, 1);
	uint64_t mine = ((uint64_t)g << 32) | ((uint64_t)s + 1);
	for (;;) {
		if (uft_try_cmpxchg_acq_rel(cur, &w, mine)) {
			if (w)
				pool_release(p, (uint32_t)w - 1);
			return true;
		}
		/* Another record came first: does v still win against it? */
		if (!wins(handler, v, published_value(p, cur, &w))) {
			pool_release(p, (uint32_t)s);
			return false;
		}
	}
}

int uft_hist_track_init(struct uft_hist *h)
{
	struct hist_table *t = &h->t;
	uint32_t n_track = 0;
	bool save = false;

	for (uint32_t i = 0; i < h->n_actions; i++) {
		struct hist_action *a = &h->actions[i];
		if (a->handler == HANDLER_ONMATCH)
			continue;
		if (a->action == ACT_SAVE)
			save = true;
		else
			a->track = n_track++;
	}
	t->n_track = n_track;
	if (n_track && !(t->track = calloc((size_t)t->max_elts * n_track, sizeof(*t->track))))
		return -ENOMEM;
	if (save) {
		t->save_cur = calloc(t->max_elts, sizeof(*t->save_cur));
		if (!t->save_cur ||
		    pool_init(&t->save_pool, t->max_elts + POOL_SPARE, 1 + h->save_words))
			return -ENOMEM;
	}
	if (h->snap_action >= 0 && pool_init(&t->snap_pool, POOL_SPARE, 1 + h->key_size / 8 + 2))
		return -ENOMEM;
	return 0;
}

void uft_hist_track_free(struct hist_table *t)
{
	free(t->track);
	free(t->save_cur);
	t->track = t->save_cur = NULL;
	pool_free(&t->save_pool);
	pool_free(&t->snap_pool);
}

/* With the writers kept out (uft_hist_clear). The last snapshot's details
 * stay, as the kernel keeps them apart from the table. */
void uft_hist_track_clear(struct uft_hist *h)
{
	struct hist_table *t = &h->t;

	if (t->track)
		memset(t->track, 0, (size_t)t->max_elts * t->n_track * sizeof(*t->track));
	if (t->save_cur) {
		memset(t->save_cur, 0, (size_t)t->max_elts * sizeof(*t->save_cur));
		pool_reset(&t->save_pool);
	}
}

struct snap_fill {
	const uint8_t *key;
	uint32_t key_size;
	const char *comm;
};

static void fill_snap(void *ctx, uint64_t *payload)
{
	const struct snap_fill *f = ctx;
	uint64_t w;

	for (uint32_t i = 0; i < f->key_size / 8; i++) {
		memcpy(&w, f->key + (size_t)i * 8, 8);
		WRITE_ONCE(payload[i], w);
	}
	for (uint32_t i = 0; i < 2; i++) {
		w = 0;
		if (f->comm)
			memcpy(&w, f->comm + i * 8, 8);
		WRITE_ONCE(*(&payload[f->key_size / 8 + i]), w);
	}
}

bool uft_hist_track(struct uft_hist *h, const struct hist_action *a, uint32_t e, uint64_t v,
		    const uint8_t *key, void (*fill)(void *ctx, uint64_t *payload), void *ctx)
{
	struct hist_table *t = &h->t;

	if (a->action == ACT_SAVE)
		return publish(&t->save_pool, &t->save_cur[e], a->handler, v, e, fill, ctx);

	uint64_t *w = &t->track[(size_t)e * t->n_track + a->track];
	uint64_t old = READ_ONCE(*w);
	do {
		if (!wins(a->handler, v, old))
			return false;
	} while (!uft_try_cmpxchg_relaxed(w, &old, v));
	if (a->action == ACT_SNAPSHOT) {
		/* The instance's snapshot, when v also wins against the value
		 * of the last one (the kernel's conditional snapshot). */
		struct snap_fill f = {key, h->key_size, t->comms ? t->comms[e] : NULL};
		if (publish(&t->snap_pool, &t->snap_cur, a->handler, v, e, fill_snap, &f) &&
		    h->env.snapshot)
			h->env.snapshot(h->env.ctx);
	}
	return true;
}

uint64_t uft_hist_track_value(const struct uft_hist *h, const struct hist_action *a, uint32_t e)
{
	const struct hist_table *t = &h->t;
	uint64_t w;

	if (a->action == ACT_SAVE)
		return published_value(&t->save_pool, &t->save_cur[e], &w);
	return READ_ONCE(*(&t->track[(size_t)e * t->n_track + a->track]));
}

bool uft_hist_saved(const struct uft_hist *h, uint32_t e, uint64_t *out)
{
	const struct hist_table *t = &h->t;
	return t->save_cur && read_record(&t->save_pool, &t->save_cur[e], out);
}

bool uft_hist_snap_details(const struct uft_hist *h, uint64_t *val, uint8_t *key, char *comm)
{
	const struct hist_table *t = &h->t;
	uint64_t rec[1 + UFT_HIST_KEY_MAX / 8 + 2];

	if (h->snap_action < 0 || !t->snap_pool.slots ||
	    !read_record(&t->snap_pool, &t->snap_cur, rec))
		return false;
	*val = rec[0];
	memcpy(key, rec + 1, h->key_size);
	memcpy(comm, rec + 1 + h->key_size / 8, 16);
	comm[15] = '\0';
	return true;
}
