/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs a command for bench/real/run.sh and prints, on stderr's last line:
 *   RUN start_ns end_ns hwm_kb status
 * CLOCK_MONOTONIC before the fork and after the command was reaped, and the
 * command's own peak resident memory: its VmHWM, read every 5 ms while it
 * runs (the kernel's maximum over descendants would fold the traced program
 * into a recorder's number). The program's numbers come from real_stat.c. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long read_hwm(pid_t pid)
{
	char path[64], line[256];
	long hwm = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &hwm) == 1)
			break;
	fclose(f);
	return hwm;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: realrun CMD [ARGS]\n");
		return 2;
	}
	long long t0 = now_ns();
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	long peak = 0;
	int status = 0;
	for (;;) {
		long h = read_hwm(pid);
		if (h > peak)
			peak = h;
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0)
			return 2;
		usleep(5000);
	}
	long long t1 = now_ns();
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fprintf(stderr, "RUN %lld %lld %ld %d\n", t0, t1, peak, rc);
	return rc;
}
