/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pthread mutexes as critical sections for preemptoff and preemptirqsoff
 * with options/lock-holdtime (runtime/latency/csect.h): libuft stands in
 * front of the mutex lock, trylock, timedlock, clocklock and unlock. With the
 * option off (or another tracer current) each costs one load, a predicted
 * branch and the call of libc's own. A condition variable's wait gives the
 * mutex back while it sleeps: wake_interpose.c ends and restarts the hold
 * around it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "runtime/core/interpose.h"
#include "runtime/core/interpose_next.h"
#include "runtime/latency/csect.h"
#include "util/atomics.h"

typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*mtimed_fn)(pthread_mutex_t *, const struct timespec *);
typedef int (*mclock_fn)(pthread_mutex_t *, clockid_t, const struct timespec *);

static struct {
	mutex_fn lock, trylock, unlock;
	mtimed_fn timedlock;
	mclock_fn clocklock;
} real;

UFT_DECLARE_ICPT(int, pthread_mutex_lock, pthread_mutex_t *);
UFT_DECLARE_ICPT(int, pthread_mutex_trylock, pthread_mutex_t *);
UFT_DECLARE_ICPT(int, pthread_mutex_unlock, pthread_mutex_t *);
UFT_DECLARE_ICPT(int, pthread_mutex_timedlock, pthread_mutex_t *, const struct timespec *);
UFT_DECLARE_ICPT(int, pthread_mutex_clocklock, pthread_mutex_t *, clockid_t,
		 const struct timespec *);

#define NEXT(f, v) uft_interpose_next(#f, v, (void *)&f, UFT_ICPT(f))

/* Early among the constructors (libuft's own start threads that lock);
 * a call before it resolves on the spot, every store the same value. */
__attribute__((constructor(101))) static void resolve(void)
{
	smp_store_release(&real.lock, (mutex_fn)NEXT(pthread_mutex_lock, NULL));
	smp_store_release(&real.trylock, (mutex_fn)NEXT(pthread_mutex_trylock, NULL));
	smp_store_release(&real.unlock, (mutex_fn)NEXT(pthread_mutex_unlock, NULL));
	smp_store_release(&real.timedlock, (mtimed_fn)NEXT(pthread_mutex_timedlock, NULL));
	smp_store_release(&real.clocklock, (mclock_fn)NEXT(pthread_mutex_clocklock, NULL));
}

#define REAL(f)                                                                                    \
	(__builtin_expect(smp_load_acquire(&real.f) != NULL, 1)                                    \
	     ? smp_load_acquire(&real.f)                                                           \
	     : (resolve(), smp_load_acquire(&real.f)))

/* Taken: 0, or EOWNERDEAD (a robust mutex whose owner died is held). */
#define TAKEN(rc) ((rc) == 0 || (rc) == EOWNERDEAD)

int pthread_mutex_lock(pthread_mutex_t *m)
{
	int rc = REAL(lock)(m);
	if (uft_csect_mutex_on() && TAKEN(rc))
		uft_csect_mutex_taken((uintptr_t)&pthread_mutex_lock,
				      (uintptr_t)__builtin_return_address(0));
	return rc;
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	int rc = REAL(trylock)(m);
	if (uft_csect_mutex_on() && TAKEN(rc))
		uft_csect_mutex_taken((uintptr_t)&pthread_mutex_trylock,
				      (uintptr_t)__builtin_return_address(0));
	return rc;
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *at)
{
	int rc = REAL(timedlock)(m, at);
	if (uft_csect_mutex_on() && TAKEN(rc))
		uft_csect_mutex_taken((uintptr_t)&pthread_mutex_timedlock,
				      (uintptr_t)__builtin_return_address(0));
	return rc;
}

int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *at)
{
	int rc = REAL(clocklock)(m, clk, at);
	if (uft_csect_mutex_on() && TAKEN(rc))
		uft_csect_mutex_taken((uintptr_t)&pthread_mutex_clocklock,
				      (uintptr_t)__builtin_return_address(0));
	return rc;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	int rc = REAL(unlock)(m);
	if (uft_csect_mutex_on() && rc == 0)
		uft_csect_mutex_given((uintptr_t)&pthread_mutex_unlock,
				      (uintptr_t)__builtin_return_address(0));
	return rc;
}
