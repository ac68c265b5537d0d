/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One record's update of a histogram (uft_hist_update): the filter, the
 * key built on the stack, the other histograms' variables it reads, the
 * values and variables evaluated, then the entry found or claimed in the
 * table (hist_map.c), its sums, stacks and variables stored, and the
 * actions run. Runs at event time in any number of writers at once,
 * signal handlers included: no lock, no allocation, nothing read outside
 * the record. */
#include <string.h>

#include "engine/hist/hist_impl.h"
#include "engine/hist/hist_shard.h"
#include "util/atomics.h"

static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* A field's value as the kernel computes it: the integer sign- or
 * zero-extended to 64 bits, then log2 or buckets. false: not in the record. */
static bool num_value(const struct uft_hist *h, const struct hist_field *f, const uint8_t *rec,
		      uint32_t len, uint64_t ts, uint32_t cpu, uint64_t *out)
{
	uint64_t v = 0;

	switch (f->src) {
	case HF_NUM:
		if (f->offset > len || f->size > len - f->offset)
			return false;
		switch (f->size) {
		case 1:
			v = f->is_signed ? (uint64_t)(int64_t)(int8_t)rec[f->offset]
					 : rec[f->offset];
			break;
		case 2: {
			uint16_t x;
			memcpy(&x, rec + f->offset, 2);
			v = f->is_signed ? (uint64_t)(int64_t)(int16_t)x : x;
			break;
		}
		case 4: {
			uint32_t x = ld32(rec + f->offset);
			v = f->is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
			break;
		}
		default:
			memcpy(&v, rec + f->offset, 8);
			break;
		}
		break;
	case HF_TS:
		v = h->ts_usecs && !h->raw_clock ? (ts + 500) / 1000 : ts;
		break;
	case HF_CPU:
		v = cpu;
		break;
	case HF_HITCOUNT:
		v = 1;
		break;
	case HF_CONST:
		v = f->constant;
		break;
	default:
		return false;
	}
	if (f->flags & HF_LOG2)
		v = (v <= 1 || v > (1ull << 63)) ? 0 : (uint64_t)(64 - __builtin_clzll(v - 1));
	else if (f->flags & HF_BUCKET)
		v = v / f->buckets * f->buckets;
	*out = v;
	return true;
}

/* num_value() of a plain integer field, inline: the common key and value.
 * Falls back to num_value() for anything else. */
static inline __attribute__((always_inline)) bool
field_value(const struct uft_hist *h, const struct hist_field *f, const uint8_t *rec, uint32_t len,
	    uint64_t ts, uint32_t cpu, uint64_t *out)
{
	if (f->src == HF_HITCOUNT && !(f->flags & (HF_LOG2 | HF_BUCKET))) {
		*out = 1;
		return true;
	}
	if (f->src != HF_NUM || (f->flags & (HF_LOG2 | HF_BUCKET)) || f->offset > len ||
	    f->size > len - f->offset)
		return num_value(h, f, rec, len, ts, cpu, out);
	const uint8_t *p = rec + f->offset;
	if (f->size == 8) {
		memcpy(out, p, 8);
	} else if (f->size == 4) {
		uint32_t x = ld32(p);
		*out = f->is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
	} else {
		return num_value(h, f, rec, len, ts, cpu, out);
	}
	return true;
}

/* Copies a string key, bounded by the record, the field and the key slot;
 * the slot is pre-zeroed so the copy stays NUL terminated. */
static bool str_key(const struct hist_field *f, const uint8_t *rec, uint32_t len, const char *comm,
		    uint8_t *dst)
{
	const char *s;
	uint32_t max;

	switch (f->src) {
	case HF_STR:
		if (f->offset > len || f->str_max > len - f->offset)
			return false;
		s = (const char *)rec + f->offset;
		/* no declared size (the marker's buf[]): up to the record's end */
		max = f->str_max ? f->str_max : len - f->offset;
		break;
	case HF_DYNSTR:
	case HF_RELSTR: {
		uint32_t w, off, n;

		if (f->offset > len || 4 > len - f->offset)
			return false;
		w = ld32(rec + f->offset);
		off = (w & 0xffff) + (f->src == HF_RELSTR ? f->offset + 4 : 0);
		n = w >> 16;
		if (off > len || n > len - off)
			return false;
		s = (const char *)rec + off;
		max = n;
		break;
	}
	default: /* HF_COMM */
		s = comm ? comm : "";
		max = f->key_size - 1;
		break;
	}
	if (max > f->key_size - 1)
		max = f->key_size - 1;
	memcpy(dst, s, strnlen(s, max));
	return true;
}

