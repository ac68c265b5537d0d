/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ftrace:function and funcgraph events for tests that write function
 * tracer records themselves, through the runtime's own descriptors. */
#ifndef UFT_TEST_FTRACE_EVENTS_H
#define UFT_TEST_FTRACE_EVENTS_H

#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire/ftrace_records.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "tfs_helpers.h"

static const char *const ftrace_names[3] = {"function", "funcgraph_entry", "funcgraph_exit"};
static const struct uft_event *desc[3];

static int find_desc(void *ctx, const struct uft_reg_view *v)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(v->system, "ftrace") == 0 && strcmp(v->name, ftrace_names[i]) == 0)
			desc[i] = v->desc;
	return 0;
}

/* The runtime's descriptors, registered when the tree is first used. */
static void setup_events(void)
{
	free(tfs_cat("current_tracer", NULL));
	uft_registry_visit(find_desc, NULL);
	for (int i = 0; i < 3; i++)
		assert_non_null(desc[i]);
}

static void write_rec(int i, const void *rec, uint32_t len)
{
	assert_int_equal(uft_write_to_buffer(0, desc[i], rec, len, NULL, 0), 0);
}

static void put_fn(uint64_t ip, uint64_t parent)
{
	struct uft_rec_function r = {.ip = ip, .parent_ip = parent};
	write_rec(0, &r, sizeof(r));
}

static void put_entry(uint64_t func, int depth)
{
	struct uft_rec_funcgraph_entry r = {.func = func, .depth = depth};
	write_rec(1, &r, sizeof(r));
}

static void put_exit(uint64_t func, int depth, uint64_t call, uint64_t ret)
{
	struct uft_rec_funcgraph_exit r = {
	    .func = func, .depth = depth, .calltime = call, .rettime = ret};
	write_rec(2, &r, sizeof(r));
}

#endif
