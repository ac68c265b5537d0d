/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What uft timerlat and uft osnoise share: rtla's argument forms (duration,
 * -P policy, -c CPUs), the run loop that ends on the duration, SIGINT or a
 * stop threshold, and rtla's duration text. */
#ifndef UFT_CMD_LAT_CLI_H
#define UFT_CMD_LAT_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "latency/lat_thread.h"

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