struct eval {
	const struct uft_hist *h;
	const uint8_t *rec;
	uint32_t len;
	uint64_t ts;
	uint32_t cpu;
	const uint8_t *key;
	const uint64_t *vv; /* this event's variables, in definition order */
	const uint64_t *rv; /* the other histograms' variables, by slot */
};

/* The value of e for this event; false when a field is not in the record
 * or a referenced variable is unset (the event is then ignored). */
static bool eval(const struct eval *c, const struct hist_expr *e, uint64_t *out)
{
	uint64_t a, b;

	switch (e->op) {
	case EX_FIELD:
		return num_value(c->h, &e->f, c->rec, c->len, c->ts, c->cpu, out);
	case EX_CONST:
		*out = e->constant;
		return true;
	case EX_SELF:
		*out = c->vv[e->var];
		return true;
	case EX_REF:
		*out = c->rv[e->slot];
		return true;
	case EX_NEG:
		if (!eval(c, e->l, &a))
			return false;
		*out = -a;
		return true;
	default:
		if (!eval(c, e->l, &a) || !eval(c, e->r, &b))
			return false;
		switch (e->op) {
		case EX_ADD:
			*out = a + b;
			break;
		case EX_SUB:
			*out = a - b;
			break;
		case EX_MUL:
			*out = a * b;
			break;
		default:
			*out = b ? a / b : UINT64_MAX;
			break;
		}
		return true;
	}
}

/* A string parameter copied into buf (NUL terminated): a field of the
 * record, or another event's string variable, whose value is the address
 * of its entry's slot (words a writer of that entry may be replacing, as
 * the kernel's). */
static const char *str_param(const struct eval *c, const struct hist_expr *e, const char *comm,
			     char *buf, uint32_t size)
{
	struct hist_field f = e->f;

	memset(buf, 0, size);
	if (e->op == EX_REF) {
		const uint64_t *slot = (const uint64_t *)(uintptr_t)c->rv[e->slot];
		uint32_t n = size < HIST_SAVE_STR ? size : HIST_SAVE_STR;
		for (uint32_t k = 0; slot && k + 8 <= n; k += 8) {
			uint64_t w = READ_ONCE(slot[k / 8]);
			memcpy(buf + k, &w, 8);
		}
		buf[size - 1] = '\0';
		return buf;
	}
	f.key_size = size;
	if (!str_key(&f, c->rec, c->len, comm, (uint8_t *)buf))
		buf[0] = '\0';
	return buf;
}

#define PARAM_STR_SPACE 1024

/* The name of the writing thread, asked once per update. */
struct who {
	const struct uft_hist_comm *comm;
	int32_t pid;
	const char *name;
	bool have;
};

static const char *who_name(struct who *w)
{
	if (!w->have) {
		w->name = w->comm && w->comm->lookup ? w->comm->lookup(w->comm->ctx, w->pid) : NULL;
		w->have = true;
	}
	return w->name;
}

static void emit(const struct eval *c, const struct hist_action *act, struct who *who)
{
	const struct uft_hist *h = c->h;
	uint64_t vals[HIST_MAX_PARAMS];
	const char *strs[HIST_MAX_PARAMS];
	char space[PARAM_STR_SPACE];
	uint32_t used = 0;

	for (uint32_t i = 0; i < act->n_params; i++) {
		const struct hist_expr *e = act->params[i];
		strs[i] = NULL;
		vals[i] = 0;
		if (e->op == EX_SELF && h->vars[e->var].e->is_string)
			e = h->vars[e->var].e;
		if (e->is_string) {
			uint32_t n = PARAM_STR_SPACE - used;
			if (n > 256)
				n = 256;
			if (n < 2)
				continue;
			strs[i] = str_param(c, e, e->f.src == HF_COMM ? who_name(who) : NULL,
					    space + used, n);
			used += n;
		} else if (!eval(c, e, &vals[i])) {
			vals[i] = 0;
		}
	}
	/* Unlinked meanwhile (uft_hist_unlink): the event is no longer ours. */
	void *synth = READ_ONCE(act->synth);
	if (h->env.synth_emit && synth)
		h->env.synth_emit(h->env.ctx, synth, vals, strs);
}

