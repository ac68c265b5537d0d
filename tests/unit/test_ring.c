/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-thread ring buffer end to end, in one process: libuft's writer fills
 * its rings, the ring reader (the one `uft record` uses) drains them from the
 * same shared region, and every record is checked: order, exact payload,
 * timestamps, CPU, and the accounting written == delivered + missed and
 * attempted == written + dropped, in both buffer modes, with and without a
 * reader running concurrently. Raw pages are cross-checked with kbuffer. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <kbuffer.h>

#define UFT_CREATE_EVENTS
#include "ring_events.h"

#include "wire/page.h"
#include "wire/ring_reader.h"
#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "sanitized.h"

/* Sanitizers slow the writer tenfold: fewer rounds there. */

/* ---- writer threads ---- */

struct wargs {
	uint64_t n;		   /* events to write */
	uint32_t min_len, max_len; /* blob sizes, cycled */
	uint64_t sleep_before;	   /* index of the event preceded by a sleep, or UINT64_MAX */
	unsigned sleep_ms;
	bool pin; /* alternate CPUs in blocks of pin_every events */
	uint64_t pin_every;
	uint64_t *t_before, *t_after; /* optional: clock around each event */
	int *cpu;		      /* optional: CPU each event was pinned to */
	uint8_t *dropped;	      /* optional: 1 if that event was refused */
	struct uft_ring *ring;	      /* level-0 ring, once opened */
	/* results */
	pid_t tid;
	uint64_t nr_dropped, nr_lost;
	struct uft_ring *rings[UFT_MAX_NEST];
};

static long nr_cpus;

static char *ring_page(struct uft_ring *r, uint64_t idx)
{
	return (char *)r + r->hdr_size + (idx % r->nr_pages) * (uint64_t)UFT_SUBBUF_SIZE;
}

static uint32_t blob_len(const struct wargs *a, uint64_t i)
{
	uint32_t span = a->max_len - a->min_len + 1;
	return a->min_len + (uint32_t)((i * 37u + i / 7u) % span);
}

static bool pin_to(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

static void *writer(void *arg)
{
	struct wargs *a = arg;
	static __thread uint8_t blob[UFT_SUBBUF_SIZE];
	a->tid = gettid();
	for (uint64_t i = 0; i < a->n; i++) {
		if (i == a->sleep_before) {
			struct timespec ts = {a->sleep_ms / 1000, (a->sleep_ms % 1000) * 1000000l};
			nanosleep(&ts, NULL);
		}
		if (a->pin && i % a->pin_every == 0)
			pin_to((int)((i / a->pin_every) % (uint64_t)nr_cpus));
		if (a->cpu)
			a->cpu[i] = sched_getcpu();
		uint32_t len = blob_len(a, i);
		uint32_t sum = rtest_fill(blob, i, 0, len);
		uint64_t d0 = uft_tls.lv[0].dropped, l0 = uft_tls.lv[0].lost;
		if (a->t_before)
			a->t_before[i] = uft_clock_now(UFT_CLOCK_LOCAL);
		trace_seq(i, 0, sum, blob, len);
		if (a->t_after)
			a->t_after[i] = uft_clock_now(UFT_CLOCK_LOCAL);
		bool refused = uft_tls.lv[0].dropped != d0 || uft_tls.lv[0].lost != l0;
		a->nr_dropped += uft_tls.lv[0].dropped != d0;
		a->nr_lost += uft_tls.lv[0].lost != l0;
		if (a->dropped)
			a->dropped[i] = refused;
		if (i == 0)
			uft_store_seq_cst(&a->ring, uft_tls.lv[0].r);
	}
	for (int l = 0; l < UFT_MAX_NEST; l++)
		a->rings[l] = uft_tls.lv[l].r;
	return NULL;
}

static void run_writer(struct wargs *a)
{
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, writer, a), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
}

/* ---- reading ---- */

struct rec {
	uint64_t ts, seq, missed;
	uint32_t cpu, len, blob_n;
	uint16_t type;
	uint8_t flags, preempt;
	int32_t pid;
	bool valid;
};

struct coll {
	struct rec *v;
	size_t n, cap;
};

static int collect_cb(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		      uint64_t missed)
{
	struct coll *c = ctx;
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		assert_non_null(c->v);
	}
	const struct rtest_rec *r = data;
	struct rec *o = &c->v[c->n++];
	*o = (struct rec){.ts = ts, .cpu = cpu, .missed = missed, .len = len};
	if (len >= sizeof(*r)) {
		o->seq = r->seq;
		o->type = r->type;
		o->flags = r->flags;
		o->preempt = r->preempt_count;
		o->pid = r->pid;
		o->blob_n = r->blob_loc >> 16;
		o->valid = rtest_valid(data, len);
	}
	return 0;
}

