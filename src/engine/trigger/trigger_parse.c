/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Parsing and printing trigger commands, following the order in which the
 * kernel splits a write: the command up to the first ':', space or tab, an
 * optional count (which must start with a digit for the simple commands),
 * then "if FILTER". */
#define _GNU_SOURCE
#include "engine/trigger/trigger.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[UFT_TRIG_NR_CMDS] = {
    [UFT_TRIG_TRACEON] = "traceon",
    [UFT_TRIG_TRACEOFF] = "traceoff",
    [UFT_TRIG_SNAPSHOT] = "snapshot",
    [UFT_TRIG_STACKTRACE] = "stacktrace",
    [UFT_TRIG_ENABLE_EVENT] = "enable_event",
    [UFT_TRIG_DISABLE_EVENT] = "disable_event",
    [UFT_TRIG_HIST] = "hist",
    [UFT_TRIG_ENABLE_HIST] = "enable_hist",
    [UFT_TRIG_DISABLE_HIST] = "disable_hist",
};

const char *uft_trigger_cmd_name(int cmd)
{
	return cmd >= 0 && cmd < UFT_TRIG_NR_CMDS ? names[cmd] : "?";
}

int uft_trigger_cmd_type(int cmd)
{
	if (cmd == UFT_TRIG_TRACEOFF)
		return UFT_TRIG_TRACEON;
	if (cmd == UFT_TRIG_DISABLE_EVENT)
		return UFT_TRIG_ENABLE_EVENT;
	if (cmd == UFT_TRIG_DISABLE_HIST)
		return UFT_TRIG_ENABLE_HIST;
	return cmd;
}

bool uft_trigger_cmd_has_target(int cmd)
{
	return cmd == UFT_TRIG_ENABLE_EVENT || cmd == UFT_TRIG_DISABLE_EVENT ||
	       cmd == UFT_TRIG_ENABLE_HIST || cmd == UFT_TRIG_DISABLE_HIST;
}

static bool is_space(char c)
{
	return isspace((unsigned char)c);
}