struct save_fill {
	const struct eval *c;
	struct who *who;
};

/* The save() fields of this event into a record's payload: numbers in a
 * word, strings in HIST_SAVE_STR bytes. */
static void fill_save(void *ctx, uint64_t *payload)
{
	const struct save_fill *sf = ctx;
	const struct uft_hist *h = sf->c->h;
	uint32_t w = 0;

	for (uint32_t i = 0; i < h->n_save; i++) {
		const struct hist_expr *e = h->save[i];
		if (e->op == EX_SELF && h->vars[e->var].e->is_string)
			e = h->vars[e->var].e;
		if (e->is_string) {
			uint64_t buf[HIST_SAVE_STR / 8];
			str_param(sf->c, e, e->f.src == HF_COMM ? who_name(sf->who) : NULL,
				  (char *)buf, HIST_SAVE_STR);
			for (uint32_t k = 0; k < HIST_SAVE_STR / 8; k++)
				WRITE_ONCE(*(&payload[w++]), buf[k]);
		} else {
			uint64_t v = 0;
			if (!eval(sf->c, e, &v))
				v = 0;
			WRITE_ONCE(*(&payload[w++]), v);
		}
	}
}

/* The actions after entry e was updated: onmatch always; onmax and
 * onchange when the variable's value wins, their save or snapshot done
 * by uft_hist_track(), their trace here. */
static void run_actions(struct uft_hist *h, const struct eval *c, uint32_t e, struct who *who)
{
	for (uint32_t i = 0; i < h->n_actions; i++) {
		const struct hist_action *a = &h->actions[i];

		if (a->handler != HANDLER_ONMATCH) {
			struct save_fill sf = {c, who};
			if (!uft_hist_track(h, a, e, c->vv[a->var], c->key, fill_save, &sf) ||
			    a->action != ACT_TRACE)
				continue;
		}
		emit(c, a, who);
	}
}

/* A field.stacktrace key: the frames of the stack the __data_loc field
 * holds ("number of frames, frames", as a synthetic event's), bounded by
 * the count, the field and UFT_HIST_STACK_DEPTH; dst is pre-zeroed. */
static bool field_stack(const struct hist_field *f, const uint8_t *rec, uint32_t len, uint8_t *dst)
{
	if (f->offset > len || 4 > len - f->offset)
		return false;
	uint32_t w = ld32(rec + f->offset), off = w & 0xffff, n = (w >> 16) / 8;
	if (off > len || (uint64_t)n * 8 > len - off)
		return false;
	if (!n)
		return true;
	uint64_t count;
	memcpy(&count, rec + off, 8);
	if (count > n - 1)
		count = n - 1;
	if (count > UFT_HIST_STACK_DEPTH)
		count = UFT_HIST_STACK_DEPTH;
	memcpy(dst, rec + off + 8, (size_t)count * 8);
	return true;
}

/* The histogram's own filter (not that of a named one whose data it
 * uses); the writer's name asked only when it reads COMM. */
static inline bool filter_passes(const struct uft_hist *h, const uint8_t *rec, uint32_t len,
				 uint32_t cpu, struct who *who)
{
	if (!h->filter)
		return true;
	if (h->needs & UFT_FILTER_NEEDS_COMM)
		who_name(who);
	return uft_filter_match(h->filter, rec, len, cpu, who->name);
}

/* Key field f into its slot of the key; false when the record lacks it or
 * no stack can be taken (the record is then ignored). */
