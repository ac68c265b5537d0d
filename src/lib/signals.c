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
#include <stdatomic.h>
#include <string.h>

#include "lib/runtime.h"

#ifndef _NSIG
#define _NSIG 65
#endif

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);

static sigaction_fn real_sigaction;
static sigmask_fn real_sigprocmask;
static sigmask_fn real_pthread_sigmask;
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

/* The handler the program installed per signal, as it installed it. Written
 * under the lock, read by the trampoline with one atomic pointer load. */
static struct sigaction user_act[_NSIG];
static _Atomic(struct sigaction *) user_ptr[_NSIG];
static bool handler_blocks_all[_NSIG];
static pthread_mutex_t act_lock = PTHREAD_MUTEX_INITIALIZER;

/* The next definition in line: a sanitizer's interceptor when one is linked
 * into the program (it must keep seeing the handlers), else libc's. */
static void *next_symbol(const char *name)
{
	char ic[64] = "__interceptor_";
	strncat(ic, name, sizeof(ic) - strlen(ic) - 1);
	void *p = dlsym(RTLD_DEFAULT, ic);
	return p ? p : dlsym(RTLD_NEXT, name);
}

static void resolve(void)
{
	real_sigaction = (sigaction_fn)next_symbol("sigaction");
	real_sigprocmask = (sigmask_fn)next_symbol("sigprocmask");
	real_pthread_sigmask = (sigmask_fn)next_symbol("pthread_sigmask");
}

static bool blocks_all(const sigset_t *set)
{
	/* SIGKILL and SIGSTOP cannot be blocked, and libc keeps the signals below
	 * SIGRTMIN for itself; everything else must be. */
	for (int s = 1; s < _NSIG; s++) {
		if (s == SIGKILL || s == SIGSTOP || (s >= 32 && s < SIGRTMIN))
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
	atomic_signal_fence(memory_order_seq_cst);
	struct sigaction *a = sig > 0 && sig < _NSIG
				  ? atomic_load_explicit(&user_ptr[sig], memory_order_acquire)
				  : NULL;
	if (a) {
		if (a->sa_flags & SA_SIGINFO)
			a->sa_sigaction(sig, si, uc);
		else if (a->sa_handler != SIG_IGN && a->sa_handler != SIG_DFL)
			a->sa_handler(sig);
	}
	atomic_signal_fence(memory_order_seq_cst);
	t->in_signal--;
	t->sigs_blocked = was_blocked;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	pthread_once(&resolve_once, resolve);
	if (!real_sigaction) {
		errno = ENOSYS;
		return -1;
	}
	if (sig <= 0 || sig >= _NSIG)
		return real_sigaction(sig, act, oldact);
	pthread_mutex_lock(&act_lock);
	struct sigaction prev, prev_user = user_act[sig];
	int rc = real_sigaction(sig, NULL, &prev);
	bool wrapped = rc == 0 && (prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction == trampoline;
	if (rc == 0 && act) {
		struct sigaction k = *act;
		bool is_handler = (act->sa_flags & SA_SIGINFO) ||
				  (act->sa_handler != SIG_IGN && act->sa_handler != SIG_DFL);
		if (is_handler) {
			/* The trampoline runs in the program's handler's place, same flags. */
			k.sa_flags |= SA_SIGINFO;
			k.sa_sigaction = trampoline;
			user_act[sig] = *act;
			handler_blocks_all[sig] = blocks_all(&act->sa_mask);
			atomic_store_explicit(&user_ptr[sig], &user_act[sig], memory_order_release);
		}
		rc = real_sigaction(sig, &k, NULL);
		if (rc != 0 && is_handler)
			user_act[sig] = prev_user;
		else if (rc == 0 && !is_handler)
			atomic_store_explicit(&user_ptr[sig], NULL, memory_order_release);
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

static void note_mask(int rc)
{
	if (rc != 0)
		return;
	sigset_t now;
	if (real_pthread_sigmask && real_pthread_sigmask(SIG_BLOCK, NULL, &now) == 0)
		uft_tls.sigs_blocked = blocks_all(&now);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	pthread_once(&resolve_once, resolve);
	if (!real_sigprocmask) {
		errno = ENOSYS;
		return -1;
	}
	int rc = real_sigprocmask(how, set, old);
	if (set)
		note_mask(rc);
	return rc;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	pthread_once(&resolve_once, resolve);
	if (!real_pthread_sigmask)
		return ENOSYS;
	int rc = real_pthread_sigmask(how, set, old);
	if (set)
		note_mask(rc);
	return rc;
}

/* Leaving a handler by a long jump skips the trampoline's epilogue: the jump
 * itself says the thread is back outside every handler. siglongjmp() also
 * restores the mask saved by sigsetjmp(), which is taken to be the usual one
 * (not everything blocked); longjmp() leaves the mask as it is. */
typedef void (*jump_fn)(void *, int) __attribute__((noreturn));

enum { JUMP_SIGLONGJMP, JUMP_LONGJMP, JUMP_LONGJMP_CHK, NR_JUMPS };
static const char *const jump_names[NR_JUMPS] = {"siglongjmp", "longjmp", "__longjmp_chk"};
static _Atomic(jump_fn) jumps[NR_JUMPS];

static jump_fn next_jump(int which)
{
	jump_fn f = atomic_load_explicit(&jumps[which], memory_order_relaxed);
	if (!f) {
		f = (jump_fn)next_symbol(jump_names[which]);
		atomic_store_explicit(&jumps[which], f, memory_order_relaxed);
	}
	return f;
}

void siglongjmp(sigjmp_buf env, int val)
{
	uft_tls.in_signal = 0;
	uft_tls.sigs_blocked = 0;
	next_jump(JUMP_SIGLONGJMP)(env, val);
}

void longjmp(jmp_buf env, int val)
{
	uft_tls.in_signal = 0;
	next_jump(JUMP_LONGJMP)(env, val);
}

void __longjmp_chk(jmp_buf env, int val)
{
	uft_tls.in_signal = 0;
	next_jump(JUMP_LONGJMP_CHK)(env, val);
}
