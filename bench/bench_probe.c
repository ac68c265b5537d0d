/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a dynamic probe costs per hit (issue 18): a call of a small function
 * with nothing on it, with the function tracer, with a probe of two
 * register args on its sled, with an entry and a return probe, an
 * instruction-boundary probe inside another function, a probe on libc's
 * malloc (against malloc+free alone) and an entry and a return probe on it,
 * and the kernel's uprobe on the same function through
 * /sys/kernel/tracing/uprobe_events when it can be written.
 * Prints ns per call (median of the timed runs) and the overhead over the
 * untraced call; rows that cannot run say why. Never checks a timing. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_time.h"
#include "probe_fn.h"
#include "runtime/tracefs/tracefs.h"
#include "../tests/unit/file_offset.h"

typedef unsigned (*fn_t)(unsigned, unsigned);
static fn_t volatile call_sled = bp_sled, call_mid = bp_mid;

static unsigned do_sled(unsigned s)
{
	return call_sled(s, 7);
}

static unsigned do_mid(unsigned s)
{
	return call_mid(s, 7);
}

static unsigned do_malloc(unsigned s)
{
	void *volatile p = malloc(32);
	free(p);
	return s + 1;
}

static double run(unsigned (*fn)(unsigned), long n, int reps)
{
	double t[32];
	unsigned s = 0;
	for (long i = 0; i < n / 10; i++) /* warm-up */
		s = fn(s);
	for (int r = 0; r < reps; r++) {
		double a = (double)bench_mono_raw_ns();
		for (long i = 0; i < n; i++)
			s = fn(s);
		t[r] = ((double)bench_mono_raw_ns() - a) / (double)n;
	}
	__asm__ volatile("" : : "r"(s));
	qsort(t, (size_t)reps, sizeof(t[0]), bench_cmp_double);
	return t[reps / 2];
}

static int put(const char *path, const char *text, unsigned how)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | how, &h);
	if (rc)
		return rc;
	ssize_t w = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return w < 0 ? (int)w : 0;
}

/* A row, and for bench/run.sh's ratios "PROBE_ROW key overhead". */
static void row(const char *key, const char *label, double ns, double base)
{
	printf("%-44s %9.2f %9.2f\n", label, ns, ns - base);
	printf("PROBE_ROW %s %.3f\n", key, ns - base);
}

static void skipped(const char *label, const char *why)
{
	printf("%-44s %9s %9s  skipped: %s\n", label, "-", "-", why);
}

/* A uft probe: defined, enabled, timed, removed. -1: refused (errno in *err). */
static double uft_probe(const char *def, const char *event, unsigned (*fn)(unsigned), long n,
			int reps, int *err)
{
	char path[128];
	*err = put("dynamic_events", def, UFT_TFS_APPEND);
	if (*err)
		return -1;
	snprintf(path, sizeof(path), "events/kprobes/%s/enable", event);
	*err = put(path, "1", UFT_TFS_TRUNC);
	double t = *err ? -1 : run(fn, n, reps);
	put(path, "0", UFT_TFS_TRUNC);
	put("dynamic_events", "", UFT_TFS_TRUNC);
	return t;
}

/* The kernel's: the same function by its file offset. */
static int kwrite(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, text, strlen(text));
	int rc = w < 0 ? -errno : 0;
	close(fd);
	return rc;
}

#define KT "/sys/kernel/tracing/"

static double kernel_uprobe(long n, int reps, char *why, size_t len)
{
	char exe[4096], def[4300];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint64_t off = (uintptr_t)bp_sled;
	if (k <= 0 || dl_iterate_phdr(foff_one, &off) != 1) {
		snprintf(why, len, "no file offset for bp_sled");
		return -1;
	}
	exe[k] = 0;
	snprintf(def, sizeof(def), "p:uftbench/bp_sled %s:0x%llx", exe, (unsigned long long)off);
	int rc = kwrite(KT "uprobe_events", def, O_APPEND);
	if (rc) {
		snprintf(why, len, KT "uprobe_events: %s", strerror(-rc));
		return -1;
	}
	double t = -1;
	rc = kwrite(KT "events/uftbench/bp_sled/enable", "1", O_TRUNC);
	if (rc)
		snprintf(why, len, "enabling the uprobe: %s", strerror(-rc));
	else
		t = run(do_sled, n, reps);
	kwrite(KT "events/uftbench/bp_sled/enable", "0", O_TRUNC);
	kwrite(KT "uprobe_events", "-:uftbench/bp_sled", O_APPEND);
	return t;
}

/* A fourth argument runs that row alone (after the untraced ones), for a
 * profiler: function, sled, entry_return, mid, malloc, malloc_return,
 * kernel_uprobe. */
static const char *only;

static bool want(const char *key)
{
	return !only || strcmp(only, key) == 0;
}

