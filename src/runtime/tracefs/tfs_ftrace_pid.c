/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The function tracers' thread lists and graph depth: set_ftrace_pid,
 * set_ftrace_notrace_pid (with function-fork following children and
 * threads) and max_graph_depth. A list is replaced whole; the one it
 * replaces is freed once no hook can still be reading it (grace.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/grace.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/tracefs/tfs.h"
#include "util/atomics.h"
#include "util/util.h"

#define PID_LIMIT 4194304ul

/* The lists of a file: set_ftrace_pid's, or set_ftrace_notrace_pid's. */
static struct uft_ftrace_pids **pid_lists(const struct tfs_node *n)
{
	return strcmp(n->file->name, "set_ftrace_notrace_pid") == 0 ? uft_ftrace_no_pids
								    : uft_ftrace_pids;
}

static int show_ftrace_pid(const struct tfs_node *n, FILE *out)
{
	const struct uft_ftrace_pids *p = pid_lists(n)[n->inst->buffer];
	if (!p) {
		fputs("no pid\n", out);
		return 0;
	}
	for (uint32_t i = 0; i < p->nr; i++)
		fprintf(out, "%d\n", p->tid[i]);
	return 0;
}

/* nr 0: no list (every thread), unless keep_empty: a list of none. */
static int set_list(struct uft_ftrace_pids **lists, uint32_t b, const int32_t *tids, uint32_t nr,
		    bool keep_empty)
{
	struct uft_ftrace_pids *p = NULL;
	if (nr || keep_empty) {
		p = malloc(sizeof(*p) + nr * sizeof(p->tid[0]));
		if (!p)
			return -ENOMEM;
		p->nr = nr;
		memcpy(p->tid, tids, nr * sizeof(*tids));
	}
	struct uft_ftrace_pids *old = lists[b];
	smp_store_release(&lists[b], p);
	/* The hooks read a buffer's lists only while its bit is set: set
	 * after a list is published, cleared once neither is. */
	uint32_t bit = 1u << b;
	if (p)
		uft_or_relaxed(&uft_ftrace_pid_bufs, bit);
	else if (!uft_ftrace_pids[b] && !uft_ftrace_no_pids[b])
		uft_and_relaxed(&uft_ftrace_pid_bufs, ~bit);
	uft_grace_defer(old, free); /* freed after a grace period (tfs_unlock) */
	return 0;
}

static int set_pid_list(struct uft_ftrace_pids **lists, uint32_t b, const int32_t *tids,
			uint32_t nr)
{
	return set_list(lists, b, tids, nr, false);
}

static int open_ftrace_pid(struct uft_tfs_handle *h)
{
	if ((h->flags & UFT_TFS_WRITE) && (h->flags & UFT_TFS_TRUNC) &&
	    !(h->flags & UFT_TFS_APPEND))
		return set_pid_list(pid_lists(&h->n), h->n.inst->buffer, NULL, 0);
	return 0;
}

/* Adds tids to a list (sorted, no duplicates); 0 or -ENOMEM. */
static int add_pids(struct uft_ftrace_pids **lists, uint32_t b, const int32_t *add, uint32_t n)
{
	const struct uft_ftrace_pids *old = lists[b];
	uint32_t nr = old ? old->nr : 0;
	int32_t *tids = malloc((nr + n + 1) * sizeof(*tids));
	if (!tids)
		return -ENOMEM;
	if (nr)
		memcpy(tids, old->tid, nr * sizeof(*tids));
	for (uint32_t k = 0; k < n; k++) { /* kept sorted, as the kernel shows them */
		uint32_t at = 0;
		while (at < nr && tids[at] < add[k])
			at++;
		if (at < nr && tids[at] == add[k])
			continue;
		memmove(tids + at + 1, tids + at, (nr - at) * sizeof(*tids));
		tids[at] = add[k];
		nr++;
	}
	int rc = set_pid_list(lists, b, tids, nr);
	free(tids);
	return rc;
}

static int write_ftrace_pid(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	struct uft_ftrace_pids **lists = pid_lists(n);
	uint32_t b = n->inst->buffer, nr = 0, cap = 0;
	int32_t *tids = NULL;
	char *save = NULL;
	for (char *t = strtok_r(buf, " \t\n\r\f\v", &save); t;
	     t = strtok_r(NULL, " \t\n\r\f\v", &save)) {
		unsigned long v;
		if (tfs_parse_ulong(t, &v) || v >= PID_LIMIT) {
			free(tids);
			return -EINVAL;
		}
		if (uft_array_reserve(tids, cap, nr + 1, 16)) {
			free(tids);
			return -ENOMEM;
		}
		tids[nr++] = (int32_t)v;
	}
	/* A write without a pid clears the list. */
	int rc = nr ? add_pids(lists, b, tids, nr) : set_pid_list(lists, b, NULL, 0);
	free(tids);
	return rc;
}

/* function-fork: a child process whose parent is in a buffer's
 * set_ftrace_pid or set_ftrace_notrace_pid joins that list. */
void tfs_ftrace_follow(const struct tfs_inst *in, int32_t parent, int32_t child)
{
	struct uft_ftrace_pids **all[] = {uft_ftrace_pids, uft_ftrace_no_pids};
	for (int k = 0; k < 2; k++) {
		const struct uft_ftrace_pids *p = all[k][in->buffer];
		bool in_list = false;
		for (uint32_t i = 0; p && i < p->nr && !in_list; i++)
			in_list = p->tid[i] == parent;
		if (in_list)
			add_pids(all[k], in->buffer, &child, 1);
	}
}

/* When the last thread leaves set_ftrace_pid the list stays, empty: no
 * thread is traced then, as in the kernel, rather than every thread. */
void tfs_ftrace_forget(const struct tfs_inst *in, int32_t tid)
{
	struct uft_ftrace_pids **all[] = {uft_ftrace_pids, uft_ftrace_no_pids};
	for (int k = 0; k < 2; k++) {
		const struct uft_ftrace_pids *p = all[k][in->buffer];
		uint32_t at = 0;
		while (p && at < p->nr && p->tid[at] != tid)
			at++;
		if (!p || at == p->nr)
			continue;
		int32_t *tids = malloc(p->nr * sizeof(*tids));
		if (!tids)
			continue;
		uint32_t nr = 0;
		for (uint32_t i = 0; i < p->nr; i++)
			if (i != at)
				tids[nr++] = p->tid[i];
		set_list(all[k], in->buffer, tids, nr, k == 0);
		free(tids);
	}
}

/* ---- max_graph_depth ---- */

static int show_max_depth(const struct tfs_node *n, FILE *out)
{
	fprintf(out, "%u\n", READ_ONCE(uft_ftrace_max_depth));
	return 0;
}

static int write_max_depth(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	unsigned long v;
	tfs_strip(buf, len);
	if (tfs_parse_ulong(buf, &v) || v > UINT32_MAX)
		return -EINVAL;
	WRITE_ONCE(uft_ftrace_max_depth, (uint32_t)v);
	return 0;
}

/* An instance goes: its lists go with it. */
void tfs_ftrace_pids_reset(uint32_t b)
{
	set_pid_list(uft_ftrace_pids, b, NULL, 0);
	set_pid_list(uft_ftrace_no_pids, b, NULL, 0);
}

const struct tfs_file tfs_ftrace_pid_files[] = {
    {.name = "set_ftrace_pid",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_ftrace_pid,
     .write = write_ftrace_pid,
     .open = open_ftrace_pid},
    {.name = "set_ftrace_notrace_pid",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_ftrace_pid,
     .write = write_ftrace_pid,
     .open = open_ftrace_pid},
    {.name = "max_graph_depth",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .where = TFS_TOP_ONLY,
     .show = show_max_depth,
     .write = write_max_depth},
    {0},
};
