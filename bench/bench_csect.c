/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the max-latency tracers cost (docs/design/latency.md): ns per pair of
 * a block-all/unblock sigprocmask, a uft_critical_start/stop, a pthread
 * mutex lock/unlock, a pthread_cond_signal with nobody waiting, a
 * syscall(SYS_getppid) and an 8-byte write to an eventfd nobody waits on,
 * with no tracer, with irqsoff current when it measures something else, and
 * under the tracer that measures it (irqsoff, preemptoff, preemptoff with
 * lock-holdtime, wakeup); and libc's mutex pair, syscall and write past
 * libuft's wrappers, and two TSC reads (the two records' stamps). In-process buffer, overwrite
 * mode; the median of the timed runs. Never checks a timing.
 *
 *   bench_csect [N] [REPS] [ROW]   (ROW: only the rows whose name holds it,
 *                                   e.g. for callgrind) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

#include "bench_time.h"
#include "runtime/tracefs/tracefs.h"
#include <uft/critical.h>

static sigset_t all, none;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void pair_sigs(void)
{
	sigprocmask(SIG_SETMASK, &all, NULL);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void pair_crit(void)
{
	uft_critical_start();
	uft_critical_stop();
}

static void pair_mutex(void)
{
	pthread_mutex_lock(&mu);
	pthread_mutex_unlock(&mu);
}

/* libc's own, past libuft's wrappers: what the wrappers cost when off. */
static int (*libc_lock)(pthread_mutex_t *), (*libc_unlock)(pthread_mutex_t *);

static void pair_mutex_libc(void)
{
	libc_lock(&mu);
	libc_unlock(&mu);
}

static void pair_signal(void)
{
	pthread_cond_signal(&cv);
}

static long (*libc_syscall)(long, ...);
static ssize_t (*libc_write)(int, const void *, size_t);
static int evfd = -1;
static const uint64_t one = 1;

static void pair_syscall(void)
{
	syscall(SYS_getppid);
}

static void pair_syscall_libc(void)
{
	libc_syscall(SYS_getppid);
}

static void pair_evwrite(void)
{
	if (write(evfd, &one, sizeof(one)) < 0)
		abort();
}

static void pair_evwrite_libc(void)
{
	if (libc_write(evfd, &one, sizeof(one)) < 0)
		abort();
}

static double run(void (*fn)(void), long n, int reps);
/* Two TSC reads: a traced pair's floor (each end's record is stamped). */
static volatile uint64_t tsc_sink;

static void pair_tsc(void)
{
	tsc_sink += __rdtsc();
	tsc_sink += __rdtsc();
}

static const char *only; /* the ROW argument */

static bool wanted(const char *name)
{
	return !only || strstr(name, only);
}

static void row(const char *name, void (*fn)(void), long n, int reps)
{
	if (wanted(name))
		printf("%-56s %9.2f\n", name, run(fn, n, reps));
}

static double run(void (*fn)(void), long n, int reps)
{
	double t[32];
	for (long i = 0; i < n / 10; i++) /* warm-up, and the first max */
		fn();
	for (int r = 0; r < reps; r++) {
		double a = (double)bench_mono_raw_ns();
		for (long i = 0; i < n; i++)
			fn();
		t[r] = ((double)bench_mono_raw_ns() - a) / (double)n;
	}
	qsort(t, (size_t)reps, sizeof(t[0]), bench_cmp_double);
	return t[reps / 2];
}

static int put(const char *path, const char *text)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | UFT_TFS_TRUNC, &h);
	if (rc)
		return rc;
	ssize_t w = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return w < 0 ? (int)w : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int reps = argc > 2 ? atoi(argv[2]) : 7;
	if (reps < 1 || reps > 32)
		reps = 7;
	only = argc > 3 ? argv[3] : NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);
	evfd = eventfd(0, EFD_CLOEXEC);
	sigfillset(&all);
	sigemptyset(&none);
	libc_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	libc_unlock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_unlock");
	libc_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	libc_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (libc_lock && libc_unlock)
		row("csect: pthread_mutex_lock/unlock pair, libc's", pair_mutex_libc, n, reps);
	row("csect: two TSC reads (a traced pair's floor)", pair_tsc, n, reps);
	if (libc_syscall)
		row("csect: syscall(SYS_getppid), libc's", pair_syscall_libc, n, reps);
	if (libc_write && evfd >= 0)
		row("csect: write 8 B to an eventfd, libc's", pair_evwrite_libc, n, reps);
	static const struct {
		const char *name;
		void (*fn)(void);
		const char *tracer, *opt;
	} rows[] = {
	    {"sigprocmask block/unblock pair", pair_sigs, "irqsoff", NULL},
	    {"uft_critical_start/stop pair", pair_crit, "preemptoff", NULL},
	    {"pthread_mutex_lock/unlock pair", pair_mutex, "preemptoff", "options/lock-holdtime"},
	    {"pthread_cond_signal, no waiter", pair_signal, "wakeup", NULL},
	    {"syscall(SYS_getppid)", pair_syscall, "wakeup", NULL},
	    {"write 8 B to an eventfd, no waiter", pair_evwrite, "wakeup", NULL},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char name[96];
		if (put("current_tracer", "nop\n"))
			return 1;
		snprintf(name, sizeof(name), "csect: %s, nop", rows[i].name);
		row(name, rows[i].fn, n, reps);
		if (put("current_tracer", "irqsoff\n") == 0 && strcmp(rows[i].tracer, "irqsoff")) {
			snprintf(name, sizeof(name), "csect: %s, irqsoff (another)", rows[i].name);
			row(name, rows[i].fn, n, reps);
		}
		if (put("current_tracer", "nop\n") || put("current_tracer", rows[i].tracer) ||
		    (rows[i].opt && put(rows[i].opt, "1\n"))) {
			fprintf(stderr, "bench_csect: cannot set %s\n", rows[i].tracer);
			return 1;
		}
		snprintf(name, sizeof(name), "csect: %s, %s%s", rows[i].name, rows[i].tracer,
			 rows[i].opt ? "+lock-holdtime" : "");
		row(name, rows[i].fn, n, reps);
		if (rows[i].opt)
			put(rows[i].opt, "0\n");
	}
	put("current_tracer", "nop\n");
	return 0;
}