/* Everything readable, the page being written included (the writer is done). */
static void drain_all(struct uft_ring *r, struct uft_ring_cursor *cur, struct coll *out)
{
	while (uft_ring_drain(r, cur, true, collect_cb, out) > 0)
		;
}

static void coll_free(struct coll *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static uint16_t seq_id(void)
{
	return uft_event_id(&uft_event_seq);
}

/* Checks one delivered record against what the writer of `a` wrote. */
static void check_rec(const struct rec *r, const struct wargs *a)
{
	if (!r->valid)
		fprintf(stderr, "seq %lu len %u blob %u\n", r->seq, r->len, r->blob_n);
	assert_true(r->valid);
	assert_int_equal(r->type, seq_id());
	assert_int_equal(r->pid, a->tid);
	assert_int_equal(r->flags, 0);
	assert_int_equal(r->preempt, 0);
	assert_int_equal(r->blob_n, blob_len(a, r->seq));
	assert_true(r->cpu < (uint32_t)nr_cpus);
}

static void new_rings(uint32_t pages, enum uft_buffer_mode mode)
{
	uft_buffers[0].ring_pages = pages;
	uft_buffers[0].mode = mode;
}

/* ---- raw pages ---- */

/* Walks a raw page: counts time extends and CPU markers up to the commit. */
static void raw_scan(const uint8_t *page, unsigned *extends, unsigned *marks)
{
	uint64_t commit;
	memcpy(&commit, page + 8, 8);
	uint32_t len = (uint32_t)(commit & UFT_RB_COMMIT_MASK), off = 0;
	const uint8_t *d = page + UFT_PAGE_HDR_SIZE;
	while (off < len) {
		uint32_t w, arr;
		memcpy(&w, d + off, 4);
		memcpy(&arr, d + off + 4, 4);
		uint32_t t = w & 31;
		const uint8_t *payload = d + off + 4;
		if (t == UFT_RB_TYPE_TIME_EXTEND || t == UFT_RB_TYPE_TIME_STAMP) {
			*extends += t == UFT_RB_TYPE_TIME_EXTEND;
			off += 8;
			continue;
		}
		assert_int_not_equal(t, UFT_RB_TYPE_PADDING); /* never inside the commit */
		uint32_t size = t ? t * 4 : arr;
		if (!t)
			payload += 4;
		uint16_t type;
		memcpy(&type, payload, 2);
		*marks += type == UFT_ID_CPU_MARK;
		off += 4 + size;
	}
	assert_int_equal(off, len);
}

/* Decodes every page of `r` with our iterator and with kbuffer: same records,
 * same timestamps, same bytes. Returns the number of records. */
static size_t kbuffer_compare(struct uft_ring *r)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	assert_non_null(kb);
	uint64_t last = uft_load_seq_cst(&r->produced);
	size_t total = 0;
	for (uint64_t p = 0; p <= last; p++) {
		uint8_t *page = (uint8_t *)ring_page(r, p);
		struct uft_page_iter it;
		struct uft_page_rec rec;
		uft_page_iter_init(&it, page, UFT_SUBBUF_SIZE);
		assert_int_equal(kbuffer_load_subbuffer(kb, page), 0);
		unsigned long long kts;
		void *ev = kbuffer_read_event(kb, &kts);
		int rc;
		while ((rc = uft_page_iter_next(&it, &rec)) > 0) {
			assert_non_null(ev);
			assert_int_equal(kts, rec.ts);
			assert_ptr_equal(ev, rec.data);
			assert_int_equal(kbuffer_event_size(kb), rec.len);
			total++;
			ev = kbuffer_next_event(kb, &kts);
		}
		assert_int_equal(rc, 0);
		assert_null(ev);
	}
	kbuffer_free(kb);
	return total;
}

/* CPU markers in a ring that never wrapped. */
static unsigned count_marks(struct uft_ring *r)
{
	unsigned extends = 0, marks = 0;
	for (uint64_t p = 0; p <= uft_load_seq_cst(&r->produced); p++)
		raw_scan((uint8_t *)ring_page(r, p), &extends, &marks);
	return marks;
}

/* ---- cases ---- */

/* One thread, events of many sizes: all delivered in order, exact payloads,
 * timestamps monotonic and within the clock reads around each call. */
