/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The export pass: records in time order (every CPU of every instance
 * merged), function_graph entries and exits paired per thread into calls,
 * stack records into sample stacks, every other record an instant. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "wire/clocks.h"
#include "wire/ftrace_records.h"
#include "export/export_priv.h"
#include "tracedat/record_iter.h"

const char *exp_name(const struct exp *x, uint32_t id)
{
	return id < x->names.n ? x->names.str[id] : "?";
}

uint32_t exp_nr_names(const struct exp *x)
{
	return x->names.n;
}

uint32_t exp_nr_threads(const struct exp *x)
{
	return x->nr_threads;
}

int exp_thread_pid(const struct exp *x, uint32_t idx)
{
	return idx < x->nr_threads ? x->threads[idx]->pid : -1;
}

bool exp_clock_ns(const struct exp *x)
{
	return x->clock_ns;
}

const char *exp_comm(const struct exp *x, int pid)
{
	const char *c = trace_file_comm(x->tf, pid);
	if (c)
		return c;
	return pid == 0 ? "<idle>" : "<...>";
}

static uint16_t ftrace_id(struct exp *x, const char *name, struct tep_event **out)
{
	struct tep_event *ev = tep_find_event_by_name(x->tf->tep, "ftrace", name);
	if (out)
		*out = ev;
	return ev ? (uint16_t)ev->id : 0;
}

/* The name id of the function at addr: its symbol, "object+0xoff" under an
 * end marker, else the address. */
static uint32_t func_name(struct exp *x, uint64_t addr)
{
	uint32_t id;
	if (names_addr(&x->names, addr, &id) == 0)
		return id;
	struct uft_sym s = {0};
	char buf[96];
	const char *n = buf;
	bool found = uft_ksyms_lookup(&x->syms, addr, &s);
	if (found && s.name)
		n = s.name;
	else if (found && s.module)
		snprintf(buf, sizeof(buf), "%s+0x%llx", s.module,
			 (unsigned long long)(addr - s.start));
	else
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);
	id = names_intern(&x->names, n, strlen(n));
	if (id != UINT32_MAX && names_addr_set(&x->names, addr, id) != 0)
		return UINT32_MAX;
	return id;
}

static int grow_tslots(struct exp *x)
{
	uint32_t ns = x->ntslots ? x->ntslots * 2 : 256;
	uint32_t *s = calloc(ns, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i < x->nr_threads; i++) {
		uint32_t h = (uint32_t)x->threads[i]->pid * 2654435761u & (ns - 1);
		while (s[h])
			h = (h + 1) & (ns - 1);
		s[h] = i + 1;
	}
	free(x->tslots);
	x->tslots = s;
	x->ntslots = ns;
	return 0;
}

