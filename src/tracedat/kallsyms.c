/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kallsyms text to a sorted table, for naming addresses in recorded
 * function tracer records the way the kernel's %ps and %pS do. */
#define _GNU_SOURCE
#include "tracedat/kallsyms.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static int by_addr(const void *a, const void *b)
{
	const struct uft_ksym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Aliases in the text's order (names point into it), as trace-cmd
	 * keeps them: both then print an address's first name. */
	return x->name < y->name ? -1 : x->name > y->name;
}

/* One line, split in place: "ADDR TYPE NAME[\t[MODULE]]". */
static bool parse_line(char *line, struct uft_ksym *out)
{
	char *end;
	if (!((*line >= '0' && *line <= '9') || (*line >= 'a' && *line <= 'f') ||
	      (*line >= 'A' && *line <= 'F')))
		return false;
	unsigned long long addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ' || !end[3])
		return false;
	char *name = end + 3;
	char *sep = name + strcspn(name, " \t");
	const char *module = NULL;
	if (*sep) {
		*sep++ = 0;
		sep += strspn(sep, " \t");
		char *close = *sep == '[' ? strchr(sep, ']') : NULL;
		if (close && close > sep + 1) {
			*close = 0;
			module = sep + 1;
		}
	}
	if (!*name)
		return false;
	*out = (struct uft_ksym){addr, name, module, false, 0};
	/* An end marker: "[object+0xoffset]", split in place. */
	size_t nl = strlen(name);
	char *plus = nl > 5 && name[0] == '[' && name[nl - 1] == ']' ? strrchr(name, '+') : NULL;
	if (plus && plus > name + 1 && plus[1] == '0' && plus[2] == 'x') {
		unsigned long long off = strtoull(plus + 3, &end, 16);
		if (end == name + nl - 1 && off <= addr) {
			*plus = 0;
			*out = (struct uft_ksym){addr, name + 1, NULL, true, addr - off};
		}
	}
	return true;
}

int uft_ksyms_parse(struct uft_ksyms *k, const char *text, size_t len)
{
	memset(k, 0, sizeof(*k));
	k->text = malloc(len + 1);
	if (!k->text)
		return -1;
	memcpy(k->text, text, len);
	k->text[len] = 0;
	size_t cap = 0;
	for (char *p = k->text; p < k->text + len;) {
		char *nl = memchr(p, '\n', (size_t)(k->text + len - p));
		char *next = nl ? nl + 1 : k->text + len;
		if (nl)
			*nl = 0;
		struct uft_ksym s;
		if (parse_line(p, &s)) {
			if (uft_array_reserve(k->v, cap, k->n + 1, 256)) {
				uft_ksyms_free(k);
				return -1;
			}
			k->v[k->n++] = s;
		}
		p = next;
	}
	if (k->n > 1)
		qsort(k->v, k->n, sizeof(*k->v), by_addr);
	return 0;
}

void uft_ksyms_free(struct uft_ksyms *k)
{
	free(k->v);
	free(k->text);
	memset(k, 0, sizeof(*k));
}

bool uft_ksyms_lookup(void *ctx, uint64_t addr, struct uft_sym *out)
{
	const struct uft_ksyms *k = ctx;
	size_t lo = 0, hi = k->n;
	while (lo < hi) { /* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;
		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	const struct uft_ksym *s = &k->v[lo - 1];
	/* Aliases share an address: the size runs to the next other address. */
	size_t nx = lo;
	while (nx < k->n && k->v[nx].addr == s->addr)
		nx++;
	/* The first name of an address, as the kernel's lookup finds it; an
	 * end marker only where no symbol starts. */
	while (s > k->v && s[-1].addr == s->addr)
		s--;
	const struct uft_ksym *named = s;
	while (named->tag && named + 1 < k->v + nx)
		named++;
	if (!named->tag)
		s = named;
	if (s->tag)
		*out = (struct uft_sym){NULL, s->base, 0, s->name};
	else
		*out = (struct uft_sym){s->name, s->addr, nx < k->n ? k->v[nx].addr - s->addr : 0,
					s->module};
	return true;
}