static void test_single_thread(void **state)
{
	(void)state;
	enum { N = 20000 };
	new_rings(1024, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = N, .min_len = 0, .max_len = 200, .sleep_before = UINT64_MAX};
	a.t_before = calloc(N, sizeof(uint64_t));
	a.t_after = calloc(N, sizeof(uint64_t));
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	assert_non_null(r);
	assert_null(a.rings[1]);
	assert_int_equal(r->tid, a.tid);
	assert_int_equal(r->level, 0);
	assert_int_equal(uft_load_seq_cst(&r->state), UFT_RING_EXITED);
	assert_int_equal(uft_load_seq_cst(&r->entries), N);
	assert_int_equal(uft_ring_written(r, NULL), N);

	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	assert_int_equal(c.n, N);
	assert_int_equal(cur.delivered, N);
	assert_int_equal(cur.missed, 0);
	assert_int_equal(cur.corrupt, 0);
	for (size_t i = 0; i < c.n; i++) {
		check_rec(&c.v[i], &a);
		assert_int_equal(c.v[i].seq, i);
		assert_int_equal(c.v[i].missed, 0);
		assert_true(c.v[i].ts >= a.t_before[i] && c.v[i].ts <= a.t_after[i]);
		if (i)
			assert_true(c.v[i].ts >= c.v[i - 1].ts);
	}
	/* Nothing more appears on a second drain. */
	assert_int_equal(uft_ring_drain(r, &cur, true, collect_cb, &c), 0);
	assert_int_equal(kbuffer_compare(r), N + count_marks(r));
	coll_free(&c);
	free(a.t_before);
	free(a.t_after);
}

/* Records up to the largest that fits, filling thousands of pages; one larger
 * than a page is refused and counted as lost. */
static void test_many_pages(void **state)
{
	(void)state;
	enum { N = 3000 };
	/* The writer takes records up to UFT_PAGE_DATA_SIZE - 24 bytes: the fixed
	 * part (up to the dynamic data) + blob. */
	const uint32_t max_blob =
	    UFT_PAGE_DATA_SIZE - 24 - (uint32_t)offsetof(struct uft_raw_seq, __data);
	new_rings(4096, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = N, .min_len = 100, .max_len = max_blob, .sleep_before = UINT64_MAX};
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	assert_int_equal(a.nr_dropped + a.nr_lost, 0);
	uint64_t pages = uft_load_seq_cst(&r->produced) + 1;
	assert_true(pages > 1000);

	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	assert_int_equal(c.n, N);
	assert_int_equal(cur.corrupt, 0);
	for (size_t i = 0; i < c.n; i++) {
		check_rec(&c.v[i], &a);
		assert_int_equal(c.v[i].seq, i);
	}
	assert_int_equal(kbuffer_compare(r), N + count_marks(r));
	coll_free(&c);

	/* The largest record fits exactly once; one byte more cannot be written. */
	struct wargs big = {
	    .n = 1, .min_len = max_blob, .max_len = max_blob, .sleep_before = UINT64_MAX};
	run_writer(&big);
	assert_int_equal(big.nr_lost, 0);
	struct wargs over = {
	    .n = 1, .min_len = max_blob + 1, .max_len = max_blob + 1, .sleep_before = UINT64_MAX};
	run_writer(&over);
	assert_int_equal(over.nr_lost, 1);
	assert_int_equal(uft_load_seq_cst(&over.rings[0]->lost), 1);
	assert_int_equal(uft_ring_written(over.rings[0], NULL), 0);
	uft_ring_cursor_init(&cur, big.rings[0]);
	drain_all(big.rings[0], &cur, &c);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0].blob_n, max_blob);
	assert_true(c.v[0].valid);
	coll_free(&c);
}

/* A gap longer than a record's 27-bit delta (134 ms in ns) needs a time extend;
 * timestamps must come out exact across it, for kbuffer too. */
static void test_time_extend(void **state)
{
	(void)state;
	enum { N = 40 };
	new_rings(64, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = N, .min_len = 8, .max_len = 24, .sleep_before = 20, .sleep_ms = 150};
	a.t_before = calloc(N, sizeof(uint64_t));
	a.t_after = calloc(N, sizeof(uint64_t));
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	assert_int_equal(uft_load_seq_cst(&r->produced), 0); /* all on one page */
	unsigned extends = 0, marks = 0;
	raw_scan((uint8_t *)ring_page(r, 0), &extends, &marks);
	/* The sleep's; a loaded machine may stall the writer as long elsewhere. */
	assert_true(extends >= 1);

	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	assert_int_equal(c.n, N);
	for (size_t i = 0; i < N; i++) {
		check_rec(&c.v[i], &a);
		assert_true(c.v[i].ts >= a.t_before[i] && c.v[i].ts <= a.t_after[i]);
	}
	assert_true(c.v[20].ts - c.v[19].ts >= 150000000ull);
	assert_int_equal(kbuffer_compare(r), N + marks);
	coll_free(&c);
	free(a.t_before);
	free(a.t_after);
}

