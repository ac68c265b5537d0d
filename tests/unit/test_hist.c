/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Histograms (src/engine/hist/hist_*.c, src/report/report_hist.c): the `hist`
 * text byte for byte for every modifier, sort orders, compound keys, table
 * size and drops, percent and graph columns, filters, nohitcount and
 * pause, every parse error the engine can give, the format parser, and
 * `uft report --hist` over a kernel-like trace.dat. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/format/format_parse.h"
#include "engine/hist/hist.h"
#include "wire/page.h"
#include "kernel_formats.h"
#include "report/report_hist.h"
#include "tracedat/tracedat.h"

struct trec {
	struct uft_common_entry common;
	int32_t pid;
	int32_t prio;
	uint64_t bytes;
	uint64_t call_site;
	char comm[16];
	uint32_t name; /* __data_loc char[] */
	int32_t delta;
	int64_t id;
	char data[32];
};

#define F(type, name, member, sgn, kind, elem)                                                     \
	{                                                                                          \
		type, name, offsetof(struct trec, member), sizeof(((struct trec *)0)->member),     \
		    sgn, kind, elem                                                                \
	}

static const struct uft_field fields[] = {
    F("int", "pid", pid, 1, UFT_FIELD_SCALAR, 4),
    F("int", "prio", prio, 1, UFT_FIELD_SCALAR, 4),
    F("u64", "bytes", bytes, 0, UFT_FIELD_SCALAR, 8),
    F("unsigned long", "call_site", call_site, 0, UFT_FIELD_SCALAR, 8),
    F("char", "comm[16]", comm, 0, UFT_FIELD_ARRAY, 1),
    F("__data_loc char[]", "name", name, 0, UFT_FIELD_DYN, 1),
    F("int", "delta", delta, 1, UFT_FIELD_SCALAR, 4),
    F("long", "id", id, 1, UFT_FIELD_SCALAR, 8),
};

static const struct uft_hist_event EV = {"test", "ev", fields, sizeof(fields) / sizeof(fields[0]),
					 false,	 NULL};

static struct trec mk(int pid, int prio, uint64_t bytes, uint64_t call_site, const char *comm,
		      const char *name)
{
	struct trec r;

	memset(&r, 0, sizeof(r));
	r.common.type = 100;
	r.common.pid = pid;
	r.pid = pid;
	r.prio = prio;
	r.bytes = bytes;
	r.call_site = call_site;
	memcpy(r.comm, comm, strnlen(comm, sizeof(r.comm)));
	size_t n = strlen(name) + 1;
	memcpy(r.data, name, n);
	r.name = (uint32_t)offsetof(struct trec, data) | (uint32_t)n << 16;
	return r;
}

static const char *comm_fn(void *ctx, int pid)
{
	switch (pid) {
	case 1:
		return "init";
	case 2:
		return "bash";
	case 3:
		return "a-very-long-name";
	default:
		return NULL;
	}
}
/* The writer's stack as the runtime would give it: cur_stack, up to its
 * first zero. */
static uint64_t cur_stack[24];
static uint32_t stack_fn(void *ctx, uint64_t *pcs, uint32_t max)
{
	(void)ctx;
	uint32_t n = 0;
	while (n < max && cur_stack[n]) {
		pcs[n] = cur_stack[n];
		n++;
	}
	return n;
}
static const struct uft_hist_comm COMM = {comm_fn, NULL, stack_fn};

static int sym_fn(void *ctx, uint64_t addr, bool offset, char *buf, size_t len)
{
	if (addr < 0x1000 || addr >= 0x1100)
		return -1;
	if (offset)
		snprintf(buf, len, "do_work+0x%llx/0x100", (unsigned long long)(addr - 0x1000));
	else
		snprintf(buf, len, "do_work");
	return 0;
}
static const struct uft_hist_syms SYMS = {sym_fn, NULL};

static char *print(const struct uft_hist *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(uft_hist_print(h, f, &SYMS), 0);
	fclose(f);
	return buf;
}

static struct uft_hist *make(const char *spec)
{
	struct uft_hist *h = NULL;
	struct uft_hist_error e;
	int rc = uft_hist_create(spec, &EV, &h, &e);

	if (rc)
		fprintf(stderr, "%s: rc %d code %d pos %d\n", spec, rc, e.code, e.pos);
	assert_int_equal(rc, 0);
	return h;
}

static void feed(struct uft_hist *h, const struct trec *r, uint64_t ts, uint32_t cpu)
{
	uft_hist_update(h, r, sizeof(*r), ts, cpu, &COMM);
}

static void expect(const struct uft_hist *h, const char *want)
{
	char *got = print(h);

	if (strcmp(got, want))
		fprintf(stderr, "--- want\n%s--- got\n%s---\n", want, got);
	assert_string_equal(got, want);
	free(got);
}

#define HDR(info) "# event histogram\n#\n# trigger info: " info "\n#\n\n"
#define TOTALS(hits, entries, drops)                                                               \
	"\nTotals:\n    Hits: " #hits "\n    Entries: " #entries "\n    Dropped: " #drops "\n"

/* A standard set of records for the modifier tests. */
static void feed_std(struct uft_hist *h)
{
	struct trec r[] = {
	    mk(1, 10, 100, 0x1010, "init", "/etc/passwd"),
	    mk(2, 20, 250, 0x1020, "bash", "/bin/sh"),
	    mk(2, 20, 3000, 0x1020, "bash", "/bin/sh"),
	    mk(3, 5, 0, 0x2000, "a-very-long-name", "/"),
	    mk(0, 120, 1, 0x1010, "swapper", "/etc/passwd"),
	};
	r[0].id = 0;
	r[1].id = 1;
	r[2].id = 1;
	r[3].id = 9999;
	r[4].id = 0;
	r[0].delta = -5;
	r[1].delta = 7;
	r[2].delta = 7;
	r[3].delta = -100;
	r[4].delta = 0;
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		feed(h, &r[i], 1000000 + 1500 * i, (uint32_t)i % 2);
}

struct case_ {
	const char *spec;
	const char *want;
};

static void run_cases(const struct case_ *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct uft_hist *h = make(c[i].spec);
		feed_std(h);
		expect(h, c[i].want);
		uft_hist_free(h);
	}
}

static void test_plain(void **state)
{
	static const struct case_ c[] = {
	    {"hist:keys=pid:vals=bytes",
	     HDR("hist:keys=pid:vals=hitcount,bytes:sort=hitcount:size="
		 "2048 [active]") "{ pid:          1 } hitcount:       "
				  "   1  bytes:        100\n"
				  "{ pid:          3 } hitcount:       "
				  "   1  bytes:          0\n"
				  "{ pid:          0 } hitcount:       "
				  "   1  bytes:          1\n"
				  "{ pid:          2 } hitcount:       "
				  "   2  bytes:       3250\n" TOTALS(5, 4, 0)},
	    /* no "hist:" prefix, whitespace around, key= and values= spellings */
	    {"  key=prio:values=hitcount  ", HDR("hist:keys=prio:vals=hitcount:sort=hitcount:size="
						 "2048 [active]") "{ prio:         10 } hitcount:  "
								  "        1\n"
								  "{ prio:          5 } hitcount:  "
								  "        1\n"
								  "{ prio:        120 } hitcount:  "
								  "        1\n"
								  "{ prio:         20 } hitcount:  "
								  "        2\n" TOTALS(5, 4, 0)},
	};
	run_cases(c, sizeof(c) / sizeof(c[0]));
}

