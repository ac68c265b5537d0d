/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hazards of a `print fmt` for libtraceevent (print_fmt_guard.h). The
 * arguments are scanned as text: string and character literals skipped,
 * divisors and the length arguments of the hex and array helpers checked
 * against literals and the fields' sizes. */
#define _GNU_SOURCE
#include "tracedat/print_fmt_guard.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records never pass a page; a literal length past it reads other memory. */
#define GUARD_MAX_BYTES 4096

/* The size of field `name` (len bytes) from the format's field lines, or
 * -1 when no line declares it. */
static long field_size(const char *text, const char *end, const char *name, size_t len)
{
	for (const char *p = text; p && p < end; p = memchr(p, '\n', (size_t)(end - p))) {
		p += *p == '\n';
		const char *f = p, *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		while (f < eol && isspace((unsigned char)*f))
			f++;
		if ((size_t)(eol - f) < 6 || memcmp(f, "field:", 6) != 0)
			continue;
		const char *semi = memchr(f, ';', (size_t)(eol - f));
		if (!semi)
			continue;
		const char *n = semi;
		if (n > f && n[-1] == ']') /* an array's [N] */
			while (n > f && *--n != '[')
				;
		const char *b = n;
		while (b > f && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		if ((size_t)(n - b) != len || memcmp(b, name, len) != 0)
			continue;
		const char *sz = memmem(semi, (size_t)(eol - semi), "size:", 5);
		return sz ? strtol(sz + 5, NULL, 10) : 0;
	}
	return -1;
}

/* Past a string or character literal starting at p (its quote). */
static const char *skip_literal(const char *p, const char *end)
{
	char q = *p++;
	while (p < end && *p != q) {
		if (*p == '\\' && p + 1 < end)
			p++;
		p++;
	}
	return p < end ? p + 1 : end;
}

/* The top-level arguments of a call whose '(' is at p: starts and ends
 * (at most max); their count, or -1 when the call is not closed. */
static int call_args(const char *p, const char *end, const char **as, const char **ae, int max)
{
	int depth = 0, n = 0;
	const char *start = p + 1;
	for (const char *q = p; q < end; q++) {
		if (*q == '"' || *q == '\'') {
			q = skip_literal(q, end) - 1;
		} else if (*q == '(') {
			depth++;
		} else if (*q == ')' && depth > 1) {
			depth--;
		} else if (*q == ')' || (*q == ',' && depth == 1)) {
			if (n < max) {
				as[n] = start;
				ae[n] = q;
			}
			n++;
			start = q + 1;
			if (*q == ')')
				return n;
		}
	}
	return -1;
}

/* Whether [s, e) is an integer literal (spaces around); its value. */
static bool literal(const char *s, const char *e, long long *v)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s == e || (!isdigit((unsigned char)*s) && *s != '-'))
		return false;
	char buf[32];
	if ((size_t)(e - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	char *x;
	*v = strtoll(buf, &x, 0);
	while (*x == 'u' || *x == 'U' || *x == 'l' || *x == 'L')
		x++;
	return *x == '\0';
}

/* A length argument of a helper reading from `data`: literals checked
 * against the field (REC->f) or a page (anything else). */
static int check_len(const char *text, const char *tend, const char *ds, const char *de,
		     const char *ls, const char *le, long long elsize, char *why, size_t wlen,
		     const char *helper)
{
	long long n;
	if (!literal(ls, le, &n))
		return 0; /* read from the record: bounded by its producer */
	while (ds < de && isspace((unsigned char)*ds))
		ds++;
	long long limit = GUARD_MAX_BYTES;
	if ((size_t)(de - ds) > 5 && memcmp(ds, "REC->", 5) == 0) {
		const char *nb = ds + 5, *ne = nb;
		while (ne < de && (isalnum((unsigned char)*ne) || *ne == '_'))
			ne++;
		long sz = field_size(text, tend, nb, (size_t)(ne - nb));
		if (sz > 0)
			limit = sz;
	}
	if (n < 0 || n > GUARD_MAX_BYTES || n * elsize > limit) {
		snprintf(why, wlen, "%s() reads %lld bytes, more than its data holds", helper,
			 n < 0 ? n : n * elsize);
		return -1;
	}
	return 0;
}

static int check_helper(const char *text, const char *tend, const char *p, const char *end,
			char *why, size_t wlen)
{
	static const char *const names[] = {"__print_hex_str", "__print_hex", "__print_array"};
	for (int k = 0; k < 3; k++) {
		size_t n = strlen(names[k]);
		if ((size_t)(end - p) <= n || memcmp(p, names[k], n) != 0)
			continue;
		const char *q = p + n;
		while (q < end && isspace((unsigned char)*q))
			q++;
		if (q >= end || *q != '(')
			return 0;
		const char *as[3], *ae[3];
		int na = call_args(q, end, as, ae, 3);
		if (na < 2)
			return 0; /* libtraceevent refuses it */
		long long el = 1;
		if (k == 2 && (na < 3 || !literal(as[2], ae[2], &el) || el < 1 || el > 8))
			return 0; /* "BAD SIZE", printed safely */
		return check_len(text, tend, as[0], ae[0], as[1], ae[1], el, why, wlen, names[k]);
	}
	return 0;
}

/* An argument naming a field (REC->NAME, or __get_str(NAME) and the other
 * __get_* helpers of dynamic fields) that no field line declares: an
 * unknown field inside a condition or a helper faults the parser. */
static int check_field_ref(const char *text, const char *tend, const char *p, const char *end,
			   char *why, size_t wlen)
{
	const char *nb;
	if ((size_t)(end - p) > 5 && memcmp(p, "REC->", 5) == 0) {
		nb = p + 5;
	} else if ((size_t)(end - p) > 6 && memcmp(p, "__get_", 6) == 0) {
		nb = p + 6;
		while (nb < end && (isalnum((unsigned char)*nb) || *nb == '_'))
			nb++;
		while (nb < end && isspace((unsigned char)*nb))
			nb++;
		if (nb >= end || *nb != '(')
			return 0;
		nb++;
		while (nb < end && isspace((unsigned char)*nb))
			nb++;
	} else {
		return 0;
	}
	const char *ne = nb;
	while (ne < end && (isalnum((unsigned char)*ne) || *ne == '_'))
		ne++;
	if (ne == nb || field_size(text, tend, nb, (size_t)(ne - nb)) >= 0)
		return 0;
	snprintf(why, wlen, "it names '%.*s', which is not a field",
		 (int)(ne - nb > 64 ? 64 : ne - nb), nb);
	return -1;
}

int print_fmt_check(const char *text, size_t len, char *why, size_t wlen)
{
	const char *end = text + len, *p = memmem(text, len, "print fmt:", 10);
	if (!p)
		return 0;
	p += 10;
	while (p < end && *p != '"' && *p != '\n')
		p++;
	if (p < end && *p == '"')
		p = skip_literal(p, end); /* the format string itself */
	for (; p < end && *p != '\n'; p++) {
		if (*p == '"' || *p == '\'') {
			p = skip_literal(p, end) - 1;
			continue;
		}
		if (*p == '/' || *p == '%') {
			const char *q = p + 1, *e;
			long long v;
			while (q < end && (isspace((unsigned char)*q) || *q == '('))
				q++;
			for (e = q; e < end && (isalnum((unsigned char)*e) || *e == 'x'); e++)
				;
			if ((size_t)(end - q) > 6 && !memcmp(q, "sizeof", 6))
				continue; /* never zero */
			if (!literal(q, e, &v) || v == 0) {
				snprintf(why, wlen, "'%c' by %s", *p,
					 literal(q, e, &v) ? "zero" : "a value that may be zero");
				return -1;
			}
			continue;
		}
		bool word = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		if (word && (*p == 'R' || *p == '_') &&
		    check_field_ref(text, end, p, end, why, wlen))
			return -1;
		if (word && *p == '_' && check_helper(text, end, p, end, why, wlen))
			return -1;
	}
	return 0;
}

char *print_fmt_neutralise(const char *text, size_t len, size_t *out_len)
{
	const char *p = memmem(text, len, "print fmt:", 10);
	size_t head = p ? (size_t)(p - text) : len;
	static const char repl[] = "print fmt: \"\", REC->\n"; /* fails to parse */
	char *out = malloc(head + sizeof(repl));
	if (!out)
		return NULL;
	memcpy(out, text, head);
	memcpy(out + head, repl, sizeof(repl));
	*out_len = head + sizeof(repl) - 1;
	return out;
}

int format_fields_check(const char *text, size_t len, char *why, size_t wlen)
{
	const char *end = text + len;
	for (const char *p = text; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *f = p;
		while (f < eol && isspace((unsigned char)*f))
			f++;
		if ((size_t)(eol - f) >= 6 && memcmp(f, "field:", 6) == 0) {
			int depth = 0;
			for (const char *c = f; c < eol; c++) {
				if ((unsigned char)*c < 0x20 ? *c != '\t'
							     : (unsigned char)*c > 0x7e) {
					snprintf(why, wlen, "a field line holds byte 0x%02x",
						 (unsigned char)*c);
					return -1;
				}
				depth += (*c == '[') - (*c == ']');
				if (depth < 0 || depth > 1)
					break;
			}
			if (depth != 0) {
				snprintf(why, wlen, "a field line's brackets do not pair");
				return -1;
			}
			static const char *const keys[] = {"offset:", "size:", "signed:"};
			for (int k = 0; k < 3; k++)
				if (!memmem(f, (size_t)(eol - f), keys[k], strlen(keys[k]))) {
					snprintf(why, wlen, "a field line lacks '%s'", keys[k]);
					return -1;
				}
		}
		p = eol + 1;
	}
	return 0;
}
