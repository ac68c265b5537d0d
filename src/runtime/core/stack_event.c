/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The stacktrace trigger's record: the kernel's ftrace kernel_stack entry
 * (id 4, `int size; unsigned long caller[8]`), here holding the traced
 * thread's user-space return addresses, printed as the kernel prints it:
 * "<stack trace>" then one " => symbol" line per caller.
 *
 * The stack is taken with glibc's backtrace(), which loads the unwinder on
 * its first call (not async-signal-safe); uft_stack_prepare() makes that
 * first call when a stacktrace trigger is installed, after which a capture
 * allocates nothing and takes no lock the unwinder does not take lock-free
 * (glibc 2.35+ finds unwind tables with _dl_find_object). Frames need
 * unwind tables (the default on x86-64), not frame pointers. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/core/trigger_run.h"

#define STACK_ENTRIES 8 /* the kernel's FTRACE_STACK_ENTRIES */
#define STACK_CAPTURE 32

struct stack_rec {
	struct uft_common_entry c;
	int32_t size;
	uint32_t pad;
	uint64_t caller[STACK_ENTRIES];
};
_Static_assert(sizeof(struct stack_rec) == UFT_STACK_REC_SIZE, "kernel_stack");

static volatile uint16_t stack_gate;

static const struct uft_field stack_fields[] = {
    {"int", "size", 8, 4, 1, UFT_FIELD_SCALAR, 0},
    {"unsigned long", "caller[8]", 16, 64, 0, UFT_FIELD_ARRAY, 8},
};

static struct uft_event stack_event = {
    .magic = UFT_EVENT_MAGIC,
    .style = UFT_STYLE_STRUCT,
    .gate = &stack_gate,
    .system = "ftrace",
    .name = "kernel_stack",
    .fields = stack_fields,
    .nr_fields = 2,
    .fixed_size = sizeof(struct stack_rec),
    .print_fmt = "\"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> "
		 "%ps\\n\\t=> %ps\\n\", (void *)REC->caller[0], (void *)REC->caller[1], (void "
		 "*)REC->caller[2], (void *)REC->caller[3], (void *)REC->caller[4], (void "
		 "*)REC->caller[5], (void *)REC->caller[6], (void *)REC->caller[7]",
    .file = __FILE__,
    .line = __LINE__,
};

void uft_stack_event_init(void)
{
	uft_registry_add_fixed(&stack_event, UFT_ID_KERNEL_STACK);
}

static void warm(void)
{
	void *f[2];
	backtrace(f, 2);
}

void uft_stack_prepare(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, warm);
}

uint32_t uft_stack_capture(void *ra, uint64_t *pcs, uint32_t max)
{
	void *frames[STACK_CAPTURE];
	int n = backtrace(frames, STACK_CAPTURE);
	/* Start above the event's writer: the frame that called libuft. */
	int start = 0;
	for (int i = 0; ra && i < n; i++) {
		if (frames[i] == ra) {
			start = i + 1;
			break;
		}
	}
	uint32_t k = 0;
	for (int i = start; i < n && k < max; i++)
		pcs[k++] = (uint64_t)(uintptr_t)frames[i];
	return k;
}

void uft_stack_record(uint32_t buffer, void *ra)
{
	struct stack_rec rec;
	memset(&rec, 0, sizeof(rec));
	rec.size = (int32_t)uft_stack_capture(ra, rec.caller, STACK_ENTRIES);
	uft_write_to_buffer(buffer, &stack_event, &rec, sizeof(rec), NULL, 0);
}

void uft_stack_fill(void *out, uintptr_t from)
{
	struct stack_rec rec;
	void *frames[STACK_CAPTURE];
	memset(&rec, 0, sizeof(rec));
	rec.c.type = UFT_ID_KERNEL_STACK;
	int n = backtrace(frames, STACK_CAPTURE);
	int start = 1; /* not found: above this function */
	for (int i = 0; from && i < n; i++) {
		if ((uintptr_t)frames[i] == from) {
			start = i;
			break;
		}
	}
	for (int i = start; i < n && rec.size < STACK_ENTRIES; i++)
		rec.caller[rec.size++] = (uint64_t)(uintptr_t)frames[i];
	memcpy(out, &rec, sizeof(rec));
}

int uft_stack_write(uint32_t buffer, const void *rec)
{
	return uft_write_to_buffer(buffer, &stack_event, rec, sizeof(struct stack_rec), NULL, 0);
}

int uft_stack_render(FILE *f, const void *data, uint32_t len, uft_sym_fn sym, void *ctx)
{
	const struct stack_rec *r = data;
	if (len < sizeof(*r) || r->c.type != UFT_ID_KERNEL_STACK)
		return 0;
	int size = r->size < 0 ? 0 : r->size > STACK_ENTRIES ? STACK_ENTRIES : r->size;
	uft_stack_text(f, r->caller, (uint32_t)size, sym, ctx);
	return 1;
}
