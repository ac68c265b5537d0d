/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wakeup tracers' wakes through futexes (syscall(SYS_futex)), eventfds
 * (write/read, eventfd_write/eventfd_read) and pipes (read, poll): a thread
 * blocks in its wait (the test waits until the kernel says it sleeps), the
 * main thread wakes it, and the max trace holds the wakeup and switch lines
 * and the woken thread's stack from its waiting function. Under wakeup_rt a
 * SCHED_FIFO waiter is woken by a higher-priority waker on the same CPU that
 * keeps the CPU 3 ms, so the latency is at least that (skipped where
 * SCHED_FIFO is refused). No tracer: nothing recorded. The wrappers never
 * change a result or errno. Bounds are generous: never a tight timing. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tfs_helpers.h"
#include "lat_helpers.h"

enum kind { K_FUTEX, K_EVFD, K_EVFD_LIB, K_PIPE, K_POLL, NR_KINDS };
static const char *const kind_name[NR_KINDS] = {"io_wait_futex", "io_wait_evfd", "io_wait_evfd_lib",
						"io_wait_pipe", "io_wait_poll"};

struct io {
	enum kind k;
	int fd[2];
	uint32_t word;
	bool fifo, fifo_ok;
	pid_t tid; /* set when the waiter is about to wait */
};

