/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* osnoise/: the knobs of the timerlat and osnoise tracers (the top only, as
 * in the kernel), with the kernel's bounds: runtime_us <= period_us,
 * timerlat_period_us in 100..1000000; a bad value is EINVAL and changes
 * nothing. A change while one of the two runs restarts its threads. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime/latency/osn_tracer.h"
#include "runtime/tracefs/tfs.h"
#include "util/atomics.h"
#include "util/cpulist.h"
#include "util/util.h"

static uint64_t *knob(const struct tfs_node *n)
{
	struct uft_osn_cfg *c = &uft_osn_cfg;
	const char *f = n->file->name;
	if (strcmp(f, "period_us") == 0)
		return &c->period_us;
	if (strcmp(f, "runtime_us") == 0)
		return &c->runtime_us;
	if (strcmp(f, "stop_tracing_us") == 0)
		return &c->stop_us;
	if (strcmp(f, "stop_tracing_total_us") == 0)
		return &c->stop_total_us;
	if (strcmp(f, "timerlat_period_us") == 0)
		return &c->timerlat_period_us;
	return &c->print_stack;
}

static int show_knob(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%llu\n", (unsigned long long)*knob(n));
	return 0;
}

static int write_knob(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	(void)of;
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v))
		return -EINVAL;
	const char *f = n->file->name;
	struct uft_osn_cfg *c = &uft_osn_cfg;
	if ((strcmp(f, "runtime_us") == 0 && v > c->period_us) ||
	    (strcmp(f, "period_us") == 0 && v < c->runtime_us) ||
	    (strcmp(f, "timerlat_period_us") == 0 && (v < 100 || v > 1000000)))
		return -EINVAL;
	uint64_t *k = knob(n);
	if (*k == v)
		return 0;
	WRITE_ONCE(*k, v); /* the thresholds are read by the measuring threads */
	/* the thresholds are read at each sample; the rest starts anew */
	if (k == &c->stop_us || k == &c->stop_total_us || k == &c->print_stack)
		return 0;
	uft_osn_restart();
	return 0;
}

static unsigned nbits(void)
{
	int n = tfs_nr_cpus();
	return n > UFT_OSN_MAX_CPUS ? UFT_OSN_MAX_CPUS : (unsigned)n;
}

static int show_cpus(const struct tfs_node *n, FILE *out)
{
	(void)n;
	uft_osn_cfg_init();
	const uint8_t *m = uft_osn_cfg.cpus;
	bool first = true;
	for (unsigned i = 0, lim = nbits(); i < lim;) {
		if (!(m[i / 8] & 1u << i % 8)) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j + 1 < lim && (m[(j + 1) / 8] & 1u << (j + 1) % 8))
			j++;
		fprintf(out, first ? "" : ",");
		if (j > i)
			fprintf(out, "%u-%u", i, j);
		else
			fprintf(out, "%u", i);
		first = false;
		i = j + 1;
	}
	fputc('\n', out);
	return 0;
}

static int write_cpus(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	(void)n;
	(void)of;
	uint8_t m[UFT_OSN_MAX_CPUS / 8];
	tfs_strip(buf, len);
	if (uft_cpulist_parse(buf, strlen(buf), m, nbits()) != 0)
		return -EINVAL;
	uft_osn_cfg_init();
	memcpy(uft_osn_cfg.cpus, m, sizeof(m));
	uft_osn_restart();
	return 0;
}

static const char *const opt_names[] = {"OSNOISE_WORKLOAD", "PANIC_ON_STOP",
					"OSNOISE_PREEMPT_DISABLE", "OSNOISE_IRQ_DISABLE"};

static int show_options(const struct tfs_node *n, FILE *out)
{
	(void)n;
	uint32_t o = uft_osn_cfg.options;
	fputs(o == UFT_OSN_OPT_DEFAULTS ? "DEFAULTS" : "NO_DEFAULTS", out);
	for (unsigned i = 0; i < ARRAY_SIZE(opt_names); i++)
		fprintf(out, " %s%s", o & 1u << i ? "" : "NO_", opt_names[i]);
	fputc('\n', out);
	return 0;
}

static int write_options(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	(void)n;
	(void)of;
	tfs_strip(buf, len);
	bool no = strncmp(buf, "NO_", 3) == 0;
	const char *w = no ? buf + 3 : buf;
	uint32_t o = uft_osn_cfg.options;
	if (strcmp(w, "DEFAULTS") == 0) {
		if (no)
			return -EINVAL;
		o = UFT_OSN_OPT_DEFAULTS;
	} else {
		unsigned i = 0;
		while (i < ARRAY_SIZE(opt_names) && strcmp(w, opt_names[i]) != 0)
			i++;
		if (i == ARRAY_SIZE(opt_names))
			return -EINVAL;
		o = no ? o & ~(1u << i) : o | 1u << i;
	}
	if (o == uft_osn_cfg.options)
		return 0;
	uft_osn_cfg.options = o;
	uft_osn_restart();
	return 0;
}

static int fd_open(struct uft_tfs_handle *h)
{
	int rc = uft_osn_fd_open(h->n.cpu);
	if (rc == 0)
		h->priv = h; /* opened: release lets the CPU go */
	return rc;
}

static ssize_t fd_read(struct uft_tfs_handle *h, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return uft_osn_fd_read(h->n.cpu);
}

static void fd_release(struct uft_tfs_handle *h)
{
	if (h->priv)
		uft_osn_fd_release(h->n.cpu);
	h->priv = NULL;
}

#define KNOB(nm)                                                                                   \
	{                                                                                          \
		.name = nm, .dir = TFS_D_OSNOISE, .mode = 0644, .show = show_knob,                 \
		.write = write_knob                                                                \
	}

const struct tfs_file tfs_osnoise_files[] = {
    {.name = "cpus", .dir = TFS_D_OSNOISE, .mode = 0644, .show = show_cpus, .write = write_cpus},
    KNOB("period_us"),
    KNOB("runtime_us"),
    KNOB("stop_tracing_us"),
    KNOB("stop_tracing_total_us"),
    KNOB("timerlat_period_us"),
    KNOB("print_stack"),
    {.name = "options",
     .dir = TFS_D_OSNOISE,
     .mode = 0644,
     .show = show_options,
     .write = write_options},
    {.name = "timerlat_fd",
     .dir = TFS_D_OSN_CPU,
     .mode = 0444,
     .open = fd_open,
     .read = fd_read,
     .release = fd_release},
    {0},
};
