/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpulist syntax as bitmap_parselist() accepts it. */
#include <stdbool.h>
#include <string.h>

#include "util/cpulist.h"

struct cur {
	const char *s;
	size_t n, i;
};

static inline char peek(const struct cur *c)
{
	return c->i < c->n ? c->s[c->i] : '\0';
}

static inline bool is_space(char ch)
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r') || (unsigned char)ch == 0xa0;
}

static inline bool end_of_list(char ch)
{
	return ch == '\0' || ch == '\n';
}

static inline bool end_of_group(char ch)
{
	return end_of_list(ch) || is_space(ch) || ch == ',';
}

/* A decimal number or "N" (the last bit). */
static int get_num(struct cur *c, unsigned *out, unsigned last)
{
	unsigned long long v = 0;
	size_t start = c->i;

	if (peek(c) == 'N') {
		c->i++;
		*out = last;
		return 0;
	}
	while (peek(c) >= '0' && peek(c) <= '9') {
		v = v * 10 + (unsigned)(peek(c) - '0');
		if (v > 0xffffffffull)
			return -1;
		c->i++;
	}
	if (c->i == start)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int uft_cpulist_parse(const char *s, size_t n, uint8_t *mask, unsigned nbits)
{
	struct cur c = {s, n, 0};
	unsigned last = nbits ? nbits - 1 : 0;

	memset(mask, 0, (nbits + 7) / 8);
	for (;;) {
		unsigned start, end, used, group;

		while (!end_of_list(peek(&c)) && end_of_group(peek(&c)))
			c.i++;
		if (end_of_list(peek(&c)))
			return 0;
		if (get_num(&c, &start, last))
			return -1;
		end = start;
		if (!end_of_group(peek(&c))) {
			if (peek(&c) != '-')
				return -1;
			c.i++;
			if (get_num(&c, &end, last))
				return -1;
		}
		used = group = end + 1;
		if (!end_of_group(peek(&c))) {
			if (peek(&c) != ':')
				return -1;
			c.i++;
			if (get_num(&c, &used, last) || peek(&c) != '/')
				return -1;
			c.i++;
			if (get_num(&c, &group, last))
				return -1;
		}
		if (start > end || group == 0 || used > group || end >= nbits)
			return -1;
		for (unsigned base = start; base <= end; base += group) {
			for (unsigned b = base; b <= end && b - base < used; b++)
				mask[b / 8] |= (uint8_t)(1u << (b % 8));
			if (end - base < group)
				break; /* the next group would start past end (or wrap) */
		}
	}
}
