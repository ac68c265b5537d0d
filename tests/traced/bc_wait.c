/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bc_wait [ROUNDS]: fires bc:wake id=I then bc:run seq=I for each round (in
 * bc_round(I), a function with a patchable entry for kprobes), the first of
 * them at the top of main(), then waits for SIGTERM or SIGINT, so
 * test_bootconfig.sh can read what UFT_BOOTCONFIG set up while it runs. */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <uft/uft.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

void bc_round(unsigned i);
__attribute__((noinline)) void bc_round(unsigned i)
{
	UFT_TRACE(bc, wake, "id=%u", i);
	struct timespec ms = {0, 1000000};
	nanosleep(&ms, NULL);
	UFT_TRACE(bc, run, "seq=%u", i);
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 5;
	for (unsigned i = 0; i < rounds; i++)
		bc_round(i);
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop)
		pause();
	return 0;
}
