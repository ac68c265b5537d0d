/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Trace Event Format (the JSON object form: {"traceEvents": [...]}),
 * written event by event: M events name each thread and its process, B and
 * E events are the calls, X a call whose entry the file lost, i instants
 * with the fields as args, C the --counter values. Times are in
 * microseconds with nanosecond decimals. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "export/formats.h"
#include "export/json_out.h"

struct cj {
	FILE *out;
	bool more; /* an event was written: the next one follows a comma */
};

static void sep(struct cj *c)
{
	fputs(c->more ? ",\n" : "\n", c->out);
	c->more = true;
}

static void head(struct cj *c, const char *ph, int pid, uint64_t ts)
{
	sep(c);
	fprintf(c->out, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", ph, pid, pid);
	json_us(c->out, ts);
}

static void name(struct cj *c, const char *s)
{
	fputs(",\"name\":", c->out);
	json_str(c->out, s, strlen(s));
}

static int cj_thread(void *ctx, struct exp *x, struct exp_thread *t)
{
	struct cj *c = ctx;
	const char *comm = exp_comm(x, t->pid);
	static const char *const kinds[] = {"process_name", "thread_name"};
	for (int i = 0; i < 2; i++) {
		sep(c);
		fprintf(c->out,
			"{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":",
			t->pid, t->pid, kinds[i]);
		json_str(c->out, comm, strlen(comm));
		fputs("}}", c->out);
	}
	return 0;
}

static int cj_begin(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f)
{
	head(ctx, "B", t->pid, f->ts);
	name(ctx, exp_name(x, f->name));
	fputc('}', ((struct cj *)ctx)->out);
	return 0;
}

static int cj_end(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f, uint64_t ts)
{
	(void)x;
	(void)f;
	head(ctx, "E", t->pid, ts);
	fputc('}', ((struct cj *)ctx)->out);
	return 0;
}

static int cj_complete(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts, uint64_t dur,
		       uint64_t self, uint32_t nm)
{
	(void)self;
	struct cj *c = ctx;
	head(c, "X", t->pid, ts);
	fputs(",\"dur\":", c->out);
	json_us(c->out, dur);
	name(c, exp_name(x, nm));
	fputc('}', c->out);
	return 0;
}

static int arg(void *ctx, const struct exp_field *v)
{
	struct cj *c = ctx;
	fputc(',', c->out);
	json_str(c->out, v->name, strlen(v->name));
	fputc(':', c->out);
	if (v->kind == EXP_STR)
		json_str(c->out, v->s, v->slen);
	else if (v->kind == EXP_INT)
		fprintf(c->out, "%lld", (long long)v->i);
	else
		fprintf(c->out, "%llu", (unsigned long long)v->u);
	return 0;
}

static int cj_instant(void *ctx, struct exp *x, struct exp_thread *t, const struct exp_rec *r)
{
	(void)x;
	struct cj *c = ctx;
	head(c, "i", t->pid, r->ts);
	name(c, r->name);
	fputs(",\"cat\":", c->out);
	json_str(c->out, r->system, strlen(r->system));
	fprintf(c->out, ",\"s\":\"t\",\"args\":{\"cpu\":%d", r->cpu);
	exp_fields(r, arg, c);
	if (r->stack) {
		fputs(",\"stack\":", c->out);
		json_str(c->out, r->stack, strlen(r->stack));
	}
	fputs("}}", c->out);
	return 0;
}

static int cj_counter(void *ctx, struct exp *x, struct exp_thread *t, unsigned which, uint64_t ts,
		      int64_t v)
{
	struct cj *c = ctx;
	head(c, "C", t->pid, ts);
	name(c, exp_counter_name(x, which));
	fprintf(c->out, ",\"args\":{\"value\":%lld}}", (long long)v);
	return 0;
}

static int cj_finish(void *ctx, struct exp *x)
{
	struct cj *c = ctx;
	fprintf(c->out, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock\":\"%s\"}}\n",
		exp_clock_ns(x) ? "ns" : "ticks");
	return ferror(c->out) ? -EIO : 0;
}

int export_chrome_json(struct trace_file *tf, const struct exp_opts *o, FILE *out, FILE *err)
{
	struct cj c = {out, false};
	fputs("{\"traceEvents\":[", out);
	struct exp_sink s = {
	    .ctx = &c,
	    .thread = cj_thread,
	    .begin = cj_begin,
	    .end = cj_end,
	    .complete = cj_complete,
	    .instant = cj_instant,
	    .counter = cj_counter,
	    .finish = cj_finish,
	};
	return exp_run(tf, o, &s, err);
}