static void test_key_modifiers(void **state)
{
	static const struct case_ c[] = {
	    {"keys=call_site.hex:sort=call_site",
	     HDR("hist:keys=call_site.hex:vals=hitcount:sort=call_site.hex:size="
		 "2048 [active]") "{ call_site: 1010 } hitcount:          2\n"
				  "{ call_site: 1020 } hitcount:          2\n"
				  "{ call_site: 2000 } hitcount:          "
				  "1\n" TOTALS(5, 3, 0)},
	    {"keys=call_site.sym:sort=call_site",
	     HDR("hist:keys=call_site.sym:vals=hitcount:sort=call_site.sym:size="
		 "2048 [active]") "{ call_site: [1010] do_work                     "
				  "                  } hitcount:   "
				  "       2\n"
				  "{ call_site: [1020] do_work                     "
				  "                  } hitcount:   "
				  "       2\n"
				  "{ call_site: [2000]                             "
				  "                  } hitcount:   "
				  "       1\n" TOTALS(5, 3, 0)},
	    {"keys=call_site.sym-offset:sort=call_site",
	     HDR("hist:keys=call_site.sym-offset:vals=hitcount:sort=call_site.sym-"
		 "offset:size=2048 "
		 "[active]") "{ call_site: [1010] do_work+0x10/0x100               "
			     "                       } "
			     "hitcount:          2\n"
			     "{ call_site: [1020] do_work+0x20/0x100               "
			     "                       } "
			     "hitcount:          2\n"
			     "{ call_site: [2000]                                  "
			     "                       } "
			     "hitcount:          1\n" TOTALS(5, 3, 0)},
	    {"keys=common_pid.execname:sort=common_pid",
	     HDR("hist:keys=common_pid.execname:vals=hitcount:sort=common_pid."
		 "execname:size=2048 "
		 "[active]") "{ common_pid: <idle>          [         0] } "
			     "hitcount:          1\n"
			     "{ common_pid: init            [         1] } "
			     "hitcount:          1\n"
			     "{ common_pid: bash            [         2] } "
			     "hitcount:          2\n"
			     "{ common_pid: a-very-long-nam [         3] } "
			     "hitcount:          1\n" TOTALS(5, 4, 0)},
	    {"keys=id.syscall:vals=hitcount:sort=id",
	     HDR("hist:keys=id.syscall:vals=hitcount:sort=id.syscall:size=2048 "
		 "[active]") "{ id: sys_read                      [  0] } "
			     "hitcount:          2\n"
			     "{ id: sys_write                     [  1] } "
			     "hitcount:          2\n"
			     "{ id: unknown_syscall               [9999] } "
			     "hitcount:          1\n" TOTALS(5, 3, 0)},
	    {"keys=bytes.log2:sort=bytes",
	     HDR("hist:keys=bytes.log2:vals=hitcount:sort=bytes.log2:size=2048 "
		 "[active]") "{ bytes: ~ 2^0  } hitcount:          2\n"
			     "{ bytes: ~ 2^7  } hitcount:          1\n"
			     "{ bytes: ~ 2^8  } hitcount:          1\n"
			     "{ bytes: ~ 2^12 } hitcount:          1\n" TOTALS(5, 4, 0)},
	    {"keys=bytes.buckets=200:sort=bytes",
	     HDR("hist:keys=bytes.buckets=200:vals=hitcount:sort=bytes.buckets=200:"
		 "size=2048 "
		 "[active]") "{ bytes: ~ 0-199 } hitcount:          3\n"
			     "{ bytes: ~ 200-399 } hitcount:          1\n"
			     "{ bytes: ~ 3000-3199 } hitcount:          1\n" TOTALS(5, 3, 0)},
	    {"keys=comm:sort=comm.descending",
	     HDR("hist:keys=comm:vals=hitcount:sort=comm.descending:size=2048 "
		 "[active]") "{ comm: swapper                                      "
			     "      } hitcount:          1\n"
			     "{ comm: init                                         "
			     "      } hitcount:          1\n"
			     "{ comm: bash                                         "
			     "      } hitcount:          2\n"
			     "{ comm: a-very-long-nam                              "
			     "      } hitcount:          1\n" TOTALS(5, 4, 0)},
	    {"keys=name:vals=bytes:sort=name", HDR("hist:keys=name:vals=hitcount,"
						   "bytes:sort=name:size=2048 "
						   "[active]") "{ name: /          "
							       "                   "
							       "                   "
							       "  } hitcount:      "
							       "    1  "
							       "bytes:          0\n"
							       "{ name: /bin/sh    "
							       "                   "
							       "                   "
							       "  } hitcount:      "
							       "    2  "
							       "bytes:       3250\n"
							       "{ name: "
							       "/etc/passwd        "
							       "                   "
							       "             } "
							       "hitcount:          "
							       "2  "
							       "bytes:        "
							       "101\n" TOTALS(5, 3, 0)},
	    {"keys=common_cpu", HDR("hist:keys=common_cpu:vals=hitcount:sort=hitcount:size=2048 "
				    "[active]") "{ common_cpu:          1 } hitcount:          2\n"
						"{ common_cpu:          0 } hitcount:          "
						"3\n" TOTALS(5, 2, 0)},
	    {"keys=cpu",
	     HDR("hist:keys=common_cpu:vals=hitcount:sort=hitcount:size=2048 "
		 "[active]") "{ cpu:          1 } hitcount:          2\n"
			     "{ cpu:          0 } hitcount:          3\n" TOTALS(5, 2, 0)},
	    {"keys=delta:sort=delta", HDR("hist:keys=delta:vals=hitcount:sort="
					  "delta:size=2048 [active]") "{ delta: "
								      "184467440737"
								      "09551516 } "
								      "hitcount:   "
								      "       1\n"
								      "{ delta: "
								      "184467440737"
								      "09551611 } "
								      "hitcount:   "
								      "       1\n"
								      "{ delta:    "
								      "      0 } "
								      "hitcount:   "
								      "       1\n"
								      "{ delta:    "
								      "      7 } "
								      "hitcount:   "
								      "       "
								      "2\n" TOTALS(5, 4, 0)},
	    {"keys=common_timestamp.usecs:vals=bytes:sort=common_timestamp",
	     HDR("hist:keys=common_timestamp.usecs:vals=hitcount,bytes:sort=common_"
		 "timestamp.usecs:"
		 "size=2048:clock=global [active]") "{ common_timestamp:       "
						    "1000 } hitcount:          1  "
						    "bytes:        100\n"
						    "{ common_timestamp:       "
						    "1002 } hitcount:          1  "
						    "bytes:        250\n"
						    "{ common_timestamp:       "
						    "1003 } hitcount:          1  "
						    "bytes:       3000\n"
						    "{ common_timestamp:       "
						    "1005 } hitcount:          1  "
						    "bytes:          0\n"
						    "{ common_timestamp:       "
						    "1006 } hitcount:          1  "
						    "bytes:          1\n" TOTALS(5, 5, 0)},
	    {"keys=comm,prio:sort=prio.descending",
	     HDR("hist:keys=comm,prio:vals=hitcount:sort=prio.descending:size=2048 "
		 "[active]") "{ comm: swapper                                      "
			     "     , prio:        120 } "
			     "hitcount:          1\n"
			     "{ comm: bash                                         "
			     "     , prio:         20 } "
			     "hitcount:          2\n"
			     "{ comm: init                                         "
			     "     , prio:         10 } "
			     "hitcount:          1\n"
			     "{ comm: a-very-long-nam                              "
			     "     , prio:          5 } "
			     "hitcount:          1\n" TOTALS(5, 4, 0)},
	    {"keys=test.ev.pid,prio,bytes.hex:sort=pid",
	     HDR("hist:keys=pid,prio,bytes.hex:vals=hitcount:sort=pid:size=2048 "
		 "[active]") "{ pid:          0, prio:        120, bytes: 1 } "
			     "hitcount:          1\n"
			     "{ pid:          1, prio:         10, bytes: 64 } "
			     "hitcount:          1\n"
			     "{ pid:          2, prio:         20, bytes: fa } "
			     "hitcount:          1\n"
			     "{ pid:          2, prio:         20, bytes: bb8 } "
			     "hitcount:          1\n"
			     "{ pid:          3, prio:          5, bytes: 0 } "
			     "hitcount:          1\n" TOTALS(5, 5, 0)},
	    {"keys=common_comm:sort=common_comm",
	     HDR("hist:keys=common_comm:vals=hitcount:sort=common_comm:size=2048 "
		 "[active]") "{ common_comm:                                       "
			     "             } hitcount:      "
			     "    1\n"
			     "{ common_comm: a-very-long-name                      "
			     "             } hitcount:      "
			     "    1\n"
			     "{ common_comm: bash                                  "
			     "             } hitcount:      "
			     "    2\n"
			     "{ common_comm: init                                  "
			     "             } hitcount:      "
			     "    1\n" TOTALS(5, 4, 0)},
	};
	run_cases(c, sizeof(c) / sizeof(c[0]));
}

static void test_values(void **state)
{
	static const struct case_ c[] = {
	    {"keys=pid:vals=hitcount.percent,bytes.graph:sort=pid",
	     HDR("hist:keys=pid:vals=hitcount,hitcount.percent,bytes.graph:sort="
		 "pid:size=2048 "
		 "[active]") "{ pid:          0 } hitcount:          1  hitcount "
			     "(%):  20.00  bytes:              "
			     "       \n"
			     "{ pid:          1 } hitcount:          1  hitcount "
			     "(%):  20.00  bytes:              "
			     "       \n"
			     "{ pid:          2 } hitcount:          2  hitcount "
			     "(%):  40.00  bytes: "
			     "####################\n"
			     "{ pid:          3 } hitcount:          1  hitcount "
			     "(%):  20.00  bytes:              "
			     "       \n" TOTALS(5, 4, 0)},
	    {"keys=prio:vals=bytes.percent,bytes.hex:nohitcount:sort=bytes."
	     "descending",
	     HDR("hist:keys=prio:vals=bytes.percent,bytes.hex:sort=bytes.percent."
		 "descending:size="
		 "2048:nohitcount [active]") "{ prio:         20 }  bytes (%):  "
					     "96.98  bytes:        cb2\n"
					     "{ prio:         10 }  bytes (%):   "
					     "2.98  bytes:         64\n"
					     "{ prio:        120 }  bytes (%):   "
					     "0.02  bytes:          1\n"
					     "{ prio:          5 }  bytes (%):   "
					     "0.00  bytes:          0\n" TOTALS(5, 4, 0)},
	    {"keys=pid:vals=hitcount.percent:NOHC:sort=pid",
	     HDR("hist:keys=pid:vals=hitcount.percent:sort=pid:size=2048:"
		 "nohitcount [active]") "{ pid:          0 }  hitcount (%):  "
					"20.00\n"
					"{ pid:          1 }  hitcount (%):  "
					"20.00\n"
					"{ pid:          2 }  hitcount (%):  "
					"40.00\n"
					"{ pid:          3 }  hitcount (%):  "
					"20.00\n" TOTALS(5, 4, 0)},
	    /* two sort keys: hitcount descending, then pid descending */
	    {"keys=pid:vals=prio:sort=hitcount.descending,pid.descending",
	     HDR("hist:keys=pid:vals=hitcount,prio:sort=hitcount.descending,pid."
		 "descending:size="
		 "2048 [active]") "{ pid:          2 } hitcount:          2  prio: "
				  "        40\n"
				  "{ pid:          3 } hitcount:          1  prio: "
				  "         5\n"
				  "{ pid:          1 } hitcount:          1  prio: "
				  "        10\n"
				  "{ pid:          0 } hitcount:          1  prio: "
				  "       120\n" TOTALS(5, 4, 0)},
	    {"keys=pid:vals=delta,prio:sort=delta",
	     HDR("hist:keys=pid:vals=hitcount,delta,prio:sort=delta:size=2048 "
		 "[active]") "{ pid:          0 } hitcount:          1  delta:     "
			     "     0  prio:        120\n"
			     "{ pid:          2 } hitcount:          2  delta:     "
			     "    14  prio:         40\n"
			     "{ pid:          3 } hitcount:          1  delta: "
			     "18446744073709551516  prio:          "
			     "5\n"
			     "{ pid:          1 } hitcount:          1  delta: "
			     "18446744073709551611  prio:         "
			     "10\n" TOTALS(5, 4, 0)},
	};
	run_cases(c, sizeof(c) / sizeof(c[0]));
}

