/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracer's clock. The tools do not link libuft, so the TSC conversion of
 * the runtime's trace_clock.c is read here the same way: a perf event's mmap
 * page gives time_mult, time_shift and time_zero, with which the TSC becomes
 * the kernel's sched_clock, the clock "local" means for the kernel and libuft
 * alike. Both sides read the same page, so a libuft event and a tracer event
 * order correctly on one timeline. */
#define _GNU_SOURCE
#include "proctrace/pt_clock.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static struct {
	bool done, tsc;
	uint32_t mult, shift;
	uint64_t zero;
} conv;

static bool stable_tsc(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	char line[4096];
	bool ok = false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) == 0) {
			ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
			break;
		}
	}
	fclose(f);
	return ok;
}

void pt_clock_init(void)
{
	if (conv.done)
		return;
	conv.done = true;
#if defined(__x86_64__)
	if (!stable_tsc())
		return;
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return;
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
	if (pg != MAP_FAILED) {
		if (pg->cap_user_time && pg->cap_user_time_zero) {
			conv.mult = pg->time_mult;
			conv.shift = pg->time_shift;
			conv.zero = pg->time_zero;
			conv.tsc = true;
		}
		munmap(pg, (size_t)psz);
	}
	close(fd);
#endif
}

uint64_t pt_clock_now(void)
{
#if defined(__x86_64__)
	if (conv.tsc) {
		uint64_t tsc = __builtin_ia32_rdtsc();
		return conv.zero + (uint64_t)(((unsigned __int128)tsc * conv.mult) >> conv.shift);
	}
#endif
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *pt_clock_tracefs_name(void)
{
	pt_clock_init();
	return conv.tsc ? "perf" : "mono";
}
