/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A program whose event counts are known, for uft top's tests. Each SIGUSR1
 * is one round: the main thread calls top_leaf() 50 times and writes 300
 * top:alpha, then its thread "topworker" writes 200 top:beta (n = i % 4)
 * and 100 top:alpha. After the round it writes "ROUNDS\n" into the file
 * given as argument. SIGTERM or SIGINT ends it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <uft/uft.h>

static volatile sig_atomic_t rounds_asked, stop;
static sem_t go, done;

__attribute__((noinline)) static void top_leaf(int i)
{
	__asm__ volatile("" ::"r"(i) : "memory");
}

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		sem_wait(&go);
		for (int i = 0; i < 200; i++)
			UFT_TRACE(top, beta, "n=%d", i % 4);
		for (int i = 0; i < 100; i++)
			UFT_TRACE(top, alpha, "i=%d", i);
		sem_post(&done);
	}
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
	rounds_asked = rounds_asked + 1;
}

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	pthread_t th;
	pthread_create(&th, NULL, worker, NULL);
	pthread_setname_np(th, "topworker");
	struct sigaction sa = {.sa_handler = on_usr1};
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	int rounds = 0;
	while (!stop) {
		if (rounds == rounds_asked) {
			usleep(10000);
			continue;
		}
		for (int i = 0; i < 50; i++)
			top_leaf(i);
		for (int i = 0; i < 300; i++)
			UFT_TRACE(top, alpha, "i=%d", i);
		sem_post(&go);
		sem_wait(&done);
		rounds++;
		if (argc > 1) {
			FILE *f = fopen(argv[1], "w");
			if (f) {
				fprintf(f, "%d\n", rounds);
				fclose(f);
			}
		}
	}
	return 0;
}
