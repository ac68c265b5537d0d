/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_target: calls parse_request(path, len) with known arguments every
 * millisecond until SIGTERM or SIGINT, for test_probes.sh to probe through
 * the process's tree; prints the function's address first. Built with
 * patchable entries, as every traced helper. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <uft/uft.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

__attribute__((noinline)) unsigned parse_request(const char *path, unsigned len)
{
	__asm__ volatile("" ::"r"(path) : "memory");
	return len;
}

static unsigned (*volatile call)(const char *, unsigned) = parse_request;

int main(void)
{
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("%lx\n", (unsigned long)(void *)parse_request);
	fflush(stdout);
	static const char *const paths[] = {"/", "/api/users", "/static/app.js"};
	struct timespec ms = {0, 1000000};
	for (unsigned n = 0; !stop; n++) {
		const char *p = paths[n % 3];
		call(p, (unsigned)strlen(p));
		nanosleep(&ms, NULL);
	}
	return 0;
}
