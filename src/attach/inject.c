/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ptrace mechanics of `uft attach` (inject.h, docs/design/attach.md).
 *
 * The thread is seized (PTRACE_SEIZE, which sends no signal) and stopped with
 * PTRACE_INTERRUPT. A call is made by pointing its pc at the function with a
 * return address on a stack frame below the red zone that is a syscall
 * instruction of the process's own code (`in->syscall_insn`), and running
 * it with PTRACE_SYSCALL: the return enters a system call, whose entry stop
 * (told from the function's own system calls by the pc and the stack
 * pointer) ends the call with the result in orig_rax. No code of the
 * process is written and no signal is raised (a forced SIGSEGV or SIGTRAP
 * would reset a blocked or ignored disposition of the program's).
 *
 * At detach the registers and the vector state go back with orig_rax -1,
 * which skips the system call of the entry stop (rax kept) and any restart
 * by the kernel. A system call the first stop interrupted (one of the
 * kernel's -ERESTART codes in rax) is restarted by hand as the kernel's
 * signal code does when no handler runs: pc back onto the syscall
 * instruction, rax the call's number (or restart_syscall for
 * -ERESTART_RESTARTBLOCK, so nanosleep sleeps what was left). A signal
 * caught at the first stop is sent again after the detach. */
#define _GNU_SOURCE
#include "attach/inject.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Below the stack pointer the function being run may keep data: the ABI's
 * red zone. */
#define RED_ZONE 128
/* The kernel's restart codes (include/linux/errno.h), and the system call
 * that resumes a -ERESTART_RESTARTBLOCK one. */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516
#define NR_RESTART_SYSCALL 219
/* Attempts to catch the thread outside the avoided ranges. */
#define STOP_TRIES 200

static void pause_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The next stop of tid: 0 with *status, -ESRCH when it ended, -ETIMEDOUT
 * (never with a negative timeout). */
static int wait_stop(pid_t tid, int *status, int timeout_ms)
{
	long end = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	for (;;) {
		pid_t r = waitpid(tid, status, __WALL | WNOHANG);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r == tid) {
			if (WIFEXITED(*status) || WIFSIGNALED(*status))
				return -ESRCH;
			if (WIFSTOPPED(*status))
				return 0;
		}
		if (end >= 0 && now_ms() > end)
			return -ETIMEDOUT;
		pause_ms(1);
	}
}

