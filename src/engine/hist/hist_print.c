/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `hist` file text (Documentation/trace/histogram.rst): trigger info, entries
 * sorted by the sort keys (ties in creation order), the kernel's column
 * formats, percent and graph columns, totals. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist/hist_impl.h"
#include "engine/text/text_put.h"
#include "util/atomics.h"

static const char *modifier_name(unsigned flags)
{
	static const char *const names[] = {"hex",     "sym",	"sym-offset", "execname",
					    "syscall", "log2",	"buckets",    "usecs",
					    "percent", "graph", "stacktrace"};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & (1u << i))
			return names[i];
	return NULL;
}

static void put_field(struct uft_text *t, const struct hist_field *f)
{
	const char *mod = modifier_name(f->flags);

	if (f->src == HF_CPU)
		uft_text_put(t, "common_cpu");
	else if (f->src == HF_COMM)
		uft_text_put(t, "common_comm");
	else if (f->src == HF_CONST)
		uft_text_put(t, "%" PRIu64, f->constant);
	else if (f->src == HF_EXPR && f->ex->op == EX_REF)
		uft_text_put(t, "$%s", f->name);
	else
		uft_text_put(t, "%s", f->name);
	if (mod)
		uft_text_put(t, ".%s", mod);
	if (f->flags & HF_BUCKET)
		uft_text_put(t, "=%" PRIu64, f->buckets);
}

static const struct hist_field *sort_field(const struct uft_hist *h, uint32_t idx)
{
	return idx < h->n_vals ? &h->vals[idx] : &h->keys[idx - h->n_vals];
}

static void put_expr(struct uft_text *t, const struct hist_expr *e)
{
	static const char ops[] = {[EX_ADD] = '+', [EX_SUB] = '-', [EX_MUL] = '*', [EX_DIV] = '/'};

	switch (e->op) {
	case EX_FIELD:
		put_field(t, &e->f);
		break;
	case EX_CONST:
		uft_text_put(t, "%llu", (unsigned long long)e->constant);
		break;
	case EX_SELF:
	case EX_REF:
		uft_text_put(t, "%s", e->ref_name);
		break;
	case EX_NEG:
		uft_text_put(t, "-(");
		put_expr(t, e->l);
		uft_text_put(t, ")");
		break;
	default:
		put_expr(t, e->l);
		uft_text_put(t, "%c", ops[e->op]);
		put_expr(t, e->r);
		break;
	}
}

int uft_hist_expr_spec(const struct hist_expr *e, char *buf, size_t len)
{
	struct uft_text t = {buf, len, 0};

	if (len)
		buf[0] = '\0';
	put_expr(&t, e);
	return (int)t.len;
}

/* ":onmatch(sys.event).trace(synth,p,...)", ":onmax($v).save(f,...)",
 * ":onchange($v).snapshot()", as the kernel's print_actions_spec(). */
static void put_action(struct uft_text *t, const struct uft_hist *h, const struct hist_action *a)
{
	if (a->handler == HANDLER_ONMATCH)
		uft_text_put(t, ":onmatch(%s).", a->match);
	else
		uft_text_put(t, ":%s(%s).", a->handler == HANDLER_ONMAX ? "onmax" : "onchange",
			     a->var_str);
	uft_text_put(t, "%s(", a->action_name);
	if (a->action == ACT_SAVE) {
		for (uint32_t j = 0; j < h->n_save; j++)
			uft_text_put(t, "%s%s", j ? "," : "", h->save_name[j]);
	} else if (a->action == ACT_TRACE) {
		if (a->trace_kw)
			uft_text_put(t, "%s", a->synth_name);
		for (uint32_t j = 0; j < a->n_params; j++)
			uft_text_put(t, "%s%s", j || a->trace_kw ? "," : "", a->param_text[j]);
	}
	uft_text_put(t, ")");
}

int uft_hist_action_spec(const struct uft_hist *h, uint32_t i, char *buf, size_t len)
{
	struct uft_text t = {buf, len, 0};

	if (len)
		buf[0] = '\0';
	put_action(&t, h, &h->actions[i]);
	return (int)t.len;
}

