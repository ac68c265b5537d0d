/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Event selection specs as trace-cmd's -e takes them. */
#ifndef UFT_SPEC_H
#define UFT_SPEC_H

#include <stdbool.h>

/* "all", "SYS:EV", "SYS:*", ":EV", or a bare word naming a system or an event;
 * shell globs in every part. */
bool uft_event_spec_matches(const char *spec, const char *system, const char *name);

#endif