static int new_thread(struct exp *x, int pid, uint32_t slot, struct exp_thread **out)
{
	if (x->nr_threads == x->cap_threads) {
		uint32_t cap = x->cap_threads ? x->cap_threads * 2 : 64;
		struct exp_thread **v = realloc(x->threads, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		x->threads = v;
		x->cap_threads = cap;
	}
	struct exp_thread *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->pid = pid;
	t->idx = x->nr_threads;
	x->threads[x->nr_threads++] = t;
	x->tslots[slot] = t->idx + 1;
	*out = t;
	return x->s->thread ? x->s->thread(x->s->ctx, x, t) : 0;
}

static int thread_of(struct exp *x, int pid, struct exp_thread **out)
{
	if ((x->nr_threads + 1) * 2 > x->ntslots && grow_tslots(x) != 0)
		return -ENOMEM;
	uint32_t m = x->ntslots - 1, h = (uint32_t)pid * 2654435761u & m;
	for (; x->tslots[h]; h = (h + 1) & m)
		if (x->threads[x->tslots[h] - 1]->pid == pid) {
			*out = x->threads[x->tslots[h] - 1];
			return 0;
		}
	return new_thread(x, pid, h, out);
}

/* Closes the innermost open call at ts. */
static int pop(struct exp *x, struct exp_thread *t, uint64_t ts)
{
	struct exp_frame *f = &t->stack[t->depth - 1];
	uint64_t dur = ts > f->ts ? ts - f->ts : 0;
	int rc = x->s->end ? x->s->end(x->s->ctx, x, t, f, ts) : 0;
	t->depth--;
	if (t->depth)
		t->stack[t->depth - 1].child += dur;
	else
		t->orphan += dur;
	return rc;
}

static int on_graph_entry(struct exp *x, struct exp_thread *t, uint64_t ts, const void *data,
			  uint32_t len)
{
	struct uft_rec_funcgraph_entry e;
	if (len < sizeof(e))
		return 0;
	memcpy(&e, data, sizeof(e));
	/* Calls at this depth or deeper still open lost their exits. */
	while (t->depth && t->stack[t->depth - 1].depth >= e.depth) {
		int rc = pop(x, t, ts);
		if (rc)
			return rc;
	}
	if (t->depth == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 32;
		struct exp_frame *s = realloc(t->stack, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		t->stack = s;
		t->cap = cap;
	}
	uint32_t name = func_name(x, e.func);
	if (name == UINT32_MAX)
		return -ENOMEM;
	struct exp_frame *f = &t->stack[t->depth++];
	*f = (struct exp_frame){.ts = ts, .name = name, .depth = e.depth};
	return x->s->begin ? x->s->begin(x->s->ctx, x, t, f) : 0;
}

static int on_graph_exit(struct exp *x, struct exp_thread *t, uint64_t ts, const void *data,
			 uint32_t len)
{
	struct uft_rec_funcgraph_exit e;
	if (!uft_graph_exit_decode(data, len, &e))
		return 0;
	uint32_t name = func_name(x, e.func);
	if (name == UINT32_MAX)
		return -ENOMEM;
	while (t->depth && t->stack[t->depth - 1].depth > e.depth) {
		int rc = pop(x, t, ts);
		if (rc)
			return rc;
	}
	if (t->depth && t->stack[t->depth - 1].depth == e.depth &&
	    t->stack[t->depth - 1].name == name)
		return pop(x, t, ts);
	/* Its entry is not in the file: its length from the exit's times. */
	uint64_t dur = e.rettime > e.calltime ? e.rettime - e.calltime : 0;
	if (dur > ts)
		dur = ts;
	uint64_t self = dur;
	if (t->depth) {
		t->stack[t->depth - 1].child += dur;
	} else {
		/* Top-level calls closed since are its callees; it is one. */
		self = dur > t->orphan ? dur - t->orphan : 0;
		t->orphan = dur;
	}
	return x->s->complete ? x->s->complete(x->s->ctx, x, t, ts - dur, dur, self, name) : 0;
}

/* The k names of stackbuf as "outer;inner" in stackstr: 0, or -ENOMEM. */
static int stack_text(struct exp *x, size_t k)
{
	size_t len = 1;
	for (size_t i = 0; i < k; i++)
		len += strlen(exp_name(x, x->stackbuf[i])) + 1;
	if (len > x->stackstr_cap) {
		char *s = realloc(x->stackstr, len);
		if (!s)
			return -ENOMEM;
		x->stackstr = s;
		x->stackstr_cap = len;
	}
	char *p = x->stackstr;
	*p = '\0';
	for (size_t i = 0; i < k; i++)
		p = stpcpy(stpcpy(p, i ? ";" : ""), exp_name(x, x->stackbuf[i]));
	return 0;
}

/* The callers of a kernel_stack (int size, then the addresses) or
 * user_stack (a zero- or ~0-ended array) record, outermost first. */
static int on_stack(struct exp *x, struct exp_thread *t, struct exp_rec *r)
{
	struct tep_format_field *cf = tep_find_field(r->ev, "caller");
	struct tep_format_field *sf = tep_find_field(r->ev, "size");
	if (!cf || (uint32_t)cf->offset > r->len)
		return 0;
	uint32_t n = (r->len - (uint32_t)cf->offset) / 8;
	if (sf && sf->size == 4 && (uint32_t)sf->offset + 4 <= r->len) {
		int32_t sz;
		memcpy(&sz, (const char *)r->data + sf->offset, 4);
		n = sz < 0 ? 0 : (uint32_t)sz < n ? (uint32_t)sz : n;
	}
	if (n > x->stackcap) {
		uint32_t *b = realloc(x->stackbuf, n * sizeof(*b));
		if (!b)
			return -ENOMEM;
		x->stackbuf = b;
		x->stackcap = n;
	}
	size_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a;
		memcpy(&a, (const char *)r->data + cf->offset + 8 * i, 8);
		if (a == 0 || a == UINT64_MAX)
			break;
		uint32_t id = func_name(x, a);
		if (id == UINT32_MAX)
			return -ENOMEM;
		x->stackbuf[k++] = id;
	}
	for (size_t i = 0; i < k / 2; i++) {
		uint32_t s = x->stackbuf[i];
		x->stackbuf[i] = x->stackbuf[k - 1 - i];
		x->stackbuf[k - 1 - i] = s;
	}
	if (stack_text(x, k) != 0)
		return -ENOMEM;
	r->stack = x->stackstr;
	return x->s->stack && k ? x->s->stack(x->s->ctx, x, t, r->ts, x->stackbuf, k) : 0;
}

static int on_other(struct exp *x, struct exp_thread *t, uint16_t type, struct exp_rec *r)
{
	if (type == x->id_function && r->len >= 16) {
		uint64_t ip;
		memcpy(&ip, (const char *)r->data + 8, 8);
		uint32_t id = func_name(x, ip);
		if (id == UINT32_MAX)
			return -ENOMEM;
		r->name = exp_name(x, id);
		r->system = "ftrace";
		return x->s->instant ? x->s->instant(x->s->ctx, x, t, r) : 0;
	}
	r->ev = tep_find_event(x->tf->tep, type);
	if (!r->ev)
		return 0; /* padding or a type the file has no format for */
	r->name = r->ev->name;
	r->system = r->ev->system;
	if (type == x->id_kstack || type == x->id_ustack) {
		int rc = on_stack(x, t, r);
		if (rc)
			return rc;
	}
	int rc = exp_counters_feed(x, t, type, r);
	if (rc)
		return rc;
	return x->s->instant ? x->s->instant(x->s->ctx, x, t, r) : 0;
}

static int one(struct exp *x, const struct uft_page_rec *pr, int cpu)
{
	struct uft_common_entry c; /* copied: a hostile file's records may be unaligned */
	if (pr->len < sizeof(c))
		return 0;
	memcpy(&c, pr->data, sizeof(c));
	struct exp_thread *t;
	int rc = thread_of(x, c.pid, &t);
	if (rc)
		return rc;
	t->last_ts = pr->ts;
	if (c.type && c.type == x->id_entry)
		return on_graph_entry(x, t, pr->ts, pr->data, pr->len);
	if (c.type && c.type == x->id_exit)
		return on_graph_exit(x, t, pr->ts, pr->data, pr->len);
	struct exp_rec r = {cpu, pr->ts, pr->data, pr->len, NULL, NULL, NULL, NULL};
	return on_other(x, t, c.type, &r);
}

/* Calls still open at the end lost their exits: they end at their thread's
 * last record. */
static int close_all(struct exp *x)
{
	for (uint32_t i = 0; i < x->nr_threads; i++) {
		struct exp_thread *t = x->threads[i];
		while (t->depth) {
			int rc = pop(x, t, t->last_ts);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int setup(struct exp *x, struct trace_file *tf, const struct exp_opts *o)
{
	x->tf = tf;
	int clk = uft_clock_by_name(tf->td->clock);
	x->clock_ns = clk < 0 || uft_clock_is_ns((enum uft_clock)clk);
	if (uft_ksyms_parse(&x->syms, tf->td->kallsyms ? tf->td->kallsyms : "",
			    tf->td->kallsyms ? tf->td->kallsyms_len : 0) != 0)
		return -ENOMEM;
	x->id_function = ftrace_id(x, "function", NULL);
	x->id_entry = ftrace_id(x, "funcgraph_entry", NULL);
	x->id_exit = ftrace_id(x, "funcgraph_exit", NULL);
	x->id_kstack = ftrace_id(x, "kernel_stack", &x->ev_kstack);
	x->id_ustack = ftrace_id(x, "user_stack", &x->ev_ustack);
	return exp_counters_init(x, o);
}

static void teardown(struct exp *x)
{
	for (uint32_t i = 0; i < x->nr_threads; i++) {
		free(x->threads[i]->stack);
		free(x->threads[i]);
	}
	free(x->threads);
	free(x->tslots);
	free(x->stackbuf);
	free(x->stackstr);
	exp_counters_free(x);
	uft_ksyms_free(&x->syms);
	names_free(&x->names);
}

int exp_run(struct trace_file *tf, const struct exp_opts *o, const struct exp_sink *s, FILE *err)
{
	struct exp x = {.s = s, .err = err};
	int rc = setup(&x, tf, o);
	struct record_iter it = {0};
	if (!rc)
		rc = record_iter_init(&it, tf->td);
	struct uft_page_rec pr;
	int cpu;
	while (!rc && record_iter_next(&it, &pr, &cpu))
		if (!o->cpu_ok || o->cpu_ok(o->cpu_sel, cpu))
			rc = one(&x, &pr, cpu);
	if (!rc)
		rc = close_all(&x);
	/* Calls around a loss may be cut short or split: say so. */
	if (!rc && (it.lost || it.lost_uncounted))
		fprintf(err,
			"uft report: the file lost %s%llu events (buffer overruns); calls around "
			"them may be cut\n",
			it.lost_uncounted ? "at least " : "", (unsigned long long)it.lost);
	if (!rc && s->finish)
		rc = s->finish(s->ctx, &x);
	if (rc == -ENOMEM)
		fprintf(err, "uft report: out of memory\n");
	record_iter_free(&it);
	teardown(&x);
	return rc;
}
