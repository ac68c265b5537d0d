/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names of code addresses for the tree's text output: dladdr() for exported
 * symbols, else the object file's own symbol table (static functions, and
 * the .cold parts compilers split off). Not for event time: it opens files. */
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
};

/* 0, or -1 when no symbol is known. */
int uft_symbol_find(uintptr_t addr, struct uft_symbol *out);
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