int uft_hist_info(const struct uft_hist *h, char *buf, size_t len)
{
	struct uft_text t = {buf, len, 0};
	bool shown = false;

	if (len)
		buf[0] = '\0';
	uft_text_put(&t, "hist:");
	if (h->name)
		uft_text_put(&t, "%s:", h->name);
	uft_text_put(&t, "keys=");
	for (uint32_t i = 0; i < h->n_keys; i++) {
		if (i)
			uft_text_put(&t, ",");
		put_field(&t, &h->keys[i]);
	}
	uft_text_put(&t, ":vals=");
	for (uint32_t i = 0; i < h->n_vals; i++) {
		if (i == 0) {
			if (h->no_hitcount)
				continue;
			uft_text_put(&t, "hitcount");
		} else {
			if (shown)
				uft_text_put(&t, ",");
			put_field(&t, &h->vals[i]);
		}
		shown = true;
	}
	for (uint32_t i = 0; i < h->n_vars; i++) {
		uft_text_put(&t, "%s%s=", i ? "," : ":", h->vars[i].name);
		put_expr(&t, h->vars[i].e);
	}
	uft_text_put(&t, ":sort=");
	for (uint32_t i = 0; i < h->n_sort; i++) {
		if (i)
			uft_text_put(&t, ",");
		if (h->sort_idx[i] == 0)
			uft_text_put(&t, "hitcount");
		else
			put_field(&t, sort_field(h, h->sort_idx[i]));
		if (h->sort_desc[i])
			uft_text_put(&t, ".descending");
	}
	uft_text_put(&t, ":size=%u", 1u << uft_hist_data(h)->t.bits);
	if (h->timestamps)
		uft_text_put(&t, ":clock=%s", h->clock);
	if (h->no_hitcount)
		uft_text_put(&t, ":nohitcount");
	for (uint32_t i = 0; i < h->n_actions; i++)
		put_action(&t, h, &h->actions[i]);
	if (h->filter_text)
		uft_text_put(&t, " if %s", h->filter_text);
	uft_text_put(&t, uft_hist_paused(h) ? " [paused]\n" : " [active]\n");
	return t.len > (size_t)INT32_MAX ? -EOVERFLOW : (int)t.len;
}

/* ---- entries ---- */

struct view {
	const struct uft_hist *h;
	const uint8_t *keys;
	const uint64_t *sums;
};

static uint64_t sum_of(const struct view *v, uint32_t e, uint32_t i)
{
	return READ_ONCE(*(&v->sums[(size_t)e * v->h->n_vals + i]));
}

static uint64_t key_u64(const struct view *v, uint32_t e, const struct hist_field *f)
{
	uint64_t x;
	memcpy(&x, v->keys + (size_t)e * v->h->key_size + f->key_off, 8);
	return x;
}

/* The kernel compares numeric keys as their field's type. */
static int cmp_num(uint64_t a, uint64_t b, const struct hist_field *f)
{
	unsigned bits = f->cmp_size * 8u;

	if (bits < 64) {
		uint64_t m = (1ull << bits) - 1;
		a &= m;
		b &= m;
		if (f->cmp_signed) {
			uint64_t s = 1ull << (bits - 1);
			a ^= s; /* bias to compare signed as unsigned */
			b ^= s;
		}
	} else if (f->cmp_signed) {
		a ^= 1ull << 63;
		b ^= 1ull << 63;
	}
	return (a > b) - (a < b);
}

static int cmp_entries(const void *pa, const void *pb, void *arg)
{
	const struct view *v = arg;
	const struct uft_hist *h = v->h;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	for (uint32_t i = 0; i < h->n_sort; i++) {
		uint32_t idx = h->sort_idx[i];
		int r;

		if (idx < h->n_vals) {
			uint64_t x = sum_of(v, a, idx), y = sum_of(v, b, idx);
			r = (x > y) - (x < y);
		} else {
			const struct hist_field *f = &h->keys[idx - h->n_vals];
			if (f->src == HF_STACK) {
				r = 0; /* stacks are not ordered (tracing_map_cmp_none) */
			} else if (f->is_string) {
				const char *x =
				    (const char *)v->keys + (size_t)a * h->key_size + f->key_off;
				const char *y =
				    (const char *)v->keys + (size_t)b * h->key_size + f->key_off;
				r = strncmp(x, y, f->key_size);
				r = (r > 0) - (r < 0);
			} else {
				r = cmp_num(key_u64(v, a, f), key_u64(v, b, f), f);
			}
		}
		if (h->sort_desc[i])
			r = -r;
		if (r)
			return r;
	}
	return (a > b) - (a < b);
}

