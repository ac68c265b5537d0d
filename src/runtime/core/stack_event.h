/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The stacktrace trigger's record, the kernel's ftrace kernel_stack entry. */
#ifndef UFT_LIB_STACK_EVENT_H
#define UFT_LIB_STACK_EVENT_H

#include <stdint.h>
#include <stdio.h>

#include "engine/text/ftrace_text.h"

#define UFT_ID_KERNEL_STACK 4

void uft_stack_event_init(void);
/* Makes uft_stack_record safe in a signal handler (loads the unwinder). */
void uft_stack_prepare(void);
/* Records the calling thread's stack into `buffer`, starting above the frame
 * that `ra` (the return address of a libuft entry point) returns into. */
void uft_stack_record(uint32_t buffer, void *ra);
/* The calling thread's return addresses above the frame `ra` returns into
 * (all of them when ra is NULL or not found), at most max into pcs,
 * innermost first; their number. Safe at event time once prepared. */
uint32_t uft_stack_capture(void *ra, uint64_t *pcs, uint32_t max);
/* The size of a kernel_stack record. */
#define UFT_STACK_REC_SIZE 80
/* Fills rec (UFT_STACK_REC_SIZE bytes) with a kernel_stack record of the
 * calling thread's stack, from the function that `from` (a return address
 * into it) is in, outward; above the caller when `from` is not found. The
 * common part holds the id only. Safe at event time once prepared. */
void uft_stack_fill(void *rec, uintptr_t from);
/* Writes such a record into `buffer` (0, or -EBUSY as uft_write_to_buffer). */
int uft_stack_write(uint32_t buffer, const void *rec);
/* Prints a kernel_stack record's body as the kernel's trace file does
 * (uft_stack_text), names from sym; returns 0 for any other record. */
int uft_stack_render(FILE *f, const void *data, uint32_t len, uft_sym_fn sym, void *ctx);

#endif
