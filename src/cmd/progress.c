/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line: carriage return, the text, erase to the end of line
 * (ANSI "\033[K"), on standard error only when it is a terminal. */
#include "cmd/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "wire/env_names.h"

#define PROGRESS_EVERY 0.5 /* seconds between lines */

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, const char *name, bool on)
{
	*p = (struct progress){.on = on && isatty(STDERR_FILENO), .name = name};
	p->start = p->last = mono_s();
}

double progress_elapsed(const struct progress *p)
{
	return mono_s() - p->start;
}

bool progress_due(struct progress *p, double delay)
{
	if (!p->on)
		return false;
	const char *env = getenv(UFT_ENV_PROGRESS_DELAY);
	if (env && *env)
		delay = strtod(env, NULL);
	double now = mono_s();
	if (now - p->start < delay || (p->shown && now - p->last < PROGRESS_EVERY))
		return false;
	p->last = now;
	return true;
}

void progress_line(struct progress *p, const char *fmt, ...)
{
	if (!p->on)
		return;
	char text[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(stderr, "\r%s: %s\033[K", p->name, text);
	fflush(stderr);
	p->shown = true;
}

void progress_end(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}

void progress_bytes(char *buf, size_t cap, uint64_t n)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
	if (n < 1024) {
		snprintf(buf, cap, "%llu B", (unsigned long long)n);
		return;
	}
	double v = (double)n / 1024;
	size_t u = 0;
	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, cap, "%.1f %s", v, units[u]);
}
