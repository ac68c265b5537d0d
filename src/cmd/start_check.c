/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft start's checks: everything read from the process, nothing written, so
 * that a refused argument leaves the process as it was. */
#define _GNU_SOURCE
#include "cmd/start_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filter/event_spec.h"
#include "engine/filter/filter.h"
#include "engine/format/format_parse.h"
#include "wire/ctl_proto.h"

static int read_failed(const char *what, int err)
{
	live_fail(what, err);
	return live_refused(err) ? 2 : 1;
}

/* The filter as the tree's write takes it: trailing whitespace stripped. */
static char *stripped(const char *filter)
{
	char *s = strdup(filter);
	size_t n = s ? strlen(s) : 0;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		s[--n] = 0;
	return s;
}

/* Whether the event's format takes expr; its error in *fe when not. A
 * function name is left to the process, which has the symbols. */
static int takes_filter(struct live *l, const struct start_event *e, const char *expr,
			struct uft_filter_error *fe, bool *takes)
{
	char file[512];
	snprintf(file, sizeof(file), "events/%s/%s/format", e->sys, e->name);
	int err;
	size_t len;
	char *text = live_cat(l, file, &len, &err);
	if (!text)
		return read_failed(file, err);
	struct uft_format_parsed p;
	int rc = uft_format_parse(text, len, &p);
	free(text);
	if (rc) {
		fprintf(stderr, "uft start: %s: %s\n", file, strerror(-rc));
		return 1;
	}
	struct uft_filter *f = NULL;
	rc = uft_filter_compile(expr, p.fields, p.nr_fields, &f, fe);
	uft_filter_free(f);
	uft_format_parsed_free(&p);
	if (rc == -ENOMEM)
		return live_fail("filter", rc);
	*takes = rc >= 0 || fe->code == UFT_FILTER_ERR_NO_FUNCTION;
	return 0;
}

/* The error as the process's error_log would show it, led by the event. */
static void show_filter_error(const struct start_event *e, const char *expr,
			      const struct uft_filter_error *fe)
{
	int pos = fe->code > 0 && fe->pos > 0 ? fe->pos : 0;
	fprintf(stderr, "uft start: %s:%s: %s: error: %s\n  Command: %s\n%*s^\n", e->sys, e->name,
		UFT_FILTER_ERR_LOC, uft_filter_strerror(fe->code), expr, 11 + pos, "");
}

/* Each event of spec compiled against its filter: the filter goes to the
 * events that take it and is refused only when none does, as the kernel's
 * subsystem filter is. */
static int check_filter(struct live *l, struct start_spec *s)
{
	char *expr = stripped(s->filter);
	if (!expr)
		return live_fail("filter", -ENOMEM);
	size_t taken = 0, first_bad = s->nev;
	struct uft_filter_error first = {0, 0};
	int rc = 0;
	for (size_t i = 0; i < s->nev && !rc; i++) {
		struct uft_filter_error fe = {0, 0};
		rc = takes_filter(l, &s->ev[i], expr, &fe, &s->ev[i].takes);
		taken += s->ev[i].takes;
		if (!rc && !s->ev[i].takes && first_bad == s->nev) {
			first_bad = i;
			first = fe;
		}
	}
	if (!rc && !taken) {
		show_filter_error(&s->ev[first_bad], expr, &first);
		rc = 2;
	}
	free(expr);
	return rc;
}

