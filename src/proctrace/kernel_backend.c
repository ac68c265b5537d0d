/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel backend (design/process-tracer.md, "Kernel backend"): the
 * kernel's sched, raw_syscalls, syscalls and signal events of the followed
 * pids from a private tracefs instance. set_event_pid holds the followed pids
 * and options/event-fork adds their children and threads; the per-CPU
 * trace_pipe_raw files are read as pages, the records merged across CPUs in
 * time order (kernel_merge.c) and handed to the engine's sink with the kernel's event ids
 * replaced by the engine's local ones. Nothing stops the tracee: the kernel
 * writes the events as they happen. */
#define _GNU_SOURCE
#include "proctrace/kernel_backend.h"
#include "proctrace/kernel_reader.h"
#include "proctrace/proc_events.h"
#include "proctrace/proc_info.h"
#include "proctrace/pt_clock.h"
#include "proctrace/spawn_held.h"
#include "util/glob.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Kernel ids that are read to follow the threads but never handed over:
 * task_newtask (clone flags) and the per-syscall entries of the clone and
 * exit calls (their arguments), above the engine's local ids. */
enum { PT_KID_NEWTASK = PT_ID_END, PT_KID_SYS_ENTER };

struct kthr {
	pid_t tid, tgid;
	unsigned uid;
	char comm[16];
	bool match;
	long raw_nr; /* the call entered (raw event), -1 none */
	uint64_t raw_args[6];
	long call_nr;	    /* the last clone or exit call entered, -1 none */
	uint64_t call_arg0; /* its first argument */
	pid_t new_pid;	    /* task_newtask: the child made, and its flags */
	uint64_t new_flags;
	int code;     /* exit(code) of this thread, -1 none */
	int gcode;    /* its group's exit_group(code), -1 none */
	int gsig;     /* the fatal signal that ended its group, 0 none */
	int gen_sig;  /* the last fatal-by-default signal sent to its group */
	bool execing; /* in execve: the kernel kills the group's other threads */
};

struct pt_ksession {
	struct pt_options o;
	char dir[512];
	struct pt_kreader rd; /* the instance's pages, and the kernel's losses */
	uint16_t *map;	      /* kernel id -> local id, 0: not ours */
	pid_t pid;	      /* the launched or attached process */
	int pidfd;
	bool launched, ended;
	int status;
	volatile sig_atomic_t stop;
	int emit_rc;
	struct kthr *thr;
	size_t nr_thr, cap_thr;
	uint32_t *hidx; /* index of thr by tid (find()) */
	size_t hcap;
	bool hdirty;
	struct pt_kmerge merge;
	struct pt_rec rec;    /* a record made here (syscalls:*, process:*) */
	bool reaped;	      /* the launched process's status is in `status` */
	unsigned newtask_off; /* clone_flags in task_newtask's record */
};

bool pt_k_selected(const struct pt_options *o)
{
	/* AUTO is ptrace (design page, "Choosing a backend") */
	return o->backend == PT_BACKEND_KERNEL;
}

/* ---- threads ---- */

/* The thread index (tid -> entry + 1, open addressing), rebuilt after the
 * table changed: every record looks its thread up, and following every
 * process makes the table long. */
static void index_threads(struct pt_ksession *k)
{
	size_t cap = 64;
	while (cap < 2 * k->nr_thr)
		cap *= 2;
	if (cap != k->hcap) {
		uint32_t *n = realloc(k->hidx, cap * sizeof(*n));
		if (!n)
			return; /* stays dirty: find() searches the table */
		k->hidx = n;
		k->hcap = cap;
	}
	memset(k->hidx, 0, k->hcap * sizeof(*k->hidx));
	for (size_t i = 0; i < k->nr_thr; i++) {
		size_t h = ((uint32_t)k->thr[i].tid * 2654435761u) & (k->hcap - 1);
		while (k->hidx[h])
			h = (h + 1) & (k->hcap - 1);
		k->hidx[h] = (uint32_t)i + 1;
	}
	k->hdirty = false;
}

static struct kthr *find(struct pt_ksession *k, pid_t tid)
{
	if (k->hdirty || !k->hcap)
		index_threads(k);
	if (k->hdirty || !k->hcap) {
		for (size_t i = 0; i < k->nr_thr; i++)
			if (k->thr[i].tid == tid)
				return &k->thr[i];
		return NULL;
	}
	for (size_t h = ((uint32_t)tid * 2654435761u) & (k->hcap - 1); k->hidx[h];
	     h = (h + 1) & (k->hcap - 1))
		if (k->thr[k->hidx[h] - 1].tid == tid)
			return &k->thr[k->hidx[h] - 1];
	return NULL;
}

