/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's records, built in the kernel's layouts (the offsets of
 * the kernel's format files, which pt_format_text() prints). */
#ifndef UFT_PT_PROC_EVENTS_H
#define UFT_PT_PROC_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PT_REC_MAX (64 + 2 * 4096)

struct pt_rec {
	uint32_t len;
	_Alignas(8) uint8_t b[PT_REC_MAX];
};

void pt_rec_fork(struct pt_rec *r, pid_t tid, const char *parent_comm, pid_t child,
		 const char *child_comm);
void pt_rec_exec(struct pt_rec *r, pid_t tid, const char *filename, pid_t old_tid);
void pt_rec_exit(struct pt_rec *r, pid_t tid, const char *comm, int prio, bool group_dead);
void pt_rec_clone_flags(struct pt_rec *r, pid_t tid, pid_t child, uint64_t flags, bool thread);
void pt_rec_exit_status(struct pt_rec *r, pid_t tid, int code, int sig, bool core);
void pt_rec_raw_enter(struct pt_rec *r, pid_t tid, long nr, const uint64_t args[6]);
void pt_rec_raw_exit(struct pt_rec *r, pid_t tid, long nr, long ret);
/* syscalls:sys_enter_NAME / sys_exit_NAME; false if nr has no event here.
 * With `strings`, the entry's user strings (its __NAME_val fields, after the
 * kernel's) are read from thread tid's memory, which must be stopped at that
 * entry: only calls with such arguments read. Without, they are empty (the
 * kernel backend builds its records after the call, when the memory may
 * hold something else). */
bool pt_rec_sys_enter(struct pt_rec *r, pid_t tid, long nr, const uint64_t args[6], bool strings);
bool pt_rec_sys_exit(struct pt_rec *r, pid_t tid, long nr, long ret);
/* The longest record pt_rec_widen() makes: 6 arguments, 6 empty strings. */
#define PT_WIDE_MAX (16 + 6 * 8 + 6 * 5)
/* A kernel record of local id `id` in the layout of pt_rec_sys_enter(): the
 * kernel's bytes and an empty string for each __NAME_val (a kernel that reads
 * no strings), built in `wide` and *len updated; else rec as it is. */
uint8_t *pt_rec_widen(unsigned id, uint8_t *rec, uint32_t *len, uint8_t wide[PT_WIDE_MAX]);
/* Whether the field lines `ours` (from "\nformat:" up to the blank line
 * before "print fmt:", la bytes) are the kernel's `kernel` (lb bytes) and
 * __NAME_val fields after them: the kernel's records then fit ours through
 * pt_rec_widen(). */
bool pt_fields_widened(const char *ours, size_t la, const char *kernel, size_t lb);
void pt_rec_sig_generate(struct pt_rec *r, pid_t tid, int sig, int err, int code, const char *comm,
			 pid_t pid, int group, int result);
void pt_rec_sig_deliver(struct pt_rec *r, pid_t tid, int sig, int err, int code, uint64_t handler,
			uint64_t flags);

#endif
