/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Signal context for the flags column. libuft stands in front of sigaction()
 * and signal() so that every handler runs through a trampoline that marks the
 * thread as inside a handler (the kernel's "hardirq" column), and in front of
 * sigprocmask()/pthread_sigmask() to know when a thread has every signal
 * blocked (the kernel's "irqs-off" column). Both marks live in the thread's
 * tracing state and cost the writer one load. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/core/interpose.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/core/runtime.h"
#include "runtime/latency/csect.h"
#include "util/atomics.h"

#ifndef _NSIG
#define _NSIG 65
#endif

/* The definitions behind ours are libc's, reached without dlsym(): a
 * sanitizer runtime may call our sigaction() while it initializes (it looks up
 * "the next sigaction" and finds libuft's), when neither dlsym() nor its own
 * interceptors may run. Masks go to the system call as libc's do, keeping
 * libc's two internal signals out of reach. */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);

/* Under ThreadSanitizer the handler must still pass through its interceptor,
 * which defers signals to safe points in its runtime; the guard stops the
 * interceptor's own call to "the next sigaction" from coming back here. */
#if defined(__SANITIZE_THREAD__)
#define UFT_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UFT_UNDER_TSAN 1
#endif
#endif
#ifdef UFT_UNDER_TSAN
extern int __interceptor_sigaction(int, const struct sigaction *, struct sigaction *)
    __attribute__((weak));
static __thread int in_interceptor;

static int next_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (!__interceptor_sigaction || in_interceptor)
		return __sigaction(sig, act, old);
	in_interceptor = 1;
	int rc = __interceptor_sigaction(sig, act, old);
	in_interceptor = 0;
	return rc;
}
#else
#define next_sigaction __sigaction
#endif

static bool blocks_all(const sigset_t *set);

/* The mask change itself. With `now`, also the thread's mask after it,
 * worked out from the old one the call returns (a second call to read it
 * back would double the cost of every block and unblock). */
static int libc_sigmask(int how, const sigset_t *set, sigset_t *old, sigset_t *now)
{
	sigset_t copy, prev;
	if (set && how != SIG_UNBLOCK) {
		copy = *set;
		sigdelset(&copy, 32); /* SIGCANCEL */
		sigdelset(&copy, 33); /* SIGSETXID */
		/* The function tracers stop threads with it while code changes;
		 * a thread that blocks everything (libuft's own do) keeps it
		 * blocked and is not stopped. */
		if (!blocks_all(set))
			sigdelset(&copy, UFT_FTRACE_STOP_SIG);
		set = &copy;
	}
	sigemptyset(&prev); /* the kernel writes its _NSIG / 8 bytes only */
	long rc = syscall(SYS_rt_sigprocmask, how, set, &prev, _NSIG / 8);
	if (rc != 0)
		return errno;
	if (now) { /* before *old: set and old may be the same set */
		if (!set || how == SIG_BLOCK) {
			*now = prev;
			if (set)
				sigorset(now, now, set);
		} else if (how == SIG_UNBLOCK) {
			*now = prev;
			for (int s = 1; s < _NSIG; s++)
				if (sigismember(set, s) == 1)
					sigdelset(now, s);
		} else {
			*now = *set;
		}
	}
	if (old)
		*old = prev;
	return 0;
}

/* The handler the program installed per signal, as it installed it. Written
 * under the lock, read by the trampoline with one atomic pointer load. */
static struct sigaction user_act[_NSIG];
static struct sigaction *user_ptr[_NSIG];
static bool handler_blocks_all[_NSIG];
static pthread_mutex_t act_lock = PTHREAD_MUTEX_INITIALIZER;

/* The next definition of `name` after libuft's (used for the long jumps,
 * which only ever run once the program is up). */
static void *next_symbol(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static bool blocks_all(const sigset_t *set)
{
	/* SIGKILL and SIGSTOP cannot be blocked, and libc keeps the signals below
	 * SIGRTMIN for itself; everything else must be. */
	for (int s = 1; s < _NSIG; s++) {
		if (s == SIGKILL || s == SIGSTOP || (s >= 32 && s < SIGRTMIN) ||
		    s == UFT_FTRACE_STOP_SIG)
			continue;
		if (sigismember(set, s) == 0)
			return false;
	}
	return true;
}

static void trampoline(int sig, siginfo_t *si, void *uc)
{
	struct uft_tls *t = &uft_tls;
	uint8_t was_blocked = t->sigs_blocked;
	t->in_signal++;
	if (sig > 0 && sig < _NSIG && handler_blocks_all[sig])
		t->sigs_blocked = 1;
	uft_tls_sync_common(t);
	barrier();
	struct sigaction *a = sig > 0 && sig < _NSIG ? smp_load_acquire(&user_ptr[sig]) : NULL;
	if (a) {
		if (a->sa_flags & SA_SIGINFO)
			a->sa_sigaction(sig, si, uc);
		else if (a->sa_handler != SIG_IGN && a->sa_handler != SIG_DFL)
			a->sa_handler(sig);
	}
	/* The interrupted code may have been between a sled's NOPs that the
	 * function tracers rewrote meanwhile. */
	if (uc)
		uft_ftrace_skip_sled(uc);
	barrier();
	t->in_signal--;
	t->sigs_blocked = was_blocked;
	uft_tls_sync_common(t);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	if (sig <= 0 || sig >= _NSIG)
		return next_sigaction(sig, act, oldact);
	pthread_mutex_lock(&act_lock);
	struct sigaction prev, prev_user = user_act[sig];
	int rc = next_sigaction(sig, NULL, &prev);
	bool wrapped = rc == 0 && (prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction == trampoline;
	if (rc == 0 && act) {
		struct sigaction k = *act;
		bool is_handler = (act->sa_flags & SA_SIGINFO) ||
				  (act->sa_handler != SIG_IGN && act->sa_handler != SIG_DFL);
		if (is_handler) {
			/* The trampoline runs in the program's handler's place, same flags. */
			k.sa_flags |= SA_SIGINFO;
			k.sa_sigaction = trampoline;
			sigdelset(&k.sa_mask, UFT_FTRACE_STOP_SIG);
			user_act[sig] = *act;
			handler_blocks_all[sig] = blocks_all(&act->sa_mask);
			smp_store_release(&user_ptr[sig], &user_act[sig]);
		}
		rc = next_sigaction(sig, &k, NULL);
		if (rc != 0 && is_handler)
			user_act[sig] = prev_user;
		else if (rc == 0 && !is_handler)
			smp_store_release(&user_ptr[sig], NULL);
	}
	if (rc == 0 && oldact) /* what the program installed, not the trampoline */
		*oldact = wrapped ? prev_user : prev;
	pthread_mutex_unlock(&act_lock);
	return rc;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;
	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART; /* glibc's signal() has BSD semantics */
	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, &old) != 0)
		return SIG_ERR;
	return (old.sa_flags & SA_SIGINFO) ? (sighandler_t)(void *)old.sa_sigaction
					   : old.sa_handler;
}

