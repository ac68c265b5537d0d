/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hist triggers and synthetic events over a recorded file (replay.h). The
 * engine is the runtime's (src/engine/hist/); this file is its surroundings:
 * the events of the file and the synthetic ones, the env callbacks that
 * resolve other triggers' variables and build synthetic records, and the
 * loop that feeds records in time order. */
#define _GNU_SOURCE
#include "report/replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "wire/clocks.h"
#include "engine/format/format.h"
#include "engine/format/format_parse.h"
#include "engine/hist/hist.h"
#include "engine/synth/synth.h"
#include "tracedat/record_iter.h"

/* Synthetic events generating synthetic events: how deep a chain may go
 * (a trigger of an event generating that same event would never end). */
#define MAX_DEPTH 8
#define REC_MAX 4096

struct revent {
	struct replay_event pub;
	char *system;
	struct uft_format_parsed fmt; /* the file's events */
	bool synth;
	struct uft_synth_def def; /* synthetic events */
	struct uft_field *sfields;
	char *print_fmt;
	struct uft_hist **hists;
	size_t nr_hists;
};

struct replay {
	struct trace_file *tf;
	const char *prog;
	FILE *err;
	bool raw_clock;
	struct revent **evs;
	size_t nr_evs;
	struct revent **by_id; /* UINT16_MAX + 1 entries: events with triggers */
	struct {
		struct revent *ev;
		struct uft_hist *h;
	} * jobs;
	size_t nr_jobs;
	unsigned next_id;
	/* The run. */
	struct uft_hist_comm comm;
	bool keep;
	const void *cause;
	uint64_t ts;
	int cpu;
	int depth;
	uint8_t hdr[8];
	struct replay_rec *recs;
	size_t nr_recs, cap_recs;
	int run_err;
	uint8_t buf[MAX_DEPTH][REC_MAX];
};

static const struct tracedat_format *format_at(const struct tracedat *td, size_t i)
{
	return i < td->nr_ftrace ? &td->ftrace[i] : &td->events[i - td->nr_ftrace];
}

static size_t nr_formats(const struct tracedat *td)
{
	return td->nr_ftrace + td->nr_events;
}

/* Whether a format text names event ev (its "name:" line). */
static bool names(const char *text, const char *ev)
{
	const char *p = strstr(text, "name: ");
	size_t n = strlen(ev);
	return p && (p == text || p[-1] == '\n') && !strncmp(p + 6, ev, n) &&
	       (p[6 + n] == '\n' || !p[6 + n]);
}

static unsigned format_id(const char *text)
{
	const char *p = strstr(text, "\nID: ");
	return p ? (unsigned)strtoul(p + 5, NULL, 10) : 0;
}

static const char *comm_of(void *ctx, int pid)
{
	return trace_file_comm(ctx, pid);
}

struct replay *replay_new(struct trace_file *tf, const char *prog, FILE *err)
{
	struct replay *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->by_id = calloc(UINT16_MAX + 1, sizeof(*r->by_id));
	if (!r->by_id) {
		free(r);
		return NULL;
	}
	r->tf = tf;
	r->prog = prog;
	r->err = err;
	int clk = uft_clock_by_name(tf->td->clock);
	r->raw_clock = clk >= 0 && !uft_clock_is_ns((enum uft_clock)clk);
	r->comm = (struct uft_hist_comm){comm_of, tf, NULL}; /* no stacks in a file */
	unsigned max = 0;
	for (size_t i = 0; i < nr_formats(tf->td); i++) {
		unsigned id = format_id(format_at(tf->td, i)->text);
		if (id > max)
			max = id;
	}
	r->next_id = max + 1;
	return r;
}

static void revent_free(struct revent *e)
{
	for (size_t i = 0; e->sfields && i < e->def.nr; i++) {
		free((char *)e->sfields[i].type);
		free((char *)e->sfields[i].name);
	}
	free(e->sfields);
	free(e->print_fmt);
	uft_synth_def_free(&e->def);
	uft_format_parsed_free(&e->fmt);
	free(e->system);
	free(e->hists);
	free(e);
}

