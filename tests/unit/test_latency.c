/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency engine's arithmetic (src/latency/): statistics, histogram
 * buckets and percentiles, the osnoise noise detector fed a made-up clock,
 * the % available, the /proc interrupt counts, and the commands' argument
 * forms (duration, policy, CPU list) and duration text, and the order of
 * timerlat's two contexts. No timing. */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cmd/lat_cli.h"
#include "latency/cpu_irqs.h"
#include "latency/lat_stats.h"
#include "latency/osn_detect.h"
#include "latency/timerlat.h"
#include "util/util.h"

static void test_stats(void **state)
{
	struct lat_stats s;
	assert_int_equal(lat_stats_init(&s, 1000, 1, 0), 0);
	assert_null(s.hist.counts);
	assert_int_equal(lat_stats_avg(&s), 0);
	uint64_t v[] = {3000, 1000, 8000, 4000};
	for (size_t i = 0; i < 4; i++)
		lat_stats_add(&s, v[i]);
	assert_int_equal(s.count, 4);
	assert_int_equal(s.min, 1000);
	assert_int_equal(s.max, 8000);
	assert_int_equal(s.cur, 4000);
	assert_int_equal(s.sum, 16000);
	assert_int_equal(lat_stats_avg(&s), 4000);
	lat_stats_free(&s);
}

/* Microsecond units, buckets of 10 us, 5 buckets: [0,10) .. [40,50), over. */
static void test_hist_buckets(void **state)
{
	struct lat_stats s;
	assert_int_equal(lat_stats_init(&s, 1000, 10, 5), 0);
	/* 9999 ns is 9 us: bucket 0; 10000 ns is 10 us: bucket 1; 49999 ns
	 * is 49 us: bucket 4; 50000 ns is the overflow. */
	uint64_t v[] = {0, 999, 9999, 10000, 19999, 25000, 49999, 50000, 1000000000};
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		lat_stats_add(&s, v[i]);
	uint64_t want[] = {3, 2, 1, 0, 1, 2};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_int_equal(s.hist.counts[i], want[i]);
	assert_int_equal(lat_hist_index(&s.hist, 39999), 3);
	assert_int_equal(lat_hist_index(&s.hist, UINT64_MAX), 5);
	assert_int_equal(s.count, ARRAY_SIZE(v));
	lat_stats_free(&s);

	/* Nanosecond units, buckets of 1: the value is the index. */
	assert_int_equal(lat_stats_init(&s, 1, 1, 100), 0);
	lat_stats_add(&s, 42);
	assert_int_equal(s.hist.counts[42], 1);
	lat_stats_free(&s);
}

static void test_percentile(void **state)
{
	struct lat_stats s;
	uint64_t ns;
	assert_int_equal(lat_stats_init(&s, 1000, 1, 100), 0);
	assert_false(lat_hist_percentile(&s, 50, &ns));
	/* 100 samples: 1 us x 50, 2 us x 49, 7 us x 1. */
	for (int i = 0; i < 50; i++)
		lat_stats_add(&s, 1500);
	for (int i = 0; i < 49; i++)
		lat_stats_add(&s, 2000);
	lat_stats_add(&s, 7100);
	assert_true(lat_hist_percentile(&s, 50, &ns));
	assert_int_equal(ns, 1000);
	assert_true(lat_hist_percentile(&s, 99, &ns));
	assert_int_equal(ns, 2000);
	assert_true(lat_hist_percentile(&s, 100, &ns));
	assert_int_equal(ns, 7000);
	/* In the overflow: unknown. */
	lat_stats_add(&s, 500000);
	assert_false(lat_hist_percentile(&s, 100, &ns));
	lat_stats_free(&s);
}

