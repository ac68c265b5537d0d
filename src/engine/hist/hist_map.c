/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The histogram table: open addressing over 2 x size buckets and size
 * pre-allocated elements, lock-free for any number of writers, as the
 * kernel's tracing_map. An update builds the key on the stack, finds its
 * bucket or claims a free one with compare-and-swap, takes an element from
 * the pool and publishes it in the bucket (release) once its key is in; the
 * values are atomic adds. A full pool counts the record as dropped. Readers
 * see an element only through a published bucket. The record's side of an
 * update is hist_update.c; this file is the table and the histogram's
 * properties. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_impl.h"
#include "util/atomics.h"

int uft_hist_table_init(struct hist_table *t, uint32_t bits, uint32_t key_size, uint32_t n_vals,
			uint32_t n_vars, bool comms)
{
	t->bits = bits;
	t->max_elts = 1u << bits;
	t->nr_buckets = t->max_elts * 2;
	t->buckets = calloc(t->nr_buckets, sizeof(*t->buckets));
	t->keys = calloc(t->max_elts, key_size ? key_size : 1);
	t->sums = calloc((size_t)t->max_elts * n_vals, sizeof(*t->sums));
	t->comms = comms ? calloc(t->max_elts, sizeof(*t->comms)) : NULL;
	t->n_vars = n_vars;
	t->vars = n_vars ? calloc((size_t)t->max_elts * n_vars, sizeof(*t->vars)) : NULL;
	t->vars_set = n_vars ? calloc(t->max_elts, sizeof(*t->vars_set)) : NULL;
	if (!t->buckets || !t->keys || !t->sums || (comms && !t->comms) ||
	    (n_vars && (!t->vars || !t->vars_set))) {
		uft_hist_table_free(t);
		return -ENOMEM;
	}
	uft_hist_shards_init(t, n_vals);
	return 0;
}

void uft_hist_table_free(struct hist_table *t)
{
	uft_hist_track_free(t);
	uft_hist_shards_free(t);
	free(t->buckets);
	free(t->keys);
	free(t->sums);
	free(t->comms);
	free(t->vars);
	free(t->vars_set);
	free(t->stacks);
	t->stacks = NULL;
	free(t->strs);
	t->strs = NULL;
	t->vars = NULL;
	t->vars_set = NULL;
	t->buckets = NULL;
	t->keys = NULL;
	t->sums = NULL;
	t->comms = NULL;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* How long an update waits for another writer to publish the element of a
 * bucket it claimed with the same hash before counting its record as dropped
 * (that writer may be the code a signal handler interrupted). */
#define PUBLISH_SPINS 4096

/* Finds or claims the element of `key`; -1 when the table is full. *fresh
 * says the element was claimed now, its key written but not published: the
 * caller fills in its comm and publishes it in bucket *bucket. */
int64_t uft_hist_table_insert(struct hist_table *t, const uint8_t *key, uint32_t key_size,
			      bool *fresh, uint32_t *bucket)
{
	uint32_t hash = uft_hist_hash(key, key_size);
	uint32_t mask = t->nr_buckets - 1, i = hash & mask;

	*fresh = false;
	for (uint32_t probes = 0; probes < t->nr_buckets;) {
		uint32_t hv = smp_load_acquire(&t->buckets[i].hash);
		if (hv == 0) {
			if (!uft_try_cmpxchg_acq_rel(&t->buckets[i].hash, &hv, hash))
				continue; /* taken meanwhile: look at it again */
			uint32_t e = uft_fetch_add_relaxed(&t->alloc, 1);
			if (e >= t->max_elts) {
				/* No element: free the bucket again, as the kernel does. */
				smp_store_release(&t->buckets[i].hash, 0);
				return -1;
			}
			memcpy(t->keys + (size_t)e * key_size, key, key_size);
			*fresh = true;
			*bucket = i;
			return e;
		}
		if (hv == hash) {
			uint32_t el = 0;
			for (unsigned n = 0; n < PUBLISH_SPINS; n++) {
				el = smp_load_acquire(&t->buckets[i].elt);
				if (el || READ_ONCE(t->buckets[i].hash) != hash)
					break;
				cpu_relax();
			}
			if (!el && READ_ONCE(t->buckets[i].hash) == 0)
				continue; /* its claimer found no element: try the bucket again */
			if (!el)
				return -1;
			if (uft_hist_key_eq(t->keys + (size_t)(el - 1) * key_size, key, key_size))
				return el - 1;
		}
		i = (i + 1) & mask;
		probes++;
	}
	return -1;
}

/* The published element of `key`, or -1; never claims anything. */
int64_t uft_hist_table_lookup(const struct hist_table *t, const uint8_t *key, uint32_t key_size)
{
	uint32_t hash = uft_hist_hash(key, key_size);
	uint32_t mask = t->nr_buckets - 1, i = hash & mask;

	for (uint32_t probes = 0; probes < t->nr_buckets; probes++, i = (i + 1) & mask) {
		uint32_t hv = smp_load_acquire(&t->buckets[i].hash);
		if (hv == 0)
			return -1;
		if (hv != hash)
			continue;
		uint32_t el = smp_load_acquire(&t->buckets[i].elt);
		if (el && uft_hist_key_eq(t->keys + (size_t)(el - 1) * key_size, key, key_size))
			return el - 1;
	}
	return -1;
}

void uft_hist_clear(struct uft_hist *h)
{
	h = uft_hist_data(h);
	struct hist_table *t = &h->t;

	/* Writers never wait; the clear waits for those inside to leave (an
	 * update is short and never blocks) and keeps new ones out meanwhile. */
	uft_store_seq_cst(&t->clearing, 1);
	uft_hist_shards_quiesce(t);
	while (uft_load_seq_cst(&t->inflight))
		sched_yield();
	memset(t->buckets, 0, t->nr_buckets * sizeof(*t->buckets));
	memset(t->keys, 0, (size_t)t->max_elts * (h->key_size ? h->key_size : 1));
	memset(t->sums, 0, (size_t)t->max_elts * h->n_vals * sizeof(*t->sums));
	uft_hist_shards_clear(t);
	if (t->comms)
		memset(t->comms, 0, (size_t)t->max_elts * sizeof(*t->comms));
	if (t->stacks)
		memset(t->stacks, 0,
		       (size_t)t->max_elts * t->n_stacks * HIST_STACK_WORDS * sizeof(*t->stacks));
	if (t->strs)
		memset(t->strs, 0, (size_t)t->max_elts * t->n_strs * HIST_SAVE_STR);
	if (t->vars) {
		memset(t->vars, 0, (size_t)t->max_elts * t->n_vars * sizeof(*t->vars));
		memset(t->vars_set, 0, (size_t)t->max_elts * sizeof(*t->vars_set));
	}
	uft_hist_track_clear(h);
	WRITE_ONCE(t->alloc, 0);
	WRITE_ONCE(t->hits, 0);
	WRITE_ONCE(t->drops, 0);
	uft_store_seq_cst(&t->clearing, 0);
}

uint64_t uft_hist_hits(const struct uft_hist *h)
{
	const struct hist_table *t = &uft_hist_data(h)->t;
	return READ_ONCE(t->hits) + uft_hist_shards_hits(t);
}

uint64_t uft_hist_drops(const struct uft_hist *h)
{
	return READ_ONCE(uft_hist_data(h)->t.drops);
}

uint32_t uft_hist_entries(const struct uft_hist *h)
{
	const struct hist_table *t = &uft_hist_data(h)->t;
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nr_buckets; i++)
		n += smp_load_acquire(&t->buckets[i].elt) != 0;
	return n;
}

