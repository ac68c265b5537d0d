/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The libc and unwinder functions libuft defines in front of the real ones
 * (signal context, thread following, libraries loaded while tracing, C++
 * exceptions under the graph tracer). libuft is built with hidden
 * visibility: these declarations keep the definitions exported. They carry
 * no symbol version (libuft.map lists only the API), so a call bound to
 * libc's or libgcc's versioned symbol from any other object still reaches
 * them first. Each defining file includes this header. */
#ifndef UFT_RUNTIME_INTERPOSE_H
#define UFT_RUNTIME_INTERPOSE_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>

#include <uft/export.h>

/* signals.c */
UFT_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact);
UFT_EXPORT sighandler_t signal(int sig, sighandler_t handler);
UFT_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old);
UFT_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old);
UFT_EXPORT void siglongjmp(sigjmp_buf env, int val) __attribute__((noreturn));
UFT_EXPORT void longjmp(jmp_buf env, int val) __attribute__((noreturn));
UFT_EXPORT void __longjmp_chk(jmp_buf env, int val) __attribute__((noreturn));

/* wake_interpose.c */
#include <semaphore.h>
#include <time.h>
UFT_EXPORT int pthread_cond_signal(pthread_cond_t *c);
UFT_EXPORT int pthread_cond_broadcast(pthread_cond_t *c);
UFT_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
UFT_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				      const struct timespec *at);
UFT_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
				      const struct timespec *at);
UFT_EXPORT int sem_post(sem_t *s);
UFT_EXPORT int sem_wait(sem_t *s);
UFT_EXPORT int sem_timedwait(sem_t *s, const struct timespec *at);
UFT_EXPORT int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *at);

/* mutex_interpose.c */
UFT_EXPORT int pthread_mutex_lock(pthread_mutex_t *m);
UFT_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m);
UFT_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *at);
UFT_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk,
				       const struct timespec *at);
UFT_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m);

/* thread_follow.c */
UFT_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
			      void *arg);

/* tfs_ftrace.c */
UFT_EXPORT void *dlopen(const char *file, int mode);

/* ftrace_unwind.c */
struct _Unwind_Exception;
struct _Unwind_Context;
UFT_EXPORT int _Unwind_RaiseException(struct _Unwind_Exception *e);
UFT_EXPORT int _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *e);
UFT_EXPORT void _Unwind_Resume(struct _Unwind_Exception *e);
UFT_EXPORT int _Unwind_ForcedUnwind(struct _Unwind_Exception *e,
				    int (*stop)(int, int, unsigned long, struct _Unwind_Exception *,
						struct _Unwind_Context *, void *),
				    void *arg);

#endif
