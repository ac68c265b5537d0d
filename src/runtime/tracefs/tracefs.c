/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracefs tree: path resolution, handles, directories and instances.
 * The files themselves live in tfs_*.c tables; this file finds them, checks
 * what an open may do and runs their handlers under one lock. */
#define _GNU_SOURCE
#include "runtime/tracefs/tracefs.h"

#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime/ftrace/ftrace.h"
#include "runtime/ftrace/eprobe.h"
#include "runtime/ftrace/ftrace_probe.h"
#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tfs_marker.h"
#include "runtime/core/stack_event.h"
#include "runtime/latency/osn_tracer.h"
#include "runtime/latency/wakeup.h"
#include "util/atomics.h"
#include "util/util.h"

pthread_mutex_t tfs_lock = PTHREAD_MUTEX_INITIALIZER;
struct tfs_inst *tfs_insts[UFT_MAX_BUFFERS];
static struct tfs_inst top_inst;
static pthread_once_t tfs_once = PTHREAD_ONCE_INIT;

static const struct tfs_file *const file_tables[] = {
    tfs_core_files,   tfs_event_files,	    tfs_trace_files,   tfs_option_files,
    tfs_marker_files, tfs_trigger_files,    tfs_hist_files,    tfs_synth_files,
    tfs_ftrace_files, tfs_ftrace_pid_files, tfs_cpumask_files, tfs_fprofile_files,
    tfs_fstack_files, tfs_probe_files,	    tfs_user_files,    tfs_osnoise_files};

/* Threads joining and leaving the pid lists (thread_follow.c). A new thread
 * never waits for the tree: its creator waits for it and may hold the
 * loader's lock (a library constructor), which a tree call can need while it
 * holds the tree's. So a join or leave that finds the tree busy is queued,
 * and whoever holds the tree applies the queue before letting go
 * (tfs_unlock). */
struct follow_op {
	struct follow_op *next;
	pid_t parent, tid; /* parent 0: tid leaves */
	/* A join's new thread waits for it to be applied, so that its first
	 * events are seen listed: FOLLOW_QUEUED, then whoever of the applier
	 * and the waiter comes second frees the op. */
	uint32_t state;
};
enum { FOLLOW_QUEUED, FOLLOW_APPLIED, FOLLOW_ABANDONED, FOLLOW_NO_WAITER };
static struct follow_op *follow_ops;

static void follow_apply(pid_t parent, pid_t tid)
{
	for (int i = 0; i < UFT_MAX_BUFFERS; i++) {
		struct tfs_inst *in = tfs_insts[i];
		if (!in)
			continue;
		if (tfs_opt(in, "event-fork")) {
			if (parent)
				tfs_events_follow(in, parent, tid);
			else
				tfs_events_forget(in, tid);
		}
		if (tfs_opt(in, "function-fork")) {
			if (parent)
				tfs_ftrace_follow(in, parent, tid);
			else
				tfs_ftrace_forget(in, tid);
		}
	}
}

static pid_t forking_tid; /* the thread that called fork, for event-fork */

static void fork_prepare(void)
{
	pthread_mutex_lock(&tfs_lock);
	forking_tid = gettid();
}

static void fork_parent(void)
{
	tfs_unlock();
}

/* The child has its own region and rings: readers' positions in the parent's
 * mean nothing there. With event-fork (function-fork), the child of a parent
 * in set_event_pid or set_event_notrace_pid (set_ftrace_pid,
 * set_ftrace_notrace_pid) joins that list. */
static void fork_child(void)
{
	pid_t self = getpid(), parent = forking_tid;
	/* Queued joins and leaves are of the parent's threads. */
	for (struct follow_op *l = uft_xchg(&follow_ops, NULL), *n; l; l = n) {
		n = l->next;
		free(l);
	}
	tfs_triggers_after_fork();
	for (int i = 0; i < UFT_MAX_BUFFERS; i++)
		if (tfs_insts[i])
			tfs_trace_after_fork(tfs_insts[i]->buffer);
	follow_apply(parent, self);
	pthread_mutex_unlock(&tfs_lock);
}