/* CPU changes are recorded as markers in the raw pages and come out of the
 * reader as the CPU of each event; kbuffer reads the same raw pages. */
static void test_cpu_marks(void **state)
{
	(void)state;
	cpu_set_t set;
	if (nr_cpus < 2 || sched_getaffinity(0, sizeof(set), &set) != 0 ||
	    CPU_COUNT(&set) < nr_cpus)
		skip();
	enum { N = 4000, EVERY = 250 };
	new_rings(256, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = N,
			  .min_len = 0,
			  .max_len = 120,
			  .sleep_before = UINT64_MAX,
			  .pin = true,
			  .pin_every = EVERY};
	a.cpu = calloc(N, sizeof(int));
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	unsigned extends = 0, marks = 0, changes = 0;
	for (uint64_t p = 0; p <= uft_load_seq_cst(&r->produced); p++)
		raw_scan((uint8_t *)ring_page(r, p), &extends, &marks);
	for (size_t i = 1; i < N; i++)
		changes += a.cpu[i] != a.cpu[i - 1];
	assert_true(changes >= N / EVERY - 1);
	assert_int_equal(marks, changes);

	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	assert_int_equal(c.n, N); /* markers are not events */
	for (size_t i = 0; i < N; i++) {
		check_rec(&c.v[i], &a);
		assert_int_equal(c.v[i].seq, i);
		assert_int_equal(c.v[i].cpu, a.cpu[i]);
	}
	assert_int_equal(kbuffer_compare(r), N + marks);
	coll_free(&c);
	free(a.cpu);
}

/* Overwrite mode, 4 pages: only the newest events survive, consecutive, and
 * the reader accounts for every overwritten one. */
static void test_overwrite(void **state)
{
	(void)state;
	enum { N = 30000 };
	new_rings(4, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = N, .min_len = 0, .max_len = 90, .sleep_before = UINT64_MAX};
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	assert_int_equal(r->nr_pages, 4);
	assert_int_equal(a.nr_dropped + a.nr_lost, 0);
	assert_int_equal(uft_load_seq_cst(&r->dropped), 0);
	assert_int_equal(uft_ring_written(r, NULL), N);
	/* Three full pages and the one being written are what a 4-page ring holds. */
	assert_int_equal(uft_load_seq_cst(&r->consumed) + 3, uft_load_seq_cst(&r->produced));

	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	assert_true(c.n > 0 && c.n < N);
	assert_int_equal(cur.delivered + cur.missed, N);
	assert_int_equal(c.v[0].missed, cur.missed);
	assert_int_equal(c.v[0].seq, cur.missed);
	for (size_t i = 0; i < c.n; i++) {
		check_rec(&c.v[i], &a);
		assert_int_equal(c.v[i].seq, cur.missed + i);
		if (i)
			assert_int_equal(c.v[i].missed, 0);
	}
	assert_int_equal(c.v[c.n - 1].seq, N - 1);
	coll_free(&c);
}

/* Discard mode, 4 pages: the oldest events are kept, the refused ones are
 * counted exactly, and the reader sees no gap that is not a drop. */
