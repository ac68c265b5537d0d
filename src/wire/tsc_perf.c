/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE
#include "wire/tsc_perf.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

bool uft_tsc_stable(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	char line[4096];
	bool constant = false, nonstop = false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

bool uft_tsc_perf_read(struct uft_tsc_perf *out)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
	bool ok = false;
	if (pg != MAP_FAILED) {
		if (pg->cap_user_time && pg->cap_user_time_zero) {
			out->mult = pg->time_mult;
			out->shift = pg->time_shift;
			out->zero = pg->time_zero;
			ok = true;
		}
		munmap(pg, (size_t)psz);
	}
	close(fd);
	return ok;
}