static void set_match(struct pt_ksession *k, struct kthr *t)
{
	t->match = true;
	if (k->o.comm_glob)
		t->match = uft_glob_match(k->o.comm_glob, strlen(k->o.comm_glob), t->comm,
					  strlen(t->comm));
	if (t->match && k->o.uid_glob) {
		char u[16];
		snprintf(u, sizeof(u), "%u", t->uid);
		t->match = uft_glob_match(k->o.uid_glob, strlen(k->o.uid_glob), u, strlen(u));
	}
}

static struct kthr *add(struct pt_ksession *k, pid_t tid, const struct kthr *from, const char *comm)
{
	struct kthr *t = find(k, tid);
	if (!t) {
		if (uft_array_reserve(k->thr, k->cap_thr, k->nr_thr + 1, 16))
			return NULL;
		t = &k->thr[k->nr_thr++];
		k->hdirty = true;
	}
	*t = (struct kthr){
	    .tid = tid, .tgid = tid, .raw_nr = -1, .call_nr = -1, .code = -1, .gcode = -1};
	if (from) {
		t->uid = from->uid;
	} else {
		pid_t tgid = pt_proc_tgid(tid, &t->uid);
		t->tgid = tgid > 0 ? tgid : tid;
	}
	if (comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	else
		pt_proc_comm(tid, t->comm);
	set_match(k, t);
	if (k->o.comm && t->comm[0]) /* "": gone before its first record was read */
		k->o.comm(k->o.ctx, tid, t->comm);
	return t;
}

/* ---- records ---- */

static const char *data_loc(const uint8_t *rec, uint32_t len, unsigned field)
{
	uint32_t loc;
	memcpy(&loc, rec + field, 4);
	uint32_t off = loc & 0xffff, n = loc >> 16;
	if (off + n > len || n == 0 || rec[off + n - 1] != 0)
		return "";
	return (const char *)rec + off;
}

static int32_t i32_at(const uint8_t *rec, unsigned off)
{
	int32_t v;
	memcpy(&v, rec + off, 4);
	return v;
}

static int64_t i64_at(const uint8_t *rec, unsigned off)
{
	int64_t v;
	memcpy(&v, rec + off, 8);
	return v;
}

static uint64_t u64_at(const uint8_t *rec, unsigned off)
{
	uint64_t v;
	memcpy(&v, rec + off, 8);
	return v;
}

/* Signals whose default action ends the process (signal(7)). */
static bool fatal_by_default(int sig)
{
	switch (sig) {
	case SIGCHLD:
	case SIGCONT:
	case SIGURG:
	case SIGWINCH:
	case SIGSTOP:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
		return false;
	}
	return sig > 0 && sig < 65;
}

/* Sets a group's fact on every thread of it that is known. */
static void set_group(struct pt_ksession *k, pid_t tgid, int gcode, int gsig, int gen_sig)
{
	for (size_t i = 0; i < k->nr_thr; i++) {
		struct kthr *t = &k->thr[i];
		if (t->tgid != tgid)
			continue;
		if (gcode >= 0 || gsig) {
			t->gcode = gcode;
			t->gsig = gsig;
		}
		if (gen_sig)
			t->gen_sig = gen_sig;
	}
}

/* The calls whose entries the lifecycle reads (clone flags, exit codes, an
 * exec killing the other threads). */
static const long tracked[] = {SYS_clone, SYS_fork,	  SYS_vfork,  SYS_clone3,
			       SYS_exit,  SYS_exit_group, SYS_execve, SYS_execveat};
#define NR_TRACKED (sizeof(tracked) / sizeof(tracked[0]))

/* Whether another thread of t's group is in an exec (which kills t). */
static bool group_execing(const struct pt_ksession *k, const struct kthr *t)
{
	for (size_t i = 0; i < k->nr_thr; i++)
		if (k->thr[i].tgid == t->tgid && k->thr[i].tid != t->tid && k->thr[i].execing)
			return true;
	return false;
}

/* The clone flags of the call that made `child`, as the ptrace backend
 * gives them: clone's first argument (exit signal included), fixed ones for
 * fork and vfork, else the kernel's (task_newtask: clone3's flags, which
 * carry no exit signal); without the call, the kernel's flags and SIGCHLD
 * for a process. */
static uint64_t clone_flags_of(const struct kthr *t, pid_t child)
{
	uint64_t base = t->new_pid == child ? t->new_flags : 0;
	switch (t->call_nr) {
	case SYS_clone:
		return t->call_arg0;
	case SYS_fork:
		return SIGCHLD;
	case SYS_vfork:
		return CLONE_VM | CLONE_VFORK | SIGCHLD;
	case SYS_clone3:
		return base;
	}
	return base | (base & CLONE_THREAD ? 0 : SIGCHLD);
}

/* The exit status of thread t at its sched_process_exit: the launched
 * process's from waitpid when its last thread ends; else what the kernel's
 * events told (design page, "Differences from the ptrace backend"). */
static void exit_status_of(struct pt_ksession *k, const struct kthr *t, bool group_dead, int *code,
			   int *sig, bool *core)
{
	*code = 0;
	*sig = 0;
	*core = false;
	if (k->launched && t->tgid == k->pid && group_dead && !k->reaped) {
		/* its last thread is past the exit tracepoint: the zombie is near */
		int st;
		pid_t w;
		while ((w = waitpid(k->pid, &st, 0)) < 0 && errno == EINTR && !k->stop)
			;
		if (w == k->pid) {
			k->status = st;
			k->reaped = true;
		}
	}
	if (k->launched && t->tgid == k->pid && group_dead && k->reaped) {
		*code = WIFEXITED(k->status) ? WEXITSTATUS(k->status) : 0;
		*sig = WIFSIGNALED(k->status) ? WTERMSIG(k->status) : 0;
		*core = WIFSIGNALED(k->status) && WCOREDUMP(k->status);
	} else if (t->code >= 0) {
		*code = t->code;
	} else if (t->gcode >= 0) {
		*code = t->gcode;
	} else {
		*sig = t->gsig;
	}
}

/* t entered one of the tracked calls. */
static void call_entered(struct pt_ksession *k, struct kthr *t, long nr, uint64_t arg0)
{
	t->call_nr = nr;
	t->call_arg0 = arg0;
	t->execing = nr == SYS_execve || nr == SYS_execveat;
	if (nr == SYS_exit)
		t->code = (int)(arg0 & 0xff);
	else if (nr == SYS_exit_group && t->gcode < 0 && !t->gsig)
		set_group(k, t->tgid, (int)(arg0 & 0xff), 0, 0);
}

/* Follows the thread table through one record; false drops the record (a
 * syscall exit whose entry was not seen, as the ptrace backend drops it). */
static bool track(struct pt_ksession *k, unsigned id, uint8_t *rec, uint32_t len, struct kthr **tp)
{
	pid_t tid = i32_at(rec, 4);
	struct kthr *t = find(k, tid);
	if (!t)
		t = add(k, tid, NULL, NULL);
	if (!t)
		return false;
	*tp = t;
	if (id == PT_ID_FORK && len >= 24) {
		struct kthr parent = *t;
		pid_t child = i32_at(rec, 20);
		struct kthr *c = add(k, child, &parent, data_loc(rec, len, 16));
		if (c && clone_flags_of(&parent, child) & CLONE_THREAD)
			c->tgid = parent.tgid;
		*tp = find(k, tid);
	} else if (id == PT_ID_EXEC && len >= 16) {
		const char *fn = data_loc(rec, len, 8), *base = strrchr(fn, '/');
		/* the kernel names the task after the file's base name */
		snprintf(t->comm, sizeof(t->comm), "%s", base ? base + 1 : fn);
		pt_proc_tgid(tid, &t->uid);
		t->tgid = tid;
		t->execing = false;
		set_match(k, t);
		if (k->o.comm)
			k->o.comm(k->o.ctx, tid, t->comm);
	} else if (id == PT_ID_RAW_ENTER && len >= 64) {
		t->raw_nr = i64_at(rec, 8);
		memcpy(t->raw_args, rec + 16, sizeof(t->raw_args));
		for (size_t i = 0; i < NR_TRACKED; i++)
			if (t->raw_nr == tracked[i])
				call_entered(k, t, t->raw_nr, t->raw_args[0]);
	} else if (id == PT_ID_RAW_EXIT && len >= 16) {
		bool seen = t->raw_nr == i64_at(rec, 8);
		t->raw_nr = -1;
		return seen;
	} else if (id == PT_KID_NEWTASK && len >= k->newtask_off + 8) {
		t->new_pid = i32_at(rec, 8);
		t->new_flags = u64_at(rec, k->newtask_off);
	} else if (id == PT_KID_SYS_ENTER && len >= 12) {
		/* fork and vfork have no argument */
		call_entered(k, t, i32_at(rec, 8), len >= 24 ? u64_at(rec, 16) : 0);
	} else if (id == PT_ID_SIG_GENERATE && len >= 48) {
		/* sent and not ignored: a fatal default may end the group by SIGKILL */
		int sig = i32_at(rec, 8);
		struct kthr *to = find(k, i32_at(rec, 36));
		if (to && i32_at(rec, 44) == 0 && fatal_by_default(sig) && sig != SIGKILL)
			set_group(k, to->tgid, -1, 0, sig);
	} else if (id == PT_ID_SIG_DELIVER && len >= 40) {
		/* a fatal signal's default action; the kernel delivers SIGKILL to
		 * every thread of a group it kills, the signal sent is the last
		 * one generated for the group, when it was seen */
		int sig = i32_at(rec, 8);
		if (sig == SIGKILL && group_execing(k, t)) /* exec ends the others: code 0 */
			t->code = 0;
		else if (u64_at(rec, 24) == 0 && fatal_by_default(sig) && t->gcode < 0 && !t->gsig)
			set_group(k, t->tgid, -1, sig == SIGKILL && t->gen_sig ? t->gen_sig : sig,
				  0);
	}
	return true;
}

static void emit_rec(struct pt_ksession *k, struct kthr *t, uint32_t cpu, uint64_t ts,
		     const uint8_t *from)
{
	/* the kernel's flags and preempt count of the record it comes from */
	memcpy(k->rec.b + 2, from + 2, 2);
	if (t->match && !k->emit_rc)
		k->emit_rc = k->o.emit(k->o.ctx, cpu, ts, k->rec.b, k->rec.len);
}

static bool want_sys(const struct pt_ksession *k, long nr)
{
	return k->o.all_syscalls || pt_sysset_has(&k->o.syscalls, nr);
}

static void emit_one(void *ctx, uint32_t cpu, uint64_t ts, uint8_t *rec, uint32_t len)
{
	struct pt_ksession *k = ctx;
	uint16_t type;
	memcpy(&type, rec, 2);
	unsigned id = type, cat = k->o.categories;
	uint8_t wide[PT_WIDE_MAX];
	rec = pt_rec_widen(id, rec, &len, wide); /* the strings this kernel does not read */
	struct kthr *t = NULL;
	bool keep = track(k, id, rec, len, &t);
	if (!keep || k->emit_rc)
		goto out;
	/* signals may be read for the exit status only */
	bool mine = id < PT_ID_END &&
		    !((id == PT_ID_SIG_GENERATE || id == PT_ID_SIG_DELIVER) && !(cat & PT_SIGNALS));
	if (id == PT_ID_RAW_ENTER && !want_sys(k, t->raw_nr)) /* a tracked call only */
		mine = false;
	if (mine && t->match)
		k->emit_rc = k->o.emit(k->o.ctx, cpu, ts, rec, len);
	if (id == PT_ID_FORK && len >= 24) {
		pid_t child = i32_at(rec, 20);
		uint64_t flags = clone_flags_of(t, child);
		pt_rec_clone_flags(&k->rec, t->tid, child, flags, flags & CLONE_THREAD);
		emit_rec(k, t, cpu, ts, rec);
	} else if (id == PT_ID_EXIT && len >= 33) {
		int code, sig;
		bool core;
		exit_status_of(k, t, rec[32] != 0, &code, &sig, &core);
		pt_rec_exit_status(&k->rec, t->tid, code, sig, core);
		emit_rec(k, t, cpu, ts, rec);
	} else if (id == PT_ID_RAW_ENTER && len >= 64) {
		/* the kernel's syscalls:sys_enter_NAME, from the raw record */
		if (want_sys(k, t->raw_nr) &&
		    pt_rec_sys_enter(&k->rec, t->tid, t->raw_nr, t->raw_args, false))
			emit_rec(k, t, cpu, ts, rec);
	} else if (id == PT_ID_RAW_EXIT && len >= 24) {
		long nr = (long)i64_at(rec, 8);
		if (want_sys(k, nr) && pt_rec_sys_exit(&k->rec, t->tid, nr, (long)i64_at(rec, 16)))
			emit_rec(k, t, cpu, ts, rec);
	}
out:
	if (k->emit_rc)
		k->stop = 1;
	if (id == PT_ID_EXIT && (t = find(k, i32_at(rec, 4)))) {
		*t = k->thr[--k->nr_thr]; /* its id may be reused */
		k->hdirty = true;
	}
}

static void emit_ready(struct pt_ksession *k, bool all)
{
	pt_kmerge_flush(&k->merge, all, emit_one, k);
}

/* Reads every page the kernel has for each CPU and hands over the losses
 * counted (with the instance's stats at the end, `final`). */
static void drain(struct pt_ksession *k, bool final)
{
	pt_kreader_drain(&k->rd, k->map, &k->merge);
	if (final)
		pt_kreader_stats(&k->rd);
	for (int c = 0; c < k->rd.ncpu; c++) {
		uint64_t n = pt_kreader_take_lost(&k->rd, c);
		if (n && k->o.lost)
			k->o.lost(k->o.ctx, (uint32_t)c, n);
	}
}

/* ---- set-up ---- */

static void map_event(struct pt_ksession *k, const char *system, const char *name, unsigned local,
		      bool enable)
{
	int kid = pt_ki_event_id(k->dir, system, name);
	if (kid <= 0 || kid > 0xffff)
		return;
	k->map[kid] = (uint16_t)local;
	if (enable) {
		char f[256];
		snprintf(f, sizeof(f), "events/%s/%s/enable", system, name);
		pt_ki_write(k->dir, f, "1", false);
	}
}

/* The offset of `field` in SYSTEM/NAME's format, or `dflt`. */
static unsigned field_offset(const char *dir, const char *system, const char *name,
			     const char *field, unsigned dflt)
{
	char p[600], b[4096], key[96];
	snprintf(p, sizeof(p), "%s/events/%s/%s/format", dir, system, name);
	snprintf(key, sizeof(key), " %s;\toffset:", field);
	const char *v = pt_read_text(p, b, sizeof(b)) > 0 ? strstr(b, key) : NULL;
	return v ? (unsigned)atoi(v + strlen(key)) : dflt;
}

/* Maps the kernel ids to local ones and enables the events the options ask
 * for; set_event_pid must already hold the pids (an empty list means all).
 * Syscalls come from raw_syscalls alone: the syscalls:sys_*_NAME records
 * are made here from them (same layout, half the kernel's writes). The
 * lifecycle reads task_newtask and the clone and exit calls' entries (clone
 * flags, exit codes) and the signals (a fatal one), handing over none of
 * them. */
static int enable_events(struct pt_ksession *k, char *err, size_t errlen)
{
	unsigned cat = k->o.categories;
	if (cat & PT_LIFECYCLE) {
		map_event(k, "sched", "sched_process_fork", PT_ID_FORK, true);
		map_event(k, "sched", "sched_process_exec", PT_ID_EXEC, true);
		map_event(k, "sched", "sched_process_exit", PT_ID_EXIT, true);
		map_event(k, "task", "task_newtask", PT_KID_NEWTASK, true);
		k->newtask_off = field_offset(k->dir, "task", "task_newtask", "clone_flags", 32);
		/* with syscalls on, the raw entries of these calls do it, at no
		 * second probe per call (the filter lets them in) */
		for (size_t i = 0; !(cat & PT_SYSCALLS) && i < NR_TRACKED; i++) {
			const struct pt_syscall *sc = pt_syscall_by_nr(tracked[i]);
			char name[64];
			snprintf(name, sizeof(name), "sys_enter_%s", sc ? sc->event : "");
			map_event(k, "syscalls", name, PT_KID_SYS_ENTER, true);
		}
	}
	if (cat & (PT_SIGNALS | PT_LIFECYCLE)) {
		map_event(k, "signal", "signal_generate", PT_ID_SIG_GENERATE, true);
		map_event(k, "signal", "signal_deliver", PT_ID_SIG_DELIVER, true);
	}
	if (!(cat & PT_SYSCALLS))
		return 0;
	if (!k->o.all_syscalls) {
		/* the kernel's own filter: only the set's calls are written */
		size_t cap = 64 + PT_MAX_SYSCALL * 16, off = 0;
		char *f = malloc(cap);
		if (!f)
			return -1;
		f[0] = 0;
		for (long nr = 0; nr < PT_MAX_SYSCALL; nr++)
			if (pt_sysset_has(&k->o.syscalls, nr))
				off += (size_t)snprintf(f + off, cap - off, "%sid == %ld",
							off ? " || " : "", nr);
		if (!off)
			snprintf(f, cap, "id == -1");
		int rc = pt_ki_write(k->dir, "events/raw_syscalls/sys_exit/filter", f, false);
		/* the lifecycle's calls enter too (tracked, handed over if in the set) */
		for (size_t i = 0; (cat & PT_LIFECYCLE) && i < NR_TRACKED; i++)
			if (!pt_sysset_has(&k->o.syscalls, tracked[i]))
				snprintf(f + strlen(f), cap - strlen(f), " || id == %ld",
					 tracked[i]);
		if (!rc)
			rc = pt_ki_write(k->dir, "events/raw_syscalls/sys_enter/filter", f, false);
		free(f);
		if (rc) {
			snprintf(err, errlen, "kernel backend: raw_syscalls filter: %s",
				 strerror(-rc));
			return -1;
		}
	}
	map_event(k, "raw_syscalls", "sys_enter", PT_ID_RAW_ENTER, true);
	map_event(k, "raw_syscalls", "sys_exit", PT_ID_RAW_EXIT, true);
	return 0;
}

static void ksession_free(struct pt_ksession *k)
{
	if (!k)
		return;
	pt_kreader_close(&k->rd);
	if (k->pidfd >= 0)
		close(k->pidfd);
	pt_ki_remove(k->dir);
	free(k->map);
	free(k->thr);
	free(k->hidx);
	pt_kmerge_free(&k->merge);
	free(k);
}

/* The instance and its options; events are enabled later, once the pids are in. */
static struct pt_ksession *ksession_new(const struct pt_options *o, char *err, size_t errlen)
{
	struct pt_ksession *k = calloc(1, sizeof(*k));
	if (!k || !(k->map = calloc(65536, sizeof(*k->map)))) {
		free(k);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	k->o = *o;
	k->pidfd = -1;
	if (pt_ki_create(k->dir, sizeof(k->dir), err, errlen) != 0) {
		ksession_free(k);
		return NULL;
	}
	/* the kernel's clock that reads uft's default clock (design page, Clock) */
	int rc = pt_ki_write(k->dir, "trace_clock", pt_clock_tracefs_name(), false);
	if (!rc)
		rc = pt_ki_write(k->dir, "options/event-fork", "1", false);
	if (rc) {
		snprintf(err, errlen, "kernel backend: %s: %s", k->dir, strerror(-rc));
		ksession_free(k);
		return NULL;
	}
	/* Wake the reader when a quarter of a CPU's buffer is full, else at the
	 * poll's bound: buffer_percent 0 would queue a wake-up on every record,
	 * which multiplies the cost of a traced call (design page, Measured). */
	pt_ki_write(k->dir, "buffer_percent", "25", false);
	/* room for a busy tracee between two wake-ups (4 MiB per CPU);
	 * UFT_PT_KBUF_KB sets another size (the tests' small buffer) */
	const char *kb = getenv("UFT_PT_KBUF_KB");
	pt_ki_write(k->dir, "buffer_size_kb", kb && atoi(kb) > 0 ? kb : "4096", false);
	if (pt_kreader_open(&k->rd, k->dir) != 0) {
		snprintf(err, errlen, "out of memory");
		ksession_free(k);
		return NULL;
	}
	return k;
}

static int add_pid(struct pt_ksession *k, pid_t pid)
{
	char b[32];
	snprintf(b, sizeof(b), "%d", (int)pid);
	return pt_ki_write(k->dir, "set_event_pid", b, true);
}

struct pt_ksession *pt_k_launch(const struct pt_options *o, char *const argv[], char *err,
				size_t errlen)
{
	struct pt_ksession *k = ksession_new(o, err, errlen);
	if (!k)
		return NULL;
	k->launched = true;
	int release;
	/* held until its pid is in set_event_pid and the events are on */
	pid_t pid = pt_spawn_held(o, argv, NULL, &release, err, errlen);
	if (pid < 0) {
		ksession_free(k);
		return NULL;
	}
	k->pid = pid;
	k->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int rc = add_pid(k, pid);
	if (rc || enable_events(k, err, errlen) != 0) {
		if (rc)
			snprintf(err, errlen, "kernel backend: set_event_pid: %s", strerror(-rc));
		pt_spawn_abort(pid, release);
		ksession_free(k);
		return NULL;
	}
	add(k, pid, NULL, NULL);
	pt_spawn_release(release, err, errlen);
	return k;
}

/* Puts every thread of pid in set_event_pid, again until a pass finds no new
 * one (event-fork follows the threads made after a pass). */
static int add_threads(struct pt_ksession *k, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	for (bool more = true; more;) {
		more = false;
		DIR *d = opendir(path);
		if (!d)
			return -ESRCH;
		struct dirent *de;
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);
			if (tid <= 0 || find(k, tid))
				continue;
			int rc = add_pid(k, tid);
			if (rc && tid == pid) {
				closedir(d);
				return rc;
			}
			add(k, tid, NULL, NULL);
			more = true;
		}
		closedir(d);
	}
	return 0;
}