static void test_discard(void **state)
{
	(void)state;
	enum { N = 30000 };
	for (int varied = 0; varied < 2; varied++) {
		new_rings(4, UFT_MODE_DISCARD);
		struct wargs a = {.n = N,
				  .min_len = varied ? 0 : 40,
				  .max_len = varied ? 300 : 40,
				  .sleep_before = UINT64_MAX};
		a.dropped = calloc(N, 1);
		run_writer(&a);
		struct uft_ring *r = a.rings[0];
		assert_int_equal(r->mode, UFT_MODE_DISCARD);
		assert_int_equal(a.nr_lost, 0);
		assert_true(a.nr_dropped > 0);
		assert_int_equal(uft_load_seq_cst(&r->dropped), a.nr_dropped);
		uint64_t written = uft_ring_written(r, NULL);
		assert_int_equal(written + a.nr_dropped, N);

		struct uft_ring_cursor cur;
		struct coll c = {0};
		uft_ring_cursor_init(&cur, r);
		drain_all(r, &cur, &c);
		assert_int_equal(c.n, written);
		assert_int_equal(cur.missed, 0);
		size_t k = 0;
		for (uint64_t i = 0; i < N; i++) {
			if (a.dropped[i])
				continue;
			assert_true(k < c.n);
			check_rec(&c.v[k], &a);
			assert_int_equal(c.v[k].seq, i);
			assert_int_equal(c.v[k].missed, 0);
			k++;
		}
		assert_int_equal(k, c.n);
		if (!varied) /* equal sizes: exactly the oldest `written` events */
			assert_int_equal(c.v[c.n - 1].seq, c.n - 1);
		coll_free(&c);
		free(a.dropped);
	}
}

/* A reader drains while the writer writes, round after round, in both modes
 * and several ring sizes; every event is accounted for exactly. */
struct live {
	struct coll c;
	uint64_t last; /* last seq + 1 */
	bool overwrite;
	uint64_t bad;
};

static int live_cb(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		   uint64_t missed)
{
	struct live *l = ctx;
	const struct rtest_rec *r = data;
	if (!rtest_valid(data, len) || r->seq < l->last ||
	    (l->overwrite && missed != r->seq - l->last) || (!l->overwrite && missed)) {
		l->bad++;
		return 0;
	}
	l->last = r->seq + 1;
	return collect_cb(&l->c, ts, cpu, data, len, missed);
}

static void test_concurrent_reader(void **state)
{
	(void)state;
#if SANITIZED
	enum { ROUNDS = 12, N = 30000 };
#else
	enum { ROUNDS = 24, N = 150000 };
#endif
	static const uint32_t sizes[] = {4, 5, 8, 16};
	for (int round = 0; round < ROUNDS; round++) {
		bool overwrite = round & 1;
		uint32_t pages = sizes[(round / 2) % 4];
		new_rings(pages, overwrite ? UFT_MODE_OVERWRITE : UFT_MODE_DISCARD);
		struct wargs a = {.n = N,
				  .min_len = 0,
				  .max_len = (round % 3) == 0	? 8
					     : (round % 3) == 1 ? 150
								: 1200,
				  .sleep_before = UINT64_MAX};
		a.dropped = calloc(N, 1);
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, writer, &a), 0);
		struct uft_ring *r;
		while (!(r = uft_load_seq_cst(&a.ring)))
			sched_yield();
		struct uft_ring_cursor cur;
		struct live l = {.overwrite = overwrite};
		uft_ring_cursor_init(&cur, r);
		while (uft_load_seq_cst(&r->state) == UFT_RING_ACTIVE)
			uft_ring_drain(r, &cur, true, live_cb, &l);
		assert_int_equal(pthread_join(th, NULL), 0);
		while (uft_ring_drain(r, &cur, true, live_cb, &l) > 0)
			;
		uint64_t written = uft_ring_written(r, NULL);
		assert_int_equal(l.bad, 0);
		assert_int_equal(cur.corrupt, 0);
		assert_int_equal(a.nr_lost, 0);
		assert_int_equal(written + a.nr_dropped, N);
		assert_int_equal(cur.delivered + cur.missed, written);
		assert_int_equal(l.c.n, cur.delivered);
		if (overwrite) {
			assert_int_equal(a.nr_dropped, 0);
			assert_int_equal(l.c.v[l.c.n - 1].seq, N - 1);
		} else {
			/* Discard: what was written was delivered, nothing else lost. */
			assert_int_equal(cur.missed, 0);
			size_t k = 0;
			for (uint64_t i = 0; i < N; i++) {
				if (a.dropped[i])
					continue;
				assert_true(k < l.c.n);
				assert_int_equal(l.c.v[k].seq, i);
				k++;
			}
		}
		for (size_t i = 0; i < l.c.n; i++)
			check_rec(&l.c.v[i], &a);
		/* Hand the ring back, as the recorder does, so later rounds reuse it. */
		uint32_t st = UFT_RING_EXITED;
		assert_true(uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE));
		coll_free(&l.c);
		free(a.dropped);
	}
}

/* Writes interrupted by writes, as signal handlers nest: each level has its
 * own ring and says its depth in the common fields; one level too deep is
 * refused and counted as lost. Driven by hand through the reserve/commit
 * interface the generated code uses. */