static void test_graph_and_percent_edges(void **state)
{
	struct uft_hist *h = make("keys=pid:vals=bytes.graph,prio.percent:sort=pid");
	struct trec a = mk(1, 0, 30, 0, "x", ""), b = mk(2, 0, 7, 0, "x", "");

	feed(h, &a, 1, 0);
	feed(h, &b, 2, 0);
	expect(h, HDR("hist:keys=pid:vals=hitcount,bytes.graph,prio.percent:sort=pid:size=2048 "
		      "[active]") "{ pid:          1 } hitcount:          1  bytes: "
				  "####################  prio (%):   0.00\n"
				  "{ pid:          2 } hitcount:          1  bytes: "
				  "####                  prio (%):   0.00\n" TOTALS(2, 2, 0));
	uft_hist_free(h);
}

static void test_filter_pause_name(void **state)
{
	struct uft_hist *h = make("keys=pid:vals=bytes if prio >= 10 && comm ~ \"b*\"");
	feed_std(h);
	expect(h, HDR("hist:keys=pid:vals=hitcount,bytes:sort=hitcount:size=2048 if prio >= 10 && "
		      "comm ~ \"b*\" [active]") "{ pid:          2 } hitcount:          2  bytes:  "
						"     3250\n" TOTALS(2, 1, 0));
	uft_hist_free(h);

	/* COMM is the writer's name, from the callback */
	h = make("keys=pid if COMM == \"init\"");
	feed_std(h);
	expect(h, HDR("hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 if COMM == \"init\" "
		      "[active]") "{ pid:          1 } hitcount:          1\n" TOTALS(1, 1, 0));
	uft_hist_free(h);

	h = make("name=foo:keys=pid:pause");
	assert_true(uft_hist_paused(h));
	assert_int_equal(uft_hist_flags(h), UFT_HIST_PAUSE);
	assert_string_equal(uft_hist_name(h), "foo");
	feed_std(h);
	expect(h, HDR("hist:name=foo:keys=pid:vals=hitcount:sort=hitcount:size=2048 [paused]")
		      TOTALS(0, 0, 0));
	uft_hist_set_paused(h, false);
	struct trec r = mk(9, 0, 0, 0, "x", "");
	feed(h, &r, 0, 0);
	expect(
	    h,
	    HDR("hist:name=foo:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]") "{ pid:   "
											 "       9 "
											 "} "
											 "hitcount:"
											 "         "
											 " 1"
											 "\n" TOTALS(
											     1, 1,
											     0));
	uft_hist_clear(h);
	expect(h, HDR("hist:name=foo:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]")
		      TOTALS(0, 0, 0));
	uft_hist_free(h);

	h = make("keys=pid:cont:clear");
	assert_int_equal(uft_hist_flags(h), UFT_HIST_CONT | UFT_HIST_CLEAR);
	assert_false(uft_hist_paused(h));
	uft_hist_free(h);
}

static void test_size_and_drops(void **state)
{
	struct uft_hist *h = make("keys=pid:size=100");
	char *out;

	for (int i = 0; i < 200; i++) {
		struct trec r = mk(i, 0, 0, 0, "x", "");
		feed(h, &r, 0, 0);
		feed(h, &r, 0, 0); /* found again, or dropped again */
	}
	assert_int_equal(uft_hist_entries(h), 128);
	assert_int_equal(uft_hist_hits(h), 256);
	assert_int_equal(uft_hist_drops(h), 144);
	out = print(h);
	assert_non_null(strstr(out, "hist:keys=pid:vals=hitcount:sort=hitcount:size=128 [active]"));
	assert_non_null(strstr(out, "{ pid:        127 } hitcount:          2\n\nTotals:\n"
				    "    Hits: 256\n    Entries: 128\n    Dropped: 144\n"));
	free(out);
	uft_hist_free(h);

	static const struct {
		const char *spec;
		unsigned size;
	} sizes[] = {{"keys=pid:size=128", 128},
		     {"keys=pid:size=129", 256},
		     {"keys=pid:size=0x2000", 8192},
		     {"keys=pid:size=131072", 131072},
		     {"keys=pid:size=65537", 131072}};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char info[256], want[64];
		h = make(sizes[i].spec);
		uft_hist_info(h, info, sizeof(info));
		snprintf(want, sizeof(want), ":size=%u ", sizes[i].size);
		assert_non_null(strstr(info, want));
		uft_hist_free(h);
	}
}

static void test_records_too_short(void **state)
{
	struct uft_hist *h = make("keys=name:vals=bytes");
	struct trec r = mk(1, 0, 5, 0, "x", "abc");

	uft_hist_update(h, &r, offsetof(struct trec, bytes) + 4, 0, 0, &COMM); /* bytes cut */
	uft_hist_update(h, &r, offsetof(struct trec, data) + 2, 0, 0, &COMM);  /* string cut */
	uft_hist_update(h, &r, 7, 0, 0, &COMM);				       /* no header */
	r.name = 0xffff | 10u << 16;
	uft_hist_update(h, &r, sizeof(r), 0, 0, &COMM); /* loc outside */
	assert_int_equal(uft_hist_hits(h), 0);
	r = mk(1, 0, 5, 0, "x", "abc");
	uft_hist_update(h, &r, sizeof(r), 0, 0, NULL); /* no comm callback needed */
	assert_int_equal(uft_hist_hits(h), 1);
	uft_hist_free(h);
}

struct err_case {
	const char *spec;
	int err;
	int code;
	int pos;
};

