/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's events beside a recording (kernel_source.h). The machinery is
 * the process tracer's kernel backend's: its private instance
 * (kernel_instance.c), set_event_pid with event-fork, its clock choice
 * (pt_clock.c), the page reader and the merge across CPUs; the events are
 * any the -e specs name, their formats the kernel's own files with the ID
 * line set to a local id, their -f filters the kernel's to apply. */
#define _GNU_SOURCE
#include "cmd/kernel_source.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/filter/event_spec.h"
#include "proctrace/kernel_backend.h"
#include "proctrace/kernel_reader.h"
#include "proctrace/proc_info.h"
#include "proctrace/pt_clock.h"
#include "recorder/collect_local.h"
#include "recorder/mono_tsc.h"
#include "util/util.h"
#include "wire/clocks.h"

struct kev {
	char system[64], name[128];
};

struct kernel_source {
	char dir[512];
	struct kev *ev; /* local id i + 1 */
	size_t nr_ev, cap_ev;
	uint16_t *map; /* kernel id -> local id */
	bool enabled;
	struct pt_kreader rd;
	struct pt_kmerge merge;
	struct collect_local l;
	int *seen; /* pids whose comm was looked for */
	size_t nr_seen, cap_seen;
	/* The kernel is on CLOCK_MONOTONIC while the rings are on a TSC
	 * calibrated against it (no perf page): its times put on the TSC. */
	struct mono_tsc clk;
};

/* The events directory to list: the usable tracefs's, else the usual one
 * if it can be read at all (to say why the kernel cannot be used). */
static const char *events_root(char *buf, size_t len)
{
	const char *root = pt_tracefs();
	snprintf(buf, len, "%s/events", root ? root : "/sys/kernel/tracing");
	return buf;
}

static bool is_dir(const char *parent, const struct dirent *de)
{
	/* The type readdir gives saves an open per entry (2,000 and more). */
	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	const char *name = de->d_name;
	char p[1400];
	snprintf(p, sizeof(p), "%s/%s", parent, name);
	DIR *d = opendir(p);
	if (d)
		closedir(d);
	return d != NULL;
}

/* A spec for the kernel: SYSTEM:EVENT (globs allowed), not "all" or a bare
 * word, which stay the program's. */
static bool kernel_spec(const char *spec)
{
	if (spec[0] == '!')
		spec++;
	return strchr(spec, ':') && spec[0] != ':';
}

/* Calls fn for every SYSTEM/EVENT of the kernel's events directory that a
 * positive spec selects and no !spec excludes; a non-zero return stops. */
static int for_each_selected(char *const *specs, int n,
			     bool (*exclude)(const char *system, const char *name),
			     int (*fn)(void *ctx, const char *system, const char *name), void *ctx)
{
	char root[600];
	DIR *d = opendir(events_root(root, sizeof(root)));
	if (!d)
		return 0;
	int rc = 0;
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !is_dir(root, de))
			continue;
		const char *sys = de->d_name;
		char sdir[1024];
		snprintf(sdir, sizeof(sdir), "%s/%s", root, sys);
		DIR *e = opendir(sdir);
		if (!e)
			continue;
		struct dirent *ee;
		while (!rc && (ee = readdir(e))) {
			if (ee->d_name[0] == '.' || !is_dir(sdir, ee))
				continue;
			bool sel = false, neg = false;
			for (int i = 0; i < n; i++) {
				const char *s = specs[i];
				if (!kernel_spec(s))
					continue;
				if (s[0] == '!')
					neg = neg || uft_event_spec_matches(s + 1, sys, ee->d_name);
				else
					sel = sel || uft_event_spec_matches(s, sys, ee->d_name);
			}
			if (sel && !neg && !(exclude && exclude(sys, ee->d_name)))
				rc = fn(ctx, sys, ee->d_name);
		}
		closedir(e);
	}
	closedir(d);
	return rc;
}

static int found(void *ctx, const char *system, const char *name)
{
	(void)ctx;
	(void)system;
	(void)name;
	return 1;
}

