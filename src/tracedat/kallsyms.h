/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/kallsyms-style text ("ADDR TYPE NAME [MODULE]" lines), as trace.dat
 * files carry it, turned into a table that names addresses. */
#ifndef UFT_KALLSYMS_H
#define UFT_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/text/ftrace_text.h"

struct uft_ksym {
	uint64_t addr;
	const char *name;
	const char *module; /* NULL when the line has none */
	/* A "[object+0xoffset]" end marker (proc_syms.c): name is the object,
	 * loaded at base; what it covers has no symbol. */
	bool tag;
	uint64_t base;
};

struct uft_ksyms {
	struct uft_ksym *v; /* sorted by address */
	size_t n;
	char *text; /* the parsed copy the names point into */
};

/* Parses len bytes; lines that are not symbol lines are skipped. 0, or -1
 * when out of memory. */
int uft_ksyms_parse(struct uft_ksyms *k, const char *text, size_t len);
void uft_ksyms_free(struct uft_ksyms *k);
/* A uft_sym_fn over the table (ctx is the struct uft_ksyms): the symbol at
 * or below addr, its size running to the next symbol's address; under an
 * end marker, no name and the marker's object and base (ftrace_text.h). */
bool uft_ksyms_lookup(void *ctx, uint64_t addr, struct uft_sym *out);

#endif
