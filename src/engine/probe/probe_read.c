/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's reads of the program's memory. By default through
 * uft_safe_read() (process_vm_readv: a system call per read, which costs
 * microseconds where system calls are slow). Once uft_probe_fast_read_init()
 * ran, through a copy that faults cheaply instead, as the kernel's
 * copy_from_user does: one `rep movsb` whose fault the SIGSEGV/SIGBUS
 * handler installed here recognises by its address and resumes after, with
 * RCX the bytes left (the instruction is restartable, so the registers tell
 * its progress). Any other fault goes to the handler that was there before,
 * or kills the process as the default action would. No lock, no
 * allocation: it runs in any thread and in signal handlers, as long as
 * SIGSEGV is not blocked there (a blocked synchronous fault is fatal). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "engine/probe/probe.h"
#include "util/atomics.h"
#include "util/safe_read.h"

/* size_t uft__probe_copy(void *dst, const void *src, size_t n): the bytes NOT copied. */
__asm__(".text\n"
	".globl uft__probe_copy\n"
	".hidden uft__probe_copy\n"
	".type uft__probe_copy, @function\n"
	"uft__probe_copy:\n"
	"	mov %rdx, %rcx\n"
	".globl uft__probe_copy_insn\n"
	".hidden uft__probe_copy_insn\n"
	"uft__probe_copy_insn:\n"
	"	rep movsb\n"
	".globl uft__probe_copy_fixup\n"
	".hidden uft__probe_copy_fixup\n"
	"uft__probe_copy_fixup:\n"
	"	mov %rcx, %rax\n"
	"	ret\n"
	".size uft__probe_copy, .-uft__probe_copy\n");

size_t uft__probe_copy(void *dst, const void *src, size_t n);
extern const char uft__probe_copy_insn[], uft__probe_copy_fixup[];

static struct sigaction old_segv, old_bus;
static int fast;

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *ip = &uc->uc_mcontext.gregs[REG_RIP];
	if ((uintptr_t)*ip == (uintptr_t)uft__probe_copy_insn) {
		*ip = (greg_t)(uintptr_t)uft__probe_copy_fixup;
		return;
	}
	struct sigaction *old = sig == SIGSEGV ? &old_segv : &old_bus;
	if (old->sa_flags & SA_SIGINFO) {
		old->sa_sigaction(sig, si, ucv);
		return;
	}
	if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
		return;
	}
	/* The default action: a real fault happens again on return, a signal
	 * sent by someone is sent again. */
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigaction(sig, &dfl, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

int uft_probe_fast_read_init(void)
{
	if (READ_ONCE(fast))
		return 0;
	struct sigaction sa = {.sa_sigaction = on_fault,
			       .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv) || sigaction(SIGBUS, &sa, &old_bus))
		return -1;
	smp_store_release(&fast, 1);
	return 0;
}

size_t uft_probe_read(void *dst, const void *src, size_t n)
{
	if (!smp_load_acquire(&fast))
		return uft_safe_read(dst, src, n);
	return n - uft__probe_copy(dst, src, n);
}