static inline bool key_field(const struct eval *c, const struct hist_field *f, struct who *who,
			     uint8_t *key)
{
	const struct uft_hist_comm *comm = who->comm;
	uint64_t v;

	if (f->src == HF_STACK && (f->flags & HF_STACKTRACE))
		return field_stack(f, c->rec, c->len, key + f->key_off);
	if (f->src == HF_STACK) {
		if (!comm || !comm->stack)
			return false;
		uint64_t pcs[UFT_HIST_STACK_DEPTH];
		uint32_t n = comm->stack(comm->ctx, pcs, UFT_HIST_STACK_DEPTH);
		memcpy(key + f->key_off, pcs,
		       (n < UFT_HIST_STACK_DEPTH ? n : UFT_HIST_STACK_DEPTH) * 8);
		return true;
	}
	if (f->is_string)
		return str_key(f, c->rec, c->len, f->src == HF_COMM ? who_name(who) : NULL,
			       key + f->key_off);
	if (!field_value(c->h, f, c->rec, c->len, c->ts, c->cpu, &v))
		return false;
	memcpy(key + f->key_off, &v, 8);
	return true;
}

static inline bool build_key(const struct eval *c, struct who *who, uint8_t *key)
{
	const struct uft_hist *h = c->h;

	/* Word by word (key sizes are multiples of 8): no call for a short key. */
	for (uint32_t i = 0; i < h->key_size; i += 8)
		memset(key + i, 0, 8);
	for (uint32_t i = 0; i < h->n_keys; i++)
		if (!key_field(c, &h->keys[i], who, key))
			return false;
	return true;
}

/* The other histograms' variables for this key into rv, each read once
 * (and consumed); one unset: the event is not for this histogram. As the
 * kernel's tracing_map_lookup() with this histogram's key, a table with
 * fewer keys is looked up by the leading ones (keys=pid,lat reads a
 * keys=pid table). */
static inline bool resolve_refs(const struct uft_hist *h, const uint8_t *key, uint64_t *rv)
{
	/* Unlinking sets n_uses to 0 while writers may be here; the tables
	 * stay until a grace period has passed. */
	uint32_t n_uses = READ_ONCE(h->n_uses);
	for (uint32_t i = 0; i < n_uses; i++) {
		struct uft_hist *r = h->uses[i];
		struct hist_table *rt = &r->t;
		if (r->key_size > h->key_size || !rt->vars_set)
			return false;
		int64_t el = uft_hist_table_lookup(rt, key, r->key_size);
		if (el < 0)
			return false;
		uint32_t bit = 1u << h->use_var[i];
		uint32_t was = uft_fetch_and_acq_rel(&rt->vars_set[el], ~bit);
		if (!(was & bit))
			return false;
		rv[i] = READ_ONCE(*(&rt->vars[(size_t)el * rt->n_vars + h->use_var[i]]));
	}
	return true;
}

static inline bool eval_vals(const struct eval *c, uint64_t *vals)
{
	const struct uft_hist *h = c->h;

	for (uint32_t i = 0; i < h->n_vals; i++) {
		const struct hist_field *f = &h->vals[i];
		if (f->src == HF_EXPR ? !eval(c, f->ex, &vals[i])
				      : !field_value(h, f, c->rec, c->len, c->ts, c->cpu, &vals[i]))
			return false;
	}
	return true;
}

/* This event's variables into vv (c->vv: those defined before are read by
 * later ones). The writer's stack is taken once for the variables that
 * hold it, into stack: "number of frames, frames", zeros after. */
static inline bool eval_vars(const struct eval *c, const struct uft_hist_comm *comm, uint64_t *vv,
			     uint64_t *stack)
{
	const struct uft_hist *h = c->h;
	bool have_stack = false;

	for (uint32_t i = 0; i < h->n_vars; i++) {
		const struct hist_expr *ve = h->vars[i].e;
		vv[i] = 0;
		if (h->vars[i].stack_slot >= 0) {
			if (!have_stack) {
				if (!comm || !comm->stack)
					return false;
				memset(stack, 0, HIST_STACK_WORDS * sizeof(*stack));
				stack[0] = comm->stack(comm->ctx, stack + 1, UFT_HIST_STACK_DEPTH);
				have_stack = true;
			}
		} else if (!ve->is_string && !(ve->is_stack && ve->op == EX_SELF) &&
			   !eval(c, ve, &vv[i])) {
			return false;
		}
	}
	return true;
}

