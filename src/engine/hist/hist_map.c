/* The histogram table: open addressing over 2 x size buckets and size
 * pre-allocated elements, lock-free for any number of writers, as the
 * kernel's tracing_map. An update builds the key on the stack, finds its
 * bucket or claims a free one with compare-and-swap, takes an element from
 * the pool and publishes it in the bucket (release) once its key is in; the
 * values are atomic adds. A full pool counts the record as dropped. Readers
 * see an element only through a published bucket. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_impl.h"

int uft_hist_table_init(struct hist_table *t, uint32_t bits, uint32_t key_size, uint32_t n_vals,
			uint32_t n_vars, bool comms)
{
	t->bits = bits;
	t->max_elts = 1u << bits;
	t->nr_buckets = t->max_elts * 2;
	t->bucket_hash = calloc(t->nr_buckets, sizeof(*t->bucket_hash));
	t->bucket_elt = calloc(t->nr_buckets, sizeof(*t->bucket_elt));
	t->keys = calloc(t->max_elts, key_size ? key_size : 1);
	t->sums = calloc((size_t)t->max_elts * n_vals, sizeof(*t->sums));
	t->comms = comms ? calloc(t->max_elts, sizeof(*t->comms)) : NULL;
	t->n_vars = n_vars;
	t->vars = n_vars ? calloc((size_t)t->max_elts * n_vars, sizeof(*t->vars)) : NULL;
	t->vars_set = n_vars ? calloc(t->max_elts, sizeof(*t->vars_set)) : NULL;
	if (!t->bucket_hash || !t->bucket_elt || !t->keys || !t->sums || (comms && !t->comms) ||
	    (n_vars && (!t->vars || !t->vars_set))) {
		uft_hist_table_free(t);
		return -ENOMEM;
	}
	return 0;
}

void uft_hist_table_free(struct hist_table *t)
{
	uft_hist_track_free(t);
	free(t->bucket_hash);
	free(t->bucket_elt);
	free(t->keys);
	free(t->sums);
	free(t->comms);
	free(t->vars);
	free(t->vars_set);
	free(t->stacks);
	t->stacks = NULL;
	t->vars = NULL;
	t->vars_set = NULL;
	t->bucket_hash = t->bucket_elt = NULL;
	t->keys = NULL;
	t->sums = NULL;
	t->comms = NULL;
}

static uint32_t hash_key(const uint8_t *k, uint32_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (uint32_t i = 0; i < n; i += 8) {
		uint64_t w;
		memcpy(&w, k + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h ? (uint32_t)h : 1;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static uint32_t ld32(const uint8_t *p)
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
		max = f->str_max;
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

/* How long an update waits for another writer to publish the element of a
 * bucket it claimed with the same hash before counting its record as dropped
 * (that writer may be the code a signal handler interrupted). */
#define PUBLISH_SPINS 4096

/* Finds or claims the element of `key`; -1 when the table is full. *fresh
 * says the element was claimed now, its key written but not published: the
 * caller fills in its comm and publishes it in bucket *bucket. */
