/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The waits and wakes the wakeup tracers see (runtime/latency/wakeup.h):
 * libuft stands in front of the condition variables' signal, broadcast and
 * waits and the semaphores' post and waits. With no wakeup tracer current
 * each costs one load, a predicted branch and the call of libc's own.
 *
 * libc's definitions are taken by version where there are two: the
 * condition variables' default (GLIBC_2.3.2) is not the oldest, which a
 * plain dlsym() may return. They are resolved at start-up (sem_post() may
 * run in a signal handler, where dlsym() must not); interpose_next.h says
 * which definition a sanitizer build calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include "runtime/core/interpose.h"
#include "runtime/core/interpose_next.h"
#include "runtime/latency/csect.h"
#include "util/atomics.h"
#include "runtime/latency/wakeup.h"

typedef int (*cond1_fn)(pthread_cond_t *);
typedef int (*cwait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*ctwait_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
typedef int (*ccwait_fn)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
typedef int (*sem1_fn)(sem_t *);
typedef int (*stwait_fn)(sem_t *, const struct timespec *);
typedef int (*scwait_fn)(sem_t *, clockid_t, const struct timespec *);

static struct {
	cond1_fn signal, broadcast;
	cwait_fn wait;
	ctwait_fn timedwait;
	ccwait_fn clockwait;
	sem1_fn post, swait;
	stwait_fn stimedwait;
	scwait_fn sclockwait;
} real;

UFT_DECLARE_ICPT(int, pthread_cond_signal, pthread_cond_t *);
UFT_DECLARE_ICPT(int, pthread_cond_broadcast, pthread_cond_t *);
UFT_DECLARE_ICPT(int, pthread_cond_wait, pthread_cond_t *, pthread_mutex_t *);
UFT_DECLARE_ICPT(int, pthread_cond_timedwait, pthread_cond_t *, pthread_mutex_t *,
		 const struct timespec *);
UFT_DECLARE_ICPT(int, pthread_cond_clockwait, pthread_cond_t *, pthread_mutex_t *, clockid_t,
		 const struct timespec *);
UFT_DECLARE_ICPT(int, sem_post, sem_t *);
UFT_DECLARE_ICPT(int, sem_wait, sem_t *);
UFT_DECLARE_ICPT(int, sem_timedwait, sem_t *, const struct timespec *);
UFT_DECLARE_ICPT(int, sem_clockwait, sem_t *, clockid_t, const struct timespec *);

#define NEXT(f, v) uft_interpose_next(#f, v, (void *)&f, UFT_ICPT(f))

/* Early among the constructors (libuft's own start threads that lock);
 * a call before it resolves on the spot, every store the same value. */
__attribute__((constructor(101))) static void resolve(void)
{
	smp_store_release(&real.signal, (cond1_fn)NEXT(pthread_cond_signal, "GLIBC_2.3.2"));
	smp_store_release(&real.broadcast, (cond1_fn)NEXT(pthread_cond_broadcast, "GLIBC_2.3.2"));
	smp_store_release(&real.wait, (cwait_fn)NEXT(pthread_cond_wait, "GLIBC_2.3.2"));
	smp_store_release(&real.timedwait, (ctwait_fn)NEXT(pthread_cond_timedwait, "GLIBC_2.3.2"));
	smp_store_release(&real.clockwait, (ccwait_fn)NEXT(pthread_cond_clockwait, "GLIBC_2.34"));
	smp_store_release(&real.post, (sem1_fn)NEXT(sem_post, "GLIBC_2.34"));
	smp_store_release(&real.swait, (sem1_fn)NEXT(sem_wait, "GLIBC_2.34"));
	smp_store_release(&real.stimedwait, (stwait_fn)NEXT(sem_timedwait, "GLIBC_2.34"));
	smp_store_release(&real.sclockwait, (scwait_fn)NEXT(sem_clockwait, "GLIBC_2.34"));
}

#define REAL(f)                                                                                    \
	(__builtin_expect(smp_load_acquire(&real.f) != NULL, 1)                                    \
	     ? smp_load_acquire(&real.f)                                                           \
	     : (resolve(), smp_load_acquire(&real.f)))

int pthread_cond_signal(pthread_cond_t *c)
{
	if (uft_wake_on())
		uft_wake_note((uintptr_t)c, false);
	return REAL(signal)(c);
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	if (uft_wake_on())
		uft_wake_note((uintptr_t)c, true);
	return REAL(broadcast)(c);
}

/* A condition variable's wait gives its mutex back while it sleeps: with
 * lock-holdtime the hold ends before and starts again after it. */
static void begin_cond_wait(struct uft_wait *w, pthread_cond_t *c, uintptr_t ip, uintptr_t caller)
{
	if (uft_csect_mutex_on())
		uft_csect_mutex_given(ip, caller);
	if (uft_wake_on())
		uft_wait_begin(w, (uintptr_t)c, caller);
}

static void end_cond_wait(struct uft_wait *w, int rc, uintptr_t ip, uintptr_t caller)
{
	uft_wait_end(w, rc == 0);
	if (uft_csect_mutex_on() && (rc == 0 || rc == ETIMEDOUT || rc == EOWNERDEAD))
		uft_csect_mutex_taken(ip, caller);
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	if (!uft_wake_on() && !uft_csect_mutex_on())
		return REAL(wait)(c, m);
	struct uft_wait w = {0};
	uintptr_t ip = (uintptr_t)&pthread_cond_wait,
		  caller = (uintptr_t)__builtin_return_address(0);
	begin_cond_wait(&w, c, ip, caller);
	int rc = REAL(wait)(c, m);
	end_cond_wait(&w, rc, ip, caller);
	return rc;
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *at)
{
	if (!uft_wake_on() && !uft_csect_mutex_on())
		return REAL(timedwait)(c, m, at);
	struct uft_wait w = {0};
	uintptr_t ip = (uintptr_t)&pthread_cond_timedwait,
		  caller = (uintptr_t)__builtin_return_address(0);
	begin_cond_wait(&w, c, ip, caller);
	int rc = REAL(timedwait)(c, m, at);
	end_cond_wait(&w, rc, ip, caller);
	return rc;
}

int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
			   const struct timespec *at)
{
	if (!uft_wake_on() && !uft_csect_mutex_on())
		return REAL(clockwait)(c, m, clk, at);
	struct uft_wait w = {0};
	uintptr_t ip = (uintptr_t)&pthread_cond_clockwait,
		  caller = (uintptr_t)__builtin_return_address(0);
	begin_cond_wait(&w, c, ip, caller);
	int rc = REAL(clockwait)(c, m, clk, at);
	end_cond_wait(&w, rc, ip, caller);
	return rc;
}

int sem_post(sem_t *s)
{
	if (uft_wake_on())
		uft_wake_note((uintptr_t)s, false);
	return REAL(post)(s);
}

int sem_wait(sem_t *s)
{
	if (!uft_wake_on())
		return REAL(swait)(s);
	struct uft_wait w;
	uft_wait_begin(&w, (uintptr_t)s, (uintptr_t)__builtin_return_address(0));
	int rc = REAL(swait)(s);
	uft_wait_end(&w, rc == 0);
	return rc;
}

int sem_timedwait(sem_t *s, const struct timespec *at)
{
	if (!uft_wake_on())
		return REAL(stimedwait)(s, at);
	struct uft_wait w;
	uft_wait_begin(&w, (uintptr_t)s, (uintptr_t)__builtin_return_address(0));
	int rc = REAL(stimedwait)(s, at);
	uft_wait_end(&w, rc == 0);
	return rc;
}

int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *at)
{
	if (!uft_wake_on())
		return REAL(sclockwait)(s, clk, at);
	struct uft_wait w;
	uft_wait_begin(&w, (uintptr_t)s, (uintptr_t)__builtin_return_address(0));
	int rc = REAL(sclockwait)(s, clk, at);
	uft_wait_end(&w, rc == 0);
	return rc;
}
