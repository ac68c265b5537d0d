/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* timerlat's measuring threads. */
#define _GNU_SOURCE
#include "latency/timerlat.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/atomics.h"

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){.tv_sec = (time_t)(ns / 1000000000u),
				 .tv_nsec = (long)(ns % 1000000000u)};
}

/* The clock read of the handler of the timer's signal: the first code to
 * run after the expiry, the kernel's IRQ context as user space sees it. */
static __thread volatile uint64_t irq_seen;

static void irq_handler(int sig)
{
	(void)sig;
	irq_seen = lat_now_ns();
}

/* The thread's timer, sending irq_signo to the thread itself. */
static bool irq_timer(int signo, timer_t *tm)
{
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = signo;
	sev._sigev_un._tid = (pid_t)gettid();
	return timer_create(CLOCK_MONOTONIC, &sev, tm) == 0;
}

/* Arms the timer for next and waits with its signal unblocked until the
 * handler has run; false when it did not within a second past next (the
 * program took the signal over: its disposition is process-wide). */
static bool irq_wait(timer_t tm, uint64_t next, const sigset_t *open)
{
	struct itimerspec its = {.it_value = ts_of(next)};
	irq_seen = 0;
	if (timer_settime(tm, TIMER_ABSTIME, &its, NULL))
		return false;
	uint64_t limit = next + 1000000000u;
	for (uint64_t now = lat_now_ns(); !irq_seen && now < limit; now = lat_now_ns()) {
		struct timespec to = ts_of(limit - now);
		ppoll(NULL, 0, &to, open);
	}
	return irq_seen != 0;
}

static void *timerlat_thread(void *arg)
{
	struct timerlat_cpu *c = arg;
	struct timerlat *t = c->t;
	lat_thread_enter(&t->o.sched);
	timer_t tm;
	sigset_t open;
	bool irq = false;
	if (t->o.irq_signo) {
		/* Blocked but while waiting, so the handler only ever runs then;
		 * by the system call, as no program code asked for it (libuft's
		 * pthread_sigmask() would take it for the program's, irqsoff). */
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, t->o.irq_signo);
		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &one, &open, _NSIG / 8);
		sigdelset(&open, t->o.irq_signo);
		irq = irq_timer(t->o.irq_signo, &tm);
	}
	uint64_t period = t->o.period_ns, next = lat_now_ns() + period;
	while (!READ_ONCE(t->stop)) {
		uint64_t now;
		if (irq) {
			if (!irq_wait(tm, next, &open)) {
				/* the signal is lost: thread latency only from now on */
				timer_delete(tm);
				irq = false;
				next = lat_now_ns() + period;
				continue;
			}
			now = lat_now_ns();
			uint64_t irq_lat = irq_seen - next;
			lat_stats_add(&c->irq_st, irq_lat);
			if (t->o.irq_sample)
				t->o.irq_sample(t->o.ctx, c->cpu, irq_lat);
		} else {
			struct timespec ts = ts_of(next);
			int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			now = lat_now_ns();
			if (rc == EINTR)
				continue;
		}
		uint64_t lat = now - next;
		lat_stats_add(&c->st, lat);
		if (t->o.sample)
			t->o.sample(t->o.ctx, c->cpu, lat);
		if (t->o.stop_ns && lat > t->o.stop_ns) {
			int none = -1;
			uft_try_cmpxchg(&t->stop_cpu, &none, c->cpu);
			WRITE_ONCE(t->stop, 1);
		}
		/* Periods the thread overslept are skipped, not caught up in a burst. */
		next += period;
		while (next <= now)
			next += period;
	}
	if (irq)
		timer_delete(tm);
	return NULL;
}

int timerlat_irq_install(int signo)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = irq_handler;
	sigemptyset(&sa.sa_mask);
	return sigaction(signo, &sa, NULL) ? -errno : 0;
}

int timerlat_irq_wait(int signo, uint64_t next, uint64_t *irq_ns)
{
	sigset_t one, open;
	sigemptyset(&one);
	sigaddset(&one, signo);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &one, &open, _NSIG / 8);
	sigdelset(&open, signo);
	timer_t tm;
	if (!irq_timer(signo, &tm))
		return -errno;
	bool seen = irq_wait(tm, next, &open);
	timer_delete(tm);
	*irq_ns = irq_seen;
	return seen ? 0 : -ETIMEDOUT;
}

int timerlat_start(struct timerlat *t, const struct timerlat_opts *o)
{
	memset(t, 0, sizeof(*t));
	t->o = *o;
	t->stop_cpu = -1;
	for (unsigned i = 0; i < o->nbits; i++)
		t->n += !!(o->cpus[i / 8] & 1u << i % 8);
	t->cpu = calloc(t->n ? t->n : 1, sizeof(*t->cpu));
	if (!t->cpu)
		return -ENOMEM;
	unsigned k = 0;
	for (unsigned i = 0; i < o->nbits; i++) {
		if (!(o->cpus[i / 8] & 1u << i % 8))
			continue;
		struct timerlat_cpu *c = &t->cpu[k++];
		c->cpu = (int)i;
		c->t = t;
		if (lat_stats_init(&c->st, o->hist_unit_ns, o->hist_bucket, o->hist_entries) ||
		    lat_stats_init(&c->irq_st, o->hist_unit_ns, o->hist_bucket, o->hist_entries)) {
			timerlat_stop(t);
			timerlat_free(t);
			return -ENOMEM;
		}
	}
	if (o->irq_signo) {
		int rc = timerlat_irq_install(o->irq_signo);
		if (rc) {
			timerlat_free(t);
			return rc;
		}
	}
	for (unsigned i = 0; i < t->n; i++) {
		struct timerlat_cpu *c = &t->cpu[i];
		int rc =
		    lat_thread_start(&c->th, c->cpu, &o->sched, timerlat_thread, c, &t->fell_back);
		if (rc) {
			timerlat_stop(t);
			timerlat_free(t);
			return -rc;
		}
		c->started = true;
	}
	return 0;
}

bool timerlat_stopped(const struct timerlat *t)
{
	return READ_ONCE(t->stop_cpu) >= 0;
}

void timerlat_stop(struct timerlat *t)
{
	WRITE_ONCE(t->stop, 1);
	for (unsigned i = 0; i < t->n; i++)
		if (t->cpu[i].started) {
			pthread_join(t->cpu[i].th, NULL);
			t->cpu[i].started = false;
		}
}

void timerlat_free(struct timerlat *t)
{
	for (unsigned i = 0; i < t->n; i++) {
		lat_stats_free(&t->cpu[i].st);
		lat_stats_free(&t->cpu[i].irq_st);
	}
	free(t->cpu);
	t->cpu = NULL;
	t->n = 0;
}