/* The element of key, claimed and published if new (its comm first);
 * -1 when the table is full, the record counted as dropped. */
static inline __attribute__((always_inline)) int64_t
claim_entry(struct uft_hist *h, const uint8_t *key, const struct who *who)
{
	struct hist_table *t = &h->t;
	const struct uft_hist_comm *comm = who->comm;
	bool fresh;
	uint32_t bucket;
	/* The usual case first, inline: the key is published in its first bucket. */
	uint32_t hash = uft_hist_hash(key, h->key_size), i = hash & (t->nr_buckets - 1);
	if (READ_ONCE(t->buckets[i].hash) == hash) {
		uint32_t el = smp_load_acquire(&t->buckets[i].elt);
		if (el &&
		    uft_hist_key_eq(t->keys + (size_t)(el - 1) * h->key_size, key, h->key_size))
			return el - 1;
	}
	int64_t e = uft_hist_table_insert(t, key, h->key_size, &fresh, &bucket);

	if (e < 0) {
		uft_fetch_add_relaxed(&t->drops, 1);
		return -1;
	}
	if (fresh) {
		if (t->comms) {
			const char *c = "<idle>";
			if (who->pid) {
				c = comm && comm->lookup ? comm->lookup(comm->ctx, who->pid) : NULL;
				if (!c)
					c = "<...>";
			}
			strncpy(t->comms[e], c, sizeof(t->comms[e]) - 1);
		}
		smp_store_release(&t->buckets[bucket].elt, (uint32_t)e + 1);
	}
	return e;
}

/* The stack into the entry's slot, the variable its address; a variable
 * naming another of this event's stacks takes that address too. Writers
 * of one entry may interleave their words, as the kernel's do. */
static inline void store_stacks(const struct uft_hist *h, uint32_t e, uint64_t *vv,
				const uint64_t *stack)
{
	const struct hist_table *t = &h->t;

	for (uint32_t i = 0; i < h->n_vars; i++) {
		int32_t s = h->vars[i].stack_slot;
		if (s < 0)
			continue;
		uint64_t *slot =
		    t->stacks + ((size_t)e * t->n_stacks + (uint32_t)s) * HIST_STACK_WORDS;
		for (uint32_t k = 0; k < HIST_STACK_WORDS; k++)
			WRITE_ONCE(slot[k], stack[k]);
		vv[i] = (uint64_t)(uintptr_t)slot;
	}
	for (uint32_t i = 0; i < h->n_vars; i++)
		if (h->vars[i].e->is_stack && h->vars[i].e->op == EX_SELF)
			vv[i] = vv[h->vars[i].e->var];
}

/* The string variables into the entry's slots, each variable the address
 * of its slot, for other events' references. */
static void store_strs(const struct eval *c, uint32_t e, uint64_t *vv, struct who *who)
{
	const struct uft_hist *h = c->h;
	const struct hist_table *t = &h->t;
	uint64_t buf[HIST_SAVE_STR / 8];

	for (uint32_t i = 0; i < h->n_vars; i++) {
		const struct hist_expr *ve = h->vars[i].e;
		int32_t s = h->vars[i].str_slot;
		if (s < 0)
			continue;
		uint64_t *slot =
		    t->strs + ((size_t)e * t->n_strs + (uint32_t)s) * (HIST_SAVE_STR / 8);
		str_param(c, ve, ve->f.src == HF_COMM ? who_name(who) : NULL, (char *)buf,
			  HIST_SAVE_STR);
		for (uint32_t k = 0; k < HIST_SAVE_STR / 8; k++)
			WRITE_ONCE(slot[k], buf[k]);
		vv[i] = (uint64_t)(uintptr_t)slot;
	}
}

/* The entry's variables, then their set bits (release: a reader that
 * sees a bit sees its value). */
