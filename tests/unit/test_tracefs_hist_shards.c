/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One hist trigger hammered by many threads at once, more than a table has
 * per-thread shards, in waves whose threads exit (their shards taken over
 * by the next wave's), each thread hit by signals whose handlers trace the
 * same event: every key's hitcount and sum, Hits and Entries are exact.
 * Then clears racing the writers: once they stop, Hits is the entries'
 * hitcounts, a clear empties everything and counting starts again exactly.
 * The event is soft-disabled in a second instance, so the trigger runs on
 * a record built in scratch there. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "tfs_ev_events.h"

#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"
#include "util/atomics.h"

#if defined(__SANITIZE_THREAD__)
#define SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SLOW_BUILD 1
#endif
#endif

#ifdef SLOW_BUILD
#define PER_THREAD 3000
#else
#define PER_THREAD 30000
#endif
#define NKEYS 8
#define SIG_KEY 9 /* the handlers' key */
#define WAVES 3
#define NT 24 /* writers per wave: more than HIST_SHARDS (16) */

static uint64_t want_hits[SIG_KEY + 1], want_sum[SIG_KEY + 1];
static int stop;

static void emit(int key, unsigned u)
{
	trace_num(key, u, "w", "/w");
	uft_fetch_add(&want_hits[key], 1);
	uft_fetch_add(&want_sum[key], u);
}

static void on_usr1(int sig)
{
	(void)sig;
	int saved = errno;
	emit(SIG_KEY, 3);
	errno = saved;
}

static void *writer(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	for (unsigned i = 0; i < PER_THREAD; i++)
		emit((int)((i + seed) % NKEYS), (i * 7 + seed) % 1000);
	return NULL;
}

static uint64_t total(const char *text, const char *what)
{
	const char *p = strstr(text, what);
	return p ? strtoull(p + strlen(what), NULL, 10) : UINT64_MAX;
}

static const char *hist_path(const char *in, const char *file)
{
	static char buf[4][128];
	static int k;
	char *b = buf[k++ & 3];
	snprintf(b, 128, "%s%s%sevents/tfsev/num/%s", *in ? "instances/" : "", in, *in ? "/" : "",
		 file);
	return b;
}

/* The entry line of key k: "{ a:          K } hitcount: H  u: S". */
static bool entry_of(const char *text, int k, uint64_t *hits, uint64_t *sum)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "{ a: %10d }", k);
	const char *p = strstr(text, pat);
	if (!p)
		return false;
	*hits = total(p, "hitcount: ");
	*sum = total(p, " u: ");
	return true;
}

static void expect_exact(const char *in)
{
	char *t = rd(hist_path(in, "hist"));
	uint64_t all = 0, entries = 0;
	for (int k = 0; k <= SIG_KEY; k++) {
		uint64_t h = 0, s = 0, wh = uft_load_seq_cst(&want_hits[k]);
		if (!wh)
			continue;
		entries++;
		all += wh;
		assert_true(entry_of(t, k, &h, &s));
		assert_int_equal(h, wh);
		assert_int_equal(s, uft_load_seq_cst(&want_sum[k]));
	}
	assert_int_equal(total(t, "Hits: "), all);
	assert_int_equal(total(t, "Entries: "), entries);
	assert_int_equal(total(t, "Dropped: "), 0);
	free(t);
}

static void reset_want(void)
{
	for (int k = 0; k <= SIG_KEY; k++) {
		uft_store_seq_cst(&want_hits[k], 0);
		uft_store_seq_cst(&want_sum[k], 0);
	}
}

static void hammer_in(const char *in, int waves)
{
	pthread_t th[NT];
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	for (int w = 0; w < waves; w++) {
		for (int i = 0; i < NT; i++)
			assert_int_equal(
			    pthread_create(&th[i], NULL, writer, (void *)(uintptr_t)(w * NT + i)),
			    0);
		/* Signals land on the writers mid-update; the tree reads meanwhile. */
		for (int k = 0; k < 100; k++) {
			for (int i = 0; i < NT; i++)
				pthread_kill(th[i], SIGUSR1);
			if (k % 25 == 0)
				free(rd(hist_path(in, "hist")));
			sched_yield();
		}
		for (int i = 0; i < NT; i++)
			pthread_join(th[i], NULL);
	}
	signal(SIGUSR1, SIG_DFL);
}

static void hammer(int waves)
{
	hammer_in("s", waves);
}