uint32_t uft_hist_published(const struct uft_hist *h, uint32_t *elts, uint32_t max)
{
	const struct hist_table *t = &uft_hist_data(h)->t;
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nr_buckets && n < max; i++) {
		uint32_t el = smp_load_acquire(&t->buckets[i].elt);
		if (el)
			elts[n++] = el - 1;
	}
	return n;
}

const char *uft_hist_clock(const struct uft_hist *h)
{
	return h->timestamps ? h->clock : NULL;
}

void uft_hist_set_raw_clock(struct uft_hist *h, bool raw)
{
	h->raw_clock = raw;
}

unsigned uft_hist_flags(const struct uft_hist *h)
{
	return h->spec_flags;
}

const char *uft_hist_name(const struct uft_hist *h)
{
	return h->name ? h->name + 5 : NULL;
}

const char *uft_hist_command(const struct uft_hist *h)
{
	return h->cmd;
}

bool uft_hist_paused(const struct uft_hist *h)
{
	return READ_ONCE(h->paused);
}

void uft_hist_set_paused(struct uft_hist *h, bool paused)
{
	WRITE_ONCE(h->paused, paused);
}

static bool same_field(const struct hist_field *a, const struct hist_field *b)
{
	return a->src == b->src && a->flags == b->flags && a->offset == b->offset &&
	       a->size == b->size && a->is_signed == b->is_signed && a->str_max == b->str_max &&
	       a->key_size == b->key_size && a->buckets == b->buckets &&
	       a->constant == b->constant && !strcmp(a->name, b->name);
}

