/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's workloads, timed from inside so that a tracer's own
 * start-up and file writing are left out:
 *
 *   syscall_loop getppid N    N getppid() calls: prints "ns N" per call
 *   syscall_loop forkexec N   N fork + exec of /bin/true, waited for: "ns N" per child
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int forkexec(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: syscall_loop getppid|forkexec N\n");
		return 2;
	}
	long n = strtol(argv[2], NULL, 0);
	if (n <= 0) {
		fprintf(stderr, "syscall_loop: bad count '%s'\n", argv[2]);
		return 2;
	}
	double t0 = now_ns();
	if (strcmp(argv[1], "getppid") == 0) {
		/* The raw call: glibc may answer some calls without the kernel. */
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (strcmp(argv[1], "forkexec") == 0) {
		for (long i = 0; i < n; i++)
			if (forkexec() != 0) {
				fprintf(stderr, "syscall_loop: fork/exec failed\n");
				return 1;
			}
	} else {
		fprintf(stderr, "syscall_loop: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	printf("ns %.1f\n", (now_ns() - t0) / (double)n);
	return 0;
}