struct nest_res {
	pid_t tid;
	struct uft_ring *rings[UFT_MAX_NEST];
	int refused;
};

static void fill_rec(void *p, uint64_t seq, uint32_t ctx)
{
	struct rtest_rec *r = p;
	uint8_t none = 0;
	r->seq = seq;
	r->ctx = ctx;
	r->sum = rtest_fill(&none, seq, ctx, 0);
	r->blob_loc = (uint32_t)(offsetof(struct rtest_rec, blob_loc) + 4); /* empty blob */
}

static void *nest_writer(void *arg)
{
	struct nest_res *res = arg;
	struct uft_rsv rsv[UFT_MAX_NEST + 2];
	const uint32_t len = sizeof(struct uft_raw_seq);
	res->tid = gettid();
	for (uint32_t l = 0; l < UFT_MAX_NEST; l++) {
		void *p = uft_reserve(&rsv[l], &uft_event_seq, len);
		if (!p)
			return NULL;
		fill_rec(p, l, l);
	}
	for (uint32_t l = UFT_MAX_NEST; l < UFT_MAX_NEST + 2; l++)
		res->refused += uft_reserve(&rsv[l], &uft_event_seq, len) == NULL;
	for (int l = UFT_MAX_NEST - 1; l >= 0; l--)
		uft_commit(&rsv[l]);
	/* Back at the outermost level. */
	void *p = uft_reserve(&rsv[0], &uft_event_seq, len);
	if (p) {
		fill_rec(p, UFT_MAX_NEST, 0);
		uft_commit(&rsv[0]);
	}
	for (int l = 0; l < UFT_MAX_NEST; l++)
		res->rings[l] = uft_tls.lv[l].r;
	return NULL;
}

static void test_nesting(void **state)
{
	(void)state;
	new_rings(8, UFT_MODE_OVERWRITE);
	struct nest_res res = {0};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, nest_writer, &res), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(res.refused, 2);
	for (uint32_t l = 0; l < UFT_MAX_NEST; l++) {
		struct uft_ring *r = res.rings[l];
		assert_non_null(r);
		assert_int_equal(r->level, l);
		assert_int_equal(r->tid, res.tid);
		struct uft_ring_cursor cur;
		struct coll c = {0};
		uft_ring_cursor_init(&cur, r);
		drain_all(r, &cur, &c);
		assert_int_equal(c.n, l == 0 ? 2 : 1);
		for (size_t i = 0; i < c.n; i++) {
			assert_true(c.v[i].valid);
			assert_int_equal(c.v[i].pid, res.tid);
			assert_int_equal(c.v[i].preempt, l);
			assert_int_equal(c.v[i].flags, l ? UFT_FLAG_IN_SIGNAL : 0);
			assert_int_equal(c.v[i].seq, i ? UFT_MAX_NEST : l);
		}
		/* The refused writes are accounted where they would have nested. */
		assert_int_equal(uft_load_seq_cst(&r->lost), l == UFT_MAX_NEST - 1 ? 2 : 0);
		coll_free(&c);
	}
}

/* A thread's exit marks its ring EXITED with its final count; once handed back
 * (FREE) the next thread of the same geometry reuses it under a new generation,
 * and a reader still holding the old cursor starts over with the new data. */
static void test_exit_and_reuse(void **state)
{
	(void)state;
	new_rings(7, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = 5000, .min_len = 0, .max_len = 64, .sleep_before = UINT64_MAX};
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	assert_int_equal(uft_load_seq_cst(&r->state), UFT_RING_EXITED);
	assert_int_equal(uft_load_seq_cst(&r->entries), 5000);
	assert_int_equal(r->tid, a.tid);
	assert_true(uft_load_seq_cst(&r->produced) > 20); /* wrapped several times */

	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	assert_int_equal(cur.delivered + cur.missed, 5000);
	coll_free(&c);

	/* Not FREE yet: a new thread gets a different ring. */
	struct wargs b = {.n = 10, .min_len = 0, .max_len = 8, .sleep_before = UINT64_MAX};
	run_writer(&b);
	assert_ptr_not_equal(b.rings[0], r);
	uint32_t st = UFT_RING_EXITED;
	assert_true(uft_try_cmpxchg(&b.rings[0]->state, &st, UFT_RING_FREE));

	st = UFT_RING_EXITED;
	assert_true(uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE));
	uint32_t gen = r->generation;
	/* b's ring was freed later but comes later in the table: r is reused. */
	struct wargs d = {.n = 300, .min_len = 0, .max_len = 40, .sleep_before = UINT64_MAX};
	run_writer(&d);
	assert_ptr_equal(d.rings[0], r);
	assert_int_equal(r->generation, gen + 1);
	assert_int_equal(r->tid, d.tid);
	assert_int_equal(uft_load_seq_cst(&r->state), UFT_RING_EXITED);
	uint64_t first = uft_load_seq_cst(&r->consumed);
	assert_true(first > 20); /* past the old generation's pages */
	assert_true(uft_load_seq_cst(&r->produced) >= first + 1 &&
		    uft_load_seq_cst(&r->produced) < first + 7);

	/* The old cursor notices the new generation: only d's events, from 0. */
	drain_all(r, &cur, &c);
	assert_int_equal(cur.generation, gen + 1);
	assert_int_equal(c.n, 300);
	assert_int_equal(cur.missed, 0);
	for (size_t i = 0; i < c.n; i++) {
		check_rec(&c.v[i], &d);
		assert_int_equal(c.v[i].seq, i);
	}
	coll_free(&c);
	st = UFT_RING_EXITED;
	uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE);
}

