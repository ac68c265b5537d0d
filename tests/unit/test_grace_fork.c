/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fork while another thread's control operation holds the grace lock
 * (waiting for a reader to leave its section): the child's own control
 * writes must not wait for a lock nobody in it will release. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/core/grace.h"
#include "tfs_helpers.h"

static int in_section, leave;

static void *reader(void *arg)
{
	(void)arg;
	uft_grace_enter();
	uft_store_seq_cst(&in_section, 1);
	while (!uft_load_seq_cst(&leave))
		usleep(1000);
	uft_grace_exit();
	return NULL;
}

static void *control(void *arg)
{
	(void)arg;
	uft_grace_defer(malloc(64), free);
	uft_grace_reclaim(true); /* holds the lock until the reader leaves */
	return NULL;
}

static void *release_later(void *arg)
{
	(void)arg;
	struct timespec ts = {0, 300 * 1000 * 1000};
	nanosleep(&ts, NULL);
	uft_store_seq_cst(&leave, 1);
	return NULL;
}

static void test_fork_during_grace_period(void **state)
{
	(void)state;
	pthread_t r, c, l;
	assert_int_equal(pthread_create(&r, NULL, reader, NULL), 0);
	while (!uft_load_seq_cst(&in_section))
		usleep(1000);
	assert_int_equal(pthread_create(&c, NULL, control, NULL), 0);
	/* Let the control thread take the lock and start waiting (asking
	 * uft_grace_pending() would wait for that lock too). */
	usleep(50000);
	assert_int_equal(pthread_create(&l, NULL, release_later, NULL), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(20); /* a deadlock ends as SIGALRM, not a hung test */
		uft_grace_defer(malloc(64), free);
		uft_grace_reclaim(true);
		_exit(uft_grace_pending() == 0 ? 0 : 3);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	pthread_join(l, NULL);
	pthread_join(c, NULL);
	pthread_join(r, NULL);
	assert_int_equal(uft_grace_pending(), 0);
}

/* The tree's fork handlers end a control operation in the parent and the
 * child: the grace lock must be free by then (a fork used to hang here). */
static void test_fork_with_tree(void **state)
{
	(void)state;
	int err;
	free(tfs_cat("trace", &err)); /* the tree and its fork handlers */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(20);
		char *t = tfs_cat("tracing_on", &err);
		_exit(t ? 0 : 3);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fork_with_tree),
	    cmocka_unit_test(test_fork_during_grace_period),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
