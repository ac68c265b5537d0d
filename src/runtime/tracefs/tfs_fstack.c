/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The stack tracer's files (Documentation/trace/ftrace.rst, "Stack
 * trace"): stack_trace (the deepest stack seen, in the kernel's format),
 * stack_max_size (its size; a write sets it, 0 starts the search again),
 * and the switch the kernel keeps in the sysctl
 * /proc/sys/kernel/stack_tracer_enabled, here the tree's own
 * stack_tracer_enabled file (`uft ns` binds it over the sysctl).
 * stack_trace_filter is with the other selection files (tfs_ftrace.c); the
 * measuring is done by the traced threads (ftrace_stack.c). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/symtab.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/tracefs/tfs.h"
#include "util/atomics.h"

static long enabled_value; /* as written, as the sysctl keeps it */

static void lock_max(struct uft_stack_max *m)
{
	for (;;) {
		uint32_t free_ = 0;
		if (uft_try_cmpxchg_acquire(&m->lock, &free_, 1))
			return;
		sched_yield(); /* a writer holds it for one unwinding */
	}
}

static void unlock_max(struct uft_stack_max *m)
{
	smp_store_release(&m->lock, 0);
}

static int show_enabled(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%ld\n", enabled_value);
	return 0;
}

static int write_enabled(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	char *end;
	tfs_strip(buf, len);
	long v = strtol(buf, &end, 10);
	if (end == buf || *end)
		return -EINVAL;
	int rc = tfs_ftrace_stack_enable(v != 0);
	if (rc == 0)
		enabled_value = v;
	return rc;
}

static int show_max_size(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%llu\n", (unsigned long long)READ_ONCE(uft_ftrace_stack_max.size));
	return 0;
}

static int write_max_size(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v))
		return -EINVAL;
	struct uft_stack_max *m = &uft_ftrace_stack_max;
	lock_max(m);
	WRITE_ONCE(m->size, v);
	unlock_max(m);
	return 0;
}

/* %pS: name+0xoff/0xsize, with the library's name when not the program. */
static void put_location(FILE *out, uintptr_t pc)
{
	struct uft_symbol s;
	char tag[300];
	if (uft_symbol_find(pc, &s) != 0) {
		if (uft_symbol_tag(&s, pc, tag, sizeof(tag)) == 0)
			fprintf(out, "%s\n", tag);
		else
			fprintf(out, "0x%lx\n", (unsigned long)pc);
		return;
	}
	fprintf(out, "%s+0x%lx/0x%lx", s.name, (unsigned long)(pc - s.start),
		(unsigned long)s.size);
	if (s.module[0]) {
		const char *base = strrchr(s.module, '/');
		fprintf(out, " [%s]", base ? base + 1 : s.module);
	}
	fputc('\n', out);
}

static int show_stack(const struct tfs_node *n, FILE *out)
{
	struct uft_stack_max *m = &uft_ftrace_stack_max;
	struct uft_stack_max *copy = malloc(sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	lock_max(m);
	memcpy(copy, m, sizeof(*copy));
	unlock_max(m);
	fprintf(out,
		"        Depth    Size   Location    (%u entries)\n"
		"        -----    ----   --------\n",
		copy->nr);
	if (!tfs_ftrace_stack_enabled() && !copy->size)
		fputs("#\n"
		      "#  Stack tracer disabled\n"
		      "#\n"
		      "# To enable the stack tracer, either add 'stacktrace' to the\n"
		      "# kernel command line\n"
		      "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n"
		      "#\n",
		      out);
	for (uint32_t i = 0; i < copy->nr; i++) {
		uint32_t size =
		    i + 1 == copy->nr ? copy->depth[i] : copy->depth[i] - copy->depth[i + 1];
		fprintf(out, "%3u) %8u   %5u   ", i, copy->depth[i], size);
		put_location(out, copy->pc[i]);
	}
	free(copy);
	return 0;
}

const struct tfs_file tfs_fstack_files[] = {
    {.name = "stack_trace",
     .dir = TFS_D_ROOT,
     .mode = 0444,
     .where = TFS_TOP_ONLY,
     .show = show_stack},
    {.name = "stack_max_size",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_max_size,
     .write = write_max_size},
    {.name = "stack_tracer_enabled",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_enabled,
     .write = write_enabled},
    {0},
};
