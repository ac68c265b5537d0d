/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arguments and run loop shared by uft timerlat and uft osnoise. */
#define _GNU_SOURCE
#include "cmd/lat_cli.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "util/cpulist.h"

bool lat_parse_duration(const char *s, uint64_t *sec)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	unsigned long long mul = 1;
	if (*end) {
		if (end[1])
			return false;
		switch (*end) {
		case 's':
			break;
		case 'm':
			mul = 60;
			break;
		case 'h':
			mul = 3600;
			break;
		case 'd':
			mul = 86400;
			break;
		default:
			return false;
		}
	}
	/* A year at most: anything longer is a typo. */
	if (!v || v > 366ull * 86400 / mul)
		return false;
	*sec = v * mul;
	return true;
}

bool lat_parse_sched(const char *s, struct lat_sched *out)
{
	long v;
	if (!s || !s[0] || s[1] != ':')
		return false;
	switch (s[0]) {
	case 'f':
	case 'r':
		if (!cli_long(s + 2, 10, 1, 99, &v))
			return false;
		*out = (struct lat_sched){s[0] == 'f' ? SCHED_FIFO : SCHED_RR, (int)v};
		return true;
	case 'o':
		if (!cli_long(s + 2, 10, -20, 19, &v))
			return false;
		*out = (struct lat_sched){SCHED_OTHER, (int)v};
		return true;
	}
	return false;
}

bool lat_parse_cpus(const char *s, uint8_t **mask, unsigned *nbits, char *err, size_t errlen)
{
	cpu_set_t allowed;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned n = conf > 0 && conf < CPU_SETSIZE ? (unsigned)conf : CPU_SETSIZE;
	uint8_t *m = calloc((n + 7) / 8, 1);
	if (!m || sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(err, errlen, "cannot read the CPUs this process may use");
		free(m);
		return false;
	}
	if (!s) {
		for (unsigned i = 0; i < n; i++)
			if (CPU_ISSET(i, &allowed))
				m[i / 8] |= (uint8_t)(1u << i % 8);
	} else if (uft_cpulist_parse(s, strlen(s), m, n)) {
		snprintf(err, errlen, "bad CPU list '%s' (CPUs 0-%u)", s, n - 1);
		free(m);
		return false;
	}
	bool any = false;
	for (unsigned i = 0; i < n; i++) {
		if (!(m[i / 8] & 1u << i % 8))
			continue;
		if (!CPU_ISSET(i, &allowed)) {
			snprintf(err, errlen, "CPU %u is not one this process may run on", i);
			free(m);
			return false;
		}
		any = true;
	}
	if (!any) {
		snprintf(err, errlen, "no CPU selected");
		free(m);
		return false;
	}
	*mask = m;
	*nbits = n;
	return true;
}

void lat_duration_text(uint64_t sec, char *buf, size_t len)
{
	snprintf(buf, len, "%3llu %02llu:%02llu:%02llu", (unsigned long long)(sec / 86400),
		 (unsigned long long)(sec / 3600 % 24), (unsigned long long)(sec / 60 % 60),
		 (unsigned long long)(sec % 60));
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

void lat_block_signals(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static uint64_t now_ms(void)
{
	return lat_now_ns() / 1000000u;
}

uint64_t lat_wait(const struct lat_run *r)
{
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	uint64_t start = now_ms(), next_refresh = start + 1000, end = start + r->duration_s * 1000;
	uint64_t now = start;
	while (!interrupted && !r->stopped(r->arg) && (!r->duration_s || now < end)) {
		uint64_t wait = 100;
		if (r->duration_s && end - now < wait)
			wait = end - now;
		struct timespec ts = {0, (long)wait * 1000000};
		nanosleep(&ts, NULL);
		now = now_ms();
		if (r->refresh && now >= next_refresh) {
			r->refresh(r->arg, (now - start) / 1000);
			next_refresh += 1000;
		}
	}
	return (now_ms() - start + 500) / 1000;
}

int lat_take_common(struct lat_common *c, int opt, char *arg)
{
	switch (opt) {
	case 'c':
		c->cpus = arg;
		return CLI_OK;
	case 'd':
		if (!lat_parse_duration(arg, &c->duration_s))
			return cli_error(c->cli, "bad duration '%s' (N, Ns, Nm, Nh or Nd)", arg);
		return CLI_OK;
	case 'P':
		if (!lat_parse_sched(arg, &c->sched))
			return cli_error(c->cli, "bad priority '%s' (f:PRIO, r:PRIO or o:NICE)",
					 arg);
		return CLI_OK;
	case 'q':
		c->quiet = true;
		return CLI_OK;
	case 'b':
		if (!cli_long(arg, 10, 1, 1000000, &c->bucket))
			return cli_error(c->cli, "bad bucket size '%s' (1..1000000)", arg);
		return CLI_OK;
	case 'E':
		if (!cli_long(arg, 10, 10, 9999999, &c->entries))
			return cli_error(c->cli, "bad entries '%s' (10..9999999)", arg);
		return CLI_OK;
	case LAT_OPT_NO_HEADER:
		c->no_header = true;
		return CLI_OK;
	case LAT_OPT_NO_SUMMARY:
		c->no_summary = true;
		return CLI_OK;
	case LAT_OPT_NO_INDEX:
		c->no_index = true;
		return CLI_OK;
	case LAT_OPT_WITH_ZEROS:
		c->with_zeros = true;
		return CLI_OK;
	}
	return LAT_NOT_MINE;
}

void lat_note_policy(const struct lat_common *c, bool fell_back)
{
	if (fell_back)
		fprintf(stderr,
			"%s: note: the scheduling policy was refused (no CAP_SYS_NICE or "
			"RLIMIT_RTPRIO); the threads run under the default policy\n",
			c->cli->name);
}
