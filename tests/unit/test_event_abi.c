/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event descriptor's binary layout: a descriptor built with the current
 * header registers and records; one of a smaller (older) layout or with a
 * wrong magic is refused with a message and not registered; one of a larger
 * (newer) layout is registered, its unknown tail ignored. The runtime never
 * writes into a descriptor: what it derives lives behind the state. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#define UFT_CREATE_EVENTS
#include "abi_events.h"

#include "own_rings.h"
#include "runtime/core/runtime.h"

/* What the registry writes on stderr while fn runs. */
static char *stderr_of(void (*fn)(void *), void *arg)
{
	static char buf[4096];
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
	fn(arg);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(tmp);
	size_t n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return buf;
}

/* A one-descriptor uft_events section. */
struct section {
	struct uft_event *v[1];
};

static void register_one(void *arg)
{
	struct section *s = arg;
	uft__register_section(s->v, s->v + 1);
}

static void unregister_one(void *arg)
{
	struct section *s = arg;
	uft__unregister_section(s->v, s->v + 1);
}

struct rec3 {
	uint16_t id;
	int n;
	int a, b, c;
};

static int grab3(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		 uint64_t missed)
{
	struct rec3 *r = ctx;
	const struct uft_common_entry *e = data;
	(void)ts, (void)cpu, (void)missed;
	if (e->type != r->id || len < 20)
		return 0;
	memcpy(&r->a, (const char *)data + 8, 4);
	memcpy(&r->b, (const char *)data + 12, 4);
	memcpy(&r->c, (const char *)data + 16, 4);
	r->n++;
	return 0;
}

static void test_current_layout(void **state)
{
	(void)state;
	struct uft_event *ev = uft_find_event("tabi", "three");
	assert_ptr_equal(ev, &uft_event_three);
	assert_int_equal(ev->size, sizeof(struct uft_event));
	assert_ptr_equal(ev->state, &uft_event_state_three);
	uint16_t id = uft_event_id(ev);
	assert_int_not_equal(id, 0);

	assert_int_equal(uft_set_event("tabi:three", 1), 1);
	assert_int_equal(uft_event_state_three.enabled, 1);
	assert_int_equal(uft_event_state_three.fast_type, id); /* global buffer, no filter */
	trace_three(4, 5, 6);
	uft_set_event("tabi:three", 0);
	assert_int_equal(uft_event_state_three.enabled, 0);
	assert_int_equal(uft_event_state_three.fast_type, 0);

	struct rec3 r = {.id = id};
	drain_own_rings(NULL, 0, grab3, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.a, 4);
	assert_int_equal(r.b, 5);
	assert_int_equal(r.c, 6);
}

/* A layout ending before line: smaller than any this runtime reads. */
struct small_event {
	uint32_t size;
	uint32_t magic;
	struct uft_event_state *state;
	volatile uint16_t *gate;
	const char *system;
	const char *name;
	const struct uft_field *fields;
	uint32_t nr_fields;
	uint8_t style;
	const struct uft_field *(*fields_fn)(uint32_t *nr_fields);
	uint32_t fixed_size;
	uint32_t nr_args;
	const char *print_fmt;
	const char *printf_fmt;
	const char *file;
};

static void test_smaller_layout_refused(void **state)
{
	(void)state;
	static volatile uint16_t gate;
	static struct uft_event_state st;
	static struct small_event small = {
	    .size = sizeof(struct small_event),
	    .magic = UFT_EVENT_MAGIC,
	    .state = &st,
	    .gate = &gate,
	    .system = "tabi",
	    .name = "small",
	    .style = UFT_STYLE_PRINTF,
	    .printf_fmt = "x=%d",
	    .file = "old_object.c",
	};
	struct section s = {{(struct uft_event *)&small}};
	char *msg = stderr_of(register_one, &s);
	char want[256];
	snprintf(want, sizeof(want),
		 "uft: old_object.c:0: event tabi:small: descriptor of %zu bytes, this uft needs "
		 "at least %zu; rebuild against this uft; not registered\n",
		 sizeof(struct small_event), offsetof(struct uft_event, line) + sizeof(uint32_t));
	assert_string_equal(msg, want);
	assert_null(uft_find_event("tabi", "small"));
	assert_int_equal(st.id, 0);
	assert_null(st.priv);
	/* Enabling everything leaves it alone; its object may leave. */
	uft_set_event("tabi:*", 1);
	assert_int_equal(gate, 0);
	uft_set_event("tabi:*", 0);
	assert_string_equal(stderr_of(unregister_one, &s), "");
}

/* The layout before descriptors had a size: the magic came first. */
struct unsized_event {
	uint32_t magic;
	uint8_t style;
	uint8_t enabled;
	uint16_t id;
	volatile uint16_t *gate;
	const char *system;
	const char *name;
};

