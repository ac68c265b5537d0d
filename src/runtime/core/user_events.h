/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the tree needs of the run-time events (user_events.c):
 * dynamic_events' `u:` lines and user_events_status. */
#ifndef UFT_LIB_USER_EVENTS_H
#define UFT_LIB_USER_EVENTS_H

#include <stdbool.h>

struct uev;

struct uft_user_event_info {
	const char *name;
	const char *listing; /* dynamic_events line without "u:" */
	bool busy;	     /* enabled somewhere */
};

/* Defines an event without an enable bit (dynamic_events' `u:` line), or
 * finds the same one: 0 or the errors of uft_user_event_register(), *why
 * naming a syntax error. */
int uft_user_event_define(const char *def, struct uev **out, const char **why);
/* uft_user_event_delete() for the tree, whose operation ends later (the
 * event is freed after the grace period that follows it). */
int uft_user_event_remove(const char *name);
/* Deletes every event, or none (-EBUSY) when one is in use; with check_only,
 * only says whether it could. */
int uft_user_event_delete_all(bool check_only);
bool uft_user_event_exists(const char *name);
/* Calls fn for each event, in index order, under the events' lock. */
void uft_user_event_each(void (*fn)(void *ctx, const struct uft_user_event_info *info), void *ctx);

#endif
