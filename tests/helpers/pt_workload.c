/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's test program (tests/integration/test_proctrace.sh).
 *
 *   pt_workload run      two threads make a known set of calls (getpgid twice
 *                        in one, getsid once in the other; umask three times
 *                        in main); SIGUSR1 handled, SIGUSR2 ignored; a child
 *                        killed by SIGTERM; a child that execs `true`;
 *                        a child whose second thread execs `true` (the
 *                        exec takes the leader's id); exit status 7
 *   pt_workload loop F   forever: a line to file F every 10 ms from a second
 *                        thread, getppid in main (for attach and detach)
 *   pt_workload spin N   N getppid calls, then the mean ns per call on stdout
 *                        (a measurement, not a test) */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	got_usr1 = 1;
}

static void *thread_a(void *arg)
{
	syscall(SYS_getpgid, 0);
	syscall(SYS_getpgid, 0);
	return NULL;
}

static void *thread_b(void *arg)
{
	syscall(SYS_getsid, 0);
	return NULL;
}

static void *exec_thread(void *arg)
{
	execlp("true", "true", (char *)NULL);
	_exit(127);
}

static int run(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_join(a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	pthread_join(b, NULL);
	for (int i = 0; i < 3; i++)
		syscall(SYS_umask, 022);

	struct sigaction sa = {.sa_handler = on_usr1};
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
	raise(SIGUSR1);
	raise(SIGUSR2);
	if (!got_usr1)
		return 1;

	pid_t c = fork();
	if (c == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGTERM)
		return 1;

	c = fork();
	if (c == 0) {
		execlp("true", "true", (char *)NULL);
		_exit(127);
	}
	waitpid(c, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;

	c = fork();
	if (c == 0) {
		pthread_t t;
		pthread_create(&t, NULL, exec_thread, NULL);
		pthread_join(t, NULL); /* never returns: the exec ends this thread */
		_exit(126);
	}
	waitpid(c, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	return 7;
}

static const char *loop_file;

static void *ticker(void *arg)
{
	struct timespec ts = {0, 10 * 1000 * 1000};
	for (unsigned long n = 0;; n++) {
		FILE *f = fopen(loop_file, "a");
		if (f) {
			fprintf(f, "%lu\n", n);
			fclose(f);
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "run") == 0)
		return run();
	if (argc >= 3 && strcmp(argv[1], "spin") == 0) {
		long n = atol(argv[2]);
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		clock_gettime(CLOCK_MONOTONIC, &b);
		double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
		printf("%.0f ns per getppid\n", ns / (double)(n > 0 ? n : 1));
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "loop") == 0) {
		loop_file = argv[2];
		pthread_t t;
		pthread_create(&t, NULL, ticker, NULL);
		struct timespec ts = {0, 5 * 1000 * 1000};
		for (;;) {
			syscall(SYS_getppid);
			nanosleep(&ts, NULL);
		}
	}
	fprintf(stderr, "usage: pt_workload run | loop FILE | spin N\n");
	return 2;
}
