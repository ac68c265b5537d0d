/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A probe parser environment for the tests: a data symbol, an attachable
 * event with the fields of sched_switch-like records, and one name taken. */
#ifndef UFT_TEST_PROBE_ENV_H
#define UFT_TEST_PROBE_ENV_H

#include <errno.h>
#include <string.h>

#include "engine/probe/probe.h"
#include <uft/event.h>

static long probe_gvar[4] = {11, 22, 33, 44};

static const struct uft_field probe_ev_fields[] = {
    {"int", "common_pid", 4, 4, 1, UFT_FIELD_SCALAR, 0},
    {"char", "prev_comm[16]", 8, 16, 1, UFT_FIELD_ARRAY, 1},
    {"int", "prev_pid", 24, 4, 1, UFT_FIELD_SCALAR, 0},
    {"short", "prio", 28, 2, 1, UFT_FIELD_SCALAR, 0},
    {"__data_loc char[]", "name", 32, 4, 1, UFT_FIELD_DYN, 1},
    {"unsigned long", "next_pid", 40, 8, 0, UFT_FIELD_SCALAR, 0},
};

static int probe_test_sym(void *ctx, const char *lib, const char *sym, uint64_t *addr)
{
	if (lib && strcmp(lib, "libother.so") == 0)
		return -ENOENT;
	if (strcmp(sym, "gvar") != 0)
		return -ENOENT;
	*addr = (uintptr_t)probe_gvar;
	return 0;
}

static const struct uft_field *probe_test_fields(void *ctx, const char *sys, const char *ev,
						 uint32_t *nr)
{
	if (strcmp(sys, "sched") != 0 || strcmp(ev, "sched_switch") != 0)
		return NULL;
	*nr = sizeof(probe_ev_fields) / sizeof(probe_ev_fields[0]);
	return probe_ev_fields;
}

static int probe_test_exists(void *ctx, const char *group, const char *event)
{
	if (strcmp(group, "sched") == 0 && strcmp(event, "sched_switch") == 0)
		return UFT_PROBE_OTHER_EVENT;
	return UFT_PROBE_FREE;
}

static inline struct uft_probe_env probe_test_env(enum uft_probe_src src)
{
	struct uft_probe_env e = {
	    .src = src,
	    .exists = probe_test_exists,
	    .sym_addr = probe_test_sym,
	    .event_fields = probe_test_fields,
	};
	return e;
}

#endif
