/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Threads that write numbered events and move to another CPU every K
 * events, so each CPU's stream in a recording interleaves several threads
 * (the recorder's merge of per-thread segments).
 *
 *   migrate PER_THREAD THREADS K */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <uft/uft.h>

static unsigned long per_thread, every;
static long ncpu;

static void *run(void *arg)
{
	unsigned t = (unsigned)(unsigned long)arg;
	for (unsigned long i = 1; i <= per_thread; i++) {
		if (i % every == 0 && ncpu > 1) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET((int)((t + i / every) % (unsigned long)ncpu), &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		UFT_TRACE(mig, seq, "thread=%u n=%lu", t, i);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	per_thread = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000;
	unsigned threads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 3;
	every = argc > 3 ? strtoul(argv[3], NULL, 0) : 500;
	if (!every || threads < 1 || threads > 64)
		return 2;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th[64];
	for (unsigned i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, run, (void *)(unsigned long)i);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	return 0;
}
