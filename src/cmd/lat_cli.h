/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What uft timerlat and uft osnoise share: rtla's argument forms (duration,
 * -P policy, -c CPUs), the run loop that ends on the duration, SIGINT or a
 * stop threshold, and rtla's duration text. */
#ifndef UFT_CMD_LAT_CLI_H
#define UFT_CMD_LAT_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "latency/lat_thread.h"

struct cli;

/* The options both commands take alike (-c -d -P -q, and hist's -b -E and
 * switches); each command's own argument struct starts with it. */
struct lat_common {
	const char *cpus;
	uint64_t duration_s;
	struct lat_sched sched;
	bool quiet, hist, no_header, no_summary, no_index, with_zeros;
	long bucket, entries;
	const struct cli *cli;
};
enum {
	LAT_OPT_NO_HEADER = 256,
	LAT_OPT_NO_SUMMARY,
	LAT_OPT_NO_INDEX,
	LAT_OPT_WITH_ZEROS,
	LAT_NOT_MINE = -1000, /* lat_take_common: an option of the command's own */
};
/* Takes one shared option: CLI_OK, cli_error()'s code, or LAT_NOT_MINE. */
int lat_take_common(struct lat_common *c, int opt, char *arg);
/* Says so on stderr when the threads could not get the asked-for policy. */
void lat_note_policy(const struct lat_common *c, bool fell_back);

/* rtla's -d forms: N (seconds), Ns, Nm, Nh, Nd; > 0. */
bool lat_parse_duration(const char *s, uint64_t *sec);
/* rtla's -P forms: f:PRIO, r:PRIO (1..99), o:NICE (-20..19). */
bool lat_parse_sched(const char *s, struct lat_sched *out);
/* A CPU list (cpulist form) of CPUs this process may run on, into a bitmap
 * of *nbits bits (malloc'd); NULL s: every allowed CPU. Returns false with
 * a message in err. */
bool lat_parse_cpus(const char *s, uint8_t **mask, unsigned *nbits, char *err, size_t errlen);
/* rtla's duration text "%3d %02d:%02d:%02d" (days, h, m, s). */
void lat_duration_text(uint64_t sec, char *buf, size_t len);

struct lat_run {
	uint64_t duration_s; /* 0: until SIGINT or a stop */
	bool (*stopped)(void *arg);
	void (*refresh)(void *arg, uint64_t elapsed_s); /* every second; NULL: none */
	void *arg;
};
/* Blocks SIGINT and SIGTERM so the measuring threads started next inherit
 * the mask; lat_wait takes them in the calling thread. */
void lat_block_signals(void);
/* Waits for the end of the run; returns the seconds it lasted. */
uint64_t lat_wait(const struct lat_run *r);

#endif