static int64_t insert(struct hist_table *t, const uint8_t *key, uint32_t key_size, bool *fresh,
		      uint32_t *bucket)
{
	uint32_t hash = hash_key(key, key_size);
	uint32_t mask = t->nr_buckets - 1, i = hash & mask;

	*fresh = false;
	for (uint32_t probes = 0; probes < t->nr_buckets;) {
		uint32_t hv = __atomic_load_n(&t->bucket_hash[i], __ATOMIC_ACQUIRE);
		if (hv == 0) {
			if (!__atomic_compare_exchange_n(&t->bucket_hash[i], &hv, hash, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue; /* taken meanwhile: look at it again */
			uint32_t e = __atomic_fetch_add(&t->alloc, 1, __ATOMIC_RELAXED);
			if (e >= t->max_elts) {
				/* No element: free the bucket again, as the kernel does. */
				__atomic_store_n(&t->bucket_hash[i], 0, __ATOMIC_RELEASE);
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
				el = __atomic_load_n(&t->bucket_elt[i], __ATOMIC_ACQUIRE);
				if (el ||
				    __atomic_load_n(&t->bucket_hash[i], __ATOMIC_RELAXED) != hash)
					break;
				cpu_relax();
			}
			if (!el && __atomic_load_n(&t->bucket_hash[i], __ATOMIC_RELAXED) == 0)
				continue; /* its claimer found no element: try the bucket again */
			if (!el)
				return -1;
			if (!memcmp(t->keys + (size_t)(el - 1) * key_size, key, key_size))
				return el - 1;
		}
		i = (i + 1) & mask;
		probes++;
	}
	return -1;
}

/* The published element of `key`, or -1; never claims anything. */
static int64_t lookup(const struct hist_table *t, const uint8_t *key, uint32_t key_size)
{
	uint32_t hash = hash_key(key, key_size);
	uint32_t mask = t->nr_buckets - 1, i = hash & mask;

	for (uint32_t probes = 0; probes < t->nr_buckets; probes++, i = (i + 1) & mask) {
		uint32_t hv = __atomic_load_n(&t->bucket_hash[i], __ATOMIC_ACQUIRE);
		if (hv == 0)
			return -1;
		if (hv != hash)
			continue;
		uint32_t el = __atomic_load_n(&t->bucket_elt[i], __ATOMIC_ACQUIRE);
		if (el && !memcmp(t->keys + (size_t)(el - 1) * key_size, key, key_size))
			return el - 1;
	}
	return -1;
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

/* A string parameter copied into buf (NUL terminated). */
static const char *str_param(const struct eval *c, const struct hist_expr *e, const char *comm,
			     char *buf, uint32_t size)
{
	struct hist_field f = e->f;

	memset(buf, 0, size);
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
	if (h->env.synth_emit)
		h->env.synth_emit(h->env.ctx, act->synth, vals, strs);
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
				__atomic_store_n(&payload[w++], buf[k], __ATOMIC_RELAXED);
		} else {
			uint64_t v = 0;
			if (!eval(sf->c, e, &v))
				v = 0;
			__atomic_store_n(&payload[w++], v, __ATOMIC_RELAXED);
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

static void update(struct uft_hist *h, const void *record, uint32_t len, uint64_t ts, uint32_t cpu,
		   const struct uft_hist_comm *comm)
{
	const uint8_t *rec = record;
	uint8_t key[UFT_HIST_KEY_MAX];
	const char *name = NULL;
	bool have_name = false;
	struct hist_table *t = &h->t;
	int32_t pid;
	int64_t e;

	if (__atomic_load_n(&h->paused, __ATOMIC_RELAXED) || len < 8)
		return;
	memcpy(&pid, rec + 4, 4);
	if (h->filter) {
		if (h->needs & UFT_FILTER_NEEDS_COMM) {
			name = comm && comm->lookup ? comm->lookup(comm->ctx, pid) : NULL;
			have_name = true;
		}
		if (!uft_filter_match(h->filter, rec, len, cpu, name))
			return;
	}
	/* From here on the data: this histogram's or the named one's. */
	h = uft_hist_data(h);
	t = &h->t;
	memset(key, 0, h->key_size);
	for (uint32_t i = 0; i < h->n_keys; i++) {
		const struct hist_field *f = &h->keys[i];
		uint64_t v;

		if (f->src == HF_STACK && (f->flags & HF_STACKTRACE)) {
			if (!field_stack(f, rec, len, key + f->key_off))
				return;
		} else if (f->src == HF_STACK) {
			if (!comm || !comm->stack)
				return;
			uint64_t pcs[UFT_HIST_STACK_DEPTH];
			uint32_t n = comm->stack(comm->ctx, pcs, UFT_HIST_STACK_DEPTH);
			memcpy(key + f->key_off, pcs,
			       (n < UFT_HIST_STACK_DEPTH ? n : UFT_HIST_STACK_DEPTH) * 8);
		} else if (f->is_string) {
			if (f->src == HF_COMM && !have_name) {
				name = comm && comm->lookup ? comm->lookup(comm->ctx, pid) : NULL;
				have_name = true;
			}
			if (!str_key(f, rec, len, name, key + f->key_off))
				return;
		} else {
			if (!num_value(h, f, rec, len, ts, cpu, &v))
				return;
			memcpy(key + f->key_off, &v, 8);
		}
	}
	/* The other histograms' variables, each read once; one unset: the
	 * event is not for this histogram. */
	uint64_t rv[sizeof(h->uses) / sizeof(h->uses[0])];
	for (uint32_t i = 0; i < h->n_uses; i++) {
		struct uft_hist *r = h->uses[i];
		struct hist_table *rt = &r->t;
		if (r->key_size != h->key_size || !rt->vars_set)
			return;
		int64_t el = lookup(rt, key, r->key_size);
		if (el < 0)
			return;
		uint32_t bit = 1u << h->use_var[i];
		uint32_t was = __atomic_fetch_and(&rt->vars_set[el], ~bit, __ATOMIC_ACQ_REL);
		if (!(was & bit))
			return;
		rv[i] = __atomic_load_n(&rt->vars[(size_t)el * rt->n_vars + h->use_var[i]],
					__ATOMIC_RELAXED);
	}
	uint64_t vv[UFT_HIST_MAX_VARS];
	struct eval ec = {h, rec, len, ts, cpu, key, vv, rv};
	uint64_t vals[UFT_HIST_MAX_VALS];
	for (uint32_t i = 0; i < h->n_vals; i++) {
		const struct hist_field *f = &h->vals[i];
		if (f->src == HF_EXPR ? !eval(&ec, f->ex, &vals[i])
				      : !num_value(h, f, rec, len, ts, cpu, &vals[i]))
			return;
	}
	/* The writer's stack, taken once for the variables that hold it:
	 * "number of frames, frames", zeros after. */
	uint64_t stack[HIST_STACK_WORDS];
	bool have_stack = false;
	for (uint32_t i = 0; i < h->n_vars; i++) {
		const struct hist_expr *ve = h->vars[i].e;
		vv[i] = 0;
		if (h->vars[i].stack_slot >= 0) {
			if (!have_stack) {
				if (!comm || !comm->stack)
					return;
				memset(stack, 0, sizeof(stack));
				stack[0] = comm->stack(comm->ctx, stack + 1, UFT_HIST_STACK_DEPTH);
				have_stack = true;
			}
		} else if (!ve->is_string && !(ve->is_stack && ve->op == EX_SELF) &&
			   !eval(&ec, ve, &vv[i])) {
			return;
		}
	}

	bool fresh;
	uint32_t bucket;
	e = insert(t, key, h->key_size, &fresh, &bucket);
	if (e < 0) {
		__atomic_fetch_add(&t->drops, 1, __ATOMIC_RELAXED);
		return;
	}
	if (fresh) {
		if (t->comms) {
			const char *c = "<idle>";
			if (pid) {
				c = comm && comm->lookup ? comm->lookup(comm->ctx, pid) : NULL;
				if (!c)
					c = "<...>";
			}
			strncpy(t->comms[e], c, sizeof(t->comms[e]) - 1);
		}
		__atomic_store_n(&t->bucket_elt[bucket], (uint32_t)e + 1, __ATOMIC_RELEASE);
	}
	uint64_t *sums = t->sums + (size_t)e * h->n_vals;
	for (uint32_t i = 0; i < h->n_vals; i++)
		__atomic_fetch_add(&sums[i], vals[i], __ATOMIC_RELAXED);
	if (t->n_stacks) {
		/* The stack into the entry's slot, the variable its address; a
		 * variable naming another of this event's stacks takes that
		 * address too. Writers of one entry may interleave their words,
		 * as the kernel's do. */
		for (uint32_t i = 0; i < h->n_vars; i++) {
			int32_t s = h->vars[i].stack_slot;
			if (s < 0)
				continue;
			uint64_t *slot =
			    t->stacks + ((size_t)e * t->n_stacks + (uint32_t)s) * HIST_STACK_WORDS;
			for (uint32_t k = 0; k < HIST_STACK_WORDS; k++)
				__atomic_store_n(&slot[k], stack[k], __ATOMIC_RELAXED);
			vv[i] = (uint64_t)(uintptr_t)slot;
		}
		for (uint32_t i = 0; i < h->n_vars; i++)
			if (h->vars[i].e->is_stack && h->vars[i].e->op == EX_SELF)
				vv[i] = vv[h->vars[i].e->var];
	}
	if (h->n_vars) {
		uint32_t set = 0;
		for (uint32_t i = 0; i < h->n_vars; i++) {
			if (h->vars[i].e->is_string)
				continue;
			__atomic_store_n(&t->vars[(size_t)e * h->n_vars + i], vv[i],
					 __ATOMIC_RELAXED);
			set |= 1u << i;
		}
		__atomic_fetch_or(&t->vars_set[e], set, __ATOMIC_RELEASE);
	}
	__atomic_fetch_add(&t->hits, 1, __ATOMIC_RELAXED);
	if (h->n_actions) {
		struct who who = {comm, pid, name, have_name};
		run_actions(h, &ec, (uint32_t)e, &who);
	}
}

void uft_hist_update(struct uft_hist *h, const void *record, uint32_t len, uint64_t ts,
		     uint32_t cpu, const struct uft_hist_comm *comm)
{
	struct hist_table *t = &uft_hist_data(h)->t;
	__atomic_fetch_add(&t->inflight, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&t->clearing, __ATOMIC_SEQ_CST))
		update(h, record, len, ts, cpu, comm);
	__atomic_fetch_sub(&t->inflight, 1, __ATOMIC_RELEASE);
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

void uft_hist_clear(struct uft_hist *h)
{
	h = uft_hist_data(h);
	struct hist_table *t = &h->t;

	/* Writers never wait; the clear waits for those inside to leave (an
	 * update is short and never blocks) and keeps new ones out meanwhile. */
	__atomic_store_n(&t->clearing, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&t->inflight, __ATOMIC_SEQ_CST))
		sched_yield();
	memset(t->bucket_hash, 0, t->nr_buckets * sizeof(*t->bucket_hash));
	memset(t->bucket_elt, 0, t->nr_buckets * sizeof(*t->bucket_elt));
	memset(t->keys, 0, (size_t)t->max_elts * (h->key_size ? h->key_size : 1));
	memset(t->sums, 0, (size_t)t->max_elts * h->n_vals * sizeof(*t->sums));
	if (t->comms)
		memset(t->comms, 0, (size_t)t->max_elts * sizeof(*t->comms));
	if (t->stacks)
		memset(t->stacks, 0,
		       (size_t)t->max_elts * t->n_stacks * HIST_STACK_WORDS * sizeof(*t->stacks));
	if (t->vars) {
		memset(t->vars, 0, (size_t)t->max_elts * t->n_vars * sizeof(*t->vars));
		memset(t->vars_set, 0, (size_t)t->max_elts * sizeof(*t->vars_set));
	}
	uft_hist_track_clear(h);
	__atomic_store_n(&t->alloc, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->hits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->drops, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->clearing, 0, __ATOMIC_SEQ_CST);
}

uint64_t uft_hist_hits(const struct uft_hist *h)
{
	return __atomic_load_n(&uft_hist_data(h)->t.hits, __ATOMIC_RELAXED);
}

uint64_t uft_hist_drops(const struct uft_hist *h)
{
	return __atomic_load_n(&uft_hist_data(h)->t.drops, __ATOMIC_RELAXED);
}

uint32_t uft_hist_entries(const struct uft_hist *h)
{
	const struct hist_table *t = &uft_hist_data(h)->t;
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nr_buckets; i++)
		n += __atomic_load_n(&t->bucket_elt[i], __ATOMIC_ACQUIRE) != 0;
	return n;
}

uint32_t uft_hist_published(const struct uft_hist *h, uint32_t *elts, uint32_t max)
{
	const struct hist_table *t = &uft_hist_data(h)->t;
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nr_buckets && n < max; i++) {
		uint32_t el = __atomic_load_n(&t->bucket_elt[i], __ATOMIC_ACQUIRE);
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
	return __atomic_load_n(&h->paused, __ATOMIC_RELAXED);
}

void uft_hist_set_paused(struct uft_hist *h, bool paused)
{
	__atomic_store_n(&h->paused, paused, __ATOMIC_RELAXED);
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
	h->n_uses = 0;
	for (uint32_t i = 0; i < h->n_actions; i++)
		h->actions[i].synth = NULL;
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
