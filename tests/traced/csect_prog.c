/* SPDX-License-Identifier: GPL-2.0-or-later */
/* csect_prog [once]: sections of 2, 5 and 3 ms with every signal blocked
 * (blocked in csect_prog_block, unblocked in csect_prog_unblock), then the
 * same lengths between uft_critical_start and uft_critical_stop; once, or
 * every 50 ms until SIGTERM, for test_csect.sh. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <uft/critical.h>

static volatile sig_atomic_t stop;
static sigset_t saved;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void wait_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

__attribute__((noinline)) void csect_prog_block(void)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &saved);
	__asm__ volatile("" ::: "memory"); /* a call, not a tail jump */
}

__attribute__((noinline)) void csect_prog_unblock(void)
{
	sigprocmask(SIG_SETMASK, &saved, NULL);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void csect_prog_enter(void)
{
	uft_critical_start();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void csect_prog_leave(void)
{
	uft_critical_stop();
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	static const long ms[] = {2, 5, 3};
	do {
		for (int i = 0; i < 3; i++) {
			csect_prog_block();
			wait_ms(ms[i]);
			csect_prog_unblock();
		}
		for (int i = 0; i < 3; i++) {
			csect_prog_enter();
			wait_ms(ms[i]);
			csect_prog_leave();
		}
		if (argc > 1)
			break;
		wait_ms(50);
	} while (!stop);
	return 0;
}
