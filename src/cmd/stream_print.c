/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft stream's printer. The collector hands each event over as it reads a
 * ring; the events wait here until a drain of every process has passed
 * their time, then go out sorted (time, then arrival), through the same
 * report_ftrace_line as uft report's, so the lines are the same. */
#define _GNU_SOURCE
#include "cmd/stream_print.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/proc_syms.h"
#include "report/report_ftrace.h"
#include "tracedat/trace_file.h"
#include "util/util.h"
#include "wire/page_headers.h"
#include <uft/event.h>

/* A function_graph entry waits this long for what follows it on its CPU,
 * so that a call that returns at once prints as one line (ns). */
#define LEAF_WAIT_NS 200000000ull

struct held {
	uint64_t ts, seq, missed;
	size_t off; /* payload in the arena */
	uint32_t len, cpu;
};

struct stream_print {
	struct collect *c;
	FILE *f;
	bool want_graph;
	struct trace_file tf;
	struct report_ftrace rf;
	size_t nr_formats; /* of c->formats, given to the trace_file */
	size_t syms_len;   /* of the symbols text last given to rf */
	struct held *ev;
	size_t nr, cap;
	char *arena;
	size_t arena_len, arena_cap;
	uint64_t seq;
	uint64_t newest;  /* the newest timestamp collected */
	uint64_t settled; /* what it was after the round before the last */
	bool got;	  /* events came since the last round */
};

#define HELD_ALIGN(n) (((n) + 7) & ~(size_t)7)

static int sink(void *ctx, uint32_t cpu, uint64_t ts, uint16_t id, const void *data, uint32_t len,
		uint64_t missed)
{
	struct stream_print *s = ctx;
	/* Payloads start 8-aligned: the process tracer's records are not all a
	 * multiple of 4 bytes long. */
	size_t off = HELD_ALIGN(s->arena_len);
	if (uft_array_reserve(s->ev, s->cap, s->nr + 1, 1024) != 0 ||
	    uft_array_reserve(s->arena, s->arena_cap, off + len, 1 << 16) != 0)
		return 1;
	memcpy(s->arena + off, data, len);
	((struct uft_common_entry *)(s->arena + off))->type = id;
	s->ev[s->nr++] = (struct held){ts, s->seq++, missed, off, len, cpu};
	if (ts > s->newest)
		s->newest = ts;
	s->got = true;
	s->arena_len = off + len;
	return 0;
}

struct stream_print *stream_print_new(struct collect *c, FILE *f, bool graph)
{
	struct stream_print *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (trace_file_live(&s->tf, cpus > 0 ? (int)cpus : 1, UFT_SUBBUF_SIZE,
			    uft_header_page_text()) != 0) {
		free(s);
		return NULL;
	}
	if (report_ftrace_init(&s->rf, &s->tf, 0) != 0) {
		trace_file_close(&s->tf);
		free(s);
		return NULL;
	}
	s->c = c;
	s->f = f;
	s->want_graph = graph;
	c->sink = sink;
	c->sink_ctx = s;
	return s;
}

void stream_print_free(struct stream_print *s)
{
	if (!s)
		return;
	report_ftrace_free(&s->rf);
	trace_file_close(&s->tf);
	free(s->ev);
	free(s->arena);
	free(s);
}

static int cmp_held(const void *a, const void *b)
{
	const struct held *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* What the formatter needs of what the collector learnt since last time:
 * formats, comms, symbols. */
static void catch_up(struct stream_print *s)
{
	struct collect *c = s->c;
	for (; s->nr_formats < c->nr_formats; s->nr_formats++) {
		struct collect_format *fm = &c->formats[s->nr_formats];
		char *text;
		int n = asprintf(&text, "name: %s\nID: %u\n%s", fm->name, fm->id, fm->body);
		if (n < 0)
			break;
		trace_file_add_format(&s->tf, fm->system, text, (size_t)n);
		free(text);
	}
	report_ftrace_find_ids(&s->rf);
	for (size_t i = 0; i < c->nr_comms; i++)
		trace_file_set_comm(&s->tf, c->comms[i].pid, c->comms[i].comm);
	size_t len = 0;
	if (c->syms && proc_syms_text(c->syms, &len) && len != s->syms_len) {
		char *text = proc_syms_kallsyms(c->syms, &len);
		if (text && report_ftrace_set_syms(&s->rf, text, len) == 0)
			proc_syms_text(c->syms, &s->syms_len);
		free(text);
	}
	if (s->want_graph && !s->rf.graph && s->rf.id_entry)
		report_ftrace_graph(&s->rf);
}

static uint16_t type_of(const struct stream_print *s, const struct held *h)
{
	uint16_t t = 0;
	if (h->len >= 2)
		memcpy(&t, s->arena + h->off, 2);
	return t;
}

/* How many of the sorted events may go out: those not after wm, less a
 * graph entry that is the last of its CPU so far (what follows it decides
 * whether it is a leaf), unless it has waited LEAF_WAIT_NS. */
static size_t printable(struct stream_print *s, uint64_t wm)
{
	size_t lo = 0, hi = s->nr;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->ev[mid].ts <= wm)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t cut = lo;
	if (!s->rf.graph)
		return cut;
	int nr_cpus = s->tf.td->nr_cpus > 0 ? s->tf.td->nr_cpus : 1;
	bool *seen = calloc((size_t)nr_cpus + 1, 1);
	if (!seen)
		return cut;
	for (size_t again = 1; again;) {
		again = 0;
		memset(seen, 0, (size_t)nr_cpus + 1);
		for (size_t i = cut; i-- > 0;) {
			struct held *h = &s->ev[i];
			uint32_t cpu = h->cpu < (uint32_t)nr_cpus ? h->cpu : (uint32_t)nr_cpus;
			if (seen[cpu])
				continue;
			seen[cpu] = true;
			if (type_of(s, h) == s->rf.id_entry && h->ts + LEAF_WAIT_NS > wm) {
				cut = i;
				again = 1;
				break;
			}
		}
	}
	free(seen);
	return cut;
}