static void test_errors(void **state)
{
	static const struct err_case c[] = {
	    {"", -EINVAL, 0, 0},
	    {"hist:", -EINVAL, 0, 0},
	    {"vals=bytes", -EINVAL, 0, 0}, /* keys missing */
	    {"keys=pid:bogus", -EINVAL, 0, 0},
	    {"keys=pid::vals=bytes", -EINVAL, 0, 0},
	    {"keys=", -EINVAL, UFT_HIST_ERR_EMPTY_ASSIGNMENT, 5},
	    {"keys=pid:vals=", -EINVAL, UFT_HIST_ERR_EMPTY_ASSIGNMENT, 14},
	    {"keys=pid:size=64", -EINVAL, 0, 0},
	    {"keys=pid:size=131073", -EINVAL, 0, 0},
	    {"keys=pid:size=0", -EINVAL, 0, 0},
	    {"keys=pid:size=12k", -EINVAL, 0, 0},
	    {"keys=nosuch", -EINVAL, UFT_HIST_ERR_FIELD_NOT_FOUND, 10},
	    {"keys=pid:vals=nosuch", -EINVAL, UFT_HIST_ERR_FIELD_NOT_FOUND, 19},
	    {"keys=pid.foo", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 14},
	    /* two dots: SYSTEM.EVENT.FIELD, so "log2" is the field */
	    {"keys=pid.hex.log2", -EINVAL, UFT_HIST_ERR_FIELD_NOT_FOUND, 18},
	    {"keys=pid.execname", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 14},
	    {"keys=pid.percent", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 14},
	    {"keys=pid.graph", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 14},
	    {"keys=pid.buckets", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 0},
	    {"keys=pid.buckets=0", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 22},
	    {"keys=pid.buckets=x7", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 22},
	    {"keys=pid:vals=bytes.log2", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 19},
	    {"keys=pid:vals=bytes.sym", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 19},
	    {"keys=pid:vals=call_site.sym-offset", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 0},
	    {"keys=pid:vals=id.syscall", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 19},
	    {"keys=pid:vals=bytes.buckets=10", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 19},
	    {"keys=pid:vals=comm", -EINVAL, 0, 0},
	    /* the first "a" of the command: the kernel's strstr() */
	    {"keys=pid:vals=a,b,c", -EINVAL, UFT_HIST_ERR_FIELD_NOT_FOUND, 15},
	    {"keys=pid:vals=bytes,prio,delta", -EINVAL, 0, 0},
	    {"keys=pid,prio,bytes,delta", -EINVAL, 0, 0},
	    {"keys=name,common_comm", -EINVAL, 0, 0}, /* key over 384 bytes */
	    {"keys=pid:nohitcount", -ENOENT, UFT_HIST_ERR_NEED_NOHC_VAL, 0},
	    {"keys=pid:vals=hitcount:NOHC", -ENOENT, UFT_HIST_ERR_NEED_NOHC_VAL, 0},
	    {"keys=pid:sort=bytes", -EINVAL, UFT_HIST_ERR_INVALID_SORT_FIELD, 19},
	    {"keys=pid:sort=pid.up", -EINVAL, UFT_HIST_ERR_INVALID_SORT_MODIFIER, 23},
	    {"keys=pid:sort=hitcount.hex", -EINVAL, UFT_HIST_ERR_INVALID_SORT_MODIFIER, 28},
	    {"keys=pid:sort=pid,", -EINVAL, UFT_HIST_ERR_EMPTY_SORT_FIELD, 14},
	    {"keys=pid:sort=,pid", -EINVAL, UFT_HIST_ERR_EMPTY_SORT_FIELD, 14},
	    {"keys=pid:sort=.descending", -EINVAL, UFT_HIST_ERR_EMPTY_SORT_FIELD, 14},
	    {"keys=pid:sort=pid,hitcount,prio", -EINVAL, UFT_HIST_ERR_TOO_MANY_SORT_FIELDS, 14},
	    {"keys=$ts0", -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, 11},
	    {"keys=pid:vals=$lat", -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, 20},
	    {"keys=0x1z", -EINVAL, UFT_HIST_ERR_EXPECT_NUMBER, 10},
	    {"keys=pid:a=,b", -EINVAL, UFT_HIST_ERR_MALFORMED_ASSIGNMENT, 17},
	    {"keys=pid:ts0=common_timestamp,x", -EINVAL, UFT_HIST_ERR_MALFORMED_ASSIGNMENT, 35},
	    {"keys=common_timestamp:clock=nosuch", -EINVAL, UFT_HIST_ERR_SET_CLOCK_FAIL, 33},
	    {"if prio > 1", -EINVAL, 0, 0},
	    {"keys=pid if", -EINVAL, 0, 0},
	    {"keys=pid if ", -EINVAL, 0, 0},
	    /* variables and expressions */
	    {"keys=pid:a=prio,a=pid", -EINVAL, UFT_HIST_ERR_DUPLICATE_VAR, 14},
	    {"keys=pid:a=prio/0", -EINVAL, UFT_HIST_ERR_DIVISION_BY_ZERO, 21},
	    {"keys=pid:a=prio*-(pid)", -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR, 21},
	    /* ftracetest's position: past the "-(" */
	    {"keys=common_pid:x=-(1)+2", -EINVAL, UFT_HIST_ERR_UNARY_MINUS_SUBEXPR, 25},
	    {"keys=pid:a=$nosuch", -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, 17},
	    {"keys=pid:a=common_timestamp-common_timestamp.usecs", -EINVAL,
	     UFT_HIST_ERR_TIMESTAMP_MISMATCH, 16},
	    {"keys=pid:a=1+2+3+4+5", -EINVAL, UFT_HIST_ERR_TOO_MANY_SUBEXPR, 16},
	    {"keys=pid:onmatch(a.b).trace(nosuch,$x)", -EINVAL, UFT_HIST_ERR_SYNTH_EVENT_NOT_FOUND,
	     33},
	    /* onmax() and onchange(): the handler's syntax before the fields,
	     * its variable and action after them */
	    {"keys=pid:onmax($x).save(prio)", -EINVAL, UFT_HIST_ERR_ONX_VAR_NOT_FOUND, 18},
	    {"keys=pid:a=prio:onmax(a).save(prio)", -EINVAL, UFT_HIST_ERR_ONX_NOT_VAR, 14},
	    {"keys=pid:a=prio:onchange().save(prio)", -EINVAL, UFT_HIST_ERR_ONX_NOT_VAR, 0},
	    {"keys=pid:a=prio:onmax($a).save(x)", -EINVAL, UFT_HIST_ERR_INVALID_PARAM, 25},
	    {"keys=pid:a=prio:onmax($a).save()", -EINVAL, UFT_HIST_ERR_INVALID_PARAM, 0},
	    {"keys=pid:a=prio:onmax($a).save(prio):onchange($a).save(pid)", -EEXIST,
	     UFT_HIST_ERR_TOO_MANY_SAVE_ACTIONS, 0},
	    {"keys=pid:a=prio:onmatch(t.e).save(prio)", -EINVAL, UFT_HIST_ERR_ACTION_MISMATCH, 34},
	    {"keys=pid:a=prio:onmatch(t.e).snapshot()", -EINVAL, UFT_HIST_ERR_ACTION_MISMATCH, 34},
	    {"keys=pid:a=prio:onmax($a).snapshot(", -EINVAL, UFT_HIST_ERR_NO_CLOSING_PAREN, 0},
	    {"keys=pid:a=prio:onmax($a)", -EINVAL, UFT_HIST_ERR_ACTION_NOT_FOUND, 0},
	    {"keys=pid:a=prio:onmax($a).save", -EINVAL, UFT_HIST_ERR_ACTION_NOT_FOUND, 0},
	    {"keys=pid:a=prio:onmax($a", -EINVAL, 0, 0},
	    {"keys=pid:a=prio:onmatch(te).trace(x,$a)", -EINVAL, UFT_HIST_ERR_SUBSYS_NOT_FOUND, 29},
	    {"keys=pid:a=prio:onmatch(t.e.trace(x,$a", -EINVAL, UFT_HIST_ERR_NO_CLOSING_PAREN, 29},
	    {"keys=pid:a=prio:onmax($a).snapshot():onchange($a).snapshot()", -EBUSY, 0, 0},
	    {"keys=pid:prio=prio:onmax($prio).save(prio)", -EINVAL,
	     UFT_HIST_ERR_FIELD_VAR_CREATE_FAIL, 14},
	    {"keys=pid:a=prio:onmax($a).save(nosuch)", -EINVAL, UFT_HIST_ERR_FIELD_VAR_CREATE_FAIL,
	     36},
	    /* not implemented yet, and said so */
	    {"keys=$l:l=pid+1", -EINVAL, UFT_HIST_ERR_INVALID_REF_KEY, 10},
	    {"keys=$nosuch", -EINVAL, UFT_HIST_ERR_VAR_NOT_FOUND, 11},
	    {"keys=pid:vals=name-prio", -EINVAL, UFT_HIST_ERR_INVALID_STR_OPERAND, 19},
	    {"keys=id.stacktrace", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 13},
	    {"keys=name.stacktrace", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 15},
	    {"keys=common_timestamp.stacktrace", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 27},
	    {"keys=common_stacktrace.stacktrace", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 17},
	    {"keys=pid:st=common_stacktrace,x=$st+1", -EINVAL, 0, 0},
	    {"keys=pid:st=common_stacktrace,x=-($st)", -EINVAL, 0, 0},
	    {"keys=pid:st=common_stacktrace:onmax($st).save(prio)", -EINVAL, 0, 0},
	    {"keys=pid:a=prio:onmax($a).save(common_stacktrace)", -EOPNOTSUPP, 0, 0},
	    {"keys=common_stacktrace.hex", -EINVAL, UFT_HIST_ERR_BAD_FIELD_MODIFIER, 28},
	    {"keys=pid:vals=common_stacktrace", -EINVAL, 0, 0},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct uft_hist *h = (void *)1;
		struct uft_hist_error e;
		int rc = uft_hist_create(c[i].spec, &EV, &h, &e);

		if (rc != c[i].err || e.code != c[i].code || e.pos != c[i].pos)
			fprintf(stderr, "'%s': rc %d code %d pos %d\n", c[i].spec, rc, e.code,
				e.pos);
		assert_int_equal(rc, c[i].err);
		assert_int_equal(e.err, c[i].err);
		assert_int_equal(e.code, c[i].code);
		assert_int_equal(e.pos, c[i].pos);
		assert_false(e.in_filter);
		assert_null(h);
		if (rc == -EOPNOTSUPP)
			assert_non_null(e.unsupported);
	}
	/* a save() field that is not one: the kernel's three entries */
	struct uft_hist_error pe;
	struct uft_hist *ph;
	assert_int_equal(uft_hist_create("keys=pid:a=prio:onmax($a).save(nosuch)", &EV, &ph, &pe),
			 -EINVAL);
	assert_int_equal(pe.n_prior, 2);
	assert_int_equal(pe.prior[0].code, UFT_HIST_ERR_FIELD_NOT_FOUND);
	assert_int_equal(pe.prior[0].pos, 36);
	assert_int_equal(pe.prior[1].code, UFT_HIST_ERR_FIELD_VAR_PARSE_FAIL);
	assert_int_equal(pe.prior[1].pos, 36);
	assert_int_equal(
	    uft_hist_create("keys=pid:prio=prio:onmax($prio).save(prio)", &EV, &ph, &pe), -EINVAL);
	assert_int_equal(pe.n_prior, 1);
	assert_int_equal(pe.prior[0].code, UFT_HIST_ERR_VAR_CREATE_FIND_FAIL);

	/* 17 variable assignments: too many */
	char spec[512] = "keys=pid";
	for (int i = 0; i < 17; i++)
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), ":v%d=pid", i);
	struct uft_hist *h;
	struct uft_hist_error e;
	assert_int_equal(uft_hist_create(spec, &EV, &h, &e), -EINVAL);
	assert_int_equal(e.code, UFT_HIST_ERR_TOO_MANY_VARS);
	assert_int_equal(e.pos, (int)(strstr(spec, ":v16") - spec) + 6);

	/* a filter error names the filter's message and position */
	assert_int_equal(uft_hist_create("keys=pid if nosuch == 1", &EV, &h, &e), -EINVAL);
	assert_true(e.in_filter);
	assert_int_equal(e.filter.code, UFT_FILTER_ERR_FIELD_NOT_FOUND);
	assert_int_equal(e.filter_off, 17);
	assert_int_equal(e.filter.pos, 7);
	assert_string_equal(uft_hist_strerror(UFT_HIST_ERR_NEED_NOHC_VAL),
			    "Non-hitcount value is required for 'nohitcount'");
	assert_string_equal(uft_hist_strerror(UFT_HIST_ERR_TOO_MANY_SORT_FIELDS),
			    "Too many sort fields (Max = 2)");
	assert_string_equal(uft_hist_strerror(UFT_HIST_ERR_FIELD_NOT_FOUND), "Couldn't find field");
}

/* ---- onmax() and onchange() ---- */

static int snapshots;
static uint64_t emitted[8][2];
static int n_emitted;

static void *t_synth_get(void *ctx, const char *name, uint32_t *nr, uint8_t *kinds)
{
	(void)ctx;
	if (strcmp(name, "lat"))
		return NULL;
	*nr = 2;
	kinds[0] = kinds[1] = 0;
	return (void *)1;
}

static void t_synth_put(void *ctx, void *synth)
{
	(void)ctx;
	(void)synth;
}

static void t_emit(void *ctx, void *synth, const uint64_t *vals, const char *const *strs)
{
	(void)ctx;
	(void)synth;
	(void)strs;
	if (n_emitted < 8) {
		emitted[n_emitted][0] = vals[0];
		emitted[n_emitted][1] = vals[1];
	}
	n_emitted++;
}

static void t_snapshot(void *ctx)
{
	(void)ctx;
	snapshots++;
}

static const struct uft_hist_env ENV = {.synth_get = t_synth_get,
					.synth_put = t_synth_put,
					.synth_emit = t_emit,
					.snapshot = t_snapshot};

static struct uft_hist *make_env(const char *spec)
{
	struct uft_hist *h = NULL;
	struct uft_hist_error e;
	int rc = uft_hist_create_env(spec, &EV, &ENV, &h, &e);

