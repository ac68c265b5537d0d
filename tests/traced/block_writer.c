/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writes events as fast as it can, with a signal handler that writes too and
 * a forked child that writes its own, for uft record's block mode: every
 * event must reach the file, and the program must finish whatever becomes
 * of the recorder.
 *
 *   block_writer N [PROGRESS [DONE]]
 *
 * The parent calls step() N times, the child (forked halfway) N / 4 times;
 * step() writes one blk:seq event, so under -p function_graph -l step each
 * call is two records. A 1 ms SIGALRM timer runs in the parent; its handler
 * writes blk:sig. PROGRESS gets "PID I" every 10000 calls; at the end the
 * parent prints "calls C signals S" and writes it to DONE. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uft/uft.h>

static volatile sig_atomic_t signals;

__attribute__((noinline)) static void step(unsigned long i)
{
	UFT_TRACE(blk, seq, "n=%lu", i);
	__asm__ volatile("" ::: "memory");
}

static void on_alarm(int sig)
{
	(void)sig;
	UFT_TRACE(blk, sig, "k=%d", (int)signals);
	signals = signals + 1;
}

static void progress(int fd, unsigned long i)
{
	char buf[64];
	int len = snprintf(buf, sizeof(buf), "%d %lu\n", (int)getpid(), i);
	if (fd >= 0 && pwrite(fd, buf, (size_t)len, 0) != len)
		_exit(3);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	int fd = argc > 2 ? open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	const char *done = argc > 3 ? argv[3] : NULL;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {{0, 1000}, {0, 1000}};
	setitimer(ITIMER_REAL, &it, NULL);
	pid_t child = -1;
	for (unsigned long i = 1; i <= n; i++) {
		if (i == n / 2 + 1) {
			child = fork();
			if (child == 0) {
				for (unsigned long k = 1; k <= n / 4; k++)
					step(k);
				_exit(0);
			}
		}
		step(i);
		if (i % 10000 == 0)
			progress(fd, i);
	}
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	int st = 0;
	if (child > 0 && (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st)))
		return 4;
	char line[96];
	int len = snprintf(line, sizeof(line), "calls %lu signals %d\n", n + n / 4, (int)signals);
	fputs(line, stdout);
	if (done) {
		int d = open(done, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (d < 0 || write(d, line, (size_t)len) != len)
			return 5;
		close(d);
	}
	return 0;
}