static inline void store_vars(struct uft_hist *h, uint32_t e, const uint64_t *vv)
{
	struct hist_table *t = &h->t;
	uint32_t set = 0;

	for (uint32_t i = 0; i < h->n_vars; i++) {
		WRITE_ONCE(*(&t->vars[(size_t)e * h->n_vars + i]), vv[i]);
		set |= 1u << i;
	}
	uft_fetch_or_release(&t->vars_set[e], set);
}

/* s: the writer's shard of the table, or NULL for the shared sums. */
static void update(struct uft_hist *h, const void *record, uint32_t len, uint64_t ts, uint32_t cpu,
		   const struct uft_hist_comm *comm, struct hist_shard *s)
{
	const uint8_t *rec = record;
	uint8_t key[UFT_HIST_KEY_MAX];
	uint64_t rv[sizeof(h->uses) / sizeof(h->uses[0])];
	uint64_t vv[UFT_HIST_MAX_VARS], vals[UFT_HIST_MAX_VALS], stack[HIST_STACK_WORDS];
	struct who who = {comm, 0, NULL, false};
	int64_t e;

	if (READ_ONCE(h->paused) || len < 8)
		return;
	memcpy(&who.pid, rec + 4, 4);
	if (!filter_passes(h, rec, len, cpu, &who))
		return;
	/* From here on the data: this histogram's or the named one's. */
	h = uft_hist_data(h);
	struct eval ec = {h, rec, len, ts, cpu, key, vv, rv};
	if (!build_key(&ec, &who, key) || !resolve_refs(h, key, rv) || !eval_vals(&ec, vals) ||
	    !eval_vars(&ec, comm, vv, stack))
		return;
	e = claim_entry(h, key, &who);
	if (e < 0)
		return;
	if (s) {
		uint64_t *sums = s->sums + (size_t)e * h->n_vals;
		for (uint32_t i = 0; i < h->n_vals; i++)
			hist_local_add(&sums[i], vals[i]);
	} else {
		uint64_t *sums = h->t.sums + (size_t)e * h->n_vals;
		for (uint32_t i = 0; i < h->n_vals; i++)
			uft_fetch_add_relaxed(&sums[i], vals[i]);
	}
	if (h->t.n_stacks)
		store_stacks(h, (uint32_t)e, vv, stack);
	if (h->t.n_strs)
		store_strs(&ec, (uint32_t)e, vv, &who);
	if (h->n_vars)
		store_vars(h, (uint32_t)e, vv);
	if (s)
		hist_local_add(&s->hits, 1);
	else
		uft_fetch_add_relaxed(&h->t.hits, 1);
	if (h->n_actions)
		run_actions(h, &ec, (uint32_t)e, &who);
}

/* A plain integer field: 4 or 8 bytes at a fixed offset, no modifier. */
static bool plain_field(const struct hist_field *f)
{
	return f->src == HF_NUM && !(f->flags & (HF_LOG2 | HF_BUCKET)) && !f->is_string &&
	       (f->size == 4 || f->size == 8);
}

void uft_hist_compile_fast(struct uft_hist *h)
{
	bool ok = !h->filter && !h->n_vars && !h->n_actions && !h->n_save && !h->has_execname &&
		  !h->t.comms && !h->t.n_stacks && !h->t.n_strs && h->n_keys > 0;
	for (uint32_t i = 0; ok && i < h->n_keys; i++)
		ok = plain_field(&h->keys[i]) && h->keys[i].key_size == 8;
	for (uint32_t i = 0; ok && i < h->n_vals; i++)
		ok = h->vals[i].src == HF_HITCOUNT ? !(h->vals[i].flags & (HF_LOG2 | HF_BUCKET))
						   : plain_field(&h->vals[i]);
	h->fast = ok;
}

static inline uint64_t plain_load(const struct hist_field *f, const uint8_t *rec)
{
	if (f->size == 8) {
		uint64_t v;
		memcpy(&v, rec + f->offset, 8);
		return v;
	}
	uint32_t x = ld32(rec + f->offset);
	return f->is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
}

/* The update of a fast histogram (uft_hist_compile_fast) on the writer's
 * shard: the same result as update(), without its general steps. */