/* A stack key's frames, one line each as the kernel's %pS after 9 spaces
 * ("%*c" of width 1 + 8), up to the first zero. Leading frames of the
 * generated event writers (uft__*, kept when the compiler gave them a
 * frame) are left out, as the stacktrace trigger's text leaves them. */
static void print_stack(FILE *out, const uint8_t *pcs, const struct uft_hist_syms *syms)
{
	bool leading = true;

	for (uint32_t i = 0; i < UFT_HIST_STACK_DEPTH; i++) {
		uint64_t pc;
		char sym[256];

		memcpy(&pc, pcs + (size_t)i * 8, 8);
		if (!pc)
			return;
		if (!syms || !syms->lookup || syms->lookup(syms->ctx, pc, true, sym, sizeof(sym)))
			snprintf(sym, sizeof(sym), "0x%" PRIx64, pc);
		else if (leading && strncmp(sym, "uft__", 5) == 0)
			continue;
		leading = false;
		fprintf(out, "%*c%s\n", 9, ' ', sym);
	}
}

/* "{ key: value, ... }" of the key bytes `key`; comm is the entry's name
 * for .execname. */
static void print_key(FILE *out, const struct uft_hist *h, const uint8_t *key, const char *comm,
		      const struct uft_hist_syms *syms)
{

	bool multiline = false;

	fputs("{ ", out);
	for (uint32_t i = 0; i < h->n_keys; i++) {
		const struct hist_field *f = &h->keys[i];
		uint64_t x;
		memcpy(&x, key + f->key_off, 8);
		char sym[256];

		if (i)
			fputs(", ", out);
		if (f->src == HF_STACK && (f->flags & HF_STACKTRACE)) {
			/* The kernel's text: no colon, the first frame on the line */
			fprintf(out, "%s.stacktrace", f->name);
			print_stack(out, key + f->key_off, syms);
			multiline = true;
		} else if (f->src == HF_STACK) {
			fputs("common_stacktrace:\n", out);
			print_stack(out, key + f->key_off, syms);
			multiline = true;
		} else if (f->flags & HF_HEX) {
			fprintf(out, "%s: %" PRIx64, f->name, x);
		} else if (f->flags & (HF_SYM | HF_SYM_OFFSET)) {
			bool off = f->flags & HF_SYM_OFFSET;
			if (!syms || !syms->lookup ||
			    syms->lookup(syms->ctx, x, off, sym, sizeof(sym)) != 0)
				sym[0] = '\0';
			fprintf(out, off ? "%s: [%" PRIx64 "] %-55s" : "%s: [%" PRIx64 "] %-45s",
				f->name, x, sym);
		} else if (f->flags & HF_EXECNAME) {
			fprintf(out, "%s: %-16s[%10" PRIu64 "]", f->name, comm, x);
		} else if (f->flags & HF_SYSCALL) {
			const char *name = uft_hist_syscall_name(x);
			fprintf(out, "%s: %-30s[%3" PRIu64 "]", f->name,
				name ? name : "unknown_syscall", x);
		} else if (f->flags & HF_LOG2) {
			fprintf(out, "%s: ~ 2^%-2" PRIu64, f->name, x);
		} else if (f->flags & HF_BUCKET) {
			fprintf(out, "%s: ~ %" PRIu64 "-%" PRIu64, f->name, x, x + f->buckets - 1);
		} else if (f->is_string) {
			const char *s = (const char *)key + f->key_off;
			fprintf(out, "%s: %-50.*s", f->name, (int)f->key_size, s);
		} else {
			fprintf(out, "%s: %10" PRIu64, f->name, x);
		}
	}
	/* After a stack's last frame line the brace starts its own line. */
	fputs(multiline ? "}" : " }", out);
}

struct val_stat {
	uint64_t max;
	uint64_t total;
};

