/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writes numbered events as fast as it can, from one or more threads: the
 * program the buffer-accounting tests and the drain-rate benchmark record. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <uft/uft.h>

static unsigned long per_thread;

static void *flood(void *arg)
{
	unsigned t = (unsigned)(unsigned long)arg;
	for (unsigned long i = 1; i <= per_thread; i++)
		UFT_TRACE(flood, seq, "thread=%u n=%lu", t, i);
	return NULL;
}

int main(int argc, char **argv)
{
	per_thread = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
	unsigned threads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 1;
	if (threads < 1 || threads > 64)
		threads = 1;
	pthread_t th[64];
	for (unsigned i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, flood, (void *)(unsigned long)i);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	printf("flood: %lu events from %u thread%s\n", per_thread * threads, threads,
	       threads == 1 ? "" : "s");
	return 0;
}
