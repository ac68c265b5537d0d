/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The function symbols of traced processes, gathered from /proc/PID/maps and
 * the ELF symbol tables of the objects mapped there (libelf), as kallsyms
 * lines for trace.dat: "ADDR T name" for the program, "ADDR T name\t[lib]"
 * for the shared objects, so uft report and trace-cmd name the addresses of
 * function tracer records. */
#ifndef UFT_PROC_SYMS_H
#define UFT_PROC_SYMS_H

#include <stddef.h>
#include <sys/types.h>

struct proc_syms;

struct proc_syms *proc_syms_new(void);
void proc_syms_free(struct proc_syms *s);
/* Adds the symbols of the executable objects pid maps now that were not
 * seen before (at the same base); quick when its maps did not
 * change. 0, or -errno (the process is gone, out of memory). */
int proc_syms_scan(struct proc_syms *s, pid_t pid);
/* The kallsyms lines gathered so far. */
const char *proc_syms_text(const struct proc_syms *s, size_t *len);
/* The whole kallsyms section of a uft file: the marker's symbol, then the
 * lines of s (none when s is NULL); malloc'd, NULL when out of memory. */
char *proc_syms_kallsyms(const struct proc_syms *s, size_t *len);

#endif
