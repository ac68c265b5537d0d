/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every record of a parsed trace.dat, all CPUs of all instances merged in
 * time order. */
#ifndef UFT_RECORD_ITER_H
#define UFT_RECORD_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/page.h"
#include "tracedat/tracedat.h"

struct record_iter_cpu;

struct record_iter {
	uint32_t page_size;
	size_t nr;
	struct record_iter_cpu *cpus;
	/* Events the pages entered so far say were lost before them
	 * (RB_MISSED_EVENTS): counted where the page stores the count, else
	 * lost_uncounted is set. */
	uint64_t lost;
	bool lost_uncounted;
};

/* Bytes of pages every iterator of this process has entered, for a
 * progress display (uft report's): written by the iterating thread alone,
 * read with READ_ONCE from another. */
extern uint64_t record_iter_bytes;

/* 0, or -ENOMEM. */
int record_iter_init(struct record_iter *it, const struct tracedat *td);
/* The next record (payload, length, timestamp) and its CPU; false at the end. */
bool record_iter_next(struct record_iter *it, struct uft_page_rec *rec, int *cpu);
void record_iter_free(struct record_iter *it);

#endif