	if (rc)
		fprintf(stderr, "%s: rc %d code %d pos %d\n", spec, rc, e.code, e.pos);
	assert_int_equal(rc, 0);
	snapshots = n_emitted = 0;
	return h;
}

static void test_onmax_onchange(void **state)
{
	(void)state;
	/* save(): the fields of the event that set the max; an entry whose
	 * value never passed 0 has none (the kernel's unset variables). */
	struct uft_hist *h = make_env("keys=pid:b=bytes:onmax($b).save(comm,prio,name)");
	feed_std(h);
	expect(
	    h,
	    HDR("hist:keys=pid:vals=hitcount:b=bytes:sort=hitcount:size=2048:"
		"onmax($b).save(comm,prio,name) [active]") "{ pid:          1 } hitcount:          "
							   "1\n"
							   "\tmax:        100  comm: init          "
							   "                    prio:         10  "
							   "name: /etc/passwd                     "
							   "\n"
							   "{ pid:          3 } hitcount:          "
							   "1\n"
							   "\tmax:          0  comm: (null)        "
							   "                    prio:          0  "
							   "name: (null)                          "
							   "\n"
							   "{ pid:          0 } hitcount:          "
							   "1\n"
							   "\tmax:          1  comm: swapper       "
							   "                    prio:        120  "
							   "name: /etc/passwd                     "
							   "\n"
							   "{ pid:          2 } hitcount:          "
							   "2\n"
							   "\tmax:       3000  comm: bash          "
							   "                    prio:         20  "
							   "name: /bin/sh                         "
							   "\n" TOTALS(5, 4, 0));
	/* a smaller value later keeps the max and its fields */
	struct trec r = mk(2, 99, 5, 0, "zsh", "/x");
	feed(h, &r, 0, 0);
	char *t = print(h);
	assert_non_null(strstr(t, "{ pid:          2 } hitcount:          3\n"
				  "\tmax:       3000  comm: bash    "));
	free(t);
	/* clear empties the tracked values too */
	uft_hist_clear(h);
	r = mk(2, 7, 9, 0, "zsh", "/x");
	feed(h, &r, 0, 0);
	t = print(h);
	assert_non_null(strstr(t, "{ pid:          2 } hitcount:          1\n"
				  "\tmax:          9  comm: zsh     "));
	free(t);
	assert_int_equal(snapshots, 0);
	uft_hist_free(h);

	/* onchange(): a snapshot each time the value differs from the last
	 * snapshot's; the entries show nothing for a snapshot() action. */
	h = make_env("keys=pid:b=bytes:onchange($b).snapshot()");
	feed_std(h);
	assert_int_equal(snapshots, 4);
	expect(h,
	       HDR("hist:keys=pid:vals=hitcount:b=bytes:sort=hitcount:size=2048:"
		   "onchange($b).snapshot() [active]") "{ pid:          1 } hitcount:          1\n"
						       "{ pid:          3 } hitcount:          1\n"
						       "{ pid:          0 } hitcount:          1\n"
						       "{ pid:          2 } hitcount:          2\n"
						       "\n"
						       "Snapshot taken (see tracing/snapshot).  "
						       "Details:\n"
						       "\ttriggering value { onchange($b) }:       "
						       "   1\t"
						       "triggered by event with key: { pid:        "
						       "  0 }\n" TOTALS(5, 4, 0));
	assert_true(uft_hist_has_snapshot(h));
	uft_hist_free(h);

	/* onmax().snapshot(): only a value above every entry's takes one */
	h = make_env("keys=common_pid.execname:b=bytes:onmax($b).snapshot()");
	feed_std(h);
	assert_int_equal(snapshots, 3);
	t = print(h);
	assert_non_null(strstr(t, "\n\nSnapshot taken (see tracing/snapshot).  Details:\n"
				  "\ttriggering value { onmax($b) }:       3000\t"
				  "triggered by event with key: { common_pid: bash            "
				  "[         2] }\n\nTotals:\n"));
	free(t);
	uft_hist_free(h);

	/* .trace() and the legacy .SYNTH() run when the value wins; every
	 * onmax/onchange line shows the saved fields. */
	h = make_env("keys=pid:b=bytes:onmax($b).trace(lat,$b,prio):onchange($b).save(id):"
		     "onmax($b).lat($b,delta)");
	feed_std(h);
	assert_int_equal(n_emitted, 8);
	static const uint64_t want[8][2] = {{100, 10},	{100, (uint64_t)-5}, {250, 20}, {250, 7},
					    {3000, 20}, {3000, 7},	     {1, 120},	{1, 0}};
	for (int i = 0; i < 8; i++) {
		assert_int_equal(emitted[i][0], want[i][0]);
		assert_int_equal(emitted[i][1], want[i][1]);
	}
	expect(h, HDR("hist:keys=pid:vals=hitcount:b=bytes:sort=hitcount:size=2048:"
		      "onmax($b).trace(lat,$b,prio):onchange($b).save(id):onmax($b).lat($b,delta) "
		      "[active]") "{ pid:          1 } hitcount:          1\n"
				  "\tmax:        100  id:          0\n"
				  "\tchanged:        100  id:          0\n"
				  "\tmax:        100  id:          0\n"
				  "{ pid:          3 } hitcount:          1\n"
				  "\tmax:          0  id:          0\n"
				  "\tchanged:          0  id:          0\n"
				  "\tmax:          0  id:          0\n"
				  "{ pid:          0 } hitcount:          1\n"
				  "\tmax:          1  id:          0\n"
				  "\tchanged:          1  id:          0\n"
				  "\tmax:          1  id:          0\n"
				  "{ pid:          2 } hitcount:          2\n"
				  "\tmax:       3000  id:          1\n"
				  "\tchanged:       3000  id:          1\n"
				  "\tmax:       3000  id:          1\n" TOTALS(5, 4, 0));
	/* the same trigger only with the same actions */
	struct uft_hist *same = make_env("keys=pid:b=bytes:onmax($b).trace(lat,$b,prio):"
					 "onchange($b).save(id):onmax($b).lat($b,delta)");
	struct uft_hist *other = make_env("keys=pid:b=bytes:onmax($b).trace(lat,$b,prio)");
	assert_true(uft_hist_same(h, same, false));
	assert_false(uft_hist_same(h, other, false));
	uft_hist_free(same);
	uft_hist_free(other);
	uft_hist_free(h);
}

/* Values that are expressions, keys that are variables standing for a
 * field, references to such variables. */
static void test_value_expr_key_var(void **state)
{
	(void)state;
	static const struct case_ c[] = {
	    {"keys=pid:vals=bytes-prio",
	     HDR("hist:keys=pid:vals=hitcount,bytes-prio:sort=hitcount:size=2048 "
		 "[active]") "{ pid:          1 } hitcount:          1  bytes-prio:    "
			     "     90\n"
			     "{ pid:          3 } hitcount:          1  bytes-prio: "
			     "18446744073709551611\n"
			     "{ pid:          0 } hitcount:          1  bytes-prio: "
			     "18446744073709551497\n"
			     "{ pid:          2 } hitcount:          2  bytes-prio:    "
			     "   3210\n" TOTALS(5, 4, 0)},
	    {"keys=$p:p=pid:q=$p*2:vals=bytes*2+1:sort=bytes*2+1.descending",
	     HDR("hist:keys=pid:vals=hitcount,bytes*2+1:p=pid,q=pid*2:sort=bytes*2+1."
		 "descending:"
		 "size=2048 [active]") "{ pid:          2 } hitcount:          2  "
				       "bytes*2+1:       6502\n"
				       "{ pid:          1 } hitcount:          1  "
				       "bytes*2+1:        201\n"
				       "{ pid:          0 } hitcount:          1  "
				       "bytes*2+1:          3\n"
				       "{ pid:          3 } hitcount:          1  "
				       "bytes*2+1:          1\n" TOTALS(5, 4, 0)},
	};
	run_cases(c, sizeof(c) / sizeof(c[0]));
}

/* An onmatch parameter that is no field of this event: the matching
 * event's field variable (through the env), with the two entries the
 * kernel logs on the way even when it works. */
static struct uft_hist *fv_hist;
static char fv_seen[64];

static struct uft_hist *t_field_var(void *ctx, const char *system, const char *event,
				    const char *field, const struct uft_hist *target, int *code,
				    char **created)
{
	(void)ctx;
	(void)target;
	snprintf(fv_seen, sizeof(fv_seen), "%s.%s.%s", system, event, field);
	*created = NULL;
	if (!fv_hist)
		*code = UFT_HIST_ERR_HIST_NOT_FOUND;
	return fv_hist;
}

static void test_match_event_field(void **state)
{
	(void)state;
	struct uft_hist_env env = ENV;
	env.field_var = t_field_var;
	const char *spec = "keys=pid:x=prio:onmatch(m.e).trace(lat,$x,remote)";
	struct uft_hist *h = NULL;
	struct uft_hist_error e;
	fv_hist = NULL;
	assert_int_equal(uft_hist_create_env(spec, &EV, &env, &h, &e), -EINVAL);
	assert_string_equal(fv_seen, "m.e.remote");
	assert_int_equal(e.code, UFT_HIST_ERR_HIST_NOT_FOUND);
	assert_int_equal(e.n_prior, 2);
	assert_int_equal(e.prior[0].code, UFT_HIST_ERR_FIELD_NOT_FOUND);
	assert_int_equal(e.prior[1].code, UFT_HIST_ERR_FIELD_VAR_PARSE_FAIL);
	assert_int_equal(e.pos, 47);
	fv_hist = make("keys=pid:synthetic_remote=bytes");
	snapshots = n_emitted = 0;
	assert_int_equal(uft_hist_create_env(spec, &EV, &env, &h, &e), 0);
	assert_int_equal(e.err, 0);
	assert_int_equal(e.code, 0);
	assert_int_equal(e.n_prior, 2);
	assert_int_equal(e.prior[0].code, UFT_HIST_ERR_FIELD_NOT_FOUND);
	assert_int_equal(e.prior[1].code, UFT_HIST_ERR_FIELD_VAR_PARSE_FAIL);
	assert_true(uft_hist_busy(fv_hist));
	/* the variable is read for this event's key, once */
	struct trec r = mk(2, 20, 250, 0, "bash", "/bin/sh");
	feed(fv_hist, &r, 0, 0);
	feed(h, &r, 0, 0);
	feed(h, &r, 0, 0);
	assert_int_equal(n_emitted, 1);
	assert_int_equal(emitted[0][0], 20);
	assert_int_equal(emitted[0][1], 250);
	uft_hist_free(h);
	assert_false(uft_hist_busy(fv_hist));
	uft_hist_free(fv_hist);
	fv_hist = NULL;
}