bool kernel_source_spec_matches(const char *spec,
				bool (*exclude)(const char *system, const char *name))
{
	char *s = (char *)spec;
	return spec[0] != '!' && for_each_selected(&s, 1, exclude, found, NULL) == 1;
}

/* The kernel's clock that reads the same time as uft's clock `name`, or
 * NULL when none does. */
static const char *kernel_clock(const char *name)
{
	int c = name ? uft_clock_by_name(name) : UFT_CLOCK_LOCAL;
	switch (c) {
	case UFT_CLOCK_LOCAL:
	case UFT_CLOCK_GLOBAL:
	case UFT_CLOCK_PERF:
		/* uft's sched_clock reading (design/process-tracer.md, Clock) */
		return pt_clock_tracefs_name();
	case UFT_CLOCK_MONO:
	case UFT_CLOCK_MONO_RAW:
	case UFT_CLOCK_BOOT:
	case UFT_CLOCK_TAI:
		return name; /* the same POSIX clock under the same name */
	default:
		/* counter and uptime are uft's own counts, x86-tsc is in cycles
		 * the kernel's pages would not be converted from */
		return NULL;
	}
}

static int add_event(void *ctx, const char *system, const char *name)
{
	struct kernel_source *k = ctx;
	if (k->nr_ev + 1 >= 65535)
		return -E2BIG;
	if (uft_array_reserve(k->ev, k->cap_ev, k->nr_ev + 1, 16))
		return -ENOMEM;
	struct kev *e = &k->ev[k->nr_ev++];
	snprintf(e->system, sizeof(e->system), "%s", system);
	snprintf(e->name, sizeof(e->name), "%s", name);
	return 0;
}

/* The -f of the specs that select e (or'ed when several do); NULL when one
 * has none. */
static char *filter_of(const struct kev *e, const struct kernel_source_opts *o)
{
	char *f = NULL;
	int n = 0;
	for (int i = 0; i < o->nr_events; i++) {
		const char *s = o->events[i];
		if (s[0] == '!' || !kernel_spec(s) ||
		    !uft_event_spec_matches(s, e->system, e->name))
			continue;
		if (!o->filters[i]) {
			free(f);
			return NULL;
		}
		char *j = NULL;
		int rc = n++ == 0 ? asprintf(&j, "%s", o->filters[i])
			 : n == 2 ? asprintf(&j, "(%s) || (%s)", f, o->filters[i])
				  : asprintf(&j, "%s || (%s)", f, o->filters[i]);
		free(f);
		f = rc < 0 ? NULL : j;
		if (!f)
			return NULL;
	}
	return f;
}

/* The filter written to the kernel, or its message in err. */
static int set_filter(struct kernel_source *k, const struct kev *e, const char *f, char *err,
		      size_t errlen)
{
	char file[256];
	snprintf(file, sizeof(file), "events/%s/%s/filter", e->system, e->name);
	int rc = pt_ki_write(k->dir, file, f, false);
	if (!rc)
		return 0;
	/* after a refusal the kernel's filter file says why */
	char p[800], why[1024] = "";
	snprintf(p, sizeof(p), "%s/%s", k->dir, file);
	if (pt_read_text(p, why, sizeof(why)) <= 0)
		snprintf(why, sizeof(why), "%s\n", strerror(-rc));
	snprintf(err, errlen, "bad filter for %s:%s (the kernel's message):\n%s", e->system,
		 e->name, why);
	size_t n = strlen(err);
	while (n && err[n - 1] == '\n')
		err[--n] = 0;
	return -1;
}

/* The kernel's format text of e with its ID line set to local id `id`. */
static int register_format(struct kernel_source *k, const struct kev *e, uint16_t id)
{
	char p[800], kt[16384], text[16384];
	snprintf(p, sizeof(p), "%s/events/%s/%s/format", k->dir, e->system, e->name);
	int n = pt_read_text(p, kt, sizeof(kt));
	const char *idl = n > 0 ? strstr(kt, "\nID: ") : NULL;
	if (!idl)
		return -1;
	const char *rest = strchr(idl + 1, '\n');
	int m = snprintf(text, sizeof(text), "%.*sID: %u%s", (int)(idl + 1 - kt), kt, id,
			 rest ? rest : "\n");
	if (m < 0 || (size_t)m >= sizeof(text))
		return -1;
	return collect_local_format(&k->l, id, e->system, text, (size_t)m);
}

