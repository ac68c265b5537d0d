/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft top's frame as text. */
#include "cmd/top_view.h"

#include <stdlib.h>
#include <string.h>

static const char *const sort_names[TOP_SORT_NR] = {"RATE", "TOTAL", "NAME"};

const char *top_sort_name(enum top_sort s)
{
	return sort_names[s];
}

struct sorter {
	const struct top_row *v;
	enum top_sort by;
};

static _Thread_local struct sorter sorting;

/* Numbers from the largest, names from A; ties by name, then thread. */
static int cmp_rows(const void *a, const void *b)
{
	const struct top_row *x = &sorting.v[*(const size_t *)a];
	const struct top_row *y = &sorting.v[*(const size_t *)b];
	uint64_t kx = sorting.by == TOP_SORT_RATE ? x->delta : x->total;
	uint64_t ky = sorting.by == TOP_SORT_RATE ? y->delta : y->total;
	if (sorting.by != TOP_SORT_NAME && kx != ky)
		return kx < ky ? 1 : -1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The rows worth showing (counted since top began), sorted; *n of them. */
static size_t *sorted(const struct top_table *t, enum top_sort by, size_t *n)
{
	size_t *ix = malloc((t->n ? t->n : 1) * sizeof(*ix));
	*n = 0;
	if (!ix)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].total)
			ix[(*n)++] = i;
	sorting = (struct sorter){t->v, by};
	qsort(ix, *n, sizeof(*ix), cmp_rows);
	return ix;
}

static double rate(const struct top *t, uint64_t n)
{
	return t->interval > 0 ? (double)n / t->interval : 0;
}

/* Prints at most v->max_rows rows (all with 0), then how many were left. */
static size_t shown(const struct top_view *v, size_t n)
{
	return v->max_rows > 0 && n > (size_t)v->max_rows ? (size_t)v->max_rows : n;
}

static void more(FILE *out, size_t n, size_t k)
{
	if (k < n)
		fprintf(out, "  ... %zu more\n", n - k);
}

static void events_table(FILE *out, const struct top *t, const struct top_view *v)
{
	size_t n, *ix = sorted(&t->events, v->sort, &n);
	if (!ix)
		return;
	fprintf(out, "\n%-40s %12s %10s %12s\n", "EVENT", "RATE/s", "COUNT", "TOTAL");
	if (!n)
		fprintf(out, "  (no events since top began)\n");
	size_t k = shown(v, n);
	for (size_t i = 0; i < k; i++) {
		const struct top_row *r = &t->events.v[ix[i]];
		fprintf(out, "%-40.40s %12.1f %10llu %12llu\n", r->name, rate(t, r->delta),
			(unsigned long long)r->delta, (unsigned long long)r->total);
	}
	more(out, n, k);
	free(ix);
}

static void threads_table(FILE *out, const struct top *t, const struct top_view *v)
{
	size_t n, *ix = sorted(&t->threads, v->sort, &n);
	if (!ix)
		return;
	fprintf(out, "\n%-16s %8s %8s %14s %10s %12s\n", "THREAD", "PID", "TID", "RATE/s", "COUNT",
		"TOTAL");
	size_t k = shown(v, n);
	for (size_t i = 0; i < k; i++) {
		const struct top_row *r = &t->threads.v[ix[i]];
		fprintf(out, "%-16.16s %8d %8d %14.1f %10llu %12llu\n", r->name, r->pid, r->tid,
			rate(t, r->delta), (unsigned long long)r->delta,
			(unsigned long long)r->total);
	}
	more(out, n, k);
	free(ix);
}

static bool any_profiling(const struct top *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->procs[i]->profiling)
			return true;
	return false;
}

static void funcs_table(FILE *out, const struct top *t, const struct top_view *v)
{
	size_t n, *ix = sorted(&t->funcs, v->sort, &n);
	if (!ix)
		return;
	if (!n) {
		free(ix);
		return;
	}
	bool prof = any_profiling(t);
	fprintf(out, "\n%-40s %12s %10s %12s%s\n", "FUNCTION", "CALLS/s", "COUNT", "TOTAL",
		prof ? "        TIME us" : "");
	size_t k = shown(v, n);
	for (size_t i = 0; i < k; i++) {
		const struct top_row *r = &t->funcs.v[ix[i]];
		fprintf(out, "%-40.40s %12.1f %10llu %12llu", r->name, rate(t, r->delta),
			(unsigned long long)r->delta, (unsigned long long)r->total);
		if (prof)
			fprintf(out, " %14.3f", (double)r->time_ns / 1000.0);
		fputc('\n', out);
	}
	more(out, n, k);
	free(ix);
}

static void proc_line(FILE *out, const struct top *t, const struct top_proc *p)
{
	fprintf(out,
		"PID %d (%s): tracer %s, tracing %s, %zu thread%s, %.1f events/s, %llu in all%s\n",
		(int)p->pid, p->comm, p->tracer, p->tracing_on ? "on" : "off", p->threads,
		p->threads == 1 ? "" : "s", rate(t, p->events_delta),
		(unsigned long long)p->events_total, p->exited ? ", exited" : "");
	if (!p->have_region) {
		fprintf(out, "  %s\n", p->region_err);
		return;
	}
	const struct top_loss *l = &p->loss, *f = &p->loss_first;
	fprintf(out,
		"  lost since top began: %llu overrun, %llu dropped, %llu unwritable; "
		"%llu waits for the recorder, %llu ran out\n",
		(unsigned long long)(l->overrun - f->overrun),
		(unsigned long long)(l->dropped - f->dropped),
		(unsigned long long)(l->lost - f->lost), (unsigned long long)(l->waits - f->waits),
		(unsigned long long)(l->timeouts - f->timeouts));
}

void top_render(FILE *out, const struct top *t, const struct top_view *v)
{
	fprintf(out, "uft top - frame %u, every %.1f s (this one %.2f s), sort %s%s\n", t->frame,
		v->every, t->interval, top_sort_name(v->sort), v->paused ? " [paused]" : "");
	if (v->keys)
		fprintf(out, "keys: s or > next sort column, < previous, p pause, q quit\n");
	if (v->notes)
		fputs(v->notes, out);
	for (size_t i = 0; i < t->n; i++)
		proc_line(out, t, t->procs[i]);
	if (t->partial)
		fprintf(out, "note: some events were overwritten or consumed before top saw "
			     "them: EVENT counts fewer than THREAD\n");
	events_table(out, t, v);
	threads_table(out, t, v);
	funcs_table(out, t, v);
	for (size_t i = 0; i < t->n; i++)
		if (t->procs[i]->hists && *t->procs[i]->hists)
			fprintf(out, "\n%s", t->procs[i]->hists);
}
