/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's events an -e of uft record or uft stream names, recorded
 * beside the program's (cmd/kernel_source.h): which specs are the
 * kernel's, and the source opened on the recording's collector. */
#ifndef UFT_RECORD_KERNEL_H
#define UFT_RECORD_KERNEL_H

#include <stdbool.h>

struct recording;
struct record_opts;

/* Opens r->ks on r->c when an -e names kernel events (the process tracer's
 * left to it with -p process): CLI_OK, or CLI_USAGE after a message. */
int record_kernel_open(struct recording *r);
/* Whether -e spec names a kernel event recorded so. */
bool record_kernel_spec(const struct record_opts *o, const char *spec);
/* Whether it is the kernel's alone: it names kernel events and its system
 * is no glob (so it is not passed to libuft). */
bool record_kernel_only(const struct record_opts *o, const char *spec);

/* For an -e that matched nothing: why it could not have been a kernel event
 * (" (kernel events: REASON)"), or "". */
const char *record_kernel_hint(const char *spec);

#endif