/* Hundredths of a percent of val in total; UINT32_MAX for val/0. */
static uint32_t percentage(uint64_t val, uint64_t total)
{
	if (!total)
		return val ? UINT32_MAX : 0;
	if (val < UINT64_MAX / 10000)
		return (uint32_t)(val * 10000 / total);
	total /= 10000;
	if (!total)
		return val ? UINT32_MAX : 0;
	return (uint32_t)(val / total);
}

static void print_val(FILE *out, const char *name, unsigned flags, uint64_t val,
		      const struct val_stat *st)
{
	if (flags & HF_PERCENT) {
		uint32_t pc = percentage(val, st->total);
		if (pc == UINT32_MAX)
			fprintf(out, " %s (%%):[ERROR]", name);
		else
			fprintf(out, " %s (%%): %3u.%02u", name, pc / 100, pc % 100);
	} else if (flags & HF_GRAPH) {
		char bar[21];
		uint32_t len = percentage(val, st->max), i = 0;

		if (len == UINT32_MAX) {
			snprintf(bar, sizeof(bar), "[ERROR]");
		} else {
			len = (uint32_t)((uint64_t)len * 20 / 10000);
			for (; i < len && i < 20; i++)
				bar[i] = '#';
			while (i < 20)
				bar[i++] = ' ';
			bar[20] = '\0';
		}
		fprintf(out, " %s: %20s", name, bar);
	} else if (flags & HF_HEX) {
		fprintf(out, " %s: %10" PRIx64, name, val);
	} else {
		fprintf(out, " %s: %10" PRIu64, name, val);
	}
}

/* After an entry's values: per onmax/onchange action but snapshot() the
 * tracked value, then the saved fields, read once so that both belong to
 * the same record (the kernel's track_data_print()). */
static void print_tracked(FILE *out, const struct uft_hist *h, uint32_t e, uint64_t *rec)
{
	bool have = h->n_save && uft_hist_saved(h, e, rec);

	for (uint32_t i = 0; i < h->n_actions; i++) {
		const struct hist_action *a = &h->actions[i];
		uint64_t v;

		if (a->handler == HANDLER_ONMATCH || a->action == ACT_SNAPSHOT)
			continue;
		if (a->action == ACT_SAVE)
			v = have ? rec[0] : 0;
		else
			v = uft_hist_track_value(h, a, e);
		fprintf(out,
			a->handler == HANDLER_ONMAX ? "\n\tmax: %10" PRIu64
						    : "\n\tchanged: %10" PRIu64,
			v);
		for (uint32_t j = 0, w = 1; j < h->n_save; j++) {
			if (h->save[j]->is_string ||
			    (h->save[j]->op == EX_SELF && h->vars[h->save[j]->var].e->is_string)) {
				char str[HIST_SAVE_STR + 1];
				memcpy(str, rec + w, HIST_SAVE_STR);
				str[HIST_SAVE_STR] = '\0';
				/* An unset string variable is a NULL pointer to the kernel's
				 * printf. */
				fprintf(out, "  %s: %-32s", h->save_name[j], have ? str : "(null)");
				w += HIST_SAVE_STR / 8;
			} else {
				fprintf(out, "  %s: %10" PRIu64, h->save_name[j],
					have ? rec[w] : 0);
				w++;
			}
		}
	}
}

/* The block of the last snapshot a snapshot() action took. */
static void print_snapshot(FILE *out, const struct uft_hist *h, const struct uft_hist_syms *syms)
{
	uint8_t key[UFT_HIST_KEY_MAX];
	char comm[16];
	uint64_t v;

	if (!uft_hist_snap_details(h, &v, key, comm))
		return;
	const struct hist_action *a = &h->actions[h->snap_action];
	fprintf(out,
		"\nSnapshot taken (see tracing/snapshot).  Details:\n"
		"\ttriggering value { %s(%s) }: %10" PRIu64 "\ttriggered by event with key: ",
		a->handler == HANDLER_ONMAX ? "onmax" : "onchange", a->var_str, v);
	print_key(out, h, key, comm, syms);
	fputc('\n', out);
}

/* The sums of the published elements as they are now (malloc'd): live
 * writers may still add, and sorting needs values that hold still. */
