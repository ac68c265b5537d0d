/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program `uft record` is asked to run, looked at before it runs: where
 * it is, and whether libuft must be preloaded into it. */
#ifndef UFT_RECORD_PROGRAM_H
#define UFT_RECORD_PROGRAM_H

#include <stddef.h>

enum program_kind {
	PROGRAM_LINKED,	 /* libuft is linked in (shared or static) */
	PROGRAM_DYNAMIC, /* a dynamic ELF executable without it: preload */
	PROGRAM_STATIC,	 /* a static executable without it: cannot be traced */
	PROGRAM_OTHER,	 /* a script or other file the kernel runs: preload */
};

/* Finds cmd as execvp would (PATH when it has no slash). Returns a malloc'd
 * path, or NULL with errno set (ENOENT, EACCES, ...). */
char *program_find(const char *cmd);
/* What the executable at path is. */
enum program_kind program_inspect(const char *path);
/* In a child about to run a program of this kind: this uft's libuft put in
 * front of LD_PRELOAD when it must be preloaded (not by a sanitizer build,
 * whose libuft needs its runtime in the program). */
void program_preload(enum program_kind kind);

#endif
