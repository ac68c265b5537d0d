/* The ftrace:function and funcgraph events for tests that write function
 * tracer records themselves: the runtime's descriptors when it registers
 * them, else the test's own with the kernel's (6.1) fields. */
#ifndef UFT_TEST_FTRACE_EVENTS_H
#define UFT_TEST_FTRACE_EVENTS_H

#include <string.h>

#include <cmocka.h>

#include "common/ftrace_records.h"
#include "lib/registry.h"
#include "lib/runtime.h"

static volatile uint16_t gates[3];

static const struct uft_field fn_fields[] = {
    {"unsigned long", "ip", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned long", "parent_ip", 16, 8, 0, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field ent_fields[] = {
    {"unsigned long", "func", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"int", "depth", 16, 4, 1, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field exit_fields[] = {
    {"unsigned long", "func", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"int", "depth", 16, 4, 1, UFT_FIELD_SCALAR, 0},
    {"unsigned int", "overrun", 20, 4, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned long long", "calltime", 24, 8, 0, UFT_FIELD_SCALAR, 0},
    {"unsigned long long", "rettime", 32, 8, 0, UFT_FIELD_SCALAR, 0},
};

static struct uft_event own[3] = {
    {.magic = UFT_EVENT_MAGIC,
     .gate = &gates[0],
     .system = "ftrace",
     .name = "function",
     .fields = fn_fields,
     .nr_fields = 2,
     .fixed_size = 24,
     .print_fmt = "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip"},
    {.magic = UFT_EVENT_MAGIC,
     .gate = &gates[1],
     .system = "ftrace",
     .name = "funcgraph_entry",
     .fields = ent_fields,
     .nr_fields = 2,
     .fixed_size = 24,
     .print_fmt = "\"--> %ps (%d)\", (void *)REC->func, REC->depth"},
    {.magic = UFT_EVENT_MAGIC,
     .gate = &gates[2],
     .system = "ftrace",
     .name = "funcgraph_exit",
     .fields = exit_fields,
     .nr_fields = 5,
     .fixed_size = 40,
     .print_fmt = "\"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
		  "REC->depth, REC->calltime, REC->rettime, REC->depth"},
};
static const uint16_t own_ids[3] = {UFT_ID_FUNCTION, UFT_ID_FUNCGRAPH_ENTRY, UFT_ID_FUNCGRAPH_EXIT};
static const struct uft_event *desc[3];

static int find_desc(void *ctx, const struct uft_reg_view *v)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(v->system, "ftrace") == 0 && strcmp(v->name, own[i].name) == 0)
			desc[i] = v->desc;
	return 0;
}

/* The runtime's descriptors when it registers them, else ours. */
static void setup_events(void)
{
	uft_registry_visit(find_desc, NULL);
	for (int i = 0; i < 3; i++) {
		if (desc[i])
			continue;
		uft_registry_add_fixed(&own[i], own_ids[i]);
		desc[i] = &own[i];
	}
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
