/* Histograms over a trace.dat: each --hist names an event and a hist
 * specification; the event's field table comes from the file's format
 * text, records are fed in time order, and the kernel's `hist` text is
 * printed. Works on uft's files and on the kernel's (trace-cmd). */
#define _GNU_SOURCE
#include "tools/report_hist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "common/clocks.h"
#include "common/format_parse.h"
#include "common/hist.h"
#include "tools/record_iter.h"

struct job {
	const char *spec;
	char *system;
	struct uft_format_parsed fmt;
	struct uft_hist *hist;
};

/* The file's formats, both lists, with their systems. */
static const struct tracedat_format *format_at(const struct tracedat *td, size_t i)
{
	return i < td->nr_ftrace ? &td->ftrace[i] : &td->events[i - td->nr_ftrace];
}

/* "SYSTEM:EVENT:SPEC" or "EVENT:SPEC" (the event then unique in the file);
 * SPEC may begin with "hist:". Fills the job's format; returns the SPEC. */
static const char *resolve(struct job *j, const struct tracedat *td, FILE *err)
{
	const char *s = j->spec, *c1 = strchr(s, ':'), *c2, *spec;
	char *sys = NULL, *ev;
	size_t nr = td->nr_ftrace + td->nr_events;
	int found = 0;

	if (!c1) {
		fprintf(err, "uft report: --hist '%s': expected SYSTEM:EVENT:SPEC\n", s);
		return NULL;
	}
	c2 = strchr(c1 + 1, ':');
	/* A second part that is a hist attribute means no system was given. */
	if (!c2 || !strncmp(c1 + 1, "hist:", 5) || memchr(c1 + 1, '=', (size_t)(c2 - c1 - 1))) {
		ev = strndup(s, (size_t)(c1 - s));
		spec = c1 + 1;
	} else {
		sys = strndup(s, (size_t)(c1 - s));
		ev = strndup(c1 + 1, (size_t)(c2 - c1 - 1));
		spec = c2 + 1;
	}
	for (size_t i = 0; ev && i < nr; i++) {
		const struct tracedat_format *f = format_at(td, i);
		struct uft_format_parsed p;

		if (sys && strcmp(sys, f->system))
			continue;
		if (uft_format_parse(f->text, f->len, &p))
			continue;
		if (strcmp(p.name, ev)) {
			uft_format_parsed_free(&p);
			continue;
		}
		if (found++) {
			uft_format_parsed_free(&p);
			continue;
		}
		j->fmt = p;
		j->system = strdup(f->system);
	}
	if (found != 1) {
		fprintf(err, "uft report: --hist '%s': %s\n", s,
			found ? "event name is not unique, give its system"
			      : "no such event in the file");
		spec = NULL;
	}
	free(sys);
	free(ev);
	return spec;
}

static void report_error(FILE *err, const struct job *j, const char *spec,
			 const struct uft_hist_error *e)
{
	const char *cmd_spec = strncmp(spec, "hist:", 5) ? spec : spec + 5;
	int pos = e->pos;
	const char *msg;

	if (e->err == -EOPNOTSUPP) {
		fprintf(err, "uft report: hist:%s:%s: not supported yet: %s\n", j->system,
			j->fmt.name, e->unsupported ? e->unsupported : "?");
		return;
	}
	if (e->in_filter) {
		msg = uft_filter_strerror(e->filter.code);
		pos = e->filter_off + e->filter.pos;
	} else if (e->code) {
		msg = uft_hist_strerror(e->code);
	} else {
		msg = strerror(-e->err);
	}
	fprintf(err, "uft report: hist:%s:%s: error: %s\n  Command: hist:%s\n%*s^\n", j->system,
		j->fmt.name, msg, cmd_spec, 11 + pos, "");
}

static const char *comm_of(void *ctx, int pid)
{
	return trace_file_comm(ctx, pid);
}

static int sym_of(void *ctx, uint64_t addr, bool offset, char *buf, size_t len)
{
	const char *name = NULL;
	unsigned long long start = 0;
	unsigned long size = 0;

	/* libtraceevent answers 1 when it knows the address */
	if (!tep_find_function_info(ctx, addr, &name, &start, &size) || !name)
		return -1;
	if (offset)
		snprintf(buf, len, "%s+0x%llx/0x%lx", name, addr - start, size);
	else
		snprintf(buf, len, "%s", name);
	return 0;
}

int report_hist(struct trace_file *tf, const char *const *specs, size_t n, FILE *out, FILE *err)
{
	struct job *jobs = calloc(n ? n : 1, sizeof(*jobs));
	int clk = uft_clock_by_name(tf->td->clock);
	bool raw = clk >= 0 && !uft_clock_is_ns((enum uft_clock)clk);
	struct uft_hist_comm comm = {comm_of, tf};
	struct uft_hist_syms syms = {sym_of, tf->tep};
	struct record_iter it = {0};
	int rc = 1;

	if (!jobs)
		return 1;
	for (size_t i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		struct uft_hist_error e;
		const char *spec;

		j->spec = specs[i];
		spec = resolve(j, tf->td, err);
		if (!spec)
			goto out;
		struct uft_hist_event ev = {j->system,	      j->fmt.name, j->fmt.fields,
					    j->fmt.nr_fields, raw,	   NULL};
		if (uft_hist_create(spec, &ev, &j->hist, &e)) {
			report_error(err, j, spec, &e);
			goto out;
		}
		/* Each --hist is a new trigger: nothing to continue or clear. */
		if (uft_hist_flags(j->hist) & (UFT_HIST_CONT | UFT_HIST_CLEAR)) {
			e = (struct uft_hist_error){.err = -ENOENT,
						    .code = UFT_HIST_ERR_TRIGGER_ENOENT_CLEAR};
			report_error(err, j, spec, &e);
			goto out;
		}
	}
	if (tf->td->latency) {
		fprintf(err, "uft report: the file holds latency text, no records\n");
		goto out;
	}
	if (record_iter_init(&it, tf->td))
		goto out;
	struct uft_page_rec rec;
	int cpu;
	while (record_iter_next(&it, &rec, &cpu)) {
		uint16_t type;

		if (rec.len < 8)
			continue;
		memcpy(&type, rec.data, 2);
		for (size_t i = 0; i < n; i++)
			if (jobs[i].fmt.id == type)
				uft_hist_update(jobs[i].hist, rec.data, rec.len, rec.ts,
						(uint32_t)cpu, &comm);
	}
	rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (i)
			fputs("\n\n", out);
		if (uft_hist_print(jobs[i].hist, out, &syms))
			rc = 1;
	}
out:
	record_iter_free(&it);
	for (size_t i = 0; i < n; i++) {
		uft_hist_free(jobs[i].hist);
		uft_format_parsed_free(&jobs[i].fmt);
		free(jobs[i].system);
	}
	free(jobs);
	return rc;
}