/* A clock that advances 100 ns a read, with stalls of known length. */
static void test_detector(void **state)
{
	struct lat_stats samples;
	assert_int_equal(lat_stats_init(&samples, 1000, 1, 64), 0);
	struct osn_detect d = {.thresh_ns = 5000, .samples = &samples};
	uint64_t t = 1000000;
	osn_begin(&d, t);
	/* Gaps: 5000 is not above the threshold; 5001, 12000 and 40000 are. */
	uint64_t stalls[] = {5000, 5001, 12000, 40000};
	uint64_t got = 0;
	for (size_t s = 0; s < ARRAY_SIZE(stalls); s++) {
		for (int i = 0; i < 10; i++)
			assert_int_equal(osn_feed(&d, t += 100), 0);
		got += osn_feed(&d, t += stalls[s]);
	}
	assert_int_equal(d.count, 3);
	assert_int_equal(d.noise, 5001 + 12000 + 40000);
	assert_int_equal(got, d.noise);
	assert_int_equal(d.max_single, 40000);
	assert_int_equal(samples.count, 3);
	assert_int_equal(samples.min, 5001);
	assert_int_equal(samples.hist.counts[5], 1);
	assert_int_equal(samples.hist.counts[12], 1);
	assert_int_equal(samples.hist.counts[40], 1);
	/* A new period starts from zero; the samples go on accumulating. */
	osn_begin(&d, t);
	assert_int_equal(osn_feed(&d, t + 6000), 6000);
	assert_int_equal(d.count, 1);
	assert_int_equal(d.noise, 6000);
	assert_int_equal(samples.count, 4);
	lat_stats_free(&samples);
}

static void test_available(void **state)
{
	/* The spec's example line: 1000000 us runtime, 190 us noise: 99.98100. */
	assert_int_equal(osn_available_e5(1000000000ull, 190000ull), 9998100);
	assert_int_equal(osn_available_e5(1000, 0), 10000000);
	assert_int_equal(osn_available_e5(1000, 1000), 0);
	assert_int_equal(osn_available_e5(1000, 5000), 0);
	assert_int_equal(osn_available_e5(0, 0), 0);
	/* A long runtime does not overflow. */
	assert_int_equal(osn_available_e5(3600000000000ull, 36000000000ull), 9900000);
}

static FILE *text(const char *s)
{
	return fmemopen((void *)s, strlen(s), "r");
}

static void test_irqs(void **state)
{
	const char *intr = "           CPU0       CPU1       CPU3\n"
			   "  0:         10         20         30   IO-APIC   2-edge      timer\n"
			   " 24:          1          2          3   PCI-MSI 1-edge   eth0\n"
			   "NMI:          4          5          6   Non-maskable interrupts\n"
			   "LOC:        100        200        300   Local timer interrupts\n"
			   "ERR:          7\n"
			   "MIS:          8\n";
	const char *soft = "                    CPU0       CPU1       CPU3\n"
			   "          HI:          1          2          3\n"
			   "       TIMER:         10         20         30\n";
	struct cpu_irqs c;
	FILE *i = text(intr), *s = text(soft);
	assert_int_equal(cpu_irqs_parse(i, s, 3, &c), 0);
	assert_int_equal(c.irq, 30 + 3 + 300);
	assert_int_equal(c.nmi, 6);
	assert_int_equal(c.sirq, 33);
	fclose(i);
	fclose(s);
	/* CPU0: the ERR and MIS totals stay out. */
	i = text(intr);
	s = text(soft);
	assert_int_equal(cpu_irqs_parse(i, s, 0, &c), 0);
	assert_int_equal(c.irq, 10 + 1 + 100);
	assert_int_equal(c.nmi, 4);
	assert_int_equal(c.sirq, 11);
	fclose(i);
	fclose(s);
	/* An offline CPU has no column. */
	i = text(intr);
	s = text(soft);
	assert_int_equal(cpu_irqs_parse(i, s, 2, &c), -1);
	assert_int_equal(c.irq + c.nmi + c.sirq, 0);
	fclose(i);
	fclose(s);
}

static void test_duration(void **state)
{
	uint64_t s;
	assert_true(lat_parse_duration("10", &s));
	assert_int_equal(s, 10);
	assert_true(lat_parse_duration("10s", &s));
	assert_int_equal(s, 10);
	assert_true(lat_parse_duration("2m", &s));
	assert_int_equal(s, 120);
	assert_true(lat_parse_duration("1h", &s));
	assert_int_equal(s, 3600);
	assert_true(lat_parse_duration("1d", &s));
	assert_int_equal(s, 86400);
	const char *bad[] = {"", "0", "0s", "-1", "1x", "1ms", "s", " 1", "1.5", "367d", NULL};
	for (int i = 0; bad[i]; i++)
		assert_false(lat_parse_duration(bad[i], &s));
	char buf[32];
	lat_duration_text(0, buf, sizeof(buf));
	assert_string_equal(buf, "  0 00:00:00");
	lat_duration_text(86400 + 3600 * 2 + 60 * 3 + 4, buf, sizeof(buf));
	assert_string_equal(buf, "  1 02:03:04");
}