static int mem_io(pid_t tid, uint64_t addr, void *buf, size_t len, bool write)
{
	struct iovec local = {buf, len};
	struct iovec remote = {(void *)(uintptr_t)addr, len};
	ssize_t n = write ? process_vm_writev(tid, &local, 1, &remote, 1, 0)
			  : process_vm_readv(tid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	/* Without process_vm_*: the same through /proc/PID/mem. */
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	int fd = open(path, (write ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write ? pwrite(fd, buf, len, (off_t)addr) : pread(fd, buf, len, (off_t)addr);
	int err = n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

int uft_inject_read(struct uft_inject *in, uint64_t addr, void *buf, size_t len)
{
	return mem_io(in->tid, addr, buf, len, false);
}

/* Whether the thread stopped right after a system call instruction
 * (syscall, or int $0x80), in the call it made (orig_rax holds its number). */
static bool stopped_in_syscall(struct uft_inject *in)
{
	if ((long long)in->regs.orig_rax < 0 || in->regs.rip < 2)
		return false;
	unsigned char insn[2];
	return uft_inject_read(in, in->regs.rip - 2, insn, 2) == 0 &&
	       ((insn[0] == 0x0f && insn[1] == 0x05) || (insn[0] == 0xcd && insn[1] == 0x80));
}

static bool in_ranges(uint64_t pc, const struct inject_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pc >= r[i].lo && pc < r[i].hi)
			return true;
	return false;
}

static int save_fpu(struct uft_inject *in)
{
	size_t cap = 1 << 16; /* above any xsave area the kernel reports */
	in->fpu = malloc(cap);
	if (!in->fpu)
		return -ENOMEM;
	static const unsigned kinds[] = {NT_X86_XSTATE, NT_PRFPREG};
	for (size_t i = 0; i < 2; i++) {
		struct iovec iov = {in->fpu, cap};
		if (ptrace(PTRACE_GETREGSET, in->tid, (void *)(uintptr_t)kinds[i], &iov) == 0) {
			in->fpu_kind = kinds[i];
			in->fpu_len = iov.iov_len;
			return 0;
		}
	}
	return -errno;
}

/* Stops the seized thread once; its registers into in->regs. */
static int stop_once(struct uft_inject *in)
{
	int status, rc;
	if (ptrace(PTRACE_INTERRUPT, in->tid, 0, 0) != 0)
		return -errno;
	if ((rc = wait_stop(in->tid, &status, 5000)) != 0)
		return rc;
	int event = status >> 16, sig = WSTOPSIG(status);
	if (event == PTRACE_EVENT_STOP && sig != SIGTRAP)
		return -EBUSY; /* a job-control stop: not ours to end */
	if (event == 0)
		in->pending_sig = sig; /* caught on its way to the program */
	if (ptrace(PTRACE_GETREGS, in->tid, 0, &in->regs) != 0)
		return -errno;
	in->in_syscall = stopped_in_syscall(in);
	return 0;
}

int uft_inject_attach(struct uft_inject *in, pid_t tgid, pid_t tid,
		      const struct inject_range *avoid, size_t navoid)
{
	*in = (struct uft_inject){.tgid = tgid, .tid = tid};
	if (ptrace(PTRACE_SEIZE, tid, 0, (void *)PTRACE_O_TRACESYSGOOD) != 0)
		return -errno;
	int rc;
	for (int tries = 0;; tries++) {
		if ((rc = stop_once(in)) != 0)
			goto fail;
		if (in->in_syscall || !in_ranges(in->regs.rip, avoid, navoid))
			break;
		/* In the C library outside a system call: it may hold a lock
		 * that dlopen takes. Let it run a little and look again. */
		if (tries == STOP_TRIES) {
			rc = -EBUSY;
			goto fail;
		}
		if (ptrace(PTRACE_CONT, tid, 0, (void *)(uintptr_t)in->pending_sig) != 0) {
			rc = -errno;
			goto fail;
		}
		in->pending_sig = 0;
		pause_ms(2);
	}
	if ((rc = save_fpu(in)) != 0)
		goto fail;
	in->scratch = (in->regs.rsp - RED_ZONE) & ~(uint64_t)15;
	return 0;
fail:
	/* Stopped (or not: then leaving the tracer's exit to detach it). */
	ptrace(PTRACE_DETACH, tid, 0, (void *)(uintptr_t)in->pending_sig);
	free(in->fpu);
	in->fpu = NULL;
	return rc;
}

int uft_inject_put(struct uft_inject *in, const void *data, size_t len, uint64_t *remote)
{
	uint64_t at = (in->scratch - len) & ~(uint64_t)15;
	int rc = mem_io(in->tid, at, (void *)data, len, true);
	if (rc == 0) {
		in->scratch = at;
		*remote = at;
	}
	return rc;
}

int uft_inject_call(struct uft_inject *in, uint64_t fn, uint64_t a0, uint64_t a1, uint64_t *ret,
		    int slow_ms, void (*slow)(pid_t tid))
{
	if (!in->syscall_insn)
		return -EINVAL;
	struct user_regs_struct r = in->regs;
	/* At a function's entry rsp + 8 is 16-byte aligned. */
	uint64_t sp = ((in->scratch - 64) & ~(uint64_t)15) - 8;
	uint64_t ra = in->syscall_insn;
	int rc = mem_io(in->tid, sp, &ra, sizeof(ra), true);
	if (rc)
		return rc;
	r.rsp = sp;
	r.rip = fn;
	r.rdi = a0;
	r.rsi = a1;
	r.rax = 0;
	r.orig_rax = (unsigned long long)-1; /* no system call to restart on the way */
	if (ptrace(PTRACE_SETREGS, in->tid, 0, &r) != 0)
		return -errno;
	int sig = 0, status;
	long end = now_ms() + slow_ms;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, in->tid, 0, (void *)(uintptr_t)sig) != 0)
			return -errno;
		long left = end - now_ms();
		rc = wait_stop(in->tid, &status, !slow ? -1 : left > 0 ? (int)left : 0);
		if (rc == -ETIMEDOUT) {
			slow(in->tid);
			slow = NULL;
			rc = wait_stop(in->tid, &status, -1);
		}
		if (rc)
			return rc;
		sig = 0;
		if (status >> 16)
			continue; /* the interrupt's own stop, again: go on */
		int stop = WSTOPSIG(status);
		if (stop == (SIGTRAP | 0x80)) {
			/* A system call stop: ours once the function returned
			 * (ret popped the address: rsp is one word up). */
			if (ptrace(PTRACE_GETREGS, in->tid, 0, &r) != 0)
				return -errno;
			if (r.rip == in->syscall_insn + 2 && r.rsp == sp + 8) {
				*ret = r.orig_rax;
				return 0;
			}
			continue;
		}
		if (stop == SIGSEGV || stop == SIGBUS || stop == SIGILL || stop == SIGFPE ||
		    stop == SIGTRAP)
			return -EFAULT; /* the call crashed: stay stopped for the restore */
		sig = stop;		/* the program's own signal, delivered as it comes */
	}
}

/* The registers to go back to: as stopped, with an interrupted system call
 * set to run again (see the top of the file). */
static struct user_regs_struct resume_regs(const struct uft_inject *in)
{
	struct user_regs_struct r = in->regs;
	long long rax = (long long)r.rax;
	if ((long long)r.orig_rax >= 0 && in->in_syscall) {
		if (rax == -ERESTARTSYS || rax == -ERESTARTNOINTR || rax == -ERESTARTNOHAND) {
			r.rax = r.orig_rax;
			r.rip -= 2;
		} else if (rax == -ERESTART_RESTARTBLOCK) {
			r.rax = NR_RESTART_SYSCALL;
			r.rip -= 2;
		}
	}
	r.orig_rax = (unsigned long long)-1;
	return r;
}

int uft_inject_detach(struct uft_inject *in)
{
	int rc = 0;
	struct user_regs_struct r = resume_regs(in);
	if (ptrace(PTRACE_SETREGS, in->tid, 0, &r) != 0)
		rc = -errno;
	struct iovec iov = {in->fpu, in->fpu_len};
	if (in->fpu &&
	    ptrace(PTRACE_SETREGSET, in->tid, (void *)(uintptr_t)in->fpu_kind, &iov) != 0 && !rc)
		rc = -errno;
	if (ptrace(PTRACE_DETACH, in->tid, 0, 0) != 0 && !rc)
		rc = -errno;
	/* The signal held since the first stop, now that nothing of ours runs. */
	if (in->pending_sig && syscall(SYS_tgkill, in->tgid, in->tid, in->pending_sig) != 0 && !rc)
		rc = -errno;
	free(in->fpu);
	in->fpu = NULL;
	return rc;
}