static uint64_t *snap_sums(const struct uft_hist *h, const uint32_t *order, uint32_t n)
{
	uint32_t top = 0;

	for (uint32_t i = 0; i < n; i++)
		if (order[i] + 1 > top)
			top = order[i] + 1;
	size_t nsums = (size_t)top * h->n_vals;
	uint64_t *snap = malloc((nsums ? nsums : 1) * sizeof(*snap));
	if (!snap)
		return NULL;
	for (size_t i = 0; i < nsums; i++)
		snap[i] = READ_ONCE(h->t.sums[i]);
	uft_hist_shards_add_sums(&h->t, snap, nsums); /* the threads' shares */
	return snap;
}

/* The header with the trigger's info line. */
static int print_header(FILE *out, const struct uft_hist *trigger)
{
	int len = uft_hist_info(trigger, NULL, 0);
	char *info = malloc((size_t)len + 1);

	if (!info)
		return -ENOMEM;
	uft_hist_info(trigger, info, (size_t)len + 1);
	fprintf(out, "# event histogram\n#\n# trigger info: %s#\n\n", info);
	free(info);
	return 0;
}

/* Totals and maxima of the percent and graph columns. */
static void val_stats(const struct view *v, const uint32_t *order, uint32_t n, struct val_stat *st)
{
	const struct uft_hist *h = v->h;

	for (uint32_t j = 0; j < h->n_vals; j++) {
		if (!(h->vals[j].flags & (HF_PERCENT | HF_GRAPH)))
			continue;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t x = sum_of(v, order[i], j);
			st[j].total += x;
			if (st[j].max < x)
				st[j].max = x;
		}
	}
}

/* One entry's line: key, values, then what onmax/onchange track (saved:
 * room for a saved record, NULL when there are no such actions). */
static void print_entry(FILE *out, const struct view *v, uint32_t e, const struct val_stat *st,
			uint64_t *saved, const struct uft_hist_syms *syms)
{
	const struct uft_hist *h = v->h;

	print_key(out, h, v->keys + (size_t)e * h->key_size, h->t.comms ? h->t.comms[e] : "", syms);
	if (!h->no_hitcount)
		print_val(out, "hitcount", 0, sum_of(v, e, 0), &st[0]);
	for (uint32_t j = 1; j < h->n_vals; j++) {
		fputc(' ', out);
		print_val(out, h->vals[j].name, h->vals[j].flags, sum_of(v, e, j), &st[j]);
	}
	if (saved)
		print_tracked(out, h, e, saved);
	fputc('\n', out);
}

int uft_hist_print(const struct uft_hist *trigger, FILE *out, const struct uft_hist_syms *syms)
{
	/* The trigger's own info line, the data of the name it shares. */
	const struct uft_hist *h = uft_hist_data(trigger);
	struct view v = {h, h->t.keys, h->t.sums};
	struct val_stat st[UFT_HIST_MAX_VALS] = {{0, 0}};
	uint32_t *order = malloc(h->t.max_elts * sizeof(*order));
	uint64_t *snap = NULL, *saved = NULL;
	uint32_t n;
	int rc = -ENOMEM;

	if (!order)
		return -ENOMEM;
	/* The elements published so far (ties print in creation order). */
	n = uft_hist_published(h, order, h->t.max_elts);
	if (!(snap = snap_sums(h, order, n)))
		goto out;
	v.sums = snap;
	if ((rc = print_header(out, trigger)))
		goto out;
	qsort_r(order, n, sizeof(*order), cmp_entries, &v);
	rc = -ENOMEM;
	for (uint32_t i = 0; i < h->n_actions && !saved; i++)
		if (h->actions[i].handler != HANDLER_ONMATCH &&
		    !(saved = calloc(1 + h->save_words, sizeof(*saved))))
			goto out;
	val_stats(&v, order, n, st);
	for (uint32_t i = 0; i < n; i++)
		print_entry(out, &v, order[i], st, saved, syms);
	print_snapshot(out, h, syms);
	fprintf(out,
		"\nTotals:\n    Hits: %" PRIu64 "\n    Entries: %u\n    Dropped: %" PRIu64 "\n",
		uft_hist_hits(h), n, uft_hist_drops(h));
	rc = ferror(out) ? -EIO : 0;
out:
	free(order);
	free(snap);
	free(saved);
	return rc;
}
