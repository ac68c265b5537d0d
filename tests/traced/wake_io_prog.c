/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wake_io_prog KIND: a thread "io_waiter" blocks in io_wait_KIND and the
 * main thread wakes it once it sleeps, three times: KIND futex
 * (syscall(SYS_futex)), evfd (write/read of 8 bytes on an eventfd),
 * evfd_lib (eventfd_write/eventfd_read), pipe (write, read) or poll (write,
 * poll then read). Linked with libuft.so, for test_wake_io.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *kind;
static int fd[2];
static uint32_t word;
static pid_t waiter_tid;

static void wait_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static __attribute__((noinline)) void io_wait_futex(void)
{
	while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) == 0)
		syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	__atomic_store_n(&word, 0, __ATOMIC_RELEASE);
}

static __attribute__((noinline)) void io_wait_evfd(void)
{
	uint64_t v;
	while (read(fd[0], &v, sizeof(v)) != (ssize_t)sizeof(v))
		;
}

static __attribute__((noinline)) void io_wait_evfd_lib(void)
{
	eventfd_t v;
	while (eventfd_read(fd[0], &v) != 0)
		;
}

static __attribute__((noinline)) void io_wait_pipe(void)
{
	char c;
	while (read(fd[0], &c, 1) != 1)
		;
}

static __attribute__((noinline)) void io_wait_poll(void)
{
	struct pollfd p = {fd[0], POLLIN, 0};
	while (poll(&p, 1, -1) != 1)
		;
	char c;
	if (read(fd[0], &c, 1) != 1)
		_exit(3);
}

static void *waiter(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "io_waiter");
	__atomic_store_n(&waiter_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int i = 0; i < 3; i++) {
		if (!strcmp(kind, "futex"))
			io_wait_futex();
		else if (!strcmp(kind, "evfd"))
			io_wait_evfd();
		else if (!strcmp(kind, "evfd_lib"))
			io_wait_evfd_lib();
		else if (!strcmp(kind, "pipe"))
			io_wait_pipe();
		else
			io_wait_poll();
	}
	return NULL;
}

/* Whether the waiter sleeps (state S): then it is in its wait. */
static int asleep(void)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat",
		 (int)__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE));
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

int main(int argc, char **argv)
{
	kind = argc > 1 ? argv[1] : "pipe";
	if (!strcmp(kind, "evfd") || !strcmp(kind, "evfd_lib"))
		fd[0] = fd[1] = eventfd(0, EFD_CLOEXEC);
	else if (strcmp(kind, "futex") && pipe2(fd, O_CLOEXEC) != 0)
		return 1;
	pthread_t th;
	if (pthread_create(&th, NULL, waiter, NULL) != 0)
		return 1;
	while (!__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE))
		wait_ms(1);
	uint64_t one = 1;
	for (int i = 0; i < 3; i++) {
		for (int t = 0; t < 5000 && !asleep(); t++)
			wait_ms(1);
		wait_ms(2);
		if (!strcmp(kind, "futex")) {
			__atomic_store_n(&word, 1, __ATOMIC_RELEASE);
			syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
			while (__atomic_load_n(&word, __ATOMIC_ACQUIRE))
				wait_ms(1);
		} else if (!strcmp(kind, "evfd")) {
			if (write(fd[1], &one, sizeof(one)) != (ssize_t)sizeof(one))
				return 2;
		} else if (!strcmp(kind, "evfd_lib")) {
			if (eventfd_write(fd[1], 1) != 0)
				return 2;
		} else if (write(fd[1], "x", 1) != 1) {
			return 2;
		}
		wait_ms(5);
	}
	pthread_join(th, NULL);
	return 0;
}