static void test_wrong_magic_refused(void **state)
{
	(void)state;
	static volatile uint16_t gate;
	static struct unsized_event old = {
	    .magic = UFT_EVENT_MAGIC, .gate = &gate, .system = "tabi", .name = "unsized"};
	struct section s = {{(struct uft_event *)&old}};
	char *msg = stderr_of(register_one, &s);
	assert_non_null(strstr(msg, "wrong magic"));
	assert_non_null(strstr(msg, "rebuild against this uft; not registered\n"));
	assert_ptr_equal(strchr(msg, '\n'), msg + strlen(msg) - 1); /* one line */
	assert_null(uft_find_event("tabi", "unsized"));
	assert_int_equal(old.id, 0);
	stderr_of(unregister_one, &s);
}

/* A newer layout: members appended after line. */
struct larger_event {
	struct uft_event ev;
	uint64_t future[4];
};

struct rec1 {
	uint16_t id;
	int n;
	int x;
};

static int grab1(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
		 uint64_t missed)
{
	struct rec1 *r = ctx;
	const struct uft_common_entry *e = data;
	(void)ts, (void)cpu, (void)missed;
	if (e->type != r->id || len < 12)
		return 0;
	memcpy(&r->x, (const char *)data + 8, 4);
	r->n++;
	return 0;
}

static void test_larger_layout_accepted(void **state)
{
	(void)state;
	static volatile uint16_t gate;
	static struct uft_event_state st;
	static struct larger_event big = {
	    .ev =
		{
		    .size = sizeof(struct larger_event),
		    .magic = UFT_EVENT_MAGIC,
		    .state = &st,
		    .gate = &gate,
		    .system = "tabi",
		    .name = "larger",
		    .style = UFT_STYLE_PRINTF,
		    .printf_fmt = "x=%d",
		    .file = __FILE__,
		    .line = __LINE__,
		},
	    .future = {~0ull, ~0ull, ~0ull, ~0ull},
	};
	struct section s = {{&big.ev}};
	assert_string_equal(stderr_of(register_one, &s), "");
	assert_ptr_equal(uft_find_event("tabi", "larger"), &big.ev);
	uint16_t id = uft_event_id(&big.ev);
	assert_int_not_equal(id, 0);

	assert_int_equal(uft_set_event("tabi:larger", 1), 1);
	assert_int_equal(gate, 1);
	const uint64_t args[] = {42};
	uft__trace_printf(&big.ev, args, 1);
	uft_set_event("tabi:larger", 0);
	struct rec1 r = {.id = id};
	drain_own_rings(NULL, 0, grab1, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.x, 42);

	unregister_one(&s);
	assert_null(uft_find_event("tabi", "larger"));
	assert_int_equal(uft_event_id(&big.ev), 0);
}

/* A one-liner's descriptor in read-only memory: registering it, recording
 * through it and unregistering it write nothing into it (the layout parsed
 * from its format lives in the runtime's view). */
static void test_descriptor_read_only(void **state)
{
	(void)state;
	static volatile uint16_t gate;
	static struct uft_event_state st;
	const struct uft_event init = {
	    .size = sizeof(struct uft_event),
	    .magic = UFT_EVENT_MAGIC,
	    .state = &st,
	    .gate = &gate,
	    .system = "tabi",
	    .name = "rodesc",
	    .style = UFT_STYLE_PRINTF,
	    .printf_fmt = "x=%d",
	    .file = __FILE__,
	    .line = __LINE__,
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct uft_event *ro =
	    mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(ro != MAP_FAILED);
	memcpy(ro, &init, sizeof(init));
	assert_int_equal(mprotect(ro, page, PROT_READ), 0);

	struct section s = {{ro}};
	assert_string_equal(stderr_of(register_one, &s), "");
	uint16_t id = uft_event_id(ro);
	assert_int_not_equal(id, 0);
	/* The check is the mapping: a write into the descriptor (its layout
	 * written back, say) would have faulted above or below. */
	assert_int_equal(uft_set_event("tabi:rodesc", 1), 1);
	const uint64_t args[] = {7};
	uft__trace_printf(ro, args, 1);
	uft_set_event("tabi:rodesc", 0);
	struct rec1 r = {.id = id};
	drain_own_rings(NULL, 0, grab1, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.x, 7);
	unregister_one(&s);
	assert_null(uft_find_event("tabi", "rodesc"));
	munmap(ro, page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_current_layout),
	    cmocka_unit_test(test_smaller_layout_refused),
	    cmocka_unit_test(test_wrong_magic_refused),
	    cmocka_unit_test(test_larger_layout_accepted),
	    cmocka_unit_test(test_descriptor_read_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
