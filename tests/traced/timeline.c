/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The program of test_record_kernel.sh: a uft event just before each
 * getpgid and one just after, so that the kernel's sys_enter_getpgid lands
 * between them only when both are stamped on one clock; then a sleep (the
 * kernel's sched_switch of this pid).
 *
 *   timeline N   N rounds of before, getpgid(round), after; then sleep 20 ms */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <uft/uft.h>

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20;
	for (unsigned long i = 1; i <= n; i++) {
		UFT_TRACE(theapp, before, "n=%lu", i);
		syscall(SYS_getpgid, (long)i); /* its pid argument: the round */
		UFT_TRACE(theapp, after, "n=%lu", i);
	}
	struct timespec ts = {0, 20 * 1000 * 1000};
	nanosleep(&ts, NULL);
	UFT_TRACE(theapp, woke, "n=%lu", n);
	return 0;
}