/* name=: a second histogram updates and shows the first one's table. */
static void test_share(void **state)
{
	(void)state;
	struct uft_hist *a = make("name=n:keys=pid:vals=bytes");
	struct uft_hist *b = make("name=n:keys=pid:vals=bytes:size=4096 if prio > 5");
	struct uft_hist *c = make("name=n:keys=pid:vals=prio");
	struct uft_hist_error e;
	assert_int_equal(uft_hist_share(c, a, &e), -EINVAL);
	assert_int_equal(e.code, UFT_HIST_ERR_NAMED_MISMATCH);
	assert_int_equal(e.pos, 5);
	assert_int_equal(uft_hist_share(b, a, &e), 0);
	feed_std(b); /* its own filter: prio 5 is out */
	struct trec r = mk(1, 1, 7, 0, "x", "y");
	feed(a, &r, 0, 0);
	const char *rows =
	    "{ pid:          0 } hitcount:          1  bytes:          1\n"
	    "{ pid:          1 } hitcount:          2  bytes:        107\n"
	    "{ pid:          2 } hitcount:          2  bytes:       3250\n" TOTALS(5, 3, 0);
	char want[1024];
	snprintf(want, sizeof(want), "%s%s",
		 HDR("hist:name=n:keys=pid:vals=hitcount,bytes:sort=hitcount:size=2048 [active]"),
		 rows);
	expect(a, want);
	snprintf(want, sizeof(want), "%s%s",
		 HDR("hist:name=n:keys=pid:vals=hitcount,bytes:sort=hitcount:size=2048 if prio > 5 "
		     "[active]"),
		 rows);
	expect(b, want);
	uft_hist_clear(b);
	assert_int_equal(uft_hist_hits(a), 0);
	uft_hist_free(b);
	uft_hist_free(c);
	uft_hist_free(a);
}

static void test_same(void **state)
{
	struct uft_hist *a = make("keys=pid:vals=bytes:size=256"), *b = make("keys=pid:vals=bytes");
	struct uft_hist *c = make("keys=pid:vals=bytes if prio > 1"),
			*d = make("keys=pid:vals=prio");

	assert_true(uft_hist_same(a, b, false)); /* size is not compared */
	assert_false(uft_hist_same(a, c, false));
	assert_true(uft_hist_same(a, c, true));
	assert_false(uft_hist_same(a, d, true));
	assert_string_equal(uft_hist_command(c), "hist:keys=pid:vals=bytes if prio > 1");
	uft_hist_free(a);
	uft_hist_free(b);
	uft_hist_free(c);
	uft_hist_free(d);
}

/* ---- kernel formats ---- */

static void kernel_event(const char *text, const char *system, struct uft_format_parsed *p,
			 struct uft_hist_event *ev)
{
	assert_int_equal(uft_format_parse(text, strlen(text), p), 0);
	*ev = (struct uft_hist_event){system, p->name, p->fields, p->nr_fields, false, NULL};
}

static void test_format_parse(void **state)
{
	struct uft_format_parsed p;

	assert_int_equal(uft_format_parse(kf_sched_switch, strlen(kf_sched_switch), &p), 0);
	assert_string_equal(p.name, "sched_switch");
	assert_int_equal(p.id, KF_SCHED_SWITCH_ID);
	assert_int_equal(p.nr_fields, 7);
	assert_string_equal(p.fields[0].type, "char");
	assert_string_equal(p.fields[0].name, "prev_comm[16]");
	assert_int_equal(p.fields[0].kind, UFT_FIELD_ARRAY);
	assert_int_equal(p.fields[0].size, 16);
	assert_string_equal(p.fields[1].type, "pid_t");
	assert_int_equal(p.fields[1].offset, 24);
	assert_int_equal(p.fields[1].is_signed, 1);
	assert_string_equal(p.fields[6].name, "next_prio");
	uft_format_parsed_free(&p);

	assert_int_equal(uft_format_parse(kf_kmalloc, strlen(kf_kmalloc), &p), 0);
	assert_string_equal(p.fields[1].type, "const void *");
	assert_string_equal(p.fields[1].name, "ptr");
	assert_int_equal(p.fields[2].is_signed, 0);
	uft_format_parsed_free(&p);

	static const char dyn[] =
	    "name: x\nID: 7\nformat:\n"
	    "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n";
	assert_int_equal(uft_format_parse(dyn, strlen(dyn), &p), 0);
	assert_int_equal(p.fields[0].kind, UFT_FIELD_DYN);
	assert_string_equal(p.fields[0].type, "__data_loc char[]");
	uft_format_parsed_free(&p);

	static const char *const bad[] = {
	    "ID: 1\n",
	    "name: x\nformat:\n\tfield:int a;\tsize:4;\n",
	    "name: x\nformat:\n\tfield:int;\toffset:8;\tsize:4;\n",
	    "name: x\nformat:\n\tfield:int a\toffset:8;\tsize:4;\n",
	    "name: x\nformat:\n\tfield:int a;\toffset:99999999;\tsize:4;\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(uft_format_parse(bad[i], strlen(bad[i]), &p), -EINVAL);
}

/* The machine's own sched_switch format, when tracefs is readable. */
static void test_live_kernel_format(void **state)
{
	static const char *const paths[] = {"/sys/kernel/tracing/events/sched/sched_switch/format",
					    "/sys/kernel/debug/tracing/events/sched/sched_switch/"
					    "format"};
	char buf[8192];
	size_t n = 0;

	for (size_t i = 0; i < 2 && !n; i++) {
		FILE *f = fopen(paths[i], "r");
		if (f) {
			n = fread(buf, 1, sizeof(buf), f);
			fclose(f);
		}
	}
	if (!n) {
		skip();
		return;
	}
	struct uft_format_parsed mine, live;
	assert_int_equal(uft_format_parse(buf, n, &live), 0);
	assert_int_equal(uft_format_parse(kf_sched_switch, strlen(kf_sched_switch), &mine), 0);
	for (uint32_t i = 0; i < mine.nr_fields; i++) {
		const struct uft_field *a = &mine.fields[i], *b = NULL;
		for (uint32_t j = 0; j < live.nr_fields; j++)
			if (!strcmp(live.fields[j].name, a->name))
				b = &live.fields[j];
		if (b) {
			assert_int_equal(a->size, b->size);
			assert_int_equal(a->is_signed, b->is_signed);
		}
	}
	struct uft_hist_event ev = {"sched", live.name, live.fields, live.nr_fields, false, NULL};
	struct uft_hist *h;
	assert_int_equal(uft_hist_create("keys=next_comm,prev_pid:vals=prev_prio", &ev, &h, NULL),
			 0);
	uft_hist_free(h);
	uft_format_parsed_free(&mine);
	uft_format_parsed_free(&live);
}

/* The seed talk's examples on crafted kernel records. */
static void test_syscall_example(void **state)
{
	struct uft_format_parsed p;
	struct uft_hist_event ev;
	struct uft_hist *h;
	uint8_t rec[64] = {0};
	static const int64_t ids[] = {0, 0, 0, 1, 1, 202, 0, 232, 1, 202, 999};

	kernel_event(kf_sys_enter, "raw_syscalls", &p, &ev);
	assert_int_equal(uft_hist_create("hist:keys=id.syscall:vals=hitcount", &ev, &h, NULL), 0);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		memcpy(rec, &(uint16_t){KF_SYS_ENTER_ID}, 2);
		memcpy(rec + 4, &(int32_t){100}, 4);
		memcpy(rec + 8, &ids[i], 8);
		uft_hist_update(h, rec, sizeof(rec), i, 0, NULL);
	}
	expect(
	    h,
	    HDR("hist:keys=id.syscall:vals=hitcount:sort=hitcount:size=2048 [active]") "{ id: "
										       "sys_epoll_"
										       "wait       "
										       "         "
										       "[232] } "
										       "hitcount:  "
										       "        1\n"
										       "{ id: "
										       "unknown_"
										       "syscall    "
										       "           "
										       "[999] } "
										       "hitcount:  "
										       "        1\n"
										       "{ id: "
										       "sys_futex  "
										       "           "
										       "        "
										       "[202] } "
										       "hitcount:  "
										       "        2\n"
										       "{ id: "
										       "sys_write  "
										       "           "
										       "        [  "
										       "1] } "
										       "hitcount:  "
										       "        3\n"
										       "{ id: "
										       "sys_read   "
										       "           "
										       "        [  "
										       "0] } "
										       "hitcount:  "
										       "        "
										       "4\n" TOTALS(
											   11, 5,
											   0));
	uft_hist_free(h);
	uft_format_parsed_free(&p);
}

static const char *kcomm(void *ctx, int pid)
{
	return pid == 2047 ? "bash" : pid == 812 ? "systemd-journal" : NULL;
}

