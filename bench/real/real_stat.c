/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linked into every program bench/real/run.sh builds, without the tracers'
 * entries (neither -pg nor the patchable one), so that no tracer sees it.
 * When REAL_STAT names a file, appends one line at exit:
 *   PROG start_ns end_ns hwm_kb
 * CLOCK_MONOTONIC when the program's constructors ran and when its
 * destructors run (before a preloaded tracer's own teardown), and the
 * program's peak resident memory (VmHWM, the tracer's rings mapped in it
 * included). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long start_ns;

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((constructor)) static void real_stat_start(void)
{
	start_ns = now_ns();
}

__attribute__((destructor)) static void real_stat_end(void)
{
	long long end_ns = now_ns();
	const char *path = getenv("REAL_STAT");
	if (!path || !*path)
		return;
	long hwm = -1;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "VmHWM: %ld", &hwm) == 1)
				break;
		fclose(f);
	}
	FILE *o = fopen(path, "a");
	if (!o)
		return;
	fprintf(o, "PROG %lld %lld %ld\n", start_ns, end_ns, hwm);
	fclose(o);
}
