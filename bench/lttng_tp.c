/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Instantiates the LTTng-UST probe of lttng_tp.h. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"
