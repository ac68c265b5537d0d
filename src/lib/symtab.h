/* Names of code addresses for the tree's text output: dladdr() for exported
 * symbols, else the object file's own symbol table (static functions, and
 * the .cold parts compilers split off). Not for event time: it opens files. */
#ifndef UFT_LIB_SYMTAB_H
#define UFT_LIB_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

/* The function holding addr into buf; 0, or -1 when none is known. */
int uft_symbol_name(uintptr_t addr, char *buf, size_t len);

#endif
