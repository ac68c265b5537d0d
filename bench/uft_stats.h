/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the uft bench reads from libuft's internals: the calling thread's
 * counters and its ring's produced/consumed positions; and the in-process
 * tracefs tree, for hist triggers. */
#ifndef UFT_BENCH_STATS_H
#define UFT_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Events committed and dropped by this thread's level-0 ring (0 if none). */
void bench_uft_counts(uint64_t *committed, uint64_t *dropped);
/* Waits until a consumer has claimed every complete page of this thread's
 * ring; returns 0, or -1 after `timeout_ms` or without a ring. */
int bench_uft_wait_drained(unsigned timeout_ms);

/* Appends `text` to the in-process tracefs file `path` (">>"); 0 or -errno. */
int bench_uft_write(const char *path, const char *text);
/* Reads the in-process tracefs file `path` into buf (NUL terminated);
 * the length, or -errno. */
int bench_uft_read(const char *path, char *buf, size_t len);

#endif