static void install(const char *in)
{
	assert_int_equal(echo(hist_path(in, "trigger"), A, "hist:keys=a:vals=u"), 0);
	/* Every key exists before the race: a writer that finds a key claimed
	 * but not yet published (by the code its signal interrupted) may count
	 * its record as dropped, as the kernel's tracing_map does. */
	for (int k = 0; k <= SIG_KEY; k++)
		emit(k, 1);
}

static void test_exact_under_threads_and_signals(void **state)
{
	(void)state;
	reset_want();
	mkinst("s");
	assert_int_equal(echo(hist_path("s", "enable"), W, "1"), 0);
	install("s");
	check(hist_path("s", "enable"), "1*\n");
	hammer(WAVES);
	expect_exact("s");
	/* The main thread's own events on top: still exact. */
	for (int i = 0; i < 1000; i++)
		emit(i % NKEYS, 2);
	expect_exact("s");
	rminst("s");
}

/* The record built in scratch (event soft-disabled) takes the same path. */
static void test_exact_soft_disabled(void **state)
{
	(void)state;
	reset_want();
	mkinst("s");
	install("s");
	check(hist_path("s", "enable"), "0*\n");
	hammer(1);
	expect_exact("s");
	rminst("s");
}

static void *racer(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	for (unsigned i = 0; !uft_load_seq_cst(&stop); i++)
		trace_num((int)((i + seed) % NKEYS), 1, "r", "/r");
	return NULL;
}

static void test_clear_racing_writers(void **state)
{
	(void)state;
	reset_want();
	mkinst("s");
	install("s");
	uft_store_seq_cst(&stop, 0);
	enum { NR = 6 };
	pthread_t th[NR];
	for (int i = 0; i < NR; i++)
		assert_int_equal(pthread_create(&th[i], NULL, racer, (void *)(uintptr_t)i), 0);
	for (int k = 0; k < 50; k++) {
		assert_int_equal(echo(hist_path("s", "trigger"), A, "hist:keys=a:vals=u:clear"), 0);
		sched_yield();
	}
	uft_store_seq_cst(&stop, 1);
	for (int i = 0; i < NR; i++)
		pthread_join(th[i], NULL);
	/* Every update is counted whole or not at all. */
	char *t = rd(hist_path("s", "hist"));
	uint64_t sum = 0, vsum = 0;
	for (const char *p = t; (p = strstr(p, "hitcount:")); p += 9)
		sum += strtoull(p + 9, NULL, 10);
	for (const char *p = t; (p = strstr(p, " u: ")); p += 4)
		vsum += strtoull(p + 4, NULL, 10);
	assert_int_equal(sum, total(t, "Hits: "));
	assert_int_equal(vsum, sum); /* every racer value is 1 */
	free(t);
	/* Cleared with nobody writing: empty, then exact again. */
	assert_int_equal(echo(hist_path("s", "trigger"), A, "hist:keys=a:vals=u:clear"), 0);
	t = rd(hist_path("s", "hist"));
	assert_int_equal(total(t, "Hits: "), 0);
	assert_int_equal(total(t, "Entries: "), 0);
	free(t);
	reset_want();
	for (int i = 0; i < 500; i++)
		emit(i % NKEYS, 5);
	hammer(1);
	expect_exact("s");
	rminst("s");
}

/* Whether the event's writer runs its triggers inline (a tagged fast
 * filter: struct uft_trig_fast in src/runtime/core/trigger_run.h). */
static bool inline_triggers(void)
{
	return (uintptr_t)smp_load_acquire(&uft_event_state_num.fast_filter) & 1;
}

/* In the global buffer alone, plain histograms run on the inline path:
 * exact there too, with the same threads and signals. */
static void test_exact_global(void **state)
{
	(void)state;
	reset_want();
	assert_int_equal(echo(hist_path("", "enable"), W, "1"), 0);
	install("");
	assert_true(inline_triggers());
	hammer_in("", WAVES);
	expect_exact("");
	assert_int_equal(echo(hist_path("", "trigger"), A, "!hist:keys=a:vals=u"), 0);
	assert_false(inline_triggers());
	assert_int_equal(echo(hist_path("", "enable"), W, "0"), 0);
}

/* The number of num records in the global buffer, with `u` below lim and
 * at or above it. */
static void count_records(unsigned lim, unsigned *below, unsigned *above)
{
	char *t = rd("trace");
	*below = *above = 0;
	for (const char *q = t; (q = strstr(q, " num: a=")); q++) {
		const char *u = strstr(q, " u=");
		assert_non_null(u);
		if (strtoul(u + 3, NULL, 10) < lim)
			(*below)++;
		else
			(*above)++;
	}
	free(t);
}

