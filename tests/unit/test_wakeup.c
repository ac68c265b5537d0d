/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wakeup and wakeup_rt tracers in the process's own tree: a thread woken
 * through a condition variable by a waker that keeps the mutex for a known
 * time (the woken thread cannot return from its wait before it has the
 * mutex back), so the wake-up latency is at least that long; the longest
 * kept with the kernel's wakeup and switch lines; semaphores; wakeup_rt only
 * for SCHED_FIFO/RR threads; a timeout is no wake. Bounds are generous:
 * never a tight timing. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>

#include <cmocka.h>

#include "runtime/core/runtime.h"
#include "tfs_helpers.h"
#include "lat_helpers.h"
#include <uft/uft.h>

/* A waiter that takes `rounds` wakes, one per cond signal. */
struct pair {
	pthread_mutex_t m;
	pthread_cond_t c;
	sem_t sem;
	int turn, done;
	int rounds;
	bool use_sem;
	bool fifo; /* the waiter asks for SCHED_FIFO 5 */
	bool fifo_ok;
	bool dl, dl_ok; /* the waiter asks for SCHED_DEADLINE */
	sem_t ready;
};

/* The next pair_start's waiter asks for SCHED_DEADLINE. */
static bool next_dl;

struct dl_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

static void *waiter(void *arg)
{
	struct pair *p = arg;
	prctl(PR_SET_NAME, "uft-woken");
	if (p->fifo) {
		struct sched_param sp = {.sched_priority = 5};
		p->fifo_ok = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
	}
	if (p->dl) { /* 1 ms every 10 ms: enough to wait and return */
		struct dl_attr a = {.size = sizeof(a),
				    .sched_policy = 6,
				    .sched_runtime = 1000000,
				    .sched_deadline = 10000000,
				    .sched_period = 10000000};
		p->dl_ok = syscall(SYS_sched_setattr, 0, &a, 0) == 0;
	}
	sem_post(&p->ready);
	for (int i = 0; i < p->rounds; i++) {
		if (p->use_sem) {
			while (sem_wait(&p->sem) != 0 && errno == EINTR)
				;
			continue;
		}
		pthread_mutex_lock(&p->m);
		while (p->turn == p->done)
			pthread_cond_wait(&p->c, &p->m);
		p->done++;
		pthread_mutex_unlock(&p->m);
	}
	return NULL;
}

static void pair_start(struct pair *p, pthread_t *th, int rounds, bool use_sem, bool fifo)
{
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->m, NULL);
	pthread_cond_init(&p->c, NULL);
	sem_init(&p->sem, 0, 0);
	sem_init(&p->ready, 0, 0);
	p->rounds = rounds;
	p->use_sem = use_sem;
	p->fifo = fifo;
	p->dl = next_dl;
	next_dl = false;
	assert_int_equal(pthread_create(th, NULL, waiter, p), 0);
	while (sem_wait(&p->ready) != 0)
		;
}

/* Wakes the waiter and keeps the mutex `hold_ms` more: its wait returns
 * no earlier. The waiter is asleep in its wait first. */
static void wake_holding(struct pair *p, int hold_ms)
{
	wait_ms(20);
	pthread_mutex_lock(&p->m);
	p->turn++;
	pthread_cond_signal(&p->c);
	wait_ms(hold_ms);
	pthread_mutex_unlock(&p->m);
}

static void pair_end(struct pair *p, pthread_t th)
{
	pthread_join(th, NULL);
	pthread_cond_destroy(&p->c);
	pthread_mutex_destroy(&p->m);
	sem_destroy(&p->sem);
	sem_destroy(&p->ready);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("tracing_on", "1", UFT_TFS_TRUNC), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tfs_echo("tracing_thresh", "0", UFT_TFS_TRUNC);
	tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC);
	return 0;
}

static void test_listed(void **state)
{
	(void)state;
	char *s = cat("available_tracers");
	assert_has(s, "wakeup_rt wakeup ");
	free(s);
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	s = cat("current_tracer");
	assert_string_equal(s, "wakeup\n");
	free(s);
	/* Empty max buffer: the tracer's name and no latency block. */
	s = cat("trace");
	assert_string_equal(s, "# tracer: wakeup\n#\n");
	free(s);
	/* The max buffer is taken: snapshot is busy. */
	int err = 0;
	assert_null(tfs_cat("snapshot", &err));
	assert_int_equal(err, -EBUSY);
	/* The kernel's format files of the two records. */
	s = cat("events/ftrace/wakeup/format");
	assert_has(s, "name: wakeup\nID: 3\n");
	assert_has(s, "\tfield:unsigned int next_cpu;\toffset:16;\tsize:4;\tsigned:0;\n");
	assert_has(s, "print fmt: \"%u:%u:%u  ==+ %u:%u:%u [%03u]\"");
	free(s);
	s = cat("events/ftrace/context_switch/format");
	assert_has(s, "name: context_switch\nID: 2\n");
	free(s);
}

