/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* events/SYSTEM/EVENT/trigger (Documentation/trace/events.rst, "Event triggers") and the
 * snapshots that snapshot triggers ask for.
 *
 * Each write is one command: add, or remove with a leading '!'. The
 * triggers live in the registry per buffer and run in the traced thread
 * (trigger_run.c); hist commands go to tfs_hist.c. Opening with O_TRUNC
 * removes the event's hist triggers only, as the kernel does; otherwise
 * `>` and `>>` both add.
 *
 * A snapshot trigger (or a hist snapshot() action) cannot copy a buffer where it fires (maybe
 * inside a signal handler), so it leaves the time it fired at and a byte in a pipe. A thread of the
 * tree, started with the first snapshot trigger, wakes on the byte and moves the buffer's records
 * up to that time into the snapshot; every tree call does the same first, so a read of `snapshot`,
 * `trace` or `trace_pipe` never sees the buffer before the request is
 * served. Records after the time stay in the buffer. The dump and cpudump
 * function commands ask the same way for the buffer to be printed on
 * stderr. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/filter/filter.h"
#include "engine/trigger/trigger.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stack_event.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/core/trigger_run.h"
#include "util/atomics.h"

/* The kernel refuses a trigger write of a page or more. */
#define TRIGGER_MAX 4096

static int wake_pipe[2] = {-1, -1};
static bool thread_wanted; /* a snapshot trigger was installed */
static bool thread_running;

static void *snapshot_thread(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char buf[64];
	uft_tracefs_thread_notrace();
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n == 0 || (n < 0 && errno != EINTR))
			return NULL;
		pthread_mutex_lock(&tfs_lock);
		tfs_triggers_service();
		tfs_unlock();
	}
}

void tfs_triggers_start_thread(void)
{
	thread_wanted = true;
	if (thread_running)
		return;
	if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_CLOEXEC) != 0)
		return;
	fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* it starts with every signal blocked */
	pthread_t t;
	int rc =
	    uft_thread_create_internal(&t, &attr, snapshot_thread, (void *)(intptr_t)wake_pipe[0]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc == 0) {
		thread_running = true;
		uft_store_seq_cst(&uft_trig_wake_fd, wake_pipe[1]);
	}
}

void tfs_triggers_service(void)
{
	if (thread_wanted && !thread_running)
		tfs_triggers_start_thread(); /* in a forked child */
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
		if (!READ_ONCE(uft_trig_snap_cut[b]))
			continue;
		uint64_t cut = uft_xchg(&uft_trig_snap_cut[b], 0);
		if (cut && tfs_insts[b])
			tfs_snapshot_until(tfs_insts[b], cut);
	}
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
		if (!READ_ONCE(uft_trig_dump_cut[b]))
			continue;
		uint64_t cut = uft_xchg(&uft_trig_dump_cut[b], 0);
		int cpu = READ_ONCE(uft_trig_dump_cpu[b]);
		if (cut && tfs_insts[b])
			tfs_dump_until(tfs_insts[b], cut, cpu, stderr);
		uft_store_seq_cst(&uft_trig_dump_busy[b], 0);
	}
}

/* ThreadSanitizer kills a child that starts a thread after a multi-threaded
 * fork: under it, requests wait for the child's next tree call. */
extern void __tsan_init(void) __attribute__((weak));

/* The child has no thread and must not share the parent's pipe or its
 * pending requests: it starts a thread of its own (a dump asked for by a
 * child that exits before any tree call is still printed). The tree's lock
 * is held. */
void tfs_triggers_after_fork(void)
{
	uft_store_seq_cst(&uft_trig_wake_fd, -1);
	for (int i = 0; i < 2; i++) {
		if (wake_pipe[i] >= 0)
			close(wake_pipe[i]);
		wake_pipe[i] = -1;
	}
	thread_running = false;
	for (uint32_t b = 0; b < UFT_MAX_BUFFERS; b++) {
		uft_store_seq_cst(&uft_trig_snap_cut[b], 0);
		uft_store_seq_cst(&uft_trig_dump_cut[b], 0);
		uft_store_seq_cst(&uft_trig_dump_busy[b], 0);
	}
	if (thread_wanted && !__tsan_init)
		tfs_triggers_start_thread();
}

static int show_trigger(const struct tfs_node *n, FILE *out)
{
	char *text = uft_registry_trigger_text(n->inst->buffer, n->sys, n->ev);
	if (text)
		fputs(text, out);
	else
		uft_trigger_print_help(out);
	free(text);
	return 0;
}

static int write_trigger(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	struct tfs_inst *in = n->inst;
	/* A write of no bytes is accepted and does nothing, as the kernel's
	 * (a newline alone is a command with no name: EINVAL). */
	if (len == 0)
		return 0;
	if (len >= TRIGGER_MAX)
		return -EINVAL;
	struct uft_trig_spec sp;
	int rc = uft_trigger_parse(buf, &sp);
	if (rc)
		return rc;
	if (sp.cmd == UFT_TRIG_HIST) {
		rc = tfs_hist_write(n, &sp);
		uft_trigger_spec_free(&sp);
		return rc;
	}
	if (sp.remove) {
		rc = uft_registry_trigger_remove(in->buffer, n->sys, n->ev, &sp);
		uft_trigger_spec_free(&sp);
		return rc;
	}
	if (sp.cmd == UFT_TRIG_STACKTRACE)
		uft_stack_prepare();
	if (sp.cmd == UFT_TRIG_SNAPSHOT && tfs_snapshot_alloc(in) != 0) {
		uft_trigger_spec_free(&sp);
		return -ENOMEM;
	}
	struct uft_filter_error fe = {0, 0};
	bool filter_failed;
	rc = uft_registry_trigger_add(in->buffer, n->sys, n->ev, &sp, &fe, &filter_failed);
	if (filter_failed)
		tfs_log_error(in, UFT_FILTER_ERR_LOC, sp.filter, uft_filter_strerror(fe.code),
			      fe.code > 0 && fe.pos > 0 ? (unsigned)fe.pos : 0);
	if (rc == 0 && sp.cmd == UFT_TRIG_SNAPSHOT)
		tfs_triggers_start_thread();
	uft_trigger_spec_free(&sp);
	return rc;
}

static int open_trigger(struct uft_tfs_handle *h)
{
	if ((h->flags & UFT_TFS_WRITE) && (h->flags & UFT_TFS_TRUNC))
		return uft_registry_hist_remove_all(h->n.inst->buffer, h->n.sys, h->n.ev);
	return 0;
}

const struct tfs_file tfs_trigger_files[] = {
    {.name = "trigger",
     .dir = TFS_D_EVENT,
     .mode = 0644,
     .where = TFS_NOT_FTRACE | TFS_FTRACE_PRINT,
     .show = show_trigger,
     .write = write_trigger,
     .open = open_trigger},
    {0},
};