struct pt_ksession *pt_k_attach(const struct pt_options *o, pid_t pid, char *err, size_t errlen)
{
	if (pid == 0) {
		struct pt_ksession *k = ksession_new(o, err, errlen);
		if (!k)
			return NULL;
		int rc = pt_ki_exclude_self(k->dir);
		if (rc) {
			snprintf(err, errlen, "kernel backend: set_event_notrace_pid: %s",
				 strerror(-rc));
			ksession_free(k);
			return NULL;
		}
		if (enable_events(k, err, errlen) != 0) {
			ksession_free(k);
			return NULL;
		}
		return k;
	}
	if (pid < 0 || kill(pid, 0) != 0) {
		int e = pid <= 0 ? ESRCH : errno;
		if (e == ESRCH)
			snprintf(err, errlen, "no process %d", (int)pid);
		else
			snprintf(err, errlen, "process %d: %s", (int)pid, strerror(e));
		return NULL;
	}
	struct pt_ksession *k = ksession_new(o, err, errlen);
	if (!k)
		return NULL;
	k->pid = pid;
	k->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int rc = add_threads(k, pid);
	if (rc) {
		snprintf(err, errlen, "process %d: %s", (int)pid, strerror(-rc));
		ksession_free(k);
		return NULL;
	}
	if (enable_events(k, err, errlen) != 0) {
		ksession_free(k);
		return NULL;
	}
	return k;
}

