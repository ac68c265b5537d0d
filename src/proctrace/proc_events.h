/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's records, built in the kernel's layouts (the offsets of
 * the kernel's format files, which pt_format_text() prints). */
#ifndef UFT_PT_PROC_EVENTS_H
#define UFT_PT_PROC_EVENTS_H

#include <stdbool.h>
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
/* syscalls:sys_enter_NAME / sys_exit_NAME; false if nr has no event here. */
bool pt_rec_sys_enter(struct pt_rec *r, pid_t tid, long nr, const uint64_t args[6]);
bool pt_rec_sys_exit(struct pt_rec *r, pid_t tid, long nr, long ret);
void pt_rec_sig_generate(struct pt_rec *r, pid_t tid, int sig, int err, int code, const char *comm,
			 pid_t pid, int group, int result);
void pt_rec_sig_deliver(struct pt_rec *r, pid_t tid, int sig, int err, int code, uint64_t handler,
			uint64_t flags);

#endif
