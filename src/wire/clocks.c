/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "wire/clocks.h"

#include <stdio.h>
#include <string.h>

static const char *const clock_names[UFT_NR_CLOCKS] = {
    "local", "global", "counter", "uptime", "perf", "mono", "mono_raw", "boot", "tai", "x86-tsc",
};

const char *uft_clock_name(enum uft_clock c)
{
	return (unsigned)c < UFT_NR_CLOCKS ? clock_names[c] : "local";
}

int uft_clock_by_name(const char *name)
{
	for (int i = 0; i < UFT_NR_CLOCKS; i++)
		if (strcmp(name, clock_names[i]) == 0)
			return i;
	return -1;
}

bool uft_clock_is_ns(enum uft_clock c)
{
	return c != UFT_CLOCK_COUNTER && c != UFT_CLOCK_UPTIME && c != UFT_CLOCK_X86_TSC;
}

int uft_clock_list(enum uft_clock c, char *buf, size_t len)
{
	size_t off = 0;
	for (int i = 0; i < UFT_NR_CLOCKS; i++) {
		int n = snprintf(buf + off, off < len ? len - off : 0,
				 i == (int)c ? "%s[%s]" : "%s%s", i ? " " : "", clock_names[i]);
		off += (size_t)n;
	}
	int n = snprintf(buf + off, off < len ? len - off : 0, "\n");
	return (int)(off + (size_t)n);
}
