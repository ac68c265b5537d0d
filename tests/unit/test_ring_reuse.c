/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared region under pressure, with no reader: rings of exited threads
 * are recycled when it is full, a buffer size changed thousands of times
 * keeps tracing, a region that cannot fit every thread counts the drops, and
 * writes nested deeper than the rings' levels count as lost. In every case
 * the tree's per-CPU stats reconcile: entries + overrun + dropped events
 * grow by exactly the number of events attempted. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "ring_events.h"
#include "tfs_helpers.h"
#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "sanitized.h"

/* Sanitizers slow threads and signals tenfold: fewer rounds there, still
 * enough to fill the region. */
/* TSan holds a signal raised inside a handler until the handler returns, so
 * handlers never nest there. */
#if defined(__SANITIZE_THREAD__)
#define TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN 1
#endif
#endif

static void write_seq(uint64_t seq)
{
	uint8_t none = 0;
	trace_seq(seq, 0, rtest_fill(&none, seq, 0, 0), &none, 0);
}

static unsigned long long field(const char *s, const char *name)
{
	const char *p = s ? strstr(s, name) : NULL;
	return p ? strtoull(p + strlen(name), NULL, 10) : 0;
}

/* entries + overrun + dropped events over every CPU of the global buffer. */
struct sums {
	unsigned long long entries, overrun, dropped;
};

static struct sums stats(void)
{
	struct sums s = {0};
	for (int cpu = 0;; cpu++) {
		char path[64];
		int err;
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		char *t = tfs_cat(path, &err);
		if (!t)
			break;
		s.entries += field(t, "entries: ");
		s.overrun += field(t, "\noverrun: ");
		s.dropped += field(t, "dropped events: ");
		free(t);
	}
	return s;
}

