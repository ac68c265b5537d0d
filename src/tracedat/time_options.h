/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Times in a parsed trace.dat made nanoseconds as trace-cmd reads them
 * (TSC2NSEC and OFFSET options). */
#ifndef UFT_TRACEDAT_TIME_OPTIONS_H
#define UFT_TRACEDAT_TIME_OPTIONS_H

#include "tracedat/tracedat.h"

/* Re-encodes every CPU's pages with converted times when the file has the
 * options (no change otherwise). 0 or -ENOMEM. */
int tracedat_apply_time_options(struct tracedat *td);

#endif