static char *skip_spaces(char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

/* Splits at the first of `delims` like strsep. */
static char *split(char **s, const char *delims)
{
	char *start = *s;
	if (!start)
		return NULL;
	char *end = strpbrk(start, delims);
	if (end) {
		*end = 0;
		*s = end + 1;
	} else {
		*s = NULL;
	}
	return start;
}

/* An unsigned number as the kernel's kstrtoul(s, 0) reads it: base from
 * the prefix, every character used (one trailing newline allowed), -ERANGE
 * on overflow. */
static int parse_ulong(const char *s, uint64_t *out)
{
	unsigned base = 10;
	if (*s == '+')
		s++;
	if (s[0] == '0') {
		base = 8;
		if (tolower((unsigned char)s[1]) == 'x' && isxdigit((unsigned char)s[2])) {
			base = 16;
			s += 2;
		}
	}
	uint64_t v = 0;
	bool overflow = false;
	const char *p = s;
	for (;; p++) {
		int c = tolower((unsigned char)*p), d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			break;
		if ((unsigned)d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			overflow = true;
		v = v * base + (uint64_t)d;
	}
	if (p == s)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "N[:...]": the count, the rest ignored as the kernel ignores it. */
static int parse_count(char *param, uint64_t *count)
{
	if (!param)
		return 0;
	char *num = split(&param, ":");
	if (!*num)
		return -EINVAL;
	return parse_ulong(num, count);
}

/* "if EXPR": the expression, or -EINVAL. */
static int parse_filter(char *s, const char **filter)
{
	*filter = NULL;
	if (!s)
		return 0;
	char *word = split(&s, " \t");
	if (strcmp(word, "if") != 0 || !s)
		return -EINVAL;
	*filter = s;
	return 0;
}

/* Separates "PARAM [FILTER]". Without a required parameter, text that does
 * not start with a digit is all filter. */
static void separate(char *s, bool param_required, char **param, char **filter)
{
	*param = *filter = NULL;
	if (!s)
		return;
	if (!param_required && !isdigit((unsigned char)s[0])) {
		*filter = s;
		return;
	}
	*param = split(&s, " \t");
	if (s) {
		s = skip_spaces(s);
		*filter = *s ? s : NULL;
	}
}

int uft_trigger_parse(const char *text, struct uft_trig_spec *out)
{
	memset(out, 0, sizeof(*out));
	out->count = UFT_TRIG_UNLIMITED;
	out->buf = strdup(text);
	if (!out->buf)
		return -ENOMEM;
	char *s = skip_spaces(out->buf);
	size_t n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = 0;

	/* A hist command is the engine's to parse, filter included. */
	size_t cmd_len = strcspn(s, ": \t");
	bool bang = s[0] == '!';
	if (cmd_len - bang == 4 && strncmp(s + bang, "hist", 4) == 0) {
		out->cmd = UFT_TRIG_HIST;
		out->remove = bang;
		out->hist = s + bang;
		return 0;
	}

	char *next = s;
	char *command = split(&next, ": \t");
	if (next) {
		next = skip_spaces(next);
		if (!*next)
			next = NULL;
	}
	out->remove = command[0] == '!';
	command += out->remove;
	out->cmd = -1;
	for (int i = 0; i < UFT_TRIG_NR_CMDS; i++)
		if (strcmp(command, names[i]) == 0)
			out->cmd = i;

	char *param, *filter;
	int rc = 0;
	switch (out->cmd) {
	case UFT_TRIG_TRACEON:
	case UFT_TRIG_TRACEOFF:
	case UFT_TRIG_SNAPSHOT:
	case UFT_TRIG_STACKTRACE:
		separate(next, false, &param, &filter);
		if (out->remove)
			return 0;
		rc = parse_count(param, &out->count);
		if (rc == 0)
			rc = parse_filter(filter, &out->filter);
		break;
	case UFT_TRIG_ENABLE_EVENT:
	case UFT_TRIG_DISABLE_EVENT:
	case UFT_TRIG_ENABLE_HIST:
	case UFT_TRIG_DISABLE_HIST:
		if (!next) {
			rc = -EINVAL;
			break;
		}
		separate(next, true, &param, &filter);
		out->sys = split(&param, ":");
		if (!param) {
			rc = -EINVAL;
			break;
		}
		out->event = split(&param, ":");
		if (out->remove)
			return 0;
		/* Reported only once the target is known to exist. */
		out->late_err = parse_count(param, &out->count);
		if (out->late_err == 0)
			out->late_err = parse_filter(filter, &out->filter);
		break;
	default:
		rc = -EINVAL;
	}
	if (rc) {
		uft_trigger_spec_free(out);
		return rc;
	}
	return 0;
}

void uft_trigger_spec_free(struct uft_trig_spec *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

void uft_trigger_print(FILE *f, int cmd, const char *sys, const char *event, uint64_t count,
		       const char *filter)
{
	fputs(uft_trigger_cmd_name(cmd), f);
	if (uft_trigger_cmd_has_target(cmd))
		fprintf(f, ":%s:%s", sys, event);
	if (count == UFT_TRIG_UNLIMITED)
		fputs(":unlimited", f);
	else
		fprintf(f, ":count=%ld", (long)count);
	if (filter)
		fprintf(f, " if %s\n", filter);
	else
		fputc('\n', f);
}

void uft_trigger_print_help(FILE *f)
{
	/* The kernel's list order. */
	static const int order[UFT_TRIG_NR_CMDS] = {
	    UFT_TRIG_TRACEON,	  UFT_TRIG_TRACEOFF,	 UFT_TRIG_SNAPSHOT,
	    UFT_TRIG_STACKTRACE,  UFT_TRIG_ENABLE_EVENT, UFT_TRIG_DISABLE_EVENT,
	    UFT_TRIG_ENABLE_HIST, UFT_TRIG_DISABLE_HIST, UFT_TRIG_HIST};
	fputs("# Available triggers:\n#", f);
	for (int i = 0; i < UFT_TRIG_NR_CMDS; i++)
		fprintf(f, " %s", names[order[i]]);
	fputc('\n', f);
}