static void print_first(struct stream_print *s, size_t cut)
{
	/* nxt[i]: the next event of i's CPU before cut, or cut. */
	size_t *nxt = malloc((cut ? cut : 1) * sizeof(*nxt));
	bool *done = calloc(cut ? cut : 1, 1);
	int nr_cpus = s->tf.td->nr_cpus > 0 ? s->tf.td->nr_cpus : 1;
	size_t *last = malloc(((size_t)nr_cpus + 1) * sizeof(*last));
	if (!nxt || !done || !last)
		goto out;
	for (int k = 0; k <= nr_cpus; k++)
		last[k] = cut;
	for (size_t i = cut; i-- > 0;) {
		uint32_t cpu = s->ev[i].cpu < (uint32_t)nr_cpus ? s->ev[i].cpu : (uint32_t)nr_cpus;
		nxt[i] = last[cpu];
		last[cpu] = i;
	}
	for (size_t i = 0; i < cut; i++) {
		if (done[i])
			continue;
		struct held *h = &s->ev[i];
		if (h->missed)
			uft_out_lost(s->f, (int)h->cpu, h->missed);
		struct uft_out_record r = {(int)h->cpu, h->ts, s->arena + h->off, h->len};
		struct uft_out_record nx = {0};
		if (nxt[i] < cut) {
			struct held *n = &s->ev[nxt[i]];
			nx = (struct uft_out_record){(int)n->cpu, n->ts, s->arena + n->off, n->len};
		}
		if (report_ftrace_line(&s->rf, s->f, &r, nxt[i] < cut ? &nx : NULL) ==
		    UFT_GRAPH_LEAF)
			done[nxt[i]] = true;
	}
out:
	free(nxt);
	free(done);
	free(last);
}

/* Drops the first cut events, the rest's payloads copied to a new arena:
 * sorted, they are no longer in arena order, so moving them in place could
 * overwrite one not yet moved (events of several sources arrive out of
 * time order). */
static void forget_first(struct stream_print *s, size_t cut)
{
	size_t len = 0;
	for (size_t i = cut; i < s->nr; i++)
		len = HELD_ALIGN(len) + s->ev[i].len;
	char *fresh = malloc(len > s->arena_cap ? len : s->arena_cap ? s->arena_cap : 1);
	if (!fresh) {
		/* Kept as they are: the arena only grows until memory returns. */
		memmove(s->ev, s->ev + cut, (s->nr - cut) * sizeof(*s->ev));
		s->nr -= cut;
		return;
	}
	len = 0;
	for (size_t i = cut; i < s->nr; i++) {
		struct held *h = &s->ev[i];
		len = HELD_ALIGN(len);
		memcpy(fresh + len, s->arena + h->off, h->len);
		h->off = len;
		len += h->len;
	}
	free(s->arena);
	s->arena = fresh;
	if (s->arena_cap < len)
		s->arena_cap = len;
	memmove(s->ev, s->ev + cut, (s->nr - cut) * sizeof(*s->ev));
	s->nr -= cut;
	s->arena_len = len;
}

/* After round k, an event not yet collected was either stamped after
 * everything collected by round k-1 (so after the newest of those), or its
 * writer was stopped between its timestamp and its commit for as long as a
 * round lasts. What is not newer than that is printed; after a round that
 * brought nothing, everything is. The trace clock is never read here: it
 * is the traced processes' (perf's sched_clock, a counter, the TSC). */
void stream_print_drained(void *arg, bool final)
{
	struct stream_print *s = arg;
	uint64_t wm = final || !s->got ? UINT64_MAX : s->settled;
	s->settled = s->newest;
	s->got = false;
	if (!s->nr)
		return;
	qsort(s->ev, s->nr, sizeof(*s->ev), cmp_held);
	catch_up(s);
	size_t cut = final ? s->nr : printable(s, wm);
	print_first(s, cut);
	forget_first(s, cut);
	fflush(s->f);
}