/* The queue, oldest first (tfs_lock held). */
static void follow_fold(void)
{
	struct follow_op *l = uft_xchg(&follow_ops, NULL), *old = NULL;
	while (l) {
		struct follow_op *n = l->next;
		l->next = old;
		old = l;
		l = n;
	}
	while (old) {
		struct follow_op *n = old->next;
		follow_apply(old->parent, old->tid);
		uint32_t st = uft_xchg(&old->state, FOLLOW_APPLIED);
		if (st == FOLLOW_QUEUED)
			syscall(SYS_futex, &old->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		else
			free(old); /* no waiter, or it gave up */
		old = n;
	}
}

void tfs_unlock(void)
{
	follow_fold();
	pthread_mutex_unlock(&tfs_lock);
	/* What the operation replaced is unpublished now (grace.h). */
	uft_grace_reclaim(false);
}

static void follow(pid_t parent, pid_t tid)
{
	if (pthread_mutex_trylock(&tfs_lock) == 0) {
		follow_fold();
		follow_apply(parent, tid);
		tfs_unlock();
		return;
	}
	struct follow_op *op = malloc(sizeof(*op));
	if (!op)
		return;
	*op = (struct follow_op){NULL, parent, tid, parent ? FOLLOW_QUEUED : FOLLOW_NO_WAITER};
	struct follow_op *head = uft_load_seq_cst(&follow_ops);
	do
		op->next = head;
	while (!uft_try_cmpxchg(&follow_ops, &head, op));
	if (!parent) {
		/* The holder may have let go before the push: then apply it here. */
		if (pthread_mutex_trylock(&tfs_lock) == 0)
			tfs_unlock();
		return;
	}
	/* A join: the new thread runs no code of its program before it is
	 * listed, unless the tree stays busy a whole second (its holder waiting
	 * for the loader's lock that this thread's creator holds). */
	for (int ms = 0; ms < 1000; ms++) {
		if (pthread_mutex_trylock(&tfs_lock) == 0)
			tfs_unlock();
		if (uft_load_seq_cst(&op->state) == FOLLOW_APPLIED)
			break;
		struct timespec ts = {0, 1000000};
		syscall(SYS_futex, &op->state, FUTEX_WAIT_PRIVATE, FOLLOW_QUEUED, &ts, NULL, 0);
	}
	if (uft_xchg(&op->state, FOLLOW_ABANDONED) == FOLLOW_APPLIED)
		free(op);
}

void uft_tracefs_thread_created(pid_t parent, pid_t self)
{
	follow(parent, self);
}

void uft_tracefs_thread_exits(pid_t self)
{
	follow(0, self);
}

static void tfs_setup(void)
{
	uft_init();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	top_inst.opts = tfs_option_defaults();
	tfs_marker_init();
	uft_stack_event_init();
	uft_ftrace_events_init();
	uft_wakeup_events_init();
	uft_osn_events_init();
	tfs_insts[0] = &top_inst;
}

static void tfs_enter(void)
{
	pthread_once(&tfs_once, tfs_setup);
	pthread_mutex_lock(&tfs_lock);
	tfs_triggers_service();
}

/* Returns what patching the probes' code gave: 0, or -errno when the
 * threads could not be stopped (nothing patched, tried again at the next
 * operation). */
static int tfs_leave(void)
{
	/* Probes whose event an operation enabled or disabled get their sleds
	 * patched or restored. */
	/* Eprobes' triggers follow their events' enables first: one on a
	 * probe puts that probe in soft mode, which its sled must follow. */
	uft_eprobe_sync();
	int rc = uft_dprobe_sync();
	tfs_unlock();
	return rc;
}

int tfs_nr_cpus(void)
{
	static int n;
	if (!n) {
		long c = sysconf(_SC_NPROCESSORS_CONF);
		n = c > 0 ? (int)c : 1;
	}
	return n;
}

size_t tfs_strip(char *s, size_t len)
{
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = 0;
	return len;
}

int tfs_parse_ulong(const char *s, unsigned long *out)
{
	char *end;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

void uft_tracefs_thread_notrace(void)
{
	uft_writer_set_notrace();
}

/* ---- paths ---- */

/* Whether file f appears in the directory n names. */
static bool file_here(const struct tfs_file *f, const struct tfs_node *n)
{
	if (f->dir != n->dir || f->name[0] == '*')
		return false;
	if ((f->where & TFS_TOP_ONLY) && n->inst != tfs_insts[0])
		return false;
	if ((f->where & TFS_NOT_FTRACE) && strcmp(n->sys, "ftrace") == 0 &&
	    !((f->where & TFS_FTRACE_PRINT) && strcmp(n->ev, "print") == 0))
		return false;
	return true;
}

static const struct tfs_file *find_file(const struct tfs_node *n, const char *name)
{
	for (size_t t = 0; t < ARRAY_SIZE(file_tables); t++)
		for (const struct tfs_file *f = file_tables[t]; f->name; f++)
			if (strcmp(f->name, name) == 0 && file_here(f, n))
				return f;
	return NULL;
}

/* The handler of every options/NAME file (of every trace_stat/functionN). */
static const struct tfs_file *star_file(int dir)
{
	for (size_t t = 0; t < ARRAY_SIZE(file_tables); t++)
		for (const struct tfs_file *f = file_tables[t]; f->name; f++)
			if (f->dir == dir && f->name[0] == '*')
				return f;
	return NULL;
}

static struct tfs_inst *find_inst(const char *name)
{
	for (int i = 1; i < UFT_MAX_BUFFERS; i++)
		if (tfs_insts[i] && strcmp(tfs_insts[i]->name, name) == 0)
			return tfs_insts[i];
	return NULL;
}

struct sys_probe {
	const char *sys, *ev;
	bool found;
};

static int probe_event(void *ctx, const struct uft_reg_view *v)
{
	struct sys_probe *p = ctx;
	if (strcmp(v->system, p->sys) == 0 && (!p->ev || strcmp(v->name, p->ev) == 0)) {
		p->found = true;
		return 1;
	}
	return 0;
}

static bool event_exists(const char *sys, const char *ev)
{
	struct sys_probe p = {sys, ev, false};
	uft_registry_visit(probe_event, &p);
	return p.found;
}

static int copy_name(char *dst, const char *src)
{
	size_t n = strlen(src);
	if (n >= TFS_NAME_MAX)
		return -ENOENT;
	memcpy(dst, src, n + 1);
	return 0;
}

/* Resolves a path to a directory or a file. Called with tfs_lock held. */
static int resolve(const char *path, struct tfs_node *n)
{
	char buf[512];
	size_t len = strlen(path);
	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	memset(n, 0, sizeof(*n));
	n->inst = tfs_insts[0];
	n->dir = TFS_D_ROOT;
	char *save = NULL;
	for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (n->file)
			return -ENOTDIR;
		bool top = n->inst == tfs_insts[0];
		const struct tfs_file *f = find_file(n, c);
		if (f) {
			n->file = f;
			continue;
		}
		switch (n->dir) {
		case TFS_D_ROOT:
			if (strcmp(c, "events") == 0)
				n->dir = TFS_D_EVENTS;
			else if (strcmp(c, "options") == 0)
				n->dir = TFS_D_OPTIONS;
			else if (strcmp(c, "per_cpu") == 0)
				n->dir = TFS_D_PER_CPU;
			else if (top && strcmp(c, "instances") == 0)
				n->dir = TFS_D_INSTANCES;
			else if (top && strcmp(c, "trace_stat") == 0)
				n->dir = TFS_D_TRACE_STAT;
			else if (top && strcmp(c, "osnoise") == 0)
				n->dir = TFS_D_OSNOISE;
			else
				return -ENOENT;
			break;
		case TFS_D_INSTANCES: {
			struct tfs_inst *in = find_inst(c);
			if (!in)
				return -ENOENT;
			n->inst = in;
			n->dir = TFS_D_ROOT;
			break;
		}
		case TFS_D_EVENTS:
			if (copy_name(n->sys, c) || !event_exists(c, NULL))
				return -ENOENT;
			n->dir = TFS_D_SYS;
			break;
		case TFS_D_SYS:
			if (copy_name(n->ev, c) || !event_exists(n->sys, c))
				return -ENOENT;
			n->dir = TFS_D_EVENT;
			break;
		case TFS_D_OPTIONS: {
			int i = tfs_option_find(c);
			if (i < 0)
				return -ENOENT;
			n->opt = i;
			n->file = star_file(TFS_D_OPTIONS);
			break;
		}
		case TFS_D_OSNOISE:
			if (strcmp(c, "per_cpu") != 0)
				return -ENOENT;
			n->dir = TFS_D_OSN_CPUS;
			break;
		case TFS_D_OSN_CPUS:
		case TFS_D_PER_CPU: {
			char *end;
			if (strncmp(c, "cpu", 3) != 0 || c[3] < '0' || c[3] > '9')
				return -ENOENT;
			long cpu = strtol(c + 3, &end, 10);
			if (*end || cpu >= tfs_nr_cpus())
				return -ENOENT;
			n->cpu = (int)cpu;
			n->dir = n->dir == TFS_D_PER_CPU ? TFS_D_CPU : TFS_D_OSN_CPU;
			break;
		}
		case TFS_D_TRACE_STAT: {
			char *end;
			if (strncmp(c, "function", 8) != 0 || c[8] < '0' || c[8] > '9')
				return -ENOENT;
			long cpu = strtol(c + 8, &end, 10);
			if (*end || cpu >= tfs_nr_cpus())
				return -ENOENT;
			n->cpu = (int)cpu;
			n->file = star_file(TFS_D_TRACE_STAT);
			break;
		}
		default:
			return -ENOENT;
		}
	}
	return 0;
}

int uft_tracefs_stat(const char *path, struct uft_tfs_stat *st)
{
	struct tfs_node n;
	tfs_enter();
	int rc = resolve(path, &n);
	tfs_leave();
	if (rc)
		return rc;
	if (n.file) {
		st->type = UFT_TFS_FILE;
		st->mode = n.file->mode;
	} else {
		st->type = UFT_TFS_DIR;
		st->mode = 0750;
	}
	return 0;
}

/* ---- directories ---- */

struct list_ctx {
	char (*names)[TFS_NAME_MAX];
	int *types;
	size_t n, cap;
	const char *sys; /* events/SYSTEM/: list its events; NULL: list systems */
};

static void list_add(struct list_ctx *l, const char *name, int type)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->names[i], name) == 0)
			return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		void *a = realloc(l->names, cap * sizeof(*l->names));
		if (!a)
			return;
		l->names = a;
		void *b = realloc(l->types, cap * sizeof(*l->types));
		if (!b)
			return;
		l->types = b;
		l->cap = cap;
	}
	snprintf(l->names[l->n], TFS_NAME_MAX, "%s", name);
	l->types[l->n++] = type;
}

