/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writes numbered events, then dies by SIGKILL: whatever it committed before
 * must still reach the trace, because the buffers outlive the process.
 *
 *   killme [N [PROGRESS [PAUSE_US]]]
 *
 * Writes events n=1..N (N = 0: until killed from outside) in bursts of 10000,
 * sleeping PAUSE_US (default 10000) after each burst, and records "PID LAST"
 * in the file PROGRESS after each burst, LAST being an event already
 * committed. After event N it raises SIGKILL. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uft/uft.h>

#define BURST 10000

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	const char *progress = argc > 2 ? argv[2] : NULL;
	unsigned long pause_us = argc > 3 ? strtoul(argv[3], NULL, 0) : 10000;
	int fd = progress ? open(progress, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	for (unsigned long i = 1; n == 0 || i <= n; i++) {
		UFT_TRACE(killme, seq, "n=%lu", i);
		if (i % BURST == 0) {
			if (fd >= 0) {
				/* Numbers only grow, so rewriting in place never leaves a tail. */
				char buf[64];
				int len = snprintf(buf, sizeof(buf), "%d %lu\n", (int)getpid(), i);
				if (pwrite(fd, buf, (size_t)len, 0) != len)
					return 1;
			}
			if (pause_us)
				usleep((useconds_t)pause_us);
		}
	}
	raise(SIGKILL);
	return 1;
}
