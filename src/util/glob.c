/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Glob matching with one backtrack point: on a mismatch after a '*', retry
 * with the '*' swallowing one more character. That is complete for this
 * pattern language and needs no recursion or memory. */
#include "util/glob.h"

/* Past the end reads as NUL, so bounded inputs behave like C strings. */
static inline unsigned char at(const char *s, size_t n, size_t i)
{
	return i < n ? (unsigned char)s[i] : 0;
}

/* Matches c against the class whose body starts at pat[*pi] (just after the
 * '['). Returns 1 (match), 0 (no match) or -1 (malformed: treat '[' as a
 * literal); on success *pi moves past the closing ']'. */
static int class_match(const char *pat, size_t plen, size_t *pi, unsigned char c)
{
	size_t i = *pi;
	bool inverted = at(pat, plen, i) == '!';
	bool hit = false;

	i += inverted;
	unsigned char lo = at(pat, plen, i++);
	do {
		unsigned char hi = lo;
		if (lo == 0)
			return -1;
		if (at(pat, plen, i) == '-' && at(pat, plen, i + 1) != ']') {
			hi = at(pat, plen, i + 1);
			if (hi == 0)
				return -1;
			i += 2;
		}
		if (lo <= c && c <= hi)
			hit = true;
		lo = at(pat, plen, i++);
	} while (lo != ']');
	*pi = i;
	return hit != inverted;
}

bool uft_glob_match(const char *pat, size_t plen, const char *str, size_t slen)
{
	size_t pi = 0, si = 0;
	size_t star_pi = 0, star_si = 0;
	bool star = false;

	for (;;) {
		unsigned char c = at(str, slen, si++);
		unsigned char d = at(pat, plen, pi++);
		int r;

		switch (d) {
		case '?':
			if (c == 0)
				return false;
			continue;
		case '*':
			if (pi >= plen)
				return true;
			star = true;
			star_pi = pi;
			star_si = --si; /* the run may be empty */
			continue;
		case '[':
			if (c == 0)
				return false;
			r = class_match(pat, plen, &pi, c);
			if (r > 0)
				continue;
			if (r == 0)
				goto backtrack;
			break; /* malformed: literal '[' */
		case '\\':
			d = at(pat, plen, pi++);
			break;
		default:
			break;
		}
		if (c == d) {
			if (d == 0)
				return true;
			continue;
		}
	backtrack:
		if (c == 0 || !star)
			return false;
		pi = star_pi;
		si = ++star_si;
	}
}
