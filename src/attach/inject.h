/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Making one thread of a running process call functions of its own, with
 * ptrace, and leaving it exactly as it was (docs/design/attach.md). The
 * thread is stopped only from uft_inject_attach() to uft_inject_detach();
 * its other threads keep running. x86-64 only. */
#ifndef UFT_ATTACH_INJECT_H
#define UFT_ATTACH_INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

/* An address range the thread must not be stopped in (outside a system
 * call): code that may hold a lock the injected call takes again. */
struct inject_range {
	uint64_t lo, hi;
};

struct uft_inject {
	pid_t tgid, tid;
	uint64_t syscall_insn;	      /* a syscall instruction of the process's (0f 05) */
	struct user_regs_struct regs; /* as stopped, restored at detach */
	void *fpu;		      /* its vector and x87 state */
	size_t fpu_len;
	unsigned fpu_kind; /* NT_X86_XSTATE or NT_PRFPREG */
	int pending_sig;   /* a signal caught at the stop, sent again after detach */
	uint64_t scratch;  /* the next free byte below the red zone, going down */
	bool in_syscall;   /* stopped in a system call that restarts after detach */
};

/* Seizes thread tid of process tgid, stops it where no range of avoid holds its pc and
 * saves its registers. Returns 0, or -errno: -ESRCH (gone), -EPERM (not
 * allowed to trace), -EBUSY (it stayed in an avoided range or a stop of
 * its own), -ETIMEDOUT (it did not stop). Nothing is left changed on error. */
int uft_inject_attach(struct uft_inject *in, pid_t tgid, pid_t tid,
		      const struct inject_range *avoid, size_t navoid);
/* Copies len bytes onto the thread's stack below the red zone; *remote is
 * their address there. 0 or -errno. */
int uft_inject_put(struct uft_inject *in, const void *data, size_t len, uint64_t *remote);
/* Runs fn(a0, a1) in the thread (in->syscall_insn set: where it returns to)
 * and waits for its return value: for good,
 * since the thread cannot go back to its own code without us, calling
 * slow(tid) once if that takes more than slow_ms. 0, -EFAULT (the call
 * crashed: the thread is stopped, detach restores it), -ESRCH, or -errno. */
int uft_inject_call(struct uft_inject *in, uint64_t fn, uint64_t a0, uint64_t a1, uint64_t *ret,
		    int slow_ms, void (*slow)(pid_t tid));
/* Reads the thread's memory. 0 or -errno. */
int uft_inject_read(struct uft_inject *in, uint64_t addr, void *buf, size_t len);
/* Puts the registers back and lets the thread go on (a system call it was
 * in restarts). 0 or -errno. */
int uft_inject_detach(struct uft_inject *in);

#endif