int kernel_source_new(struct kernel_source **out, const struct kernel_source_opts *o,
		      struct collect *c, char *err, size_t errlen)
{
	*out = NULL;
	struct kernel_source *k = calloc(1, sizeof(*k));
	if (!k)
		goto nomem;
	int rc = for_each_selected(o->events, o->nr_events, o->exclude, add_event, k);
	if (rc < 0) {
		free(k->ev);
		free(k);
		goto nomem;
	}
	if (!k->nr_ev) {
		free(k);
		return 0;
	}
	char why[256];
	const char *clk = kernel_clock(o->clock);
	if (!pt_kernel_usable(why, sizeof(why))) {
		snprintf(err, errlen, "%s:%s is a kernel event, which cannot be recorded here: %s",
			 k->ev[0].system, k->ev[0].name, why);
		goto fail;
	}
	if (!clk) {
		snprintf(err, errlen,
			 "the kernel's events cannot be stamped on uft's %s clock (local, global, "
			 "perf, mono, mono_raw, boot and tai can)",
			 o->clock);
		goto fail;
	}
	if (!(k->map = calloc(65536, sizeof(*k->map))) || collect_local_init(&k->l, c) != 0)
		goto nomem_k;
	if (pt_ki_create(k->dir, sizeof(k->dir), err, errlen) != 0)
		goto fail;
	rc = pt_ki_write(k->dir, "trace_clock", clk, false);
	if (!rc)
		rc = pt_ki_write(k->dir, "options/event-fork", "1", false);
	if (rc) {
		snprintf(err, errlen, "%s: trace_clock %s, event-fork: %s", k->dir, clk,
			 strerror(-rc));
		goto fail;
	}
	/* as the kernel backend: a wake-up per quarter buffer, 4 MiB per CPU */
	pt_ki_write(k->dir, "buffer_percent", "25", false);
	pt_ki_write(k->dir, "buffer_size_kb", "4096", false);
	for (size_t i = 0; i < k->nr_ev; i++) {
		const struct kev *e = &k->ev[i];
		char *f = filter_of(e, o);
		rc = f ? set_filter(k, e, f, err, errlen) : 0;
		free(f);
		if (rc)
			goto fail;
		int kid = pt_ki_event_id(k->dir, e->system, e->name);
		if (kid <= 0 || kid > 0xffff || register_format(k, e, (uint16_t)(i + 1)) != 0) {
			snprintf(err, errlen, "cannot read the kernel's format of %s:%s", e->system,
				 e->name);
			goto fail;
		}
		k->map[kid] = (uint16_t)(i + 1);
	}
	if (pt_kreader_open(&k->rd, k->dir) != 0)
		goto nomem_k;
	/* uft's local clock would be a calibrated TSC, the kernel's mono
	 * (recorder/mono_tsc.h; with another -C the file is in ns of that
	 * clock) */
	int clk_id = o->clock ? uft_clock_by_name(o->clock) : UFT_CLOCK_LOCAL;
	mono_tsc_init(&k->clk, strcmp(pt_clock_tracefs_name(), "mono") == 0 &&
				   (clk_id == UFT_CLOCK_LOCAL || clk_id == UFT_CLOCK_GLOBAL ||
				    clk_id == UFT_CLOCK_PERF));
	*out = k;
	return 1;
nomem_k:
	snprintf(err, errlen, "out of memory");
fail:
	kernel_source_free(k);
	return -1;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

static int enable_all(struct kernel_source *k)
{
	for (size_t i = 0; i < k->nr_ev; i++) {
		char f[256];
		snprintf(f, sizeof(f), "events/%s/%s/enable", k->ev[i].system, k->ev[i].name);
		int rc = pt_ki_write(k->dir, f, "1", false);
		if (rc)
			return rc;
	}
	return 0;
}

static int add_pid(struct kernel_source *k, pid_t pid)
{
	char b[32];
	snprintf(b, sizeof(b), "%d", (int)pid);
	return pt_ki_write(k->dir, "set_event_pid", b, true);
}

int kernel_source_follow(struct kernel_source *k, pid_t pid, bool threads)
{
	int rc = pid ? add_pid(k, pid) : pt_ki_exclude_self(k->dir);
	if (rc)
		return rc;
	if (threads && pid) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		DIR *d = opendir(path);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);
			if (tid > 0 && tid != pid)
				add_pid(k, tid); /* event-fork adds those made later */
		}
		if (d)
			closedir(d);
	}
	/* set_event_pid first: an empty list lets every process's events in */
	if (!k->enabled) {
		rc = enable_all(k);
		k->enabled = !rc;
	}
	return rc;
}