int main(int argc, char **argv)
{
	only = argc > 4 ? argv[4] : NULL;
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int reps = argc > 2 ? atoi(argv[2]) : 7;
	long kn = argc > 3 ? atol(argv[3]) : 20000; /* the kernel's uprobe: µs each */
	if (reps < 1 || reps > 32)
		reps = 7;
	int err;
	char why[160];
	printf("%-44s %9s %9s\n", "row", "ns/call", "overhead");
	long n0 = only ? n / 10 : n; /* a row alone: its untraced call as often as it */
	double base = run(do_sled, n0, reps);
	row("none", "probe: call, nothing on it", base, base);
	double mid0 = run(do_mid, n0, reps);
	row("mid_none", "probe: call of bp_mid, nothing on it", mid0, mid0);
	double m0 = run(do_malloc, n0, reps);
	row("malloc_none", "probe: malloc+free, nothing on it", m0, m0);
	if (!want("function")) {
	} else if (put("set_ftrace_filter", "bp_sled\n", UFT_TFS_TRUNC) ||
		   put("current_tracer", "function\n", UFT_TFS_TRUNC)) {
		skipped("probe: function tracer on it", "the function tracer cannot start");
	} else {
		row("function", "probe: function tracer on it", run(do_sled, n / 10, reps), base);
		put("current_tracer", "nop\n", UFT_TFS_TRUNC);
		put("set_ftrace_filter", "", UFT_TFS_TRUNC);
	}
	double t = !want("sled") ? 0
				 : uft_probe("p:bp bp_sled a=%di:u32 b=%si:u32", "bp", do_sled,
					     n / 10, reps, &err);
	if (!want("sled")) {
	} else if (t < 0)
		skipped("probe: sled, 2 register args", strerror(-err));
	else
		row("sled", "probe: sled, 2 register args", t, base);
	int rerr = put("dynamic_events", "r:bpr bp_sled ret=$retval:u32", UFT_TFS_APPEND);
	put("dynamic_events", "", UFT_TFS_TRUNC);
	if (!want("entry_return")) {
	} else if (rerr) {
		skipped("probe: sled, entry + return", "return probes refused");
	} else {
		put("dynamic_events", "p:bpe bp_sled a=%di:u32 b=%si:u32", UFT_TFS_APPEND);
		put("events/kprobes/bpe/enable", "1", UFT_TFS_TRUNC);
		t = uft_probe("r:bpr bp_sled ret=$retval:u32", "bpr", do_sled, n / 10, reps, &err);
		put("events/kprobes/bpe/enable", "0", UFT_TFS_TRUNC);
		put("dynamic_events", "", UFT_TFS_TRUNC);
		if (t < 0)
			skipped("probe: sled, entry + return", strerror(-err));
		else
			row("entry_return", "probe: sled, entry + return", t, base);
	}
	char def[96];
	snprintf(def, sizeof(def), "p:bm bp_mid+%d a=%%di:u32 b=%%si:u32", BP_MID_POINT);
	t = want("mid") ? uft_probe(def, "bm", do_mid, n / 10, reps, &err) : 0;
	if (!want("mid")) {
	} else if (t < 0)
		skipped("probe: mid-function, 2 register args", strerror(-err));
	else
		row("mid", "probe: mid-function, 2 register args", t, mid0);
	t = want("malloc")
		? uft_probe("p:ml libc:malloc size=%di:u64", "ml", do_malloc, n / 10, reps, &err)
		: 0;
	if (!want("malloc")) {
	} else if (t < 0)
		skipped("probe: libc malloc, size=%di", strerror(-err));
	else
		row("malloc", "probe: libc malloc, size=%di", t, m0);
	if (want("malloc_return")) {
		/* Entry and return on a function without a sled: the return is
		 * hooked from the instruction probe at its entry. */
		put("dynamic_events", "p:mle libc:malloc size=%di:u64", UFT_TFS_APPEND);
		put("events/kprobes/mle/enable", "1", UFT_TFS_TRUNC);
		t = uft_probe("r:mlr libc:malloc ret=$retval:x64", "mlr", do_malloc, n / 10, reps,
			      &err);
		put("events/kprobes/mle/enable", "0", UFT_TFS_TRUNC);
		put("dynamic_events", "", UFT_TFS_TRUNC);
		if (t < 0)
			skipped("probe: libc malloc, entry + return", strerror(-err));
		else
			row("malloc_return", "probe: libc malloc, entry + return", t, m0);
	}
	t = want("kernel_uprobe") ? kernel_uprobe(kn, reps < 3 ? reps : 3, why, sizeof(why)) : 0;
	if (!want("kernel_uprobe")) {
	} else if (t < 0)
		skipped("probe: kernel uprobe on it", why);
	else
		row("kernel_uprobe", "probe: kernel uprobe on it", t, base);
	return 0;
}
