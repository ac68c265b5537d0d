/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* event-fork and function-fork for threads. In the kernel a thread is a task
 * like any other: with either option set, the thread a listed task creates
 * joins the list and leaves it when it exits. libuft stands in front of
 * pthread_create() for that; while no instance has either option set, the
 * call goes straight through. libuft's own threads are never followed: it
 * makes them with uft_thread_create_internal(), and the threads they make
 * (libfuse's workers) come from threads that never trace. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/core/interpose.h"
#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "util/atomics.h"

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* A sanitizer runtime linked into the program defines pthread_create as a
 * weak alias of its interceptor: ours replaces it there, so we call the
 * interceptor ourselves or the sanitizer never sees the thread. */
extern int __interceptor_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *),
					void *) __attribute__((weak));

static bool follow;
static create_fn next_create;
/* False when a sanitizer's interceptor comes first and calls ours as its
 * "real" one: the start routine we would wrap is then the sanitizer's,
 * and ours would run before the sanitizer has set the thread up. */
static bool can_follow;
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

/* The definition to call: the sanitizer's interceptor when the program
 * binds to ours (none calls us then), else the next one. */
static void resolve(void)
{
	Dl_info first, self;
	bool ours = dladdr(dlsym(RTLD_DEFAULT, "pthread_create"), &first) &&
		    dladdr((void *)resolve, &self) && first.dli_fbase == self.dli_fbase;
	if (__interceptor_pthread_create && ours)
		next_create = __interceptor_pthread_create;
	else
		next_create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	can_follow = ours || !__interceptor_pthread_create;
}

/* At start-up, before the program's threads (dlsym inside a first
 * pthread_create could wait on a dlopen whose constructor makes a thread). */
void uft_thread_follow_init(void)
{
	pthread_once(&resolve_once, resolve);
}

void uft_thread_follow(bool on)
{
	uft_store_seq_cst(&follow, on);
}

/* On the creator's stack until the new thread is in the lists: as with the
 * kernel's fork, pthread_create returns with the thread already listed. */
struct start {
	void *(*fn)(void *);
	void *arg;
	pid_t parent;
	uint32_t listed;
};

static void left(void *arg)
{
	(void)arg;
	uft_tracefs_thread_exits(gettid());
}

static void *started(void *p)
{
	struct start *s = p;
	void *(*fn)(void *) = s->fn;
	void *arg = s->arg;
	uft_tracefs_thread_created(s->parent, gettid());
	uft_store_seq_cst(&s->listed, 1);
	syscall(SYS_futex, &s->listed, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	void *ret;
	pthread_cleanup_push(left, NULL);
	ret = fn(arg);
	pthread_cleanup_pop(1);
	return ret;
}

int uft_thread_create_internal(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
			       void *arg)
{
	pthread_once(&resolve_once, resolve);
	return next_create(th, attr, fn, arg);
}

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	pthread_once(&resolve_once, resolve);
	if (!uft_load_seq_cst(&follow) || !can_follow || uft_tls.notrace)
		return next_create(th, attr, fn, arg);
	struct start s = {fn, arg, gettid(), 0};
	int rc = next_create(th, attr, started, &s);
	while (rc == 0 && !uft_load_seq_cst(&s.listed))
		syscall(SYS_futex, &s.listed, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return rc;
}