static void test_kmalloc_example(void **state)
{
	struct uft_format_parsed p;
	struct uft_hist_event ev;
	struct uft_hist *h;
	struct uft_hist_comm comm = {kcomm, NULL, NULL};
	static const struct {
		int32_t pid;
		uint64_t bytes;
	} allocs[] = {{2047, 32}, {0, 64}, {2047, 512}, {812, 4096}, {0, 128}, {2047, 8}};

	kernel_event(kf_kmalloc, "kmem", &p, &ev);
	assert_int_equal(uft_hist_create("hist:keys=common_pid.execname:vals=bytes_req:sort="
					 "bytes_req.descending",
					 &ev, &h, NULL),
			 0);
	for (size_t i = 0; i < sizeof(allocs) / sizeof(allocs[0]); i++) {
		uint8_t rec[56] = {0};
		memcpy(rec, &(uint16_t){KF_KMALLOC_ID}, 2);
		memcpy(rec + 4, &allocs[i].pid, 4);
		memcpy(rec + 24, &allocs[i].bytes, 8);
		uft_hist_update(h, rec, sizeof(rec), i, 0, &comm);
	}
	expect(h, HDR("hist:keys=common_pid.execname:vals=hitcount,bytes_req:sort=bytes_req."
		      "descending:size=2048 [active]") "{ common_pid: systemd-journal [       812] "
						       "} hitcount:          1  "
						       "bytes_req:       4096\n"
						       "{ common_pid: bash            [      2047] "
						       "} hitcount:          3  "
						       "bytes_req:        552\n"
						       "{ common_pid: <idle>          [         0] "
						       "} hitcount:          2  "
						       "bytes_req:        192\n" TOTALS(6, 3, 0));
	uft_hist_free(h);
	uft_format_parsed_free(&p);
}

/* ---- uft report --hist over a kernel-like trace.dat ---- */

static char tmpdir[64], kdat[128];

static void put_rec(struct uft_page_builder *b, uint64_t ts, const void *rec, uint32_t len)
{
	assert_int_equal(uft_page_builder_add(b, ts, rec, len), 0);
}

static int write_kernel_file(const char *path)
{
	static const char kallsyms[] = "ffffffff81000000 T _stext\n"
				       "ffffffff811e3a00 T __seq_open_private\n"
				       "ffffffff811e3b00 T single_open\n"
				       "ffffffff811e3c00 T seq_read\n";
	struct tracedat_writer *w = tracedat_writer_open(path, 2, 4096, "local");
	static uint8_t pages[2][4096];
	struct uft_page_builder b[2];
	uint64_t ts = 1000000000;
	int rc = 0;

	if (!w)
		return -errno;
	for (int c = 0; c < 2; c++)
		uft_page_builder_init(&b[c], pages[c], 4096);
	for (int i = 0; i < 12; i++) {
		uint8_t r[64] = {0};
		int cpu = i % 2;
		/* sched_switch: prev -> next */
		static const char *const comms[] = {"bash", "kworker/0:1", "swapper/1"};
		static const int32_t pids[] = {2047, 15, 0};
		memcpy(r, &(uint16_t){KF_SCHED_SWITCH_ID}, 2);
		memcpy(r + 4, &pids[i % 3], 4);
		strcpy((char *)r + 8, comms[i % 3]);
		memcpy(r + 24, &pids[i % 3], 4);
		memcpy(r + 28, &(int32_t){120}, 4);
		strcpy((char *)r + 40, comms[(i + 1) % 3]);
		memcpy(r + 56, &pids[(i + 1) % 3], 4);
		memcpy(r + 60, &(int32_t){i % 3 == 1 ? 100 : 120}, 4);
		put_rec(&b[cpu], ts += 1000, r, 64);

		/* sys_enter: read, write, read, ... */
		memset(r, 0, sizeof(r));
		memcpy(r, &(uint16_t){KF_SYS_ENTER_ID}, 2);
		memcpy(r + 4, &pids[i % 3], 4);
		memcpy(r + 8, &(int64_t){i % 4 == 3 ? 1 : 0}, 8);
		put_rec(&b[cpu], ts += 1000, r, 64);

		/* kmalloc from two call sites */
		memset(r, 0, sizeof(r));
		memcpy(r, &(uint16_t){KF_KMALLOC_ID}, 2);
		memcpy(r + 4, &pids[i % 3], 4);
		memcpy(r + 8, &(uint64_t){i % 2 ? 0xffffffff811e3a25ull : 0xffffffff811e3b10ull},
		       8);
		memcpy(r + 24, &(uint64_t){(uint64_t)(i + 1) * 16}, 8);
		memcpy(r + 32, &(uint64_t){(uint64_t)(i + 1) * 32}, 8);
		put_rec(&b[cpu], ts += 1000, r, 56);
	}
	for (int c = 0; c < 2; c++) {
		uft_page_builder_finish(&b[c], 0);
		rc |= tracedat_writer_add_page(w, c, pages[c]);
	}
	rc |= tracedat_writer_add_format(w, "sched", kf_sched_switch);
	rc |= tracedat_writer_add_format(w, "raw_syscalls", kf_sys_enter);
	rc |= tracedat_writer_add_format(w, "kmem", kf_kmalloc);
	rc |= tracedat_writer_add_cmdline(w, 2047, "bash");
	rc |= tracedat_writer_add_cmdline(w, 15, "kworker/0:1");
	rc |= tracedat_writer_set_kallsyms(w, kallsyms, strlen(kallsyms));
	if (rc) {
		tracedat_writer_abort(w);
		return rc;
	}
	return tracedat_writer_close(w);
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/uft-test-hist-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(kdat, sizeof(kdat), "%s/kernel.dat", tmpdir);
	return write_kernel_file(kdat) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	unlink(kdat);
	return rmdir(tmpdir);
}

static char *run_report(const char *const *specs, size_t n, int want_rc, char **errtext)
{
	struct trace_file tf;
	char err[256], *out = NULL, *eout = NULL;
	size_t olen = 0, elen = 0;
	FILE *o = open_memstream(&out, &olen), *e = open_memstream(&eout, &elen);

	assert_int_equal(trace_file_open(&tf, kdat, err, sizeof(err)), 0);
	const struct report_hist_opts ho = {.hists = specs, .nr_hists = n};
	assert_int_equal(report_hist(&tf, &ho, o, e), want_rc);
	trace_file_close(&tf);
	fclose(o);
	fclose(e);
	if (errtext)
		*errtext = eout;
	else
		free(eout);
	return out;
}

static void test_report_kernel_file(void **state)
{
	static const char *const specs[] = {
	    "sched:sched_switch:keys=next_comm:vals=hitcount:sort=next_comm",
	    "raw_syscalls:sys_enter:hist:keys=id.syscall,common_pid.execname:sort=id",
	    "kmalloc:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_alloc.descending",
	    "kmem:kmalloc:keys=call_site.sym-offset:vals=bytes_req.percent if bytes_req > 100",
	    "sched_switch:keys=common_cpu,next_prio:sort=common_cpu,next_prio",
	};
	char *out = run_report(specs, sizeof(specs) / sizeof(specs[0]), 0, NULL);
	const char *want =
	    HDR("hist:keys=next_comm:vals=hitcount:sort=next_comm:size=2048 "
		"[active]") "{ next_comm: bash                                      "
			    "         } hitcount:          4\n"
			    "{ next_comm: kworker/0:1                               "
			    "         } hitcount:          4\n"
			    "{ next_comm: swapper/1                                 "
			    "         } hitcount:          4\n" TOTALS(12, 3, 0) "\n\n" HDR(
				"hist:keys=id.syscall,common_pid."
				"execname:vals=hitcount:sort=id."
				"syscall:size=2048 "
				"[active]") "{ id: sys_read           "
					    "           [  0], "
					    "common_pid: bash         "
					    "   "
					    "[      2047] } hitcount: "
					    "         3\n"
					    "{ id: sys_read           "
					    "           [  0], "
					    "common_pid: kworker/0:1  "
					    "   "
					    "[        15] } hitcount: "
					    "         3\n"
					    "{ id: sys_read           "
					    "           [  0], "
					    "common_pid: <idle>       "
					    "   "
					    "[         0] } hitcount: "
					    "         3\n"
					    "{ id: sys_write          "
					    "           [  1], "
					    "common_pid: bash         "
					    "   "
					    "[      2047] } hitcount: "
					    "         1\n"
					    "{ id: sys_write          "
					    "           [  1], "
					    "common_pid: kworker/0:1  "
					    "   "
					    "[        15] } hitcount: "
					    "         1\n"
					    "{ id: sys_write          "
					    "           [  1], "
					    "common_pid: <idle>       "
					    "   "
					    "[         0] } hitcount: "
					    "         1\n" TOTALS(12, 6, 0) "\n\n" HDR(
						"hist:keys=call_site."
						"sym:vals=hitcount,"
						"bytes_req,bytes_"
						"alloc:sort=bytes_"
						"alloc."
						"descending:size=2048 "
						"[active]") "{ "
							    "call_"
							    "site: "
							    "[ffffffff"
							    "811e3a25]"
							    " __seq_"
							    "open_"
							    "private  "
							    "         "
							    "         "
							    "        "
							    "} "
							    "hitcount:"
							    "         "
							    " 6  "
							    "bytes_"
							    "req:     "
							    "   672  "
							    "bytes_"
							    "alloc:   "
							    "    "
							    "1344\n"
							    "{ "
							    "call_"
							    "site: "
							    "[ffffffff"
							    "811e3b10]"
							    " single_"
							    "open     "
							    "         "
							    "         "
							    "         "
							    "   } "
							    "hitcount:"
							    "         "
							    " 6  "
							    "bytes_"
							    "req:     "
							    "   576  "
							    "bytes_"
							    "alloc:   "
							    "    "
							    "1152"
							    "\n" TOTALS(12, 2, 0) "\n\n" HDR(
								"hist:"
								"keys="
								"call_"
								"site."
								"sym-"
								"offse"
								"t:"
								"vals="
								"hitco"
								"unt,"
								"bytes"
								"_req."
								"perce"
								"nt:"
								"sort="
								"hitco"
								"unt:"
								"size="
								"2048 "
								"if "
								"bytes"
								"_req "
								"> "
								"100 "
								"[acti"
								"ve]") "{ call_site: "
								       "[ffffffff811e3b10] "
								       "single_open+0x10/0x100     "
								       "                           "
								       "  } "
								       "hitcount:          3  "
								       "bytes_req (%):  47.36\n"
								       "{ call_site: "
								       "[ffffffff811e3a25] "
								       "__seq_open_private+0x25/"
								       "0x100                      "
								       "     "
								       "} hitcount:          3  "
								       "bytes_req (%):  "
								       "52.63\n" TOTALS(6, 2, 0) "\n\n" HDR(
									   "hist:keys=common_cpu,"
									   "next_prio:vals="
									   "hitcount:sort=common_"
									   "cpu,"
									   "next_prio:size=2048 "
									   "[active]") "{ "
										       "common_cpu:"
										       "          "
										       "0, "
										       "next_prio: "
										       "       100 "
										       "} "
										       "hitcount:  "
										       "        2\n"
										       "{ "
										       "common_cpu:"
										       "          "
										       "0, "
										       "next_prio: "
										       "       120 "
										       "} "
										       "hitcount:  "
										       "        4\n"
										       "{ "
										       "common_cpu:"
										       "          "
										       "1, "
										       "next_prio: "
										       "       100 "
										       "} "
										       "hitcount:  "
										       "        2\n"
										       "{ "
										       "common_cpu:"
										       "          "
										       "1, "
										       "next_prio: "
										       "       120 "
										       "} "
										       "hitcount:  "
										       "        "
										       "4\n" TOTALS(
											   12, 4,
											   0);
	if (strcmp(out, want))
		fprintf(stderr, "--- want\n%s--- got\n%s---\n", want, out);
	assert_string_equal(out, want);
	free(out);
}

