/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the tracer reads about a tracee from /proc and its memory. */
#ifndef UFT_PT_PROC_INFO_H
#define UFT_PT_PROC_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A small text file whole, NUL-terminated (at most len - 1 bytes); its
 * length or -1. */
int pt_read_text(const char *path, char *buf, size_t len);
/* The CPU it last ran on and its kernel priority (stat fields 39 and 18 + 100),
 * through a /proc/TID/stat fd kept open in *fd (opened on first use). */
int pt_proc_stat(pid_t tid, int *fd, int *cpu, int *prio);
/* /proc/TID/comm without the newline; "" if gone. */
void pt_proc_comm(pid_t tid, char comm[16]);
/* The Tgid: and first Uid: lines of /proc/TID/status; -1 if gone. */
pid_t pt_proc_tgid(pid_t tid, unsigned *uid);
/* Whether signal `sig` is ignored / caught (SigIgn, SigCgt of /proc/TID/status). */
void pt_proc_sigaction(pid_t tid, int sig, bool *ignored, bool *caught);
/* The file name the last exec was given (AT_EXECFN on the new stack, as the
 * kernel's bprm->filename); the executable's path if that cannot be read. */
void pt_proc_execfn(pid_t tid, char *buf, size_t len);
/* Reads len bytes of the tracee's memory; 0 or -1. */
int pt_proc_read(pid_t tid, uint64_t addr, void *buf, size_t len);

#endif
