/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call sites in a file that includes the event header without creating the
 * events: the fast path is inline here. */
#include "tev_types_events.h"

#define TEV_CALLS tev_calls_inline
#include "tev_calls.h"