void replay_free(struct replay *r)
{
	if (!r)
		return;
	/* Users first: a histogram reading another's variables holds it. */
	for (size_t i = r->nr_jobs; i-- > 0;)
		uft_hist_free(r->jobs[i].h);
	for (size_t i = 0; i < r->nr_evs; i++)
		revent_free(r->evs[i]);
	for (size_t i = 0; i < r->nr_recs; i++)
		free(r->recs[i].data);
	free(r->recs);
	free(r->jobs);
	free(r->evs);
	free(r->by_id);
	free(r);
}

static int add_event(struct replay *r, struct revent *e)
{
	struct revent **v = realloc(r->evs, (r->nr_evs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->evs = v;
	r->evs[r->nr_evs++] = e;
	return 0;
}

static struct revent *known(struct replay *r, const char *system, const char *name)
{
	for (size_t i = 0; i < r->nr_evs; i++)
		if (!strcmp(r->evs[i]->pub.name, name) &&
		    (!system || !strcmp(r->evs[i]->pub.system, system)))
			return r->evs[i];
	return NULL;
}

/* The file's format of system:name (system NULL: any), parsed and kept. */
static int from_file(struct replay *r, const char *system, const char *name, struct revent **out,
		     int *count)
{
	const struct tracedat *td = r->tf->td;
	const struct tracedat_format *hit = NULL;

	*count = 0;
	for (size_t i = 0; i < nr_formats(td); i++) {
		const struct tracedat_format *f = format_at(td, i);
		if ((!system || !strcmp(system, f->system)) && names(f->text, name) && !(*count)++)
			hit = f;
	}
	if (!hit)
		return -ENOENT;
	struct revent *e = known(r, hit->system, name);
	if (e) {
		*out = e;
		return 0;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	if (uft_format_parse(hit->text, hit->len, &e->fmt)) {
		free(e);
		return -EINVAL;
	}
	e->system = strdup(hit->system);
	if (!e->system || add_event(r, e)) {
		revent_free(e);
		return -ENOMEM;
	}
	e->pub = (struct replay_event){e->system, e->fmt.name, e->fmt.id, e->fmt.fields,
				       e->fmt.nr_fields};
	*out = e;
	return 0;
}

static int find(struct replay *r, const char *system, const char *name, struct revent **out)
{
	struct revent *s = NULL;
	int n = 0, rc;

	/* Synthetic events defined here, then the file's. */
	if (!system || !strcmp(system, UFT_SYNTH_SYSTEM)) {
		for (size_t i = 0; i < r->nr_evs; i++)
			if (r->evs[i]->synth && !strcmp(r->evs[i]->pub.name, name))
				s = r->evs[i];
	}
	if (s && system) {
		*out = s;
		return 0;
	}
	rc = from_file(r, system, name, out, &n);
	if (s) {
		if (n)
			return -EEXIST;
		*out = s;
		return 0;
	}
	if (rc)
		return rc;
	return n > 1 ? -EEXIST : 0;
}

int replay_event(struct replay *r, const char *system, const char *name,
		 const struct replay_event **out)
{
	struct revent *e;
	int rc = find(r, system, name, &e);
	if (!rc)
		*out = &e->pub;
	return rc;
}

/* ---- synthetic events ---- */

static bool synth_exists(void *ctx, const char *name)
{
	struct replay *r = ctx;
	struct revent *e;
	int n;
	for (size_t i = 0; i < r->nr_evs; i++)
		if (r->evs[i]->synth && !strcmp(r->evs[i]->pub.name, name))
			return true;
	return !from_file(r, UFT_SYNTH_SYSTEM, name, &e, &n);
}

static void command_error(struct replay *r, const char *what, const char *msg, const char *cmd,
			  int pos)
{
	fprintf(r->err, "%s: %s: error: %s\n  Command: %s\n%*s^\n", r->prog, what, msg, cmd,
		11 + pos, "");
}

int replay_synth(struct replay *r, const char *line)
{
	const char *l = line + strspn(line, " \t");
	bool dyn = !strncmp(l, "s:", 2);
	struct uft_synth_cmd c = {0};
	struct uft_synth_error e = {0};
	int rc = uft_synth_parse(line, dyn, synth_exists, r, &c, &e);

	if (rc) {
		uft_synth_cmd_free(&c);
		if (e.msg)
			command_error(r, dyn ? "dynamic_events" : "synthetic_events", e.msg,
				      line + e.cmd_off, (int)e.pos);
		else
			fprintf(r->err, "%s: synthetic event '%s': %s\n", r->prog, line,
				strerror(-rc));
		return rc;
	}
	if (c.op != UFT_SYNTH_OP_CREATE) {
		fprintf(r->err, "%s: '%s': not a synthetic event definition\n", r->prog, line);
		uft_synth_cmd_free(&c);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < c.def.nr; i++)
		if (c.def.f[i].kind == UFT_SYNTH_STACK) {
			fprintf(r->err,
				"%s: '%s': stack fields hold stack traces, taken live, at event "
				"time; a recorded file holds none\n",
				r->prog, line);
			uft_synth_cmd_free(&c);
			return -EOPNOTSUPP;
		}
	if (r->next_id > UINT16_MAX) {
		uft_synth_cmd_free(&c);
		return -ENOSPC;
	}
	struct revent *ev = calloc(1, sizeof(*ev));
	if (!ev) {
		uft_synth_cmd_free(&c);
		return -ENOMEM;
	}
	ev->synth = true;
	ev->def = c.def;
	memset(&c.def, 0, sizeof(c.def));
	uft_synth_cmd_free(&c);
	ev->system = strdup(UFT_SYNTH_SYSTEM);
	ev->sfields = calloc(ev->def.nr ? ev->def.nr : 1, sizeof(*ev->sfields));
	ev->print_fmt = uft_synth_print_fmt(&ev->def);
	rc = ev->system && ev->sfields && ev->print_fmt ? 0 : -ENOMEM;
	for (uint32_t i = 0; !rc && i < ev->def.nr; i++)
		rc = uft_synth_format_field(&ev->def.f[i], &ev->sfields[i]);
	if (!rc)
		rc = add_event(r, ev);
	if (rc) {
		revent_free(ev);
		return rc;
	}
	ev->pub =
	    (struct replay_event){ev->system, ev->def.name, r->next_id++, ev->sfields, ev->def.nr};
	return 0;
}

static void deliver(struct replay *r, struct revent *e, const uint8_t *rec, uint32_t len);

static void *env_synth_get(void *ctx, const char *name, uint32_t *nr, uint8_t *kinds)
{
	struct replay *r = ctx;
	for (size_t i = 0; i < r->nr_evs; i++) {
		struct revent *e = r->evs[i];
		if (!e->synth || strcmp(e->pub.name, name))
			continue;
		*nr = e->def.nr;
		for (uint32_t k = 0; k < e->def.nr && k < 128; k++)
			kinds[k] = uft_synth_param_of(e->def.f[k].kind, false);
		return e;
	}
	return NULL;
}

static void env_synth_put(void *ctx, void *synth)
{
	(void)ctx;
	(void)synth;
}

static void env_synth_emit(void *ctx, void *synth, const uint64_t *vals, const char *const *strs)
{
	struct replay *r = ctx;
	struct revent *e = synth;

	/* Room for the slots and a NUL per string, whatever the texts. */
	if (r->depth >= MAX_DEPTH || e->def.fixed_size + e->def.nr > REC_MAX)
		return;
	uint8_t *rec = r->buf[r->depth];
	memcpy(rec, r->hdr, sizeof(r->hdr));
	uint16_t type = (uint16_t)e->pub.id;
	memcpy(rec, &type, sizeof(type));
	uint32_t len = uft_synth_record_size(&e->def, vals, strs);
	if (len > REC_MAX)
		len = REC_MAX; /* long strings are cut */
	uft_synth_record_fill(&e->def, vals, strs, (char *)rec, len);
	r->depth++;
	deliver(r, e, rec, len);
	r->depth--;
}

static int env_find_var(void *ctx, const char *system, const char *event, const char *var,
			struct uft_hist **found)
{
	struct replay *r = ctx;
	int n = 0;
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct revent *e = r->jobs[i].ev;
		if (system && (strcmp(e->pub.system, system) || strcmp(e->pub.name, event)))
			continue;
		if (uft_hist_var_index(r->jobs[i].h, var) >= 0 && n++ == 0)
			*found = r->jobs[i].h;
	}
	return n;
}

static int attach(struct replay *r, struct revent *e, const char *spec);

/* SYS.EVENT.field as a trace() param: the kernel's field variable, a
 * hidden histogram on that event with the keys (and filter) of one there
 * compatible with the target's and `synthetic_FIELD=FIELD`, run before the
 * target's (it is attached first); shared by later users of the field. */
static struct uft_hist *env_field_var(void *ctx, const char *system, const char *event,
				      const char *field, const struct uft_hist *target, int *code,
				      char **created)
{
	struct replay *r = ctx;
	struct revent *e;
	struct uft_hist *compat = NULL;
	char var[320], keys[512], *c = NULL;

	*created = NULL;
	if (find(r, system, event, &e)) {
		*code = UFT_HIST_ERR_EVENT_FILE_NOT_FOUND;
		return NULL;
	}
	for (size_t i = 0; i < e->nr_hists && !compat; i++)
		if (uft_hist_keys_compatible(target, e->hists[i]))
			compat = e->hists[i];
	if (!compat) {
		*code = UFT_HIST_ERR_HIST_NOT_FOUND;
		return NULL;
	}
	snprintf(var, sizeof(var), "synthetic_%s", field);
	for (size_t i = 0; i < e->nr_hists; i++)
		if (uft_hist_var_index(e->hists[i], var) >= 0)
			return e->hists[i];
	uft_hist_key_names(compat, keys, sizeof(keys));
	const char *f = uft_hist_filter_text(compat);
	if (asprintf(&c, "keys=%s:%s=%s%s%s", keys, var, field, f ? " if " : "", f ? f : "") < 0)
		c = NULL;
	if (!c || attach(r, e, c) != 0) {
		free(c);
		*code = UFT_HIST_ERR_HIST_CREATE_FAIL;
		return NULL;
	}
	*created = c;
	return e->hists[e->nr_hists - 1];
}

static bool env_event_exists(void *ctx, const char *system, const char *event)
{
	struct revent *e;
	return !find(ctx, system, event, &e);
}

/* ---- hist triggers ---- */

static void hist_error(struct replay *r, const struct revent *e, const char *spec,
		       const struct uft_hist_error *he)
{
	const char *cmd_spec = strncmp(spec, "hist:", 5) ? spec : spec + 5;
	char what[256];
	int pos = he->pos;
	const char *msg;

	snprintf(what, sizeof(what), "hist:%s:%s", e->pub.system, e->pub.name);
	if (he->err == -EOPNOTSUPP) {
		fprintf(r->err, "%s: %s: not supported: %s\n", r->prog, what,
			he->unsupported ? he->unsupported : "?");
		return;
	}
	if (he->in_filter) {
		msg = uft_filter_strerror(he->filter.code);
		pos = he->filter_off + he->filter.pos;
	} else if (he->code) {
		msg = uft_hist_strerror(he->code);
	} else {
		msg = strerror(-he->err);
	}
	char cmd[4096];
	snprintf(cmd, sizeof(cmd), "hist:%s", cmd_spec);
	command_error(r, what, msg, cmd, pos);
}

static int attach(struct replay *r, struct revent *e, const char *spec)
{
	const struct uft_hist_event ev = {
	    .system = e->pub.system,
	    .name = e->pub.name,
	    .fields = e->pub.fields,
	    .nr_fields = e->pub.nr_fields,
	    .raw_clock = r->raw_clock,
	};
	const struct uft_hist_env env = {
	    .find_var = env_find_var,
	    .event_exists = env_event_exists,
	    .synth_get = env_synth_get,
	    .synth_put = env_synth_put,
	    .synth_emit = env_synth_emit,
	    .field_var = env_field_var,
	    .ctx = r,
	};
	struct uft_hist_error he = {0};
	struct uft_hist *h;
	int rc = uft_hist_create_env(spec, &ev, &env, &h, &he);

	if (rc) {
		hist_error(r, e, spec, &he);
		return rc;
	}
	if (uft_hist_needs_stack(h)) {
		fprintf(r->err,
			"%s: hist:%s:%s: common_stacktrace: stack traces are taken live, at event "
			"time; a recorded file holds none\n",
			r->prog, e->pub.system, e->pub.name);
		uft_hist_free(h);
		return -EOPNOTSUPP;
	}
	/* Each trigger here is a new one: nothing to continue or clear. */
	if (uft_hist_flags(h) & (UFT_HIST_CONT | UFT_HIST_CLEAR)) {
		he = (struct uft_hist_error){.err = -ENOENT,
					     .code = UFT_HIST_ERR_TRIGGER_ENOENT_CLEAR};
		hist_error(r, e, spec, &he);
		uft_hist_free(h);
		return -ENOENT;
	}
	void *jobs = realloc(r->jobs, (r->nr_jobs + 1) * sizeof(*r->jobs));
	struct uft_hist **hs = realloc(e->hists, (e->nr_hists + 1) * sizeof(*hs));
	if (jobs)
		r->jobs = jobs;
	if (hs)
		e->hists = hs;
	if (!jobs || !hs) {
		uft_hist_free(h);
		return -ENOMEM;
	}
	r->jobs[r->nr_jobs].ev = e;
	r->jobs[r->nr_jobs++].h = h;
	e->hists[e->nr_hists++] = h;
	r->by_id[e->pub.id & UINT16_MAX] = e;
	return 0;
}

static void lookup_error(struct replay *r, const char *what, int rc)
{
	fprintf(r->err, "%s: %s: %s\n", r->prog, what,
		rc == -ENOENT	? "no such event in the file"
		: rc == -EEXIST ? "event name is not unique, give its system"
		: rc == -EINVAL ? "the event's format does not parse"
				: strerror(-rc));
}

int replay_hist_on(struct replay *r, const char *system, const char *event, const char *spec)
{
	struct revent *e;
	int rc = find(r, system, event, &e);
	if (rc) {
		char what[256];
		snprintf(what, sizeof(what), "%s%s%s", system ? system : "", system ? ":" : "",
			 event);
		lookup_error(r, what, rc);
		return rc;
	}
	return attach(r, e, spec);
}

int replay_hist(struct replay *r, const char *arg)
{
	const char *c1 = strchr(arg, ':'), *c2, *spec;
	char *sys = NULL, *ev;
	bool with_sys = false;
	int rc;

	if (!c1) {
		fprintf(r->err, "%s: --hist '%s': expected SYSTEM:EVENT:SPEC\n", r->prog, arg);
		return -EINVAL;
	}
	c2 = strchr(c1 + 1, ':');
	/* A second part that is a hist attribute means no system was given. */
	if (!c2 || !strncmp(c1 + 1, "hist:", 5) || memchr(c1 + 1, '=', (size_t)(c2 - c1 - 1))) {
		ev = strndup(arg, (size_t)(c1 - arg));
		spec = c1 + 1;
	} else {
		with_sys = true;
		sys = strndup(arg, (size_t)(c1 - arg));
		ev = strndup(c1 + 1, (size_t)(c2 - c1 - 1));
		spec = c2 + 1;
	}
	if (!ev || (with_sys && !sys)) {
		free(sys);
		free(ev);
		return -ENOMEM;
	}
	struct revent *e;
	rc = find(r, sys, ev, &e);
	if (rc) {
		char what[512];
		snprintf(what, sizeof(what), "--hist '%s'", arg);
		lookup_error(r, what, rc);
	} else {
		rc = attach(r, e, spec);
	}
	free(sys);
	free(ev);
	return rc;
}

size_t replay_nr_hists(const struct replay *r)
{
	return r->nr_jobs;
}

/* ---- the run ---- */

static void keep_rec(struct replay *r, const uint8_t *rec, uint32_t len)
{
	if (r->nr_recs == r->cap_recs) {
		size_t cap = r->cap_recs ? r->cap_recs * 2 : 64;
		struct replay_rec *v = realloc(r->recs, cap * sizeof(*v));
		if (!v) {
			r->run_err = -ENOMEM;
			return;
		}
		r->recs = v;
		r->cap_recs = cap;
	}
	uint8_t *copy = malloc(len);
	if (!copy) {
		r->run_err = -ENOMEM;
		return;
	}
	memcpy(copy, rec, len);
	r->recs[r->nr_recs++] = (struct replay_rec){r->cause, r->ts, r->cpu, len, copy};
}

static void deliver(struct replay *r, struct revent *e, const uint8_t *rec, uint32_t len)
{
	if (e->synth && r->keep)
		keep_rec(r, rec, len);
	for (size_t i = 0; i < e->nr_hists; i++)
		uft_hist_update(e->hists[i], rec, len, r->ts, (uint32_t)r->cpu, &r->comm);
}

int replay_run(struct replay *r, bool keep)
{
	struct record_iter it = {0};
	struct uft_page_rec rec;
	int cpu;

	if (r->tf->td->latency) {
		fprintf(r->err, "%s: the file holds latency text, no records\n", r->prog);
		return -EINVAL;
	}
	if (record_iter_init(&it, r->tf->td))
		return -ENOMEM;
	r->keep = keep;
	while (!r->run_err && record_iter_next(&it, &rec, &cpu)) {
		uint16_t type;
		struct revent *e;

		if (rec.len < UFT_COMMON_HDR_SIZE)
			continue;
		memcpy(&type, rec.data, sizeof(type));
		e = r->by_id[type];
		if (!e || e->synth)
			continue;
		r->cause = rec.data;
		r->ts = rec.ts;
		r->cpu = cpu;
		memcpy(r->hdr, rec.data, sizeof(r->hdr));
		deliver(r, e, rec.data, rec.len);
	}
	record_iter_free(&it);
	return r->run_err;
}

const struct replay_rec *replay_records(const struct replay *r, size_t *nr)
{
	*nr = r->nr_recs;
	return r->recs;
}

/* ---- output ---- */

static int sym_of(void *ctx, uint64_t addr, bool offset, char *buf, size_t len)
{
	const char *name = NULL;
	unsigned long long start = 0;
	unsigned long size = 0;

	/* libtraceevent answers 1 when it knows the address */
	if (!tep_find_function_info(ctx, addr, &name, &start, &size) || !name)
		return -1;
	/* Under a kallsyms end marker "[object+0xoffset]" (proc_syms.c): the
	 * address's own offset in the object (docs/design/symbols.md). */
	const char *plus = name[0] == '[' ? strrchr(name, '+') : NULL;
	unsigned long long off;
	int n = 0;
	if (plus && sscanf(plus, "+0x%llx]%n", &off, &n) == 1 && n && !plus[n]) {
		snprintf(buf, len, "%.*s+0x%llx]", (int)(plus - name), name, off + (addr - start));
		return 0;
	}
	if (offset)
		snprintf(buf, len, "%s+0x%llx/0x%lx", name, addr - start, size);
	else
		snprintf(buf, len, "%s", name);
	return 0;
}

int replay_print_hists(struct replay *r, FILE *out)
{
	struct uft_hist_syms syms = {sym_of, r->tf->tep};
	for (size_t i = 0; i < r->nr_jobs; i++) {
		if (i)
			fputs("\n\n", out);
		int rc = uft_hist_print(r->jobs[i].h, out, &syms);
		if (rc)
			return rc;
	}
	return 0;
}

int replay_print_hist(struct replay *r, size_t i, FILE *out)
{
	struct uft_hist_syms syms = {sym_of, r->tf->tep};
	return i < r->nr_jobs ? uft_hist_print(r->jobs[i].h, out, &syms) : -ENOENT;
}

int replay_register_formats(struct replay *r)
{
	for (size_t i = 0; i < r->nr_evs; i++) {
		struct revent *e = r->evs[i];
		if (!e->synth)
			continue;
		struct uft_event ev = {
		    .system = UFT_SYNTH_SYSTEM,
		    .name = e->def.name,
		    .fields = e->sfields,
		    .nr_fields = e->def.nr,
		    .print_fmt = e->print_fmt,
		};
		int n = uft_format_text(&ev, e->pub.id, NULL, 0);
		if (n < 0)
			return n;
		char *text = malloc((size_t)n + 1);
		if (!text)
			return -ENOMEM;
		uft_format_text(&ev, e->pub.id, text, (size_t)n + 1);
		enum tep_errno te = tep_parse_event(r->tf->tep, text, (size_t)n, UFT_SYNTH_SYSTEM);
		free(text);
		if (te != TEP_ERRNO__SUCCESS)
			return -EINVAL;
	}
	return 0;
}