static int list_event(void *ctx, const struct uft_reg_view *v)
{
	struct list_ctx *l = ctx;
	if (!l->sys)
		list_add(l, v->system, UFT_TFS_DIR);
	else if (strcmp(l->sys, v->system) == 0)
		list_add(l, v->name, UFT_TFS_DIR);
	return 0;
}

int uft_tracefs_readdir(const char *path, uft_tfs_dirent_fn fn, void *ctx)
{
	struct tfs_node n;
	struct list_ctx l = {0};
	tfs_enter();
	int rc = resolve(path, &n);
	if (rc == 0 && n.file)
		rc = -ENOTDIR;
	if (rc) {
		tfs_leave();
		return rc;
	}
	bool top = n.inst == tfs_insts[0];
	for (size_t t = 0; t < ARRAY_SIZE(file_tables); t++)
		for (const struct tfs_file *f = file_tables[t]; f->name; f++)
			if (file_here(f, &n))
				list_add(&l, f->name, UFT_TFS_FILE);
	switch (n.dir) {
	case TFS_D_ROOT:
		list_add(&l, "events", UFT_TFS_DIR);
		list_add(&l, "options", UFT_TFS_DIR);
		list_add(&l, "per_cpu", UFT_TFS_DIR);
		if (top)
			list_add(&l, "instances", UFT_TFS_DIR);
		if (top)
			list_add(&l, "trace_stat", UFT_TFS_DIR);
		if (top)
			list_add(&l, "osnoise", UFT_TFS_DIR);
		break;
	case TFS_D_INSTANCES:
		for (int i = 1; i < UFT_MAX_BUFFERS; i++)
			if (tfs_insts[i])
				list_add(&l, tfs_insts[i]->name, UFT_TFS_DIR);
		break;
	case TFS_D_EVENTS:
		uft_registry_visit(list_event, &l);
		break;
	case TFS_D_SYS:
		l.sys = n.sys;
		uft_registry_visit(list_event, &l);
		break;
	case TFS_D_OPTIONS:
		for (int i = 0; i < tfs_option_count(); i++)
			list_add(&l, tfs_option_name(i), UFT_TFS_FILE);
		break;
	case TFS_D_OSNOISE:
		list_add(&l, "per_cpu", UFT_TFS_DIR);
		break;
	case TFS_D_OSN_CPUS:
	case TFS_D_PER_CPU:
		for (int c = 0; c < tfs_nr_cpus(); c++) {
			char name[16];
			snprintf(name, sizeof(name), "cpu%d", c);
			list_add(&l, name, UFT_TFS_DIR);
		}
		break;
	case TFS_D_TRACE_STAT:
		for (int c = 0; c < tfs_nr_cpus(); c++) {
			char name[24];
			snprintf(name, sizeof(name), "function%d", c);
			list_add(&l, name, UFT_TFS_FILE);
		}
		break;
	}
	tfs_leave();
	for (size_t i = 0; i < l.n; i++)
		if (fn(ctx, l.names[i], l.types[i]))
			break;
	free(l.names);
	free(l.types);
	return 0;
}

