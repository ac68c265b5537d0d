/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call sites built with UFT_OUTLINE: each calls the writer of the file that
 * creates the events. */
#define UFT_OUTLINE
#include "tev_types_events.h"

#define TEV_CALLS tev_calls_outline
#include "tev_calls.h"