static bool same_name(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

bool uft_hist_same(const struct uft_hist *a, const struct uft_hist *b, bool ignore_filter)
{
	if (!same_name(a->name, b->name))
		return false;
	return uft_hist_compatible(a, b, ignore_filter);
}

bool uft_hist_compatible(const struct uft_hist *a, const struct uft_hist *b, bool ignore_filter)
{
	if (a->n_vals != b->n_vals || a->n_keys != b->n_keys || a->n_sort != b->n_sort)
		return false;
	if (!ignore_filter && (!a->filter_text != !b->filter_text))
		return false;
	for (uint32_t i = 0; i < a->n_vals; i++)
		if (!same_field(&a->vals[i], &b->vals[i]))
			return false;
	for (uint32_t i = 0; i < a->n_keys; i++)
		if (!same_field(&a->keys[i], &b->keys[i]))
			return false;
	for (uint32_t i = 0; i < a->n_sort; i++)
		if (a->sort_idx[i] != b->sort_idx[i] || a->sort_desc[i] != b->sort_desc[i])
			return false;
	if (a->n_vars != b->n_vars || a->n_actions != b->n_actions)
		return false;
	for (uint32_t i = 0; i < a->n_actions; i++) {
		char x[1024], y[1024];
		uft_hist_action_spec(a, i, x, sizeof(x));
		uft_hist_action_spec(b, i, y, sizeof(y));
		if (strcmp(x, y))
			return false;
	}
	for (uint32_t i = 0; i < a->n_vars; i++) {
		char x[256], y[256];
		if (strcmp(a->vars[i].name, b->vars[i].name))
			return false;
		uft_hist_expr_spec(a->vars[i].e, x, sizeof(x));
		uft_hist_expr_spec(b->vars[i].e, y, sizeof(y));
		if (strcmp(x, y))
			return false;
	}
	return true;
}

int uft_hist_var_index(const struct uft_hist *h, const char *name)
{
	for (uint32_t i = 0; i < h->n_vars; i++)
		if (!strcmp(h->vars[i].name, name))
			return (int)i;
	return -1;
}

bool uft_hist_keys_compatible(const struct uft_hist *target, const struct uft_hist *h)
{
	if (target->n_keys != h->n_keys)
		return false;
	for (uint32_t i = 0; i < h->n_keys; i++) {
		const struct hist_field *a = &target->keys[i], *b = &h->keys[i];
		if (a->is_string != b->is_string || a->key_size != b->key_size ||
		    a->cmp_size != b->cmp_size || a->cmp_signed != b->cmp_signed)
			return false;
	}
	return true;
}

int uft_hist_key_names(const struct uft_hist *h, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (uint32_t i = 0; i < h->n_keys; i++) {
		int k = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
				 i ? "," : "", h->keys[i].name);
		n += (size_t)(k > 0 ? k : 0);
	}
	return (int)n;
}

const char *uft_hist_filter_text(const struct uft_hist *h)
{
	return h->filter_text;
}

bool uft_hist_field_var_hist(const struct uft_hist *h, uint32_t i, const char **system,
			     const char **event, const char **cmd)
{
	if (i >= h->n_fvh)
		return false;
	*system = h->fvh[i].system;
	*event = h->fvh[i].event;
	*cmd = h->fvh[i].cmd;
	return true;
}

bool uft_hist_has_snapshot(const struct uft_hist *h)
{
	return !h->shared && h->snap_action >= 0; /* a sharer's actions are its data's */
}

bool uft_hist_busy(const struct uft_hist *h)
{
	return h->users != 0;
}

/* Drops what h holds on other histograms and synthetic events. */
static void drop_links(struct uft_hist *h)
{
	for (uint32_t i = 0; i < h->n_uses; i++)
		h->uses[i]->users--;
	for (uint32_t i = 0; i < h->n_actions; i++)
		if (h->actions[i].synth && h->env.synth_put)
			h->env.synth_put(h->env.ctx, h->actions[i].synth);
	/* Writers may read both yet (hist_update.c loads each once). */
	WRITE_ONCE(h->n_uses, 0);
	for (uint32_t i = 0; i < h->n_actions; i++)
		WRITE_ONCE(h->actions[i].synth, NULL);
}

void uft_hist_unlink(struct uft_hist *h)
{
	if (!h || !h->linked)
		return;
	h->linked = false;
	if (h->shared) {
		/* The last of a name's histograms gone: its data's references go. */
		struct uft_hist *o = h->shared;
		if (--o->sharers == 0 && o->dropped)
			drop_links(o);
		return;
	}
	h->dropped = true;
	if (!h->sharers)
		drop_links(h);
}

bool uft_hist_named(const struct uft_hist *h)
{
	return h && (h->name || h->shared || h->sharers);
}

bool uft_hist_unused(const struct uft_hist *h)
{
	return !h->linked && (h->shared || !h->sharers);
}

int uft_hist_share(struct uft_hist *h, struct uft_hist *named, struct uft_hist_error *err)
{
	struct uft_hist_error dummy;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	named = uft_hist_data(named);
	if (!uft_hist_compatible(h, named, true)) {
		const char *at = h->name ? strstr(h->cmd, h->name) : NULL;
		err->err = -EINVAL;
		err->code = UFT_HIST_ERR_NAMED_MISMATCH;
		err->pos = at ? (int)(at - h->cmd) : 0;
		return -EINVAL;
	}
	/* The named histogram's data serves: h's own goes. */
	drop_links(h);
	uft_hist_table_free(&h->t);
	h->shared = named;
	named->sharers++;
	return 0;
}
