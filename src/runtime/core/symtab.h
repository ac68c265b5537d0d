/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names of code addresses for the tree's text output: dladdr() for exported
 * symbols, else the object file's own symbol table or its separate debug
 * file's (static functions, the .cold parts compilers split off). A symbol
 * names only the addresses inside it (docs/design/symbols.md); others are
 * printed "[object+0xoffset]". Not for event time: it opens files. */
#ifndef UFT_LIB_SYMTAB_H
#define UFT_LIB_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

/* The function holding an address: its name, address and size, and the
 * shared object's file name ("" for the program itself). */
struct uft_symbol {
	char name[256];
	uintptr_t start;
	size_t size;
	char module[128];
	char object[128]; /* the object's file name, the program's too */
	uintptr_t base;	  /* its load bias: offsets in it are addr - base */
};

/* 0, or -1 when no symbol holds addr (then object and base are set when
 * addr is in a loaded object). */
int uft_symbol_find(uintptr_t addr, struct uft_symbol *out);
/* "[object+0xoffset]" of addr in s's object (uft_symbol_find's result):
 * how an address no symbol holds is printed. 0, or -1 when not in one. */
int uft_symbol_tag(const struct uft_symbol *s, uintptr_t addr, char *buf, size_t len);
/* The function holding addr into buf; 0, or -1 when none is known. */
int uft_symbol_name(uintptr_t addr, char *buf, size_t len);

/* The loaded function named `name` (exported, else in an object's
 * .symtab): its address and size; 0, or -1 when none is loaded. */
int uft_symbol_by_name(const char *name, uintptr_t *start, size_t *size);

/* `FIELD.function` values of filters through the process's symbols (the
 * kernel's kallsyms): a name or an address stands for its function. */
struct uft_filter_syms;
extern const struct uft_filter_syms uft_proc_filter_syms;

#endif
