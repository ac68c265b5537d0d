/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_rounds N [loop]: N rounds of pr_request(path, len), a function with
 * a patchable entry for probes, which fires the static event pr:request
 * id=I path=PATH (the eprobes' source), the first at the top of main();
 * with `loop`, rounds every millisecond until SIGTERM or SIGINT after
 * those. For test_eprobes.sh. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UFT_CREATE_EVENTS
#include "pr_events.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static const char *const paths[] = {"/", "/api/users", "/static/app.js"};

__attribute__((noinline)) unsigned pr_request(const char *path, unsigned len);
__attribute__((noinline)) unsigned pr_request(const char *path, unsigned len)
{
	static unsigned id;
	trace_request(id++, path);
	return len;
}

static unsigned (*volatile call)(const char *, unsigned) = pr_request;

static void round_of(unsigned i)
{
	const char *p = paths[i % 3];
	call(p, (unsigned)strlen(p));
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 5;
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (unsigned i = 0; i < rounds; i++)
		round_of(i);
	struct timespec ms = {0, 1000000};
	for (unsigned i = rounds; argc > 2 && strcmp(argv[2], "loop") == 0 && !stop; i++) {
		round_of(i);
		nanosleep(&ms, NULL);
	}
	return 0;
}
