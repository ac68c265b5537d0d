/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pollwait FILE TIMEOUT_MS: opens FILE for reading and waits in poll(2) until
 * it is readable. Prints "ready" or "timeout" and exits 0 or 1; for the
 * tests of poll on trace_pipe. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: pollwait FILE TIMEOUT_MS\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int n = poll(&p, 1, atoi(argv[2]));
	if (n < 0) {
		perror("poll");
		return 2;
	}
	puts(n > 0 && (p.revents & POLLIN) ? "ready" : "timeout");
	return n > 0 ? 0 : 1;
}
