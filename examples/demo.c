/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The demo program: a tiny request server with worker threads, traced with
 * both kinds of uft events. `make demo` records it and prints its trace. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define UFT_CREATE_EVENTS
#include "demo_events.h"

static const char *const paths[] = {"/index.html", "/api/users", "/static/app.js", "/api/orders"};

static uint64_t fake_latency(unsigned seed)
{
	return 1000 + (seed * 7919u) % 50000;
}

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	char name[16];
	snprintf(name, sizeof(name), "worker-%d", id);
	pthread_setname_np(pthread_self(), name);
	trace_worker_state(id, name, 1, (uint8_t)(10 + id));
	for (unsigned i = 0; i < 4; i++) {
		unsigned n = (unsigned)id * 4 + i;
		const char *path = paths[n % 4];
		int status = n % 5 == 4 ? 404 : 200;
		trace_request(path, status, fake_latency(n));
		UFT_TRACE(demo, tick, "worker=%d step=%u path=%s", id, i, path);
		usleep(200);
	}
	int values[4] = {id, id * 2, id * 3, id * 4};
	if (trace_batch_enabled())
		trace_batch(values, 4, (long)id * 10);
	trace_worker_state(id, name, 0, (uint8_t)(10 + id));
	return NULL;
}

int main(int argc, char **argv)
{
	int nworkers = argc > 1 ? atoi(argv[1]) : 3;
	if (nworkers < 1 || nworkers > 64)
		nworkers = 3;
	pthread_t th[64];
	UFT_TRACE(demo, start, "workers=%d", nworkers);
	for (int i = 0; i < nworkers; i++)
		pthread_create(&th[i], NULL, worker, (void *)(long)i);
	for (int i = 0; i < nworkers; i++)
		pthread_join(th[i], NULL);

	/* A child process, followed through fork. */
	pid_t pid = fork();
	if (pid == 0) {
		UFT_TRACE(demo, child, "ppid=%d", (int)getppid());
		trace_request("/child", 200, 42);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	UFT_TRACE(demo, done, "workers=%d child_status=%d", nworkers, WEXITSTATUS(st));
	printf("demo: served %d requests with %d workers\n", nworkers * 4, nworkers);
	return 0;
}