/* 2, 5 and 3 ms: the 5 ms wake is the max, with its wakeup and switch. */
static void test_cond_max(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	assert_int_equal(max_latency(), 0);
	struct pair p;
	pthread_t th;
	pair_start(&p, &th, 3, false, false);
	wake_holding(&p, 2);
	wake_holding(&p, 5);
	wake_holding(&p, 3);
	pair_end(&p, th);
	unsigned long m = max_latency();
	assert_true(m >= 5000 && m < MAX_SANE_US);
	char *s = cat("trace");
	assert_has(s, "# tracer: wakeup\n#\n# wakeup latency trace v1.1.5 on uft-");
	char line[128];
	snprintf(line, sizeof(line), "# latency: %lu us, #3/3, CPU#", m);
	assert_has(s, line);
	assert_has(s, "#    | task: uft-woken-");
	assert_has(s, " policy:0 rt_prio:0)\n#    -----------------\n#\n#  ");
	assert_null(strstr(s, "started at")); /* the wakeup tracers print no ends */
	assert_has(s, ":120:R   + [");
	assert_has(s, ":120:R uft-woken\n");
	assert_has(s, ":120:S ==> [");
	/* the kernel's closing stack: the woken thread's, from its wait */
	assert_has(s, "us : <stack trace>\n => waiter\n");
	free(s);
	/* The reset: a shorter wake wins. */
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	pair_start(&p, &th, 1, false, false);
	wake_holding(&p, 1);
	pair_end(&p, th);
	m = max_latency();
	assert_true(m >= 1000 && m < MAX_SANE_US);
}

/* A semaphore post is a wake too; a wait that finds the count up is not. */
static void test_sem(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	sem_t s;
	sem_init(&s, 0, 1);
	sem_wait(&s); /* no wait: posted before */
	assert_int_equal(max_latency(), 0);
	sem_destroy(&s);
	struct pair p;
	pthread_t th;
	pair_start(&p, &th, 2, true, false);
	/* the main thread's own wake (the waiter is ready) is not the one */
	assert_int_equal(tfs_echo("tracing_max_latency", "0", UFT_TFS_TRUNC), 0);
	wait_ms(20);
	sem_post(&p.sem);
	wait_ms(20);
	sem_post(&p.sem);
	pair_end(&p, th);
	/* not the 20 ms the waiter waited before its post */
	assert_true(max_latency() < 20000);
	char *t = cat("trace");
	assert_has(t, "# wakeup latency trace v1.1.5");
	assert_has(t, "#    | task: uft-woken-");
	free(t);
}

/* A timed wait that times out was woken by nobody. */
static void test_timeout(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	pthread_cond_signal(&c); /* nobody waits: no wake record either */
	struct timespec at;
	clock_gettime(CLOCK_REALTIME, &at);
	at.tv_nsec += 2000000;
	if (at.tv_nsec >= 1000000000) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&m);
	assert_int_equal(pthread_cond_timedwait(&c, &m, &at), ETIMEDOUT);
	pthread_mutex_unlock(&m);
	assert_int_equal(max_latency(), 0);
	char *s = cat("trace");
	assert_string_equal(s, "# tracer: wakeup\n#\n");
	free(s);
}

/* wakeup_rt: a SCHED_OTHER thread's wake is not measured; a SCHED_FIFO
 * one's is, with its priority (99 - 5) in the lines (needs the right to
 * use SCHED_FIFO). */
static void test_rt(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup_rt", UFT_TFS_TRUNC), 0);
	struct pair p;
	pthread_t th;
	pair_start(&p, &th, 1, false, false);
	wake_holding(&p, 2);
	pair_end(&p, th);
	assert_int_equal(max_latency(), 0);
	char *s = cat("trace");
	assert_string_equal(s, "# tracer: wakeup_rt\n#\n");
	free(s);
	pair_start(&p, &th, 1, false, true);
	bool fifo = p.fifo_ok;
	wake_holding(&p, 2);
	pair_end(&p, th);
	if (!fifo)
		skip(); /* no CAP_SYS_NICE nor RLIMIT_RTPRIO here */
	assert_true(max_latency() >= 2000);
	s = cat("trace");
	assert_has(s, "# wakeup_rt latency trace v1.1.5");
	assert_has(s, "policy:1 rt_prio:5)");
	assert_has(s, ": 94:R uft-woken\n");
	free(s);
}

