/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A long-running traced program for the live doors: it "serves" a request
 * every few milliseconds until SIGINT or SIGTERM, then exits normally (so its
 * control socket and any UFT_TRACEFS mount are cleaned up).
 *
 *   server [INTERVAL_MS]   (default 5) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <uft/uft.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? strtol(argv[1], NULL, 10) : 5;
	if (ms < 1 || ms > 10000)
		ms = 5;
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	static const char *const paths[] = {"/", "/api/users", "/static/app.js"};
	struct timespec pause = {ms / 1000, (ms % 1000) * 1000000};
	for (unsigned long n = 0; !stop; n++) {
		UFT_TRACE(server, reply, "n=%lu path=%s bytes=%u", n, paths[n % 3],
			  (unsigned)(100 + n % 900));
		nanosleep(&pause, NULL);
	}
	return 0;
}
