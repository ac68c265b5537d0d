/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The calls test_record_decode.sh reads back decoded: openat of an existing
 * and of a missing file with known flags, an mmap, a kill with an ignored
 * signal. Raw syscall() with 64-bit arguments, so the registers (and so the
 * traced values) do not depend on the C library. Prints what the test needs
 * to know: the path addresses, the descriptor, the mapping, the pid.
 * Usage: pt_decode_prog EXISTING MISSING */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	signal(SIGUSR2, SIG_IGN);
	long fd = syscall(SYS_openat, (long)AT_FDCWD, argv[1], (long)(O_RDONLY | O_CLOEXEC), 0L);
	long bad = syscall(SYS_openat, (long)AT_FDCWD, argv[2],
			   (long)(O_WRONLY | O_APPEND | O_NOFOLLOW), 0L);
	long map = syscall(SYS_mmap, 0L, 8192L, (long)(PROT_READ | PROT_WRITE),
			   (long)(MAP_PRIVATE | MAP_ANONYMOUS), -1L, 0L);
	syscall(SYS_kill, (long)getpid(), (long)SIGUSR2);
	printf("file=%lx missing=%lx fd=%ld bad=%ld map=%lx pid=%d\n", (unsigned long)argv[1],
	       (unsigned long)argv[2], fd, bad, (unsigned long)map, (int)getpid());
	return fd >= 0 && bad == -1 ? 0 : 1;
}