/* A reader of the old generation that releases or clears up to a page it
 * copied, just as the ring changes hands (the window between its generation
 * check and its compare-and-swap): the new thread starts past every index
 * the old one used, so no page of it is released or hidden. */
static void test_stale_reader_after_reuse(void **state)
{
	(void)state;
	new_rings(7, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = 3000, .min_len = 0, .max_len = 64, .sleep_before = UINT64_MAX};
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	uint64_t old_p = uft_load_seq_cst(&r->produced);
	assert_true(old_p > 7);
	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	coll_free(&c);
	uint32_t st = UFT_RING_EXITED;
	assert_true(uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE));

	struct wargs d = {.n = 200, .min_len = 0, .max_len = 40, .sleep_before = UINT64_MAX};
	run_writer(&d);
	assert_ptr_equal(d.rings[0], r);
	for (uint64_t idx = 0; idx <= old_p; idx++) {
		uint64_t want = idx;
		assert_false(uft_try_cmpxchg(&r->consumed, &want, idx + 1));
		struct uft_ring_cursor stale = {.page = idx, .off = 512};
		uft_ring_consumed_to(r, &stale);
	}
	uft_ring_cursor_init(&cur, r);
	drain_all(r, &cur, &c);
	assert_int_equal(c.n, 200);
	assert_int_equal(cur.missed, 0);
	for (size_t i = 0; i < c.n; i++) {
		check_rec(&c.v[i], &d);
		assert_int_equal(c.v[i].seq, i);
	}
	coll_free(&c);
	st = UFT_RING_EXITED;
	uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE);
}

static int setup(void **state)
{
	(void)state;
	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (uft_session_start() != 0 || uft_set_event("rtest:*", 1) != 1)
		return -1;
	return 0;
}

/* A ring rewritten by whoever else maps it: the checks refuse bad geometry, a
 * cursor keeps the geometry it was given, and a bad page or an impossible
 * produced/consumed pair is counted, not followed. */
/* A consumer that rewrites `consumed` far behind (it may: the ring is in
 * memory it maps) costs the writer one step, and the overrun count stays a
 * count of events. */
static void test_consumed_rewritten(void **state)
{
	(void)state;
	new_rings(4, UFT_MODE_OVERWRITE);
	struct wargs a = {
	    .n = 20000, .min_len = 0, .max_len = 64, .sleep_before = 10000, .sleep_ms = 100};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, writer, &a), 0);
	while (!uft_load_seq_cst(&a.ring))
		usleep(1000);
	struct uft_ring *r = uft_load_seq_cst(&a.ring);
	while (uft_load_seq_cst(&r->produced) < 100)
		usleep(1000);
	uft_store_seq_cst(&r->consumed, 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	uint64_t p = uft_load_seq_cst(&r->produced), c = uft_load_seq_cst(&r->consumed);
	assert_true(c <= p && p - c <= r->nr_pages);
	assert_true(uft_load_seq_cst(&r->overrun) <= uft_load_seq_cst(&r->entries));
}