/* Whether the launched or attached process has ended (a launched one is reaped). */
static bool ended(struct pt_ksession *k)
{
	if (k->launched) {
		if (k->reaped)
			return true;
		int st;
		if (waitpid(k->pid, &st, WNOHANG) == k->pid && (WIFEXITED(st) || WIFSIGNALED(st))) {
			k->status = st;
			k->reaped = true;
			return true;
		}
		return false;
	}
	if (k->pid == 0) /* every process: until a stop request */
		return false;
	if (k->pidfd >= 0) {
		struct pollfd p = {.fd = k->pidfd, .events = POLLIN};
		return poll(&p, 1, 0) == 1;
	}
	return kill(k->pid, 0) != 0 && errno == ESRCH;
}

int pt_k_run(struct pt_ksession *k)
{
	struct pollfd *p = calloc((size_t)k->rd.ncpu + 1, sizeof(*p));
	if (!p)
		return -1;
	int np = 0;
	for (int c = 0; c < k->rd.ncpu; c++)
		if (k->rd.fd[c] >= 0)
			p[np++] = (struct pollfd){.fd = k->rd.fd[c], .events = POLLIN};
	if (k->pidfd >= 0)
		p[np++] = (struct pollfd){.fd = k->pidfd, .events = POLLIN};
	while (!k->stop && !k->ended) {
		/* a bounded wait: the records held back at one drain go out at the next */
		poll(p, (nfds_t)np, 100);
		k->ended = ended(k);
		drain(k, false);
		emit_ready(k, false);
	}
	free(p);
	/* what is left: the process's last records were written before it ended */
	drain(k, false);
	emit_ready(k, true);
	pt_ki_write(k->dir, "tracing_on", "0", false);
	drain(k, true);
	emit_ready(k, true);
	return k->launched ? k->status : 0;
}

void pt_k_request_stop(struct pt_ksession *k)
{
	k->stop = 1;
}

void pt_k_free(struct pt_ksession *k)
{
	ksession_free(k);
}