/* ---- files ---- */

int tfs_render(const struct tfs_node *n, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	FILE *m = open_memstream(text, len);
	if (!m)
		return -ENOMEM;
	int rc = n->file->show(n, m);
	if (fclose(m) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return rc;
}

int uft_tracefs_open(const char *path, unsigned flags, struct uft_tfs_handle **out)
{
	struct uft_tfs_handle *h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	tfs_enter();
	int rc = resolve(path, &h->n);
	if (rc == 0 && !h->n.file)
		rc = -EISDIR;
	const struct tfs_file *f = rc == 0 ? h->n.file : NULL;
	if (f) {
		/* Permission bits as tracefs has them: root may still write what
		 * has a write handler, nobody writes what has none. */
		if ((flags & UFT_TFS_WRITE) && !f->write && !(flags & UFT_TFS_TRUNC && f->open))
			rc = -EACCES;
		else if ((flags & UFT_TFS_READ) && !f->show && !f->read)
			rc = -EACCES;
	}
	if (rc == 0) {
		h->flags = flags;
		if (f->open)
			rc = f->open(h);
	}
	if (rc == 0 && (flags & UFT_TFS_READ) && f->show)
		rc = tfs_render(&h->n, &h->data, &h->len);
	if (rc == 0)
		h->n.inst->busy++;
	tfs_leave();
	if (rc) {
		if (f && f->release && h->priv)
			f->release(h);
		free(h->data);
		free(h);
		return rc;
	}
	*out = h;
	return 0;
}

ssize_t uft_tracefs_read(struct uft_tfs_handle *h, char *buf, size_t len, uint64_t off)
{
	if (!(h->flags & UFT_TFS_READ))
		return -EBADF;
	if (h->n.file->read)
		return h->n.file->read(h, buf, len);
	if (h->n.file->read_at)
		return h->n.file->read_at(h, buf, len, off);
	if (off >= h->len)
		return 0;
	size_t n = h->len - (size_t)off < len ? h->len - (size_t)off : len;
	memcpy(buf, h->data + off, n);
	return (ssize_t)n;
}

ssize_t uft_tracefs_write(struct uft_tfs_handle *h, const char *buf, size_t len, uint64_t off)
{
	(void)off;
	if (!(h->flags & UFT_TFS_WRITE))
		return -EBADF;
	const struct tfs_file *f = h->n.file;
	if (!f->write)
		return -EINVAL;
	char *copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	copy[len] = 0;
	tfs_enter();
	int rc = f->write(&h->n, copy, len, h->flags);
	/* A probe the write enabled whose code could not be patched: the
	 * write says so (EBUSY) rather than leave the probe silently off. */
	int patched = tfs_leave();
	if (rc >= 0 && patched < 0)
		rc = patched;
	free(copy);
	return rc < 0 ? rc : rc > 0 ? (ssize_t)rc : (ssize_t)len;
}

int uft_tracefs_poll(struct uft_tfs_handle *h)
{
	if (h->n.file->poll)
		return h->n.file->poll(h);
	return 1;
}

unsigned uft_tracefs_poll_events(struct uft_tfs_handle *h, bool peek)
{
	if (h->n.file->poll_events)
		return h->n.file->poll_events(h, peek);
	return uft_tracefs_poll(h) ? POLLIN | POLLRDNORM : 0;
}

int uft_tracefs_wait(struct uft_tfs_handle *h, int timeout_ms)
{
	/* Writers never wake readers one event at a time: pipes are polled in
	 * short sleeps, which batches wake-ups as the kernel's readers are. */
	for (int waited = 0; timeout_ms < 0 || waited <= timeout_ms; waited += 10) {
		if (uft_tracefs_poll(h))
			return 1;
		if (uft_xchg(&h->intr, 0))
			return 0; /* the interrupt is spent on this wait */
		usleep(10000);
	}
	return 0;
}

void uft_tracefs_interrupt(struct uft_tfs_handle *h)
{
	uft_store_seq_cst(&h->intr, 1);
}

void uft_tracefs_release(struct uft_tfs_handle *h)
{
	if (!h)
		return;
	tfs_enter();
	if (h->n.file->release)
		h->n.file->release(h);
	h->n.inst->busy--;
	tfs_leave();
	free(h->data);
	free(h);
}

/* ---- instances ---- */

static int split_instance(const char *path, const char **name)
{
	while (*path == '/')
		path++;
	if (strncmp(path, "instances/", 10) != 0)
		return -EPERM;
	*name = path + 10;
	if (!**name || strchr(*name, '/') || strlen(*name) >= TFS_NAME_MAX)
		return -EINVAL;
	return 0;
}

void uft_tracefs_log_refusal(const char *cmd, const char *msg)
{
	tfs_enter();
	if (tfs_insts[0])
		tfs_log_error(tfs_insts[0], "access", cmd, msg, 0);
	tfs_leave();
}

int uft_tracefs_mkdir(const char *path)
{
	const char *name;
	int rc = split_instance(path, &name);
	if (rc)
		return rc;
	tfs_enter();
	if (find_inst(name)) {
		tfs_leave();
		return -EEXIST;
	}
	int slot = 0;
	for (int i = 1; i < UFT_MAX_BUFFERS && !slot; i++)
		if (!tfs_insts[i] && !uft_buffers[i].in_use)
			slot = i;
	struct tfs_inst *in = slot ? calloc(1, sizeof(*in)) : NULL;
	if (!in) {
		tfs_leave();
		return slot ? -ENOMEM : -ENOSPC;
	}
	snprintf(in->name, sizeof(in->name), "%s", name);
	in->buffer = (uint32_t)slot;
	in->opts = tfs_option_defaults();
	struct uft_buffer *b = &uft_buffers[slot];
	/* a writer still holding the removed instance's slot may read these */
	WRITE_ONCE(b->ring_pages, uft_buffers[0].ring_pages);
	WRITE_ONCE(b->subbuf_size, 0);
	uft_buffer_reset_cpus(b);
	b->mode = UFT_MODE_OVERWRITE;
	b->clock = UFT_CLOCK_LOCAL;
	WRITE_ONCE(b->on, 1);
	b->in_use = 1;
	uft_buffer_new_generation((unsigned)slot);
	tfs_insts[slot] = in;
	tfs_leave();
	return 0;
}

int uft_tracefs_rmdir(const char *path)
{
	const char *name;
	int rc = split_instance(path, &name);
	if (rc)
		return rc;
	tfs_enter();
	struct tfs_inst *in = find_inst(name);
	if (!in) {
		tfs_leave();
		return -ENOENT;
	}
	if (in->busy) {
		tfs_leave();
		return -EBUSY;
	}
	uint32_t slot = in->buffer;
	tfs_ftrace_instance_gone(in);
	uft_registry_buffer_reset(slot);
	WRITE_ONCE(uft_buffers[slot].on, 0);
	tfs_trace_clear(slot);
	uft_buffer_new_generation(slot);
	uft_buffers[slot].in_use = 0;
	tfs_insts[slot] = NULL;
	tfs_log_clear(in);
	tfs_snapshot_free(in);
	free(in->pids);
	free(in->no_pids);
	free(in);
	tfs_follow_refresh();
	tfs_leave();
	return 0;
}