static void test_hostile_fields(void **state)
{
	(void)state;
	new_rings(7, UFT_MODE_OVERWRITE);
	struct wargs a = {.n = 2000, .min_len = 0, .max_len = 64, .sleep_before = UINT64_MAX};
	run_writer(&a);
	struct uft_ring *r = a.rings[0];
	struct uft_ring_geom g, bad;
	uint64_t room = r->total_size;
	assert_true(uft_ring_geom_read(r, room, &g));
	assert_int_equal(g.nr_pages, 7);
	assert_false(uft_ring_geom_read(r, room - 1, &bad));
	struct uft_ring saved = *r;
	r->nr_pages = 0;
	assert_false(uft_ring_geom_read(r, UINT64_MAX, &bad));
	r->nr_pages = saved.nr_pages;
	r->hdr_size = 0xfffffff0u;
	assert_false(uft_ring_geom_read(r, UINT64_MAX, &bad));
	r->hdr_size = 16; /* smaller than the header */
	r->total_size = 16 + 7ull * UFT_SUBBUF_SIZE;
	assert_false(uft_ring_geom_read(r, UINT64_MAX, &bad));
	r->hdr_size = saved.hdr_size;
	r->total_size = 1ull << 62; /* more space than the mapping has */
	assert_false(uft_ring_geom_read(r, room, &bad));
	r->total_size = saved.total_size - 1; /* less than its pages take */
	assert_false(uft_ring_geom_read(r, UINT64_MAX, &bad));
	r->total_size = saved.total_size;
	/* Sub-buffer sizes: a power of two from 4 KiB to 512 KiB whose pages
	 * fit the ring's space; 0 reads as the default. */
	assert_int_equal(g.subbuf_size, UFT_SUBBUF_SIZE);
	r->subbuf_size = 0;
	assert_true(uft_ring_geom_read(r, room, &bad));
	assert_int_equal(bad.subbuf_size, UFT_SUBBUF_SIZE);
	static const uint32_t bad_sizes[] = {2048, 12288, UFT_SUBBUF_MAX * 2, 0xffffffffu, 8192};
	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		r->subbuf_size = bad_sizes[i]; /* 8192: its pages would pass the space */
		assert_false(uft_ring_geom_read(r, room, &bad));
	}
	r->subbuf_size = saved.subbuf_size;

	/* The cursor's geometry is used, not the rewritten one. */
	r->nr_pages = 0;
	r->hdr_size = 0xfffffff0u;
	struct uft_ring_cursor cur;
	struct coll c = {0};
	uft_ring_cursor_init(&cur, r);
	cur.geom = g;
	drain_all(r, &cur, &c);
	assert_int_equal(cur.delivered + cur.missed, 2000);
	assert_int_equal(cur.bad_pages + cur.bad_state, 0);
	coll_free(&c);
	r->nr_pages = saved.nr_pages;
	r->hdr_size = saved.hdr_size;
	r->total_size = saved.total_size;

	/* A commit length past the page: the page is dropped and counted. */
	uint64_t p = uft_load_seq_cst(&r->produced);
	char *page = ring_page(r, p);
	uint64_t commit;
	memcpy(&commit, page + 8, 8);
	uint64_t huge = UFT_RB_COMMIT_MASK;
	memcpy(page + 8, &huge, 8);
	uft_ring_cursor_init(&cur, r);
	cur.geom = g;
	cur.page = p;
	drain_all(r, &cur, &c);
	assert_true(cur.bad_pages >= 1);
	assert_int_equal(c.n, 0);
	coll_free(&c);
	memcpy(page + 8, &commit, 8);

	/* produced far past consumed: refused at once, nothing walked. */
	r->produced = p + (1ull << 40);
	uft_ring_cursor_init(&cur, r);
	cur.geom = g;
	assert_int_equal(uft_ring_drain(r, &cur, true, NULL, NULL), 0);
	assert_int_equal(cur.bad_state, 1);
	r->produced = p;
	uint32_t st = UFT_RING_EXITED;
	uft_try_cmpxchg(&r->state, &st, UFT_RING_FREE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_single_thread),
	    cmocka_unit_test(test_many_pages),
	    cmocka_unit_test(test_time_extend),
	    cmocka_unit_test(test_cpu_marks),
	    cmocka_unit_test(test_overwrite),
	    cmocka_unit_test(test_discard),
	    cmocka_unit_test(test_concurrent_reader),
	    cmocka_unit_test(test_exit_and_reuse),
	    cmocka_unit_test(test_stale_reader_after_reuse),
	    cmocka_unit_test(test_nesting),
	    cmocka_unit_test(test_hostile_fields),
	    cmocka_unit_test(test_consumed_rewritten),
	};
	const char *only = getenv("UFT_TEST_FILTER"); /* e.g. "test_discard" */
	if (only && *only)
		cmocka_set_test_filter(only);
	return cmocka_run_group_tests(tests, setup, NULL);
}