static inline __attribute__((always_inline)) void
update_fast(struct uft_hist *h, const uint8_t *rec, uint32_t len, struct hist_shard *s)
{
	uint8_t key[UFT_HIST_KEY_MAX];
	uint64_t vals[UFT_HIST_MAX_VALS];
	struct who who = {NULL, 0, NULL, false};

	if (READ_ONCE(h->paused) || len < 8)
		return;
	for (uint32_t i = 0; i < h->n_keys; i++) {
		const struct hist_field *f = &h->keys[i];
		if (f->offset > len || f->size > len - f->offset)
			return;
		uint64_t v = plain_load(f, rec);
		memcpy(key + f->key_off, &v, 8);
	}
	for (uint32_t i = 0; i < h->n_vals; i++) {
		const struct hist_field *f = &h->vals[i];
		if (f->src == HF_HITCOUNT) {
			vals[i] = 1;
			continue;
		}
		if (f->offset > len || f->size > len - f->offset)
			return;
		vals[i] = plain_load(f, rec);
	}
	int64_t e = claim_entry(h, key, &who);
	if (e < 0)
		return;
	uint64_t *sums = s->sums + (size_t)e * h->n_vals;
	for (uint32_t i = 0; i < h->n_vals; i++)
		hist_local_add(&sums[i], vals[i]);
	hist_local_add(&s->hits, 1);
}

/* Updates this thread made on shared sums (a heuristic: a handler's
 * increment may be lost). */
static __thread uint32_t shared_updates __attribute__((tls_model("initial-exec")));

void uft_hist_update(struct uft_hist *h, const void *record, uint32_t len, uint64_t ts,
		     uint32_t cpu, const struct uft_hist_comm *comm)
{
	struct hist_table *t = &uft_hist_data(h)->t;
	/* The thread's own shard: no locked instruction on the way. */
	struct hist_shard *s = READ_ONCE(t->shards_ok) ? uft_hist_shard(t) : NULL;
	if (likely(s != NULL)) {
		if (hist_shard_enter(t, s)) {
			/* Named histograms and readers of other tables' variables
			 * take the general way (h->shared, n_uses are set at install). */
			if (h->fast && !h->shared && !READ_ONCE(h->n_uses))
				update_fast(h, record, len, s);
			else
				update(h, record, len, ts, cpu, comm, s);
			hist_shard_exit(s);
		}
		return;
	}
	uft_fetch_add(&t->inflight, 1);
	if (!uft_load_seq_cst(&t->clearing))
		update(h, record, len, ts, cpu, comm, NULL);
	uft_fetch_sub_release(&t->inflight, 1);
	/* Every shard had a live owner: look again now and then, as threads
	 * exit and their shards become free. */
	if (READ_ONCE(t->shards_ok) && (++shared_updates & 4095) == 0)
		uft_hist_shard_retry(t);
}

bool uft_hist_plain(const struct uft_hist *h)
{
	return h->fast && !h->shared && !h->n_uses;
}

void uft_hist_update_plain(struct uft_hist *h, const void *record, uint32_t len)
{
	struct hist_table *t = &h->t;
	struct hist_shard *s = READ_ONCE(t->shards_ok) ? uft_hist_shard(t) : NULL;
	if (likely(s != NULL)) {
		if (hist_shard_enter(t, s)) {
			update_fast(h, record, len, s);
			hist_shard_exit(s);
		}
		return;
	}
	/* No shard: the shared sums. A plain histogram reads no time, CPU or
	 * name. */
	uft_hist_update(h, record, len, 0, 0, NULL);
}

bool uft_hist_needs_comm(const struct uft_hist *h)
{
	if (h->has_execname || (h->needs & UFT_FILTER_NEEDS_COMM))
		return true;
	for (uint32_t i = 0; i < h->n_keys; i++)
		if (h->keys[i].src == HF_COMM)
			return true;
	return false;
}

bool uft_hist_needs_stack(const struct uft_hist *h)
{
	for (uint32_t i = 0; i < h->n_keys; i++)
		if (h->keys[i].src == HF_STACK && !(h->keys[i].flags & HF_STACKTRACE))
			return true;
	return h->t.n_stacks != 0;
}
