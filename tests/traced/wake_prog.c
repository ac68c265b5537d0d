/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wake_prog [once]: a thread "wake_waiter" woken through a condition
 * variable three times by the main thread, which keeps the mutex 2, 5 and
 * 3 ms after each signal (the woken thread's wait returns no earlier); once,
 * or every 50 ms until SIGTERM, for test_wakeup.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int turn, done, quit;

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

static void *waiter(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "wake_waiter");
	pthread_mutex_lock(&m);
	for (;;) {
		while (turn == done && !quit)
			pthread_cond_wait(&c, &m);
		if (quit)
			break;
		done++;
	}
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	pthread_t th;
	if (pthread_create(&th, NULL, waiter, NULL) != 0)
		return 1;
	static const long ms[] = {2, 5, 3};
	do {
		for (int i = 0; i < 3; i++) {
			wait_ms(10); /* the waiter is back in its wait */
			pthread_mutex_lock(&m);
			turn++;
			pthread_cond_signal(&c);
			wait_ms(ms[i]);
			pthread_mutex_unlock(&m);
		}
		if (argc > 1)
			break;
		wait_ms(50);
	} while (!stop);
	pthread_mutex_lock(&m);
	quit = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	pthread_join(th, NULL);
	return 0;
}
