/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The traced program of `make conformance`: events and functions with the
 * names the kernel's ftrace selftests look for (sched:sched_switch,
 * sched:sched_process_fork, kmem:kmalloc, raw_syscalls:sys_exit, schedule,
 * kernel_clone ...), all
 * happening every millisecond, so tests written for the kernel find their
 * events whenever they look. Each round runs on the next CPU it may use, so
 * that every CPU sees them as in a busy kernel (per-CPU files such as
 * trace_stat/functionN change on each). Each round also wakes a thread of
 * its own (SCHED_FIFO 5 when it may), waiting on a semaphore, for the
 * wakeup and wakeup_rt tracers. Runs until SIGINT or SIGTERM.
 *
 *   kernel_names [INTERVAL_US]   (default 1000) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define UFT_CREATE_EVENTS
#include "sched_events.h"
#define UFT_CREATE_EVENTS
#include "kmem_events.h"
#define UFT_CREATE_EVENTS
#include "syscalls_events.h"
#define UFT_CREATE_EVENTS
#include "signal_events.h"
#define UFT_CREATE_EVENTS
#include "raw_syscalls_events.h"

static volatile sig_atomic_t stop;
static volatile unsigned long sink;

static void on_signal(int sig)
{
	stop = 1;
}

/* The woken thread: a real-time thread waiting for the main loop's post,
 * as `chrt -f 5 sleep 1` waits for its timer in the kernel's tests. */
static sem_t wake_sem;

static void *woken(void *arg)
{
	(void)arg;
	struct sched_param sp = {.sched_priority = 5};
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp); /* root only */
	pthread_setname_np(pthread_self(), "rt_waiter");
	for (;;)
		sem_wait(&wake_sem);
	return NULL;
}

/* Functions for the function tracers, as the kernel names them. */
__attribute__((noinline)) void schedule(void)
{
	sink++;
}

__attribute__((noinline)) long kernel_clone(void)
{
	static pid_t next = 100000;
	trace_sched_process_fork("kernel_names", getpid(), "kernel_names", next);
	trace_sched_wakeup_new("kernel_names", next, 0);
	return next++;
}

__attribute__((noinline)) void do_exit(long pid)
{
	trace_sched_process_exit("kernel_names", (pid_t)pid);
}

__attribute__((noinline)) void *kmalloc(size_t size)
{
	void *p = malloc(size);
	trace_kmalloc((unsigned long)(uintptr_t)__builtin_return_address(0), p, size,
		      (size + 7) & ~(size_t)7);
	return p;
}

__attribute__((noinline)) void kfree(void *p)
{
	free(p);
}

__attribute__((noinline)) long do_sys_openat2(int dfd, const char *name)
{
	unsigned long args[6] = {(unsigned long)dfd, (unsigned long)(uintptr_t)name};
	trace_sys_enter(257, args); /* openat */
	trace_sys_enter_openat(dfd, name, 0, 0);
	trace_sys_exit(257, -2);
	return -1;
}

/* The kernel's open path calls do_sys_openat2 from do_sys_open. */
__attribute__((noinline)) long do_sys_open(int dfd, const char *name, int flags, int mode)
{
	return do_sys_openat2(dfd, name) + (flags & mode & 0);
}

/* Functions the probe tests define kprobes on, with the kernel's argument
 * order, so that $argN and %di/%si name what they name there. */
struct conf_file {
	long f_pos;
	char name[16];
};

__attribute__((noinline)) long vfs_read(struct conf_file *file, char *buf, size_t count, long *pos)
{
	size_t n = count < sizeof(file->name) ? count : sizeof(file->name);
	for (size_t i = 0; i < n; i++)
		buf[i] = file->name[i];
	*pos += (long)n;
	return (long)n;
}

__attribute__((noinline)) int vfs_open(const char *path, struct conf_file *file)
{
	file->f_pos = 0;
	sink += (unsigned long)path[0];
	return 0;
}