static unsigned long long accounted(struct sums s)
{
	return s.entries + s.overrun + s.dropped;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, res = 0;
	if (f) {
		if (fscanf(f, "%ld %ld", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* ---- nesting deeper than the rings' levels ---- */

#define NEST_DEPTH (UFT_MAX_NEST + 2) /* handlers nested inside writes */
#define NEST_LEN ((uint32_t)sizeof(struct rtest_rec))

static int nest_refused;
static struct uft_ring *nest_rings[UFT_MAX_NEST];

static void fill(void *p, uint64_t seq)
{
	struct rtest_rec *r = p;
	uint8_t none = 0;
	r->seq = seq;
	r->ctx = 0;
	r->sum = rtest_fill(&none, seq, 0, 0);
	r->blob_loc = (uint32_t)(offsetof(struct rtest_rec, blob_loc) + 4);
}

/* Each handler interrupts a write in progress and raises the next signal
 * before committing its own. */
static void nest_handler(int sig)
{
	int depth = sig - SIGRTMIN;
	struct uft_rsv rsv;
	void *p = uft_reserve(&rsv, &uft_event_seq, NEST_LEN);
	if (p)
		fill(p, (uint64_t)depth);
	else
		nest_refused++;
	if (depth < NEST_DEPTH - 1)
		raise(SIGRTMIN + depth + 1);
	if (p)
		uft_commit(&rsv);
}

static void *nest_thread(void *arg)
{
	(void)arg;
	struct uft_rsv rsv;
	void *p = uft_reserve(&rsv, &uft_event_seq, NEST_LEN);
	if (p)
		fill(p, 0);
	raise(SIGRTMIN + 1);
	if (p)
		uft_commit(&rsv);
	for (int l = 0; l < UFT_MAX_NEST; l++)
		nest_rings[l] = uft_tls.lv[l].r;
	return NULL;
}

static void test_nesting_counts_lost(void **state)
{
	(void)state;
#ifdef TSAN
	skip();
#endif
	for (int d = 1; d < NEST_DEPTH; d++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = nest_handler;
		sigemptyset(&sa.sa_mask);
		assert_int_equal(sigaction(SIGRTMIN + d, &sa, NULL), 0);
	}
	struct sums before = stats();
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, nest_thread, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	/* Levels 0..3 wrote; the deeper handlers were refused, counted as lost
	 * on the deepest ring, and shown as dropped events. */
	assert_int_equal(nest_refused, NEST_DEPTH - UFT_MAX_NEST);
	for (int l = 0; l < UFT_MAX_NEST; l++)
		assert_non_null(nest_rings[l]);
	assert_int_equal(uft_load_seq_cst(&nest_rings[UFT_MAX_NEST - 1]->lost),
			 NEST_DEPTH - UFT_MAX_NEST);
	struct sums after = stats();
	assert_int_equal(after.dropped - before.dropped, NEST_DEPTH - UFT_MAX_NEST);
	assert_int_equal(accounted(after) - accounted(before), NEST_DEPTH);
}

/* ---- a region that cannot fit every thread ---- */

#define BIG_THREADS 6 /* of 1 GiB rings: more than a 4 GiB region holds */
#define BIG_EVENTS 5

static pthread_barrier_t big_barrier;

static void *big_thread(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < BIG_EVENTS; i++)
		write_seq(i);
	/* Everyone holds a ring at once: none is handed back before all wrote. */
	pthread_barrier_wait(&big_barrier);
	return NULL;
}

static void test_region_full_counts_drops(void **state)
{
	(void)state;
	char kb[32];
	snprintf(kb, sizeof(kb), "%u", UFT_SHM_MAX_RING_PAGES * 4u);
	assert_int_equal(tfs_echo("trace_options", "nooverwrite", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("buffer_size_kb", kb, UFT_TFS_TRUNC), 0);
	struct sums before = stats();
	struct uft_shm_header *h = uft_sess.hdr;
	unsigned long long dropped0 = uft_load_seq_cst(&h->ring_dropped[0]);
	pthread_t th[BIG_THREADS];
	pthread_barrier_init(&big_barrier, NULL, BIG_THREADS);
	for (int i = 0; i < BIG_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, big_thread, NULL), 0);
	for (int i = 0; i < BIG_THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	pthread_barrier_destroy(&big_barrier);
	struct sums after = stats();
	unsigned long long no_ring = uft_load_seq_cst(&h->ring_dropped[0]) - dropped0;
	/* Whole threads went without a ring, and every one of their events is
	 * counted; the others' events are all there. */
	assert_true(no_ring >= BIG_EVENTS);
	assert_int_equal(no_ring % BIG_EVENTS, 0);
	assert_int_equal(after.dropped - before.dropped, no_ring);
	assert_int_equal(after.entries - before.entries, BIG_THREADS * BIG_EVENTS - no_ring);
	assert_int_equal(accounted(after) - accounted(before), BIG_THREADS * BIG_EVENTS);
	/* Back to the defaults; clearing hands the drained rings back. */
	assert_int_equal(tfs_echo("trace_options", "overwrite", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("buffer_size_kb", "1024", UFT_TFS_TRUNC), 0);
	assert_int_equal(tfs_echo("trace", "", UFT_TFS_TRUNC), 0);
}

/* ---- thousands of buffer_size_kb changes ---- */

static void test_buffer_size_churn(void **state)
{
	(void)state;
	/* Rings of 1 to 2 MiB: together far more than the region holds. */
	const int rounds = 10000;
	struct sums before = stats();
	for (int i = 0; i < rounds; i++) {
		char kb[32];
		snprintf(kb, sizeof(kb), "%d", 1024 + (i % 9) * 128);
		assert_int_equal(tfs_echo("buffer_size_kb", kb, UFT_TFS_TRUNC), 0);
		write_seq((uint64_t)i);
	}
	assert_int_equal(tfs_echo("buffer_size_kb", "4096", UFT_TFS_TRUNC), 0);
	/* Tracing still works: the last event lands in a ring of the last size. */
	write_seq(424242);
	struct uft_ring *r = uft_tls.lv[0].r;
	assert_non_null(r);
	assert_int_equal(r->nr_pages, 1024);
	assert_int_equal(uft_tls.lv[0].entries, 1);
	char *t = tfs_cat("trace", NULL);
	assert_non_null(t);
	assert_non_null(strstr(t, "seq=424242 "));
	free(t);
	struct sums after = stats();
	assert_int_equal(accounted(after) - accounted(before), rounds + 1);
	/* Space was reused, not carved anew each time. */
	assert_true(uft_load_seq_cst(&uft_sess.hdr->nr_rings) < (uint32_t)rounds);
	assert_int_equal(tfs_echo("buffer_size_kb", "1024", UFT_TFS_TRUNC), 0);
}

/* ---- thousands of short thread lifetimes ---- */

#define LIFE_EVENTS 3

static pid_t last_tid;

static void *short_life(void *arg)
{
	uint64_t base = (uint64_t)(uintptr_t)arg * LIFE_EVENTS;
	for (uint64_t i = 0; i < LIFE_EVENTS; i++)
		write_seq(base + i);
	uft_store_seq_cst(&last_tid, gettid());
	return NULL;
}

static void run_lives(unsigned from, unsigned n)
{
	for (unsigned i = from; i < from + n; i++) {
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, short_life, (void *)(uintptr_t)i), 0);
		assert_int_equal(pthread_join(th, NULL), 0);
	}
}

static void test_thread_churn(void **state)
{
	(void)state;
	struct uft_shm_header *h = uft_sess.hdr;
	/* The region holds about 4,000 rings of the default size: the first
	 * round fills it, the second lives on recycled rings only. */
#if SANITIZED
	const unsigned round = 5000;
#else
	const unsigned round = 6000;
#endif
	struct sums before = stats();
	run_lives(0, round);
	uint64_t recycled0 = uft_load_seq_cst(&h->rings_recycled);
	long rss0 = rss_kb();
	run_lives(round, round);
	long rss1 = rss_kb();
	uint64_t recycled = uft_load_seq_cst(&h->rings_recycled) - recycled0;
	assert_true(recycled >= round - 10);
	/* Flat: no new ring space was touched (16 MiB of slack for the rest).
	 * A sanitizer's quarantine holds the threads' freed memory: shown only. */
#if SANITIZED
	printf("rss grew %ld kB over %u thread lifetimes\n", rss1 - rss0, round);
#else
	assert_true(rss1 - rss0 < 16 * 1024);
#endif
	/* The last thread's events are in its ring, complete. */
	pid_t tid = uft_load_seq_cst(&last_tid);
	bool found = false;
	for (uint32_t i = 0; i < h->nr_rings; i++) {
		struct uft_ring *r = (struct uft_ring *)((char *)h + h->ring_off[i]);
		if (h->ring_off[i] && r->tid == tid && r->state == UFT_RING_EXITED) {
			assert_int_equal(uft_load_seq_cst(&r->entries), LIFE_EVENTS);
			found = true;
		}
	}
	assert_true(found);
	char seq[64];
	snprintf(seq, sizeof(seq), "seq=%u ", (2 * round - 1) * LIFE_EVENTS + LIFE_EVENTS - 1);
	char *t = tfs_cat("trace", NULL);
	assert_non_null(strstr(t, seq));
	free(t);
	/* Nothing uncounted: what is there, plus what recycling overwrote, plus
	 * what found no ring, is what was attempted. */
	struct sums after = stats();
	assert_int_equal(accounted(after) - accounted(before), 2ull * round * LIFE_EVENTS);
	assert_true(after.overrun - before.overrun >= (uint64_t)recycled * LIFE_EVENTS);
}

static int setup(void **state)
{
	(void)state;
	if (uft_session_start() != 0 || uft_set_event("rtest:*", 1) != 1)
		return -1;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nesting_counts_lost),
	    cmocka_unit_test(test_region_full_counts_drops),
	    cmocka_unit_test(test_buffer_size_churn),
	    cmocka_unit_test(test_thread_churn),
	};
	const char *only = getenv("UFT_TEST_FILTER");
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, setup, NULL);
}