/* wakeup_dl: only SCHED_DEADLINE threads' wakes, the kernel's prio -1
 * printed as its unsigned char (255), policy 6 (needs the right to use
 * SCHED_DEADLINE). */
static void test_dl(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup_dl", UFT_TFS_TRUNC), 0);
	struct pair p;
	pthread_t th;
	pair_start(&p, &th, 1, false, false);
	wake_holding(&p, 2);
	pair_end(&p, th);
	assert_int_equal(max_latency(), 0);
	char *s = cat("trace");
	assert_string_equal(s, "# tracer: wakeup_dl\n#\n");
	free(s);
	next_dl = true;
	pair_start(&p, &th, 1, false, false);
	bool dl = p.dl_ok;
	wake_holding(&p, 2);
	pair_end(&p, th);
	if (!dl)
		skip(); /* SCHED_DEADLINE refused here */
	assert_true(max_latency() >= 2000);
	s = cat("trace");
	assert_has(s, "# wakeup_dl latency trace v1.1.5");
	assert_has(s, "policy:6 rt_prio:0)");
	assert_has(s, ":255:R uft-woken\n");
	assert_has(s, ":255:S ==> [");
	free(s);
}

/* Several threads at once: four waiters on one condition variable woken by
 * broadcasts, and two semaphore pairs, while the max moves; the trace stays
 * whole (two lines, the woken thread's task line). */
struct crowd {
	pthread_mutex_t m;
	pthread_cond_t c;
	int gen, stop;
};

static void *crowd_waiter(void *arg)
{
	struct crowd *cr = arg;
	prctl(PR_SET_NAME, "uft-crowd");
	pthread_mutex_lock(&cr->m);
	int seen = cr->gen;
	while (!cr->stop) {
		while (cr->gen == seen && !cr->stop)
			pthread_cond_wait(&cr->c, &cr->m);
		seen = cr->gen;
	}
	pthread_mutex_unlock(&cr->m);
	return NULL;
}

static void *sem_pinger(void *arg)
{
	sem_t *s = arg; /* s[0] posted here, s[1] waited for */
	for (int i = 0; i < 200; i++) {
		sem_post(&s[0]);
		while (sem_wait(&s[1]) != 0 && errno == EINTR)
			;
	}
	return NULL;
}

static void *sem_ponger(void *arg)
{
	sem_t *s = arg;
	for (int i = 0; i < 200; i++) {
		while (sem_wait(&s[0]) != 0 && errno == EINTR)
			;
		sem_post(&s[1]);
	}
	return NULL;
}

static void test_many(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	struct crowd cr = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
	pthread_t w[4], p[4];
	sem_t sems[2][2];
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&w[i], NULL, crowd_waiter, &cr), 0);
	for (int i = 0; i < 2; i++) {
		sem_init(&sems[i][0], 0, 0);
		sem_init(&sems[i][1], 0, 0);
		assert_int_equal(pthread_create(&p[2 * i], NULL, sem_pinger, sems[i]), 0);
		assert_int_equal(pthread_create(&p[2 * i + 1], NULL, sem_ponger, sems[i]), 0);
	}
	for (int r = 0; r < 50; r++) {
		wait_ms(1);
		pthread_mutex_lock(&cr.m);
		cr.gen++;
		pthread_cond_broadcast(&cr.c);
		pthread_mutex_unlock(&cr.m);
		if (r % 10 == 0) {
			char *s = cat("trace");
			free(s);
		}
	}
	pthread_mutex_lock(&cr.m);
	cr.stop = 1;
	pthread_cond_broadcast(&cr.c);
	pthread_mutex_unlock(&cr.m);
	for (int i = 0; i < 4; i++) {
		pthread_join(w[i], NULL);
		pthread_join(p[i], NULL);
	}
	for (int i = 0; i < 2; i++) {
		sem_destroy(&sems[i][0]);
		sem_destroy(&sems[i][1]);
	}
	assert_true(max_latency() > 0);
	char *s = cat("trace");
	assert_has(s, "# wakeup latency trace v1.1.5");
	assert_has(s, ", #3/3, CPU#");
	assert_has(s, "   + [");
	assert_has(s, " ==> [");
	free(s);
}

/* Nothing is measured once the tracer is nop again. */
static void test_off(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("current_tracer", "wakeup", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("current_tracer", "nop", UFT_TFS_TRUNC), 0);
	struct pair p;
	pthread_t th;
	pair_start(&p, &th, 1, false, false);
	wake_holding(&p, 1);
	pair_end(&p, th);
	assert_int_equal(max_latency(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_listed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cond_max, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sem, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rt, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dl, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_many, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_off, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