__attribute__((noinline)) int vfs_symlink(void *idmap, void *dir, const char *oldname)
{
	sink += (unsigned long)oldname[0] + (idmap == dir);
	return 0;
}

__attribute__((noinline)) void *inet_csk_accept(void *sk, int flags, int *err, _Bool kern)
{
	*err = flags ? -11 : 0; /* -EAGAIN */
	return kern ? sk : NULL;
}

__attribute__((noinline)) int wake_up_process(void *task)
{
	return task != NULL;
}

/* One round of the file calls above. */
static void file_calls(void)
{
	static struct conf_file file = {.name = "kernel_names"};
	char buf[16];
	long pos = 0;
	int err;
	vfs_open("/etc/hostname", &file);
	vfs_read(&file, buf, sizeof(buf), &pos);
	vfs_symlink(NULL, &file, "foo");
	inet_csk_accept(&file, 0, &err, 0);
	wake_up_process(&file);
}

/* Names the function filter tests write as globs ('*pin*lock', 'mutex*unl*',
 * '[Ss]y[Ss]_*', '*lock*', 'do_execve*', scheduler_tick ...). */
static volatile int lock_word;
#define CONF_FUNC(name)                                                                            \
	__attribute__((noinline)) void name(void)                                                  \
	{                                                                                          \
		lock_word++;                                                                       \
	}
CONF_FUNC(_raw_spin_lock)
CONF_FUNC(_raw_spin_unlock)
CONF_FUNC(_raw_spin_trylock)
CONF_FUNC(mutex_lock)
CONF_FUNC(mutex_unlock)
CONF_FUNC(mutex_trylock)
CONF_FUNC(console_unlock)
CONF_FUNC(sys_getpid)
CONF_FUNC(SyS_read)
CONF_FUNC(do_execveat_common)
CONF_FUNC(scheduler_tick)
CONF_FUNC(preempt_schedule)
CONF_FUNC(schedule_timeout)

/* One round of what a busy kernel does. */
__attribute__((noinline)) void try_to_wake_up(pid_t self)
{
	trace_sched_waking("kernel_names", self, 0);
	trace_sched_wakeup("kernel_names", self, 0);
}

/* Moves to the next CPU of `allowed` after `*cpu` (round robin). */
static void next_cpu(const cpu_set_t *allowed, int *cpu)
{
	if (CPU_COUNT(allowed) < 2)
		return;
	do
		*cpu = (*cpu + 1) % CPU_SETSIZE;
	while (!CPU_ISSET(*cpu, allowed));
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(*cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

int main(int argc, char **argv)
{
	long us = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	if (us < 1 || us > 1000000)
		us = 1000;
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct timespec pause = {us / 1000000, (us % 1000000) * 1000};
	pid_t self = getpid();
	cpu_set_t allowed;
	int cpu = -1;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		CPU_ZERO(&allowed);
	pthread_t th;
	sem_init(&wake_sem, 0, 0);
	if (pthread_create(&th, NULL, woken, NULL) == 0)
		pthread_detach(th);
	while (!stop) {
		next_cpu(&allowed, &cpu);
		try_to_wake_up(self);
		trace_sched_switch("kernel_names", self, 1, "swapper/0", 0);
		schedule();
		scheduler_tick();
		_raw_spin_lock();
		_raw_spin_unlock();
		_raw_spin_trylock();
		mutex_lock();
		mutex_unlock();
		mutex_trylock();
		console_unlock();
		sys_getpid();
		SyS_read();
		do_execveat_common();
		preempt_schedule();
		schedule_timeout();
		trace_sched_switch("swapper/0", 0, 0, "kernel_names", self);
		long child = kernel_clone();
		trace_sched_process_exec("/bin/sh", (pid_t)child);
		do_exit(child);
		kfree(kmalloc(64));
		do_sys_open(-100, "/etc/ld.so.cache", 0, 0);
		file_calls();
		trace_signal_generate(17, "kernel_names", self);
		sem_post(&wake_sem);
		nanosleep(&pause, NULL);
	}
	return 0;
}