static int add_event(struct start_spec *s, const char *sys, const char *name)
{
	struct start_event *v = realloc(s->ev, (s->nev + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->ev = v;
	v[s->nev] = (struct start_event){strdup(sys), strdup(name), true, false};
	if (!v[s->nev].sys || !v[s->nev].name) {
		free(v[s->nev].sys);
		free(v[s->nev].name);
		return -ENOMEM;
	}
	s->nev++;
	return 0;
}

/* The events of available_events that spec selects; each marked whole when
 * the spec selects every event of its system. */
static int match(struct start_spec *s, char *all)
{
	for (char *line = all; *line;) {
		char *end = strchr(line, '\n'), *colon = strchr(line, ':');
		if (end)
			*end = 0;
		if (colon && (!end || colon < end)) {
			*colon = 0;
			bool hit = uft_event_spec_matches(s->spec, line, colon + 1);
			if (hit && add_event(s, line, colon + 1))
				return -ENOMEM;
			*colon = ':';
		}
		if (end)
			*end = '\n';
		line = end ? end + 1 : line + strlen(line);
	}
	for (size_t i = 0; i < s->nev; i++) {
		size_t in_sys = 0, chosen = 0;
		size_t sl = strlen(s->ev[i].sys);
		for (const char *p = all; (p = strstr(p, s->ev[i].sys)); p += sl)
			in_sys += (p == all || p[-1] == '\n') && p[sl] == ':';
		for (size_t k = 0; k < s->nev; k++)
			chosen += strcmp(s->ev[k].sys, s->ev[i].sys) == 0;
		s->ev[i].whole = chosen == in_sys;
	}
	return 0;
}

int start_check_events(struct live *l, struct start_spec *specs, size_t n)
{
	if (!n)
		return 0;
	int err;
	char *all = live_cat(l, "/available_events", NULL, &err);
	if (!all)
		return read_failed("available_events", err);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (match(&specs[i], all)) {
			rc = live_fail("available_events", -ENOMEM);
		} else if (!specs[i].nev) {
			fprintf(stderr, "uft: no event matches '%s'\n", specs[i].spec);
			rc = 2;
		}
	}
	free(all);
	for (size_t i = 0; i < n && !rc; i++)
		if (specs[i].filter)
			rc = check_filter(l, &specs[i]);
	return rc;
}

/* Whether word is one of the names of text (separated by blanks, the
 * current one in brackets). */
static bool listed(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = text; *p;) {
		p += strspn(p, " \t\n[");
		size_t k = strcspn(p, " \t\n[]");
		if (k == n && n && strncmp(p, word, n) == 0)
			return true;
		p += k;
		p += strspn(p, "]");
	}
	return false;
}

int start_check_clock(struct live *l, const char *clock)
{
	if (!clock)
		return 0;
	int err;
	char *text = live_cat(l, "trace_clock", NULL, &err);
	if (!text)
		return read_failed("trace_clock", err);
	bool ok = listed(text, clock);
	if (!ok) {
		text[strcspn(text, "\n")] = 0;
		fprintf(stderr, "uft start: -C %s: no such clock (trace_clock: %s)\n", clock, text);
	}
	free(text);
	return ok ? 0 : 2;
}

int start_check_options(struct live *l, const char *const *optv, size_t n)
{
	if (!n)
		return 0;
	int err;
	char *text = live_cat(l, "trace_options", NULL, &err);
	if (!text)
		return read_failed("trace_options", err);
	struct live_names dir = {0};
	live_readdir(l, "options", &dir);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *o = optv[i], *base = strncmp(o, "no", 2) == 0 ? o + 2 : o;
		char neg[256];
		snprintf(neg, sizeof(neg), "no%s", o);
		bool ok = listed(text, o) || listed(text, neg) || (base != o && listed(text, base));
		for (size_t k = 0; k < dir.n && !ok; k++)
			ok = strcmp(dir.v[k], o) == 0 || strcmp(dir.v[k], base) == 0;
		if (!ok) {
			fprintf(stderr, "uft start: -O %s: no such option (trace_options)\n", o);
			rc = 2;
		}
	}
	live_names_free(&dir);
	free(text);
	return rc;
}

void start_specs_free(struct start_spec *specs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < specs[i].nev; k++) {
			free(specs[i].ev[k].sys);
			free(specs[i].ev[k].name);
		}
		free(specs[i].ev);
	}
}
