/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SQL statements over a recorded file (sqlhist_file.h): the commands the
 * translator makes are applied to a replay of the file instead of a
 * tracefs tree; events resolve against the file and the synthetic events
 * earlier statements defined. */
#define _GNU_SOURCE
#include "report/sqlhist_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire/clocks.h"
#include "engine/synth/synth.h"
#include "engine/text/trace_text.h"
#include "report/output.h"
#include "report/replay.h"

#define MAX_EVENTS 32

struct file_src {
	struct replay *r;
	struct uft_sql_event evs[MAX_EVENTS];
	int nr;
};

static int lookup(void *ctx, const char *system, const char *name, const struct uft_sql_event **out)
{
	struct file_src *s = ctx;
	const struct replay_event *e;
	int rc = replay_event(s->r, system, name, &e);

	if (rc)
		return rc;
	if (s->nr == MAX_EVENTS)
		return -ENOSPC;
	s->evs[s->nr] = (struct uft_sql_event){e->system, e->name, e->fields, e->nr_fields};
	*out = &s->evs[s->nr++];
	return 0;
}

void sqlhist_show_error(FILE *err, const char *sql, const struct uft_sql_error *e)
{
	fprintf(err, "uft sqlhist: error: %s\n  ", e->msg);
	for (const char *p = sql; *p; p++)
		fputc(*p == '\n' || *p == '\t' ? ' ' : *p, err);
	fprintf(err, "\n  %*s^\n", e->pos, "");
}

/* "events/SYSTEM/EVENT/trigger": the command's event. */
static int trigger_event(const char *file, char *sys, char *ev, size_t len)
{
	const char *a = file + 7, *b, *c;

	if (strncmp(file, "events/", 7) || !(b = strchr(a, '/')) || !(c = strchr(b + 1, '/')) ||
	    strcmp(c, "/trigger") || (size_t)(b - a) >= len || (size_t)(c - b - 1) >= len)
		return -EINVAL;
	snprintf(sys, len, "%.*s", (int)(b - a), a);
	snprintf(ev, len, "%.*s", (int)(c - b - 1), b + 1);
	return 0;
}

/* Applies one translated statement: the synthetic event, then the
 * triggers in order. */
static int apply(struct replay *r, const struct uft_sql_out *t)
{
	for (int i = 0; i < t->nr; i++) {
		const struct uft_sql_cmd *c = &t->cmd[i];
		char sys[256], ev[256];
		int rc;

		if (!strcmp(c->file, "dynamic_events") || !strcmp(c->file, "synthetic_events"))
			rc = replay_synth(r, c->text);
		else if (!(rc = trigger_event(c->file, sys, ev, sizeof(sys))))
			rc = replay_hist_on(r, sys, ev, c->text);
		if (rc)
			return rc;
	}
	return 0;
}

static void print_records(struct trace_file *tf, struct replay *r, FILE *out)
{
	size_t n;
	const struct replay_rec *recs = replay_records(r, &n);
	unsigned flags = 0;
	int clk = uft_clock_by_name(tf->td->clock);

	if (clk >= 0 && !uft_clock_is_ns((enum uft_clock)clk))
		flags |= UFT_OUT_RAW_CLOCK;
	uft_out_header(out, "nop", n, n, tf->td->nr_cpus, flags);
	for (size_t i = 0; i < n; i++) {
		struct uft_out_record o = {recs[i].cpu, recs[i].ts, recs[i].data, recs[i].len};
		uft_out_event(out, tf->tep, trace_file_comm, tf, &o, flags);
	}
}

int sqlhist_file(struct trace_file *tf, const struct sqlhist_stmt *st, size_t n,
		 const struct uft_sql_opts *o, const char *hist, FILE *out, FILE *err)
{
	struct file_src src = {.r = replay_new(tf, "uft sqlhist", err)};
	char *last_synth = NULL;
	bool join = false;
	int rc = 2;

	if (!src.r)
		return 1;
	for (size_t i = 0; i < n; i++) {
		struct uft_sql_opts so = *o;
		struct uft_sql_error e = {0};
		struct uft_sql_out t = {0};
		struct uft_sql *q = NULL;

		so.name = st[i].name;
		so.rand = (o->rand + (unsigned)i) % 32768u;
		if (uft_sql_parse(st[i].sql, &q, &e) ||
		    uft_sql_translate(q, &so, lookup, &src, &t, &e)) {
			sqlhist_show_error(err, st[i].sql, &e);
			uft_sql_out_free(&t);
			uft_sql_free(q);
			goto done;
		}
		join = q->has_join;
		uft_sql_free(q);
		free(last_synth);
		last_synth = t.synth ? strdup(t.synth) : NULL;
		int arc = apply(src.r, &t);
		uft_sql_out_free(&t);
		if (arc)
			goto done;
	}
	if (hist) {
		if (!last_synth) {
			fprintf(err, "uft sqlhist: --hist: the last statement makes no synthetic "
				     "event (it needs a JOIN)\n");
			goto done;
		}
		if (replay_hist_on(src.r, UFT_SYNTH_SYSTEM, last_synth, hist))
			goto done;
	}
	bool events = !hist && join;
	rc = 1;
	if (events && replay_register_formats(src.r)) {
		fprintf(err, "uft sqlhist: the synthetic event's format does not parse\n");
		goto done;
	}
	if (replay_run(src.r, events))
		goto done;
	if (events) {
		print_records(tf, src.r, out);
	} else {
		/* The last trigger added: the statement's, or --hist's. */
		if (replay_print_hist(src.r, replay_nr_hists(src.r) - 1, out))
			goto done;
	}
	rc = 0;
done:
	free(last_synth);
	replay_free(src.r);
	return rc;
}