/* The timestamps of the trace's records never go backwards. */
static void check_time_order(void)
{
	char *t = rd("trace");
	double last = 0;
	unsigned n = 0;
	for (const char *q = t; (q = strstr(q, ": num: a=")); q++, n++) {
		const char *l = q;
		while (l > t && l[-1] != '\n')
			l--;
		const char *sp = q;
		while (sp > l && sp[-1] != ' ')
			sp--;
		double ts = strtod(sp, NULL);
		assert_true(ts >= last);
		last = ts;
	}
	assert_true(n > 0);
	free(t);
}

/* The inline path keeps the kernel's order: every trigger runs on the
 * record, then a soft-disabled event or the event's filter drops it. Two
 * histograms on one event; a trigger that is not a plain histogram (a
 * filter of its own) sends every trigger back to the general path. */
static void test_inline_filter_soft_disable(void **state)
{
	(void)state;
	unsigned below, above;
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(echo(hist_path("", "enable"), W, "1"), 0);
	assert_int_equal(echo(hist_path("", "filter"), W, "u < 50"), 0);
	assert_int_equal(echo(hist_path("", "trigger"), A, "hist:keys=a:vals=u"), 0);
	assert_int_equal(echo(hist_path("", "trigger"), A, "hist:keys=u"), 0);
	assert_true(inline_triggers());
	for (unsigned i = 0; i < 100; i++)
		trace_num((int)(i % 4), i, "f", "/f");
	count_records(50, &below, &above);
	assert_int_equal(below, 50);
	assert_int_equal(above, 0);
	char *t = rd(hist_path("", "hist"));
	uint64_t h, sum;
	assert_int_equal(total(t, "Hits: "), 100);
	assert_true(entry_of(t, 3, &h, &sum));
	assert_int_equal(h, 25);
	assert_int_equal(sum, 1275);
	free(t);
	/* Soft-disabled: counted, not kept. */
	assert_int_equal(echo(hist_path("", "enable"), W, "0"), 0);
	assert_true(inline_triggers());
	for (unsigned i = 0; i < 100; i++)
		trace_num(1, i, "s", "/s");
	count_records(50, &below, &above);
	assert_int_equal(below, 50);
	t = rd(hist_path("", "hist"));
	assert_int_equal(total(t, "Hits: "), 200);
	free(t);
	/* Long after the ring's last record (more than 2^27 TSC cycles): the
	 * time extends that keep it current show in no record. */
	usleep(200 * 1000);
	for (unsigned i = 0; i < 100; i++)
		trace_num(1, i, "s", "/s");
	count_records(50, &below, &above);
	assert_int_equal(below, 50);
	assert_int_equal(above, 0);
	t = rd(hist_path("", "hist"));
	assert_int_equal(total(t, "Hits: "), 300);
	free(t);
	/* A third histogram with its own filter: the general path, same
	 * counts. */
	assert_int_equal(echo(hist_path("", "enable"), W, "1"), 0);
	assert_int_equal(echo(hist_path("", "trigger"), A, "hist:keys=name if u >= 90"), 0);
	assert_false(inline_triggers());
	for (unsigned i = 0; i < 100; i++)
		trace_num(2, i, "g", "/g");
	count_records(50, &below, &above);
	assert_int_equal(below, 100);
	assert_int_equal(above, 0);
	t = rd(hist_path("", "hist"));
	assert_true(entry_of(t, 2, &h, &sum));
	assert_int_equal(h, 125);
	assert_int_equal(sum, 1250 + 4950);
	/* The records kept after the gap are in time order. */
	check_time_order();
	assert_non_null(strstr(t, "{ name: g"));
	free(t);
	assert_int_equal(echo(hist_path("", "trigger"), A, "!hist:keys=name if u >= 90"), 0);
	assert_true(inline_triggers());
	assert_int_equal(echo(hist_path("", "trigger"), A, "!hist:keys=u"), 0);
	assert_int_equal(echo(hist_path("", "trigger"), A, "!hist:keys=a:vals=u"), 0);
	assert_false(inline_triggers());
	assert_int_equal(echo(hist_path("", "filter"), W, "0"), 0);
	assert_int_equal(echo(hist_path("", "enable"), W, "0"), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_exact_under_threads_and_signals),
	    cmocka_unit_test(test_exact_soft_disabled),
	    cmocka_unit_test(test_clear_racing_writers),
	    cmocka_unit_test(test_exact_global),
	    cmocka_unit_test(test_inline_filter_soft_disable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