/* A comm for the file's cmdlines of a pid the kernel's events name (a
 * sched_switch lets in the task switched from when the next is followed):
 * what /proc says now, once per pid, unless a process registered it. */
static void note_comm(struct kernel_source *k, int pid)
{
	if (pid <= 0)
		return;
	for (size_t i = 0; i < k->nr_seen; i++)
		if (k->seen[i] == pid)
			return;
	if (uft_array_reserve(k->seen, k->cap_seen, k->nr_seen + 1, 64))
		return;
	k->seen[k->nr_seen++] = pid;
	const struct collect *c = k->l.c;
	for (size_t i = 0; i < c->nr_comms; i++)
		if (c->comms[i].pid == pid)
			return;
	char p[64], comm[32];
	snprintf(p, sizeof(p), "/proc/%d/comm", pid);
	if (pt_read_text(p, comm, sizeof(comm)) <= 0)
		return;
	comm[strcspn(comm, "\n")] = 0;
	collect_local_comm(&k->l, pid, comm);
}

static void put(void *ctx, uint32_t cpu, uint64_t ts, uint8_t *rec, uint32_t len)
{
	struct kernel_source *k = ctx;
	int32_t pid;
	memcpy(&pid, rec + 4, 4);
	note_comm(k, pid);
	collect_local_put(&k->l, cpu, mono_tsc_ns(&k->clk, k->l.c, ts), rec, len);
}

void kernel_source_drain(struct kernel_source *k, bool final)
{
	if (!k)
		return;
	mono_tsc_sample(&k->clk);
	pt_kreader_drain(&k->rd, k->map, &k->merge);
	if (final)
		pt_kreader_stats(&k->rd);
	/* what the kernel lost before it was read: overruns of the CPU */
	struct collect *c = k->l.c;
	for (int cpu = 0; cpu < k->rd.ncpu; cpu++) {
		uint64_t n = pt_kreader_take_lost(&k->rd, cpu);
		if (n)
			collect_local_overrun(&k->l, (uint32_t)cpu, n);
	}
	/* The records wait for the first ring read: it fixes the file's units
	 * (a kernel record first would fix them to ns) and, with the TSC mapped,
	 * the conversion the kernel's times are put on. */
	bool ready = k->clk.on ? mono_tsc_ready(&k->clk, c) : c->file_clock != COLLECT_CLOCK_UNSET;
	if (final || ready)
		pt_kmerge_flush(&k->merge, final, put, k);
}

uint64_t kernel_source_kept(const struct kernel_source *k)
{
	return k ? k->l.stored : 0;
}

void kernel_source_free(struct kernel_source *k)
{
	if (!k)
		return;
	pt_kreader_close(&k->rd);
	pt_ki_remove(k->dir);
	if (k->l.c) {
		collect_local_close(&k->l);
		collect_local_free(&k->l);
	}
	pt_kmerge_free(&k->merge);
	free(k->map);
	free(k->ev);
	free(k->seen);
	mono_tsc_free(&k->clk);
	free(k);
}