static void test_sched_and_cpus(void **state)
{
	struct lat_sched p;
	assert_true(lat_parse_sched("f:95", &p));
	assert_int_equal(p.policy, SCHED_FIFO);
	assert_int_equal(p.prio, 95);
	assert_true(lat_parse_sched("r:1", &p));
	assert_int_equal(p.policy, SCHED_RR);
	assert_true(lat_parse_sched("o:-5", &p));
	assert_int_equal(p.policy, SCHED_OTHER);
	assert_int_equal(p.prio, -5);
	const char *bad[] = {"f:0", "f:100", "f", "x:1", "o:20", "d:100us:1ms", "", NULL};
	for (int i = 0; bad[i]; i++)
		assert_false(lat_parse_sched(bad[i], &p));

	cpu_set_t allowed;
	assert_int_equal(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	int first = 0;
	while (!CPU_ISSET(first, &allowed))
		first++;
	char list[16], err[128];
	snprintf(list, sizeof(list), "%d", first);
	uint8_t *m;
	unsigned nbits;
	assert_true(lat_parse_cpus(list, &m, &nbits, err, sizeof(err)));
	assert_true(m[first / 8] & 1u << first % 8);
	free(m);
	assert_true(lat_parse_cpus(NULL, &m, &nbits, err, sizeof(err)));
	free(m);
	assert_false(lat_parse_cpus("100000", &m, &nbits, err, sizeof(err)));
	assert_false(lat_parse_cpus("abc", &m, &nbits, err, sizeof(err)));
}

/* timerlat's IRQ context: each activation's handler read comes first and
 * is never later than the thread's (an order, not a timing). */
struct irq_seen {
	uint64_t irq, pairs, disorder, unpaired;
	int pending;
};

static void irq_cb(void *ctx, int cpu, uint64_t lat)
{
	(void)cpu;
	struct irq_seen *s = ctx;
	s->unpaired += s->pending;
	s->irq = lat;
	s->pending = 1;
}

static void thread_cb(void *ctx, int cpu, uint64_t lat)
{
	(void)cpu;
	struct irq_seen *s = ctx;
	if (!s->pending)
		s->unpaired++;
	s->disorder += lat < s->irq;
	s->pairs++;
	s->pending = 0;
}

static void test_timerlat_irq(void **state)
{
	cpu_set_t allowed;
	assert_int_equal(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	int first = 0;
	while (!CPU_ISSET(first, &allowed))
		first++;
	uint8_t cpus[128] = {0};
	cpus[first / 8] = (uint8_t)(1u << first % 8);
	struct irq_seen seen = {0};
	struct timerlat_opts o = {.cpus = cpus,
				  .nbits = (unsigned)first + 1,
				  .period_ns = 1000000,
				  .sched = {SCHED_OTHER, 0},
				  .sample = thread_cb,
				  .irq_signo = SIGRTMIN + 3,
				  .irq_sample = irq_cb,
				  .ctx = &seen};
	struct timerlat t;
	assert_int_equal(timerlat_start(&t, &o), 0);
	struct timespec ts = {0, 100000000};
	while (nanosleep(&ts, &ts))
		;
	timerlat_stop(&t);
	assert_true(seen.pairs >= 1);
	assert_int_equal(seen.unpaired, 0);
	assert_int_equal(seen.disorder, 0);
	assert_int_equal(t.cpu[0].irq_st.count, t.cpu[0].st.count);
	assert_true(t.cpu[0].irq_st.min <= t.cpu[0].st.min);
	timerlat_free(&t);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats),	 cmocka_unit_test(test_hist_buckets),
	    cmocka_unit_test(test_percentile),	 cmocka_unit_test(test_detector),
	    cmocka_unit_test(test_available),	 cmocka_unit_test(test_irqs),
	    cmocka_unit_test(test_duration),	 cmocka_unit_test(test_sched_and_cpus),
	    cmocka_unit_test(test_timerlat_irq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
