/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The function profiler's files (Documentation/trace/ftrace.rst):
 * function_profile_enabled and trace_stat/functionN, one per CPU, with the
 * kernel's columns (a kernel with the graph tracer: hits, total, average
 * and s^2 of the time spent in each function, sorted by total time). The
 * counting is the traced threads' own (ftrace_profile.c); the profiler
 * follows the top's set_ftrace_filter and set_ftrace_notrace. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ftrace/ftrace.h"
#include "runtime/tracefs/tfs.h"
#include "util/atomics.h"
#include "util/util.h"

static int show_enabled(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%d\n", tfs_ftrace_profile_enabled());
	return 0;
}

static int write_enabled(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v))
		return -EINVAL;
	return tfs_ftrace_profile_enable(v != 0, tfs_opt(tfs_insts[0], "graph-time"));
}

/* A duration in ns as the kernel's trace_print_graph_duration: microseconds
 * with up to 7 digits in all, then " us " and spaces to 8 columns. */
static void put_duration(FILE *out, uint64_t ns)
{
	char us[24];
	int len = snprintf(us, sizeof(us), "%llu", (unsigned long long)(ns / 1000));
	fputs(us, out);
	if (len < 7) {
		char frac[8];
		snprintf(frac, sizeof(frac), "%03llu", (unsigned long long)(ns % 1000));
		int keep = 7 - len < 3 ? 7 - len : 3;
		fprintf(out, ".%.*s", keep, frac);
		len += keep + 1;
	}
	fputs(" us ", out);
	for (; len < 8; len++)
		fputc(' ', out);
}

struct row {
	const char *name;
	struct uft_prof_cnt c;
};

/* The kernel's order: the larger total time first. */
static int by_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->c.time != y->c.time)
		return x->c.time < y->c.time ? 1 : -1;
	if (x->c.hits != y->c.hits)
		return x->c.hits < y->c.hits ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int show_stat(const struct tfs_node *n, FILE *out)
{
	int cpu = n->cpu;
	struct row *rows = NULL;
	size_t nr = 0, cap = 0;
	uint32_t nobjs = smp_load_acquire(&uft_ftrace_nr_objs);
	for (uint32_t i = 0; i < nobjs; i++) {
		const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		for (uint32_t k = 0; k < o->nr; k++) {
			const struct uft_prof_cnt *c = smp_load_acquire(&o->sites[k].prof);
			if (!c || !READ_ONCE(c[cpu].hits))
				continue;
			if (uft_array_reserve(rows, cap, nr + 1, 64)) {
				free(rows);
				return -ENOMEM;
			}
			rows[nr].name = o->sites[k].name;
			rows[nr].c.hits = READ_ONCE(c[cpu].hits);
			rows[nr].c.time = READ_ONCE(c[cpu].time);
			rows[nr].c.time2 = READ_ONCE(c[cpu].time2);
			nr++;
		}
	}
	if (nr)
		qsort(rows, nr, sizeof(*rows), by_time);
	fputs(
	    "  Function                               Hit    Time            Avg             s^2\n"
	    "  --------                               ---    ----            ---             ---\n",
	    out);
	for (size_t i = 0; i < nr; i++) {
		const struct uft_prof_cnt *c = &rows[i].c;
		fprintf(out, "  %-30.30s  %10llu    ", rows[i].name, (unsigned long long)c->hits);
		uint64_t avg = c->time / c->hits, s2 = 0;
		if (c->hits > 1) {
			/* Welford: (n * sum(x^2) - sum(x)^2) / (n * (n - 1)),
			 * ns^2 to us^2 by the 1000 here and the one of the
			 * duration's print. */
			s2 = c->hits * c->time2 - c->time * c->time;
			s2 /= c->hits * (c->hits - 1) * 1000;
		}
		put_duration(out, c->time);
		fputs("    ", out);
		put_duration(out, avg);
		fputs("    ", out);
		put_duration(out, s2);
		fputc('\n', out);
	}
	free(rows);
	return 0;
}

const struct tfs_file tfs_fprofile_files[] = {
    {.name = "function_profile_enabled",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_enabled,
     .write = write_enabled},
    /* trace_stat/functionN, N the CPU (tracefs.c resolves the name). */
    {.name = "*function", .dir = TFS_D_TRACE_STAT, .mode = 0444, .show = show_stat},
    {0},
};
