/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Eprobes (kernel/trace/trace_eprobe.c): a probe event whose records are
 * made from another event's, by an internal trigger on that source event.
 * The definition is a dynamic probe of ftrace_probe.c (kind EPROBE, no
 * site); this file holds what is its own: the source's use, the trigger in
 * each buffer the eprobe is enabled in, the hit and the trace text. */
#ifndef UFT_LIB_EPROBE_H
#define UFT_LIB_EPROBE_H

#include <stdint.h>
#include <stdio.h>

#include "engine/filter/filter.h"
#include "runtime/ftrace/ftrace_probe.h"

/* Whether the "if FILTER" of a parsed eprobe compiles on its source's
 * fields (checked before it is made, as the kernel's
 * trace_eprobe_parse_filter): 0, or -EINVAL with fe set. */
int uft_eprobe_check_filter(const struct uft_probe_def *d, struct uft_filter_error *fe);
/* Makes the eprobe of a parsed definition (taken over) and takes a use of
 * its source event, which then cannot be deleted (-EBUSY). Returns what
 * uft_dprobe_create() returns. */
int uft_eprobe_create(struct uft_probe_def *d);
/* A probe leaves (ftrace_probe.c's drop): its source's use is released. */
void uft_eprobe_forget(const struct uft_dprobe *p);
/* Deleting every dynamic event at once: the eprobes' uses of their
 * sources are dropped for the other kinds' checks (release true) and
 * taken back when that deletion is refused (false). */
void uft_eprobe_uses_all(int release);
/* After a tree operation: each eprobe gets its trigger on its source in
 * the buffers its event is enabled in (soft mode included) and loses it in
 * the others. */
void uft_eprobe_sync(void);
/* The trace text of an eprobe record, "NAME: (SYS.EVENT) a=1" as the
 * kernel's print_eprobe_event; 1 when it is one, else 0. */
int uft_eprobe_render(FILE *f, const void *data, uint32_t len);

#endif