static void test_report_errors(void **state)
{
	static const struct {
		const char *spec;
		const char *err;
	} c[] = {
	    {"sched:sched_switch:keys=prev_pid.bad",
	     "uft report: hist:sched:sched_switch: error: Invalid field modifier\n"
	     "  Command: hist:keys=prev_pid.bad\n"
	     "                              ^\n"},
	    {"sched:sched_switch:keys=prev_pid if nope == 1",
	     "uft report: hist:sched:sched_switch: error: Field not found\n"
	     "  Command: hist:keys=prev_pid if nope == 1\n"
	     "                                      ^\n"},
	    {"sched:sched_switch:keys=prev_pid:clear",
	     "uft report: hist:sched:sched_switch: error: Can't clear or continue a nonexistent "
	     "hist trigger\n"
	     "  Command: hist:keys=prev_pid:clear\n"
	     "           ^\n"},
	    {"sched:sched_switch:keys=prev_pid:onmax($y).save(x)",
	     "uft report: hist:sched:sched_switch: error: Invalid action param\n"
	     "  Command: hist:keys=prev_pid:onmax($y).save(x)\n"
	     "                                  ^\n"},
	    {"sched:sched_switch:keys=common_stacktrace",
	     "uft report: hist:sched:sched_switch: common_stacktrace: stack traces are taken "
	     "live, at event time; a recorded file holds none\n"},
	    {"sched:sched_switch:keys=prev_pid,stacktrace",
	     "uft report: hist:sched:sched_switch: common_stacktrace: stack traces are taken "
	     "live, at event time; a recorded file holds none\n"},
	    {"sched:nosuch:keys=x",
	     "uft report: --hist 'sched:nosuch:keys=x': no such event in the "
	     "file\n"},
	    {"keys=x", "uft report: --hist 'keys=x': expected SYSTEM:EVENT:SPEC\n"},
	    {"sys_exit:keys=x",
	     "uft report: --hist 'sys_exit:keys=x': no such event in the file\n"},
	    {"nocolon", "uft report: --hist 'nocolon': expected SYSTEM:EVENT:SPEC\n"},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *err, *out = run_report(&c[i].spec, 1, 2, &err);
		assert_string_equal(out, "");
		if (strcmp(err, c[i].err))
			fprintf(stderr, "--- want\n%s--- got\n%s---\n", c[i].err, err);
		assert_string_equal(err, c[i].err);
		free(out);
		free(err);
	}

	/* A synthetic event with a stack field: nothing in a file can fill it. */
	static const char *const synths[] = {"block_lat u64 delta; unsigned long[] stack"};
	static const char *const hists[] = {"sched:sched_switch:keys=prev_pid"};
	struct trace_file tf;
	char msg[256], *out = NULL, *eout = NULL;
	size_t olen = 0, elen = 0;
	FILE *o = open_memstream(&out, &olen), *e = open_memstream(&eout, &elen);
	assert_int_equal(trace_file_open(&tf, kdat, msg, sizeof(msg)), 0);
	const struct report_hist_opts ho = {synths, 1, hists, 1};
	assert_int_equal(report_hist(&tf, &ho, o, e), 2);
	trace_file_close(&tf);
	fclose(o);
	fclose(e);
	assert_string_equal(out, "");
	assert_string_equal(eout, "uft report: 'block_lat u64 delta; unsigned long[] stack': stack "
				  "fields hold stack traces, taken live, at event time; a recorded "
				  "file holds none\n");
	free(out);
	free(eout);
}

/* common_stacktrace keys: the stack the writer gives, 16 frames at most,
 * printed as the kernel's block, whatever the spelling. */
static void test_stack_keys(void **state)
{
	(void)state;
	static const uint64_t a[] = {0x1010, 0x1020, 0x2000, 0};
	static const uint64_t b[] = {0x1050, 0};
	struct trec r = mk(1, 10, 100, 0x1010, "init", "/etc/passwd");
	const char *specs[] = {"keys=common_stacktrace", "keys=stacktrace", "keys=STACKTRACE"};
	for (size_t s = 0; s < 3; s++) {
		struct uft_hist *h = make(specs[s]);
		memcpy(cur_stack, a, sizeof(a));
		feed(h, &r, 0, 0);
		feed(h, &r, 0, 0);
		memset(cur_stack, 0, sizeof(cur_stack));
		memcpy(cur_stack, b, sizeof(b));
		for (int i = 0; i < 3; i++)
			feed(h, &r, 0, 0);
		expect(h, HDR("hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=2048 "
			      "[active]") "{ common_stacktrace:\n"
					  "         do_work+0x10/0x100\n"
					  "         do_work+0x20/0x100\n"
					  "         0x2000\n"
					  "} hitcount:          2\n"
					  "{ common_stacktrace:\n"
					  "         do_work+0x50/0x100\n"
					  "} hitcount:          3\n" TOTALS(5, 2, 0));
		uft_hist_free(h);
	}

	/* With other keys; deeper stacks keep their 16 innermost frames. */
	struct uft_hist *h = make("keys=pid,common_stacktrace:vals=bytes:sort=pid");
	for (int i = 0; i < 24; i++)
		cur_stack[i] = 0x1000 + (uint64_t)i;
	feed(h, &r, 0, 0);
	memset(cur_stack, 0, sizeof(cur_stack));
	struct trec r2 = mk(2, 20, 7, 0x1010, "bash", "/bin/sh");
	feed(h, &r2, 0, 0); /* an empty stack is a key too */
	char frames[1024] = "";
	for (int i = 0; i < 16; i++)
		snprintf(frames + strlen(frames), sizeof(frames) - strlen(frames),
			 "         do_work+0x%x/0x100\n", i);
	char want[2048];
	snprintf(want, sizeof(want),
		 HDR("hist:keys=pid,common_stacktrace:vals=hitcount,bytes:sort=pid:size=2048 "
		     "[active]") "{ pid:          1, common_stacktrace:\n"
				 "%s"
				 "} hitcount:          1  bytes:        100\n"
				 "{ pid:          2, common_stacktrace:\n"
				 "} hitcount:          1  bytes:          7\n" TOTALS(2, 2, 0),
		 frames);
	expect(h, want);

	/* Without a stack to take (a recorded file), records are left out. */
	struct uft_hist_comm nostack = {comm_fn, NULL, NULL};
	uft_hist_update(h, &r, sizeof(r), 0, 0, &nostack);
	assert_int_equal(uft_hist_hits(h), 2);
	assert_true(uft_hist_needs_stack(h));
	uft_hist_free(h);
	h = make("keys=pid");
	assert_false(uft_hist_needs_stack(h));
	uft_hist_free(h);

	/* A variable holding the stack: taken per record, none without one. */
	h = make("keys=pid:st=common_stacktrace,s2=$st");
	char info[256];
	uft_hist_info(h, info, sizeof(info));
	assert_string_equal(info, "hist:keys=pid:vals=hitcount:st=common_stacktrace,s2=$st:"
				  "sort=hitcount:size=2048 [active]\n");
	assert_true(uft_hist_needs_stack(h));
	memcpy(cur_stack, a, sizeof(a));
	feed(h, &r, 0, 0);
	uft_hist_update(h, &r, sizeof(r), 0, 0, &nostack);
	assert_int_equal(uft_hist_hits(h), 1);
	uft_hist_free(h);
	memset(cur_stack, 0, sizeof(cur_stack));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain),
	    cmocka_unit_test(test_key_modifiers),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_graph_and_percent_edges),
	    cmocka_unit_test(test_filter_pause_name),
	    cmocka_unit_test(test_size_and_drops),
	    cmocka_unit_test(test_records_too_short),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_onmax_onchange),
	    cmocka_unit_test(test_value_expr_key_var),
	    cmocka_unit_test(test_share),
	    cmocka_unit_test(test_match_event_field),
	    cmocka_unit_test(test_same),
	    cmocka_unit_test(test_format_parse),
	    cmocka_unit_test(test_live_kernel_format),
	    cmocka_unit_test(test_syscall_example),
	    cmocka_unit_test(test_kmalloc_example),
	    cmocka_unit_test(test_report_kernel_file),
	    cmocka_unit_test(test_report_errors),
	    cmocka_unit_test(test_stack_keys),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