static void note_mask(const sigset_t *now)
{
	uft_tls.sigs_blocked = blocks_all(now);
	uft_tls_sync_common(&uft_tls);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t now;
	int rc = libc_sigmask(how, set, old, &now);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	if (set) {
		note_mask(&now);
		/* irqsoff: a section starts or ends here (one branch when not) */
		uft_csect_hook(UFT_CSECT_SIGS, (uintptr_t)&sigprocmask,
			       (uintptr_t)__builtin_return_address(0));
	}
	return 0;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t now;
	int rc = libc_sigmask(how, set, old, &now);
	if (rc == 0 && set) {
		note_mask(&now);
		uft_csect_hook(UFT_CSECT_SIGS, (uintptr_t)&pthread_sigmask,
			       (uintptr_t)__builtin_return_address(0));
	}
	return rc;
}

/* Leaving a handler by a long jump skips the trampoline's epilogue: the jump
 * itself says the thread is back outside every handler. siglongjmp() also
 * restores the mask saved by sigsetjmp(), which is taken to be the usual one
 * (not everything blocked); longjmp() leaves the mask as it is. */
typedef void (*jump_fn)(void *, int) __attribute__((noreturn));

enum { JUMP_SIGLONGJMP, JUMP_LONGJMP, JUMP_LONGJMP_CHK, NR_JUMPS };
static const char *const jump_names[NR_JUMPS] = {"siglongjmp", "longjmp", "__longjmp_chk"};
static jump_fn jumps[NR_JUMPS];

#ifdef UFT_UNDER_TSAN
/* ThreadSanitizer keeps its own signal state across long jumps. */
extern void __interceptor_siglongjmp(sigjmp_buf, int) __attribute__((weak, noreturn));
extern void __interceptor_longjmp(jmp_buf, int) __attribute__((weak, noreturn));
#endif

/* Resolved at start-up: a jump may run in a signal handler, where dlsym()
 * must not. */
void uft_signals_init(void)
{
	for (int i = 0; i < NR_JUMPS; i++)
		jumps[i] = (jump_fn)next_symbol(jump_names[i]);
#ifdef UFT_UNDER_TSAN
	if (__interceptor_siglongjmp)
		jumps[JUMP_SIGLONGJMP] = (jump_fn)__interceptor_siglongjmp;
	if (__interceptor_longjmp)
		jumps[JUMP_LONGJMP] = jumps[JUMP_LONGJMP_CHK] = (jump_fn)__interceptor_longjmp;
#endif
}

/* libuft's own handlers (the function tracers' stop signal), installed
 * behind the program's view: not wrapped, every other signal blocked while
 * they run. */
int uft_signals_install_internal(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction act;
	memset(&act, 0, sizeof(act));
	act.sa_sigaction = fn;
	act.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&act.sa_mask);
	return next_sigaction(sig, &act, NULL);
}

static jump_fn next_jump(int which)
{
	if (!jumps[which])
		uft_signals_init();
	return jumps[which];
}

void siglongjmp(sigjmp_buf env, int val)
{
	uft_ftrace_after_jump();
	uft_tls.in_signal = 0;
	uft_tls.sigs_blocked = 0;
	uft_tls_sync_common(&uft_tls);
	uft_csect_hook(UFT_CSECT_SIGS, (uintptr_t)&siglongjmp,
		       (uintptr_t)__builtin_return_address(0));
	next_jump(JUMP_SIGLONGJMP)(env, val);
}

void longjmp(jmp_buf env, int val)
{
	uft_ftrace_after_jump();
	uft_tls.in_signal = 0;
	uft_tls_sync_common(&uft_tls);
	next_jump(JUMP_LONGJMP)(env, val);
}

void __longjmp_chk(jmp_buf env, int val)
{
	uft_ftrace_after_jump();
	uft_tls.in_signal = 0;
	uft_tls_sync_common(&uft_tls);
	next_jump(JUMP_LONGJMP_CHK)(env, val);
}