static __attribute__((noinline)) void io_wait_futex(struct io *io)
{
	while (__atomic_load_n(&io->word, __ATOMIC_ACQUIRE) == 0)
		syscall(SYS_futex, &io->word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static __attribute__((noinline)) void io_wait_evfd(struct io *io)
{
	uint64_t v;
	while (read(io->fd[0], &v, sizeof(v)) != (ssize_t)sizeof(v))
		;
}

static __attribute__((noinline)) void io_wait_evfd_lib(struct io *io)
{
	eventfd_t v;
	while (eventfd_read(io->fd[0], &v) != 0)
		;
}

static __attribute__((noinline)) void io_wait_pipe(struct io *io)
{
	char c;
	while (read(io->fd[0], &c, 1) != 1)
		;
}

static __attribute__((noinline)) void io_wait_poll(struct io *io)
{
	struct pollfd p = {io->fd[0], POLLIN, 0};
	while (poll(&p, 1, -1) != 1)
		;
	char c;
	assert_int_equal(read(io->fd[0], &c, 1), 1);
}

static void pin_cpu0(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *waiter(void *arg)
{
	struct io *io = arg;
	prctl(PR_SET_NAME, "uft-io-woken");
	if (io->fifo) {
		pin_cpu0();
		struct sched_param sp = {.sched_priority = 5};
		io->fifo_ok = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
	}
	/* no semaphore: the main thread's own wake would be measured */
	__atomic_store_n(&io->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	switch (io->k) {
	case K_FUTEX:
		io_wait_futex(io);
		break;
	case K_EVFD:
		io_wait_evfd(io);
		break;
	case K_EVFD_LIB:
		io_wait_evfd_lib(io);
		break;
	case K_PIPE:
		io_wait_pipe(io);
		break;
	default:
		io_wait_poll(io);
		break;
	}
	return NULL;
}

/* Whether the thread sleeps (state S in /proc): then it is in its wait. */
static bool asleep(pid_t tid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static void wake(struct io *io)
{
	uint64_t one = 1;
	switch (io->k) {
	case K_FUTEX:
		__atomic_store_n(&io->word, 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, &io->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		break;
	case K_EVFD:
		assert_int_equal(write(io->fd[1], &one, sizeof(one)), (ssize_t)sizeof(one));
		break;
	case K_EVFD_LIB:
		assert_int_equal(eventfd_write(io->fd[1], 1), 0);
		break;
	default:
		assert_int_equal(write(io->fd[1], "x", 1), 1);
		break;
	}
}

/* One wake of kind k; `spin_ms` > 0: the waker is SCHED_FIFO 6 on CPU 0 and
 * keeps it that long after the wake. Returns whether the waiter got
 * SCHED_FIFO when it asked. */
static bool round_of(enum kind k, bool fifo, int spin_ms)
{
	struct io io;
	memset(&io, 0, sizeof(io));
	io.k = k;
	io.fifo = fifo;
	if (k == K_EVFD || k == K_EVFD_LIB) {
		io.fd[0] = io.fd[1] = eventfd(0, EFD_CLOEXEC);
		assert_true(io.fd[0] >= 0);
	} else if (k != K_FUTEX) {
		assert_int_equal(pipe2(io.fd, O_CLOEXEC), 0);
	}
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, waiter, &io), 0);
	while (!__atomic_load_n(&io.tid, __ATOMIC_ACQUIRE))
		wait_ms(1);
	for (int i = 0; i < 5000 && !asleep(io.tid); i++)
		wait_ms(1);
	wait_ms(2);
	cpu_set_t old_set;
	int old_pol = sched_getscheduler(0);
	struct sched_param old_sp;
	sched_getparam(0, &old_sp);
	bool spin = spin_ms > 0 && io.fifo_ok;
	if (spin) {
		pthread_getaffinity_np(pthread_self(), sizeof(old_set), &old_set);
		pin_cpu0();
		struct sched_param sp = {.sched_priority = 6};
		spin = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
	}
	wake(&io);
	if (spin) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		do
			clock_gettime(CLOCK_MONOTONIC, &b);
		while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
		       (long)spin_ms * 1000000L);
		sched_setscheduler(0, old_pol, &old_sp);
		pthread_setaffinity_np(pthread_self(), sizeof(old_set), &old_set);
	}
	pthread_join(th, NULL);
	if (io.fd[0] > 0)
		close(io.fd[0]);
	if (io.fd[1] > 0 && io.fd[1] != io.fd[0])
		close(io.fd[1]);
	return io.fifo_ok;
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC);
	return 0;
}

/* The max trace of one wake: its two lines, the stack of the woken thread
 * from its waiting function. */
static void check_trace(const char *tracer, enum kind k, const char *prio)
{
	unsigned long m = max_latency();
	if (m >= 1000000) {
		fprintf(stderr, "%s %s: max %lu us\n", tracer, kind_name[k], m);
		fail();
	}
	char *s = cat("trace");
	char line[160];
	snprintf(line, sizeof(line), "# %s latency trace v1.1.5 on uft-", tracer);
	assert_has(s, line);
	snprintf(line, sizeof(line), "# latency: %lu us, #3/3, CPU#", m);
	assert_has(s, line);
	assert_has(s, "#    | task: uft-io-woken-");
	assert_has(s, ":R   + [");
	snprintf(line, sizeof(line), ":%s:R uft-io-woken\n", prio);
	assert_has(s, line);
	snprintf(line, sizeof(line), ":%s:S ==> [", prio);
	assert_has(s, line);
	snprintf(line, sizeof(line), "us : <stack trace>\n => %s\n => waiter\n", kind_name[k]);
	assert_has(s, line);
	free(s);
}

static void test_wakeup(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	for (int k = 0; k < NR_KINDS; k++) {
		assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
		round_of((enum kind)k, false, 0);
		if (max_latency() == 0) {
			fprintf(stderr, "%s: no wake measured\n", kind_name[k]);
			fail();
		}
		check_trace("wakeup", (enum kind)k, "120");
	}
}

/* wakeup_rt: a SCHED_OTHER waiter is not measured; a SCHED_FIFO 5 one woken
 * by a SCHED_FIFO 6 waker that keeps their CPU 3 ms waits at least that. */
static void test_wakeup_rt(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup_rt", UFT_TFS_TRUNC), 0);
	round_of(K_FUTEX, false, 0);
	round_of(K_PIPE, false, 0);
	assert_int_equal(max_latency(), 0);
	for (int k = 0; k < NR_KINDS; k++) {
		assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
		if (!round_of((enum kind)k, true, 3))
			skip(); /* no CAP_SYS_NICE nor RLIMIT_RTPRIO here */
		unsigned long m = max_latency();
		if (m < 3000) {
			fprintf(stderr, "%s: max %lu us, below the waker's 3 ms\n", kind_name[k],
				m);
			fail();
		}
		check_trace("wakeup_rt", (enum kind)k, " 94");
	}
}

/* No wakeup tracer: no wake is measured and no record written. */
static void test_off(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
	for (int k = 0; k < NR_KINDS; k++)
		round_of((enum kind)k, false, 0);
	assert_int_equal(max_latency(), 0);
	char *s = cat("trace");
	assert_null(strstr(s, " ==> ["));
	assert_null(strstr(s, "   + ["));
	assert_null(strstr(s, "<stack trace>"));
	free(s);
}

/* Results and errno pass through untouched while the tracer looks. */
static void test_results(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	int p[2];
	assert_int_equal(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	char c;
	errno = 0;
	assert_int_equal(read(p[0], &c, 1), -1);
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(write(p[1], "ab", 2), 2);
	assert_int_equal(read(p[0], &c, 1), 1);
	assert_int_equal(c, 'a');
	struct pollfd pf = {p[0], POLLIN, 0};
	assert_int_equal(poll(&pf, 1, 0), 1);
	assert_int_equal(pf.revents, POLLIN);
	close(p[0]);
	close(p[1]);
	errno = 0;
	assert_int_equal(write(-1, "x", 1), -1);
	assert_int_equal(errno, EBADF);
	errno = 0;
	assert_int_equal(read(1000000, &c, 1), -1);
	assert_int_equal(errno, EBADF);
	uint32_t word = 7;
	errno = 0;
	assert_int_equal(syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0), -1);
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0), 0);
	assert_int_equal(syscall(SYS_getpid), getpid());
	assert_int_equal(syscall(SYS_gettid), gettid());
	int e = eventfd(3, EFD_NONBLOCK | EFD_CLOEXEC);
	eventfd_t v = 0;
	assert_int_equal(eventfd_read(e, &v), 0);
	assert_int_equal(v, 3);
	errno = 0;
	assert_int_equal(eventfd_read(e, &v), -1);
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(eventfd_write(e, 5), 0);
	assert_int_equal(read(e, &v, sizeof(v)), (ssize_t)sizeof(v));
	assert_int_equal(v, 5);
	close(e);
	assert_int_equal(max_latency(), 0); /* nothing here slept */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_wakeup, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wakeup_rt, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_off, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_results, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
