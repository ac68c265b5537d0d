/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ptrace backend: seize or launch, the wait loop, following children,
 * detaching (design/process-tracer.md).
 *
 * Every tracee is seized (PTRACE_SEIZE) with the clone, fork, vfork, exec and
 * exit options, never PTRACE_O_EXITKILL: if the tracer dies the kernel
 * detaches the tracees and they run on. Syscalls stop the tracee in one of two
 * ways: a launched command with a syscall set gets a seccomp filter, so only
 * the selected calls stop it (PTRACE_EVENT_SECCOMP, then PTRACE_SYSCALL to
 * its exit stop); otherwise every call stops it (PTRACE_SYSCALL) and the set
 * is applied here. PTRACE_GET_SYSCALL_INFO says which stop is which. */
#define _GNU_SOURCE
#include "proctrace/spawn_held.h"
#include "proctrace/proctrace.h"
#include "proctrace/kernel_backend.h"
#include "proctrace/proc_events.h"
#include "proctrace/proc_info.h"
#include "proctrace/pt_clock.h"
#include "proctrace/seccomp_filter.h"
#include "util/glob.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

struct pt_thread {
	pid_t tid, tgid;
	int stat_fd;
	unsigned uid;
	char comm[16];
	bool match;	/* the comm and uid filters pass */
	bool exit_done; /* sched_process_exit emitted */
	bool to_exit;	/* resumed to its syscall's exit stop after a seccomp stop */
	long nr;	/* the syscall being run, -1 none */
};

struct pt_session {
	struct pt_options o;
	pid_t leader;
	bool launched, seccomp, syscall_stops;
	volatile sig_atomic_t stop; /* stop requests; see pt_run() */
	int status;
	struct pt_thread *thr;
	size_t nr_thr, cap_thr;
	struct pt_rec rec;
	int emit_rc;
	int stop_cpu;			  /* the CPU of the stop being handled, -1 until read */
	struct pt_ksession *kernel;	  /* the kernel backend's session instead */
	unsigned nr_followed, nr_refused; /* pt_attach(0): processes seized, refusing */
};

static const unsigned long seize_opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
					PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC |
					PTRACE_O_TRACEEXIT | PTRACE_O_TRACESYSGOOD;

static struct pt_thread *find(struct pt_session *s, pid_t tid)
{
	for (size_t i = 0; i < s->nr_thr; i++)
		if (s->thr[i].tid == tid)
			return &s->thr[i];
	return NULL;
}

static void set_match(struct pt_session *s, struct pt_thread *t)
{
	t->match = true;
	if (s->o.comm_glob)
		t->match = uft_glob_match(s->o.comm_glob, strlen(s->o.comm_glob), t->comm,
					  strlen(t->comm));
	if (t->match && s->o.uid_glob) {
		char u[16];
		snprintf(u, sizeof(u), "%u", t->uid);
		t->match = uft_glob_match(s->o.uid_glob, strlen(s->o.uid_glob), u, strlen(u));
	}
}

/* A thread's entry, read from /proc when `from` (the parent) is unknown. */
static struct pt_thread *add(struct pt_session *s, pid_t tid, const struct pt_thread *from,
			     bool thread)
{
	struct pt_thread *t = find(s, tid);
	if (!t) {
		if (uft_array_reserve(s->thr, s->cap_thr, s->nr_thr + 1, 16))
			return NULL;
		t = &s->thr[s->nr_thr++];
		*t = (struct pt_thread){.tid = tid, .stat_fd = -1, .nr = -1};
	}
	if (from) {
		t->tgid = thread ? from->tgid : tid;
		t->uid = from->uid;
		memcpy(t->comm, from->comm, sizeof(t->comm));
	} else {
		t->tgid = pt_proc_tgid(tid, &t->uid);
		pt_proc_comm(tid, t->comm);
	}
	set_match(s, t);
	if (s->o.comm)
		s->o.comm(s->o.ctx, tid, t->comm);
	return t;
}

static void drop(struct pt_session *s, struct pt_thread *t)
{
	if (t->stat_fd >= 0)
		close(t->stat_fd);
	*t = s->thr[--s->nr_thr];
}

static void emit(struct pt_session *s, struct pt_thread *t, uint64_t ts)
{
	if (!t->match || s->emit_rc || s->stop)
		return;
	/* one read per stop, however many events it makes */
	if (s->stop_cpu < 0) {
		int prio;
		if (s->o.cpu_mode == PT_CPU_TRACEE)
			pt_proc_stat(t->tid, &t->stat_fd, &s->stop_cpu, &prio);
		if (s->stop_cpu < 0)
			s->stop_cpu = sched_getcpu();
		if (s->stop_cpu < 0)
			s->stop_cpu = 0;
	}
	s->emit_rc = s->o.emit(s->o.ctx, (uint32_t)s->stop_cpu, ts, s->rec.b, s->rec.len);
	if (s->emit_rc && !s->stop)
		s->stop = 1;
}

static bool want_sys(struct pt_session *s, long nr)
{
	return (s->o.categories & PT_SYSCALLS) &&
	       (s->o.all_syscalls || pt_sysset_has(&s->o.syscalls, nr));
}

static void sys_enter(struct pt_session *s, struct pt_thread *t, uint64_t ts, long nr,
		      const uint64_t args[6])
{
	t->nr = nr;
	if (!want_sys(s, nr))
		return;
	pt_rec_raw_enter(&s->rec, t->tid, nr, args);
	emit(s, t, ts);
	if (pt_rec_sys_enter(&s->rec, t->tid, nr, args, true))
		emit(s, t, ts);
}

static void sys_exit(struct pt_session *s, struct pt_thread *t, uint64_t ts, long ret)
{
	long nr = t->nr;
	t->nr = -1;
	if (nr < 0 || !want_sys(s, nr))
		return;
	pt_rec_raw_exit(&s->rec, t->tid, nr, ret);
	emit(s, t, ts);
	if (pt_rec_sys_exit(&s->rec, t->tid, nr, ret))
		emit(s, t, ts);
}

/* A syscall or seccomp stop; returns the request to resume with. */
static int syscall_stop(struct pt_session *s, struct pt_thread *t, uint64_t ts)
{
	struct __ptrace_syscall_info info;
	memset(&info, 0, sizeof(info));
	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, sizeof(info), &info) <= 0)
		return s->syscall_stops ? PTRACE_SYSCALL : PTRACE_CONT;
	switch (info.op) {
	case PTRACE_SYSCALL_INFO_ENTRY:
		sys_enter(s, t, ts, (long)info.entry.nr, (const uint64_t *)info.entry.args);
		break;
	case PTRACE_SYSCALL_INFO_SECCOMP:
		sys_enter(s, t, ts, (long)info.seccomp.nr, (const uint64_t *)info.seccomp.args);
		t->to_exit = true;
		return PTRACE_SYSCALL;
	case PTRACE_SYSCALL_INFO_EXIT:
		sys_exit(s, t, ts, (long)info.exit.rval);
		t->to_exit = false;
		break;
	}
	return s->syscall_stops ? PTRACE_SYSCALL : PTRACE_CONT;
}

static int resume_req(struct pt_session *s, struct pt_thread *t)
{
	return s->syscall_stops || (t && t->to_exit) ? PTRACE_SYSCALL : PTRACE_CONT;
}

/* The clone flags of the call that made `child`: clone's first argument
 * (also when it reports as a fork or vfork: glibc's fork is a clone),
 * clone3's clone_args.flags; fork and vfork have fixed ones. */
static uint64_t clone_flags(pid_t tid, int event)
{
	struct user_regs_struct regs;
	bool regs_ok = ptrace(PTRACE_GETREGS, tid, 0, &regs) == 0;
	if (regs_ok && regs.orig_rax == SYS_clone)
		return regs.rdi;
	uint64_t flags = 0;
	if (regs_ok && regs.orig_rax == SYS_clone3)
		pt_proc_read(tid, regs.rdi, &flags, sizeof(flags));
	else if (event == PTRACE_EVENT_FORK)
		flags = SIGCHLD;
	else if (event == PTRACE_EVENT_VFORK)
		flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
	return flags;
}

static void on_fork(struct pt_session *s, struct pt_thread *t, int event, uint64_t ts)
{
	unsigned long msg = 0;
	ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg);
	pid_t child = (pid_t)msg;
	uint64_t flags = clone_flags(t->tid, event);
	bool thread = flags & CLONE_THREAD;
	struct pt_thread parent = *t; /* add() may move the table */
	struct pt_thread *c = add(s, child, &parent, thread);
	t = find(s, parent.tid);
	if (!c || !t || !(s->o.categories & PT_LIFECYCLE))
		return;
	pt_rec_fork(&s->rec, t->tid, t->comm, child, c->comm);
	emit(s, t, ts);
	pt_rec_clone_flags(&s->rec, t->tid, child, flags, thread);
	emit(s, t, ts);
}

static void on_exec(struct pt_session *s, struct pt_thread *t, uint64_t ts)
{
	unsigned long msg = 0;
	ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg);
	pid_t old = (pid_t)msg, tid = t->tid;
	/* A non-leader thread's exec takes the leader's id: its old entry (and
	 * the call it is in) becomes the leader's. */
	struct pt_thread *o = old != tid ? find(s, old) : NULL;
	if (o) {
		long nr = o->nr;
		bool to_exit = o->to_exit;
		drop(s, o);
		t = find(s, tid);
		t->nr = nr;
		t->to_exit = to_exit;
	}
	t->exit_done = false;
	t->tgid = tid;
	pt_proc_comm(t->tid, t->comm);
	pt_proc_tgid(t->tid, &t->uid);
	set_match(s, t);
	if (s->o.comm)
		s->o.comm(s->o.ctx, t->tid, t->comm);
	if (t->stat_fd >= 0) {
		close(t->stat_fd);
		t->stat_fd = -1;
	}
	if (!(s->o.categories & PT_LIFECYCLE))
		return;
	char path[4096];
	pt_proc_execfn(t->tid, path, sizeof(path));
	pt_rec_exec(&s->rec, t->tid, path, old);
	emit(s, t, ts);
}

static void exit_events(struct pt_session *s, struct pt_thread *t, int status, uint64_t ts)
{
	if (t->exit_done)
		return;
	t->exit_done = true;
	if (!(s->o.categories & PT_LIFECYCLE))
		return;
	int cpu = -1, prio = 120;
	if (pt_proc_stat(t->tid, &t->stat_fd, &cpu, &prio) == 0 && s->o.cpu_mode == PT_CPU_TRACEE)
		s->stop_cpu = cpu;
	bool group_dead = true;
	for (size_t i = 0; i < s->nr_thr; i++)
		if (s->thr[i].tgid == t->tgid && !s->thr[i].exit_done)
			group_dead = false;
	pt_rec_exit(&s->rec, t->tid, t->comm, prio, group_dead);
	emit(s, t, ts);
	pt_rec_exit_status(&s->rec, t->tid, WIFEXITED(status) ? WEXITSTATUS(status) : 0,
			   WIFSIGNALED(status) ? WTERMSIG(status) : 0,
			   WIFSIGNALED(status) && WCOREDUMP(status));
	emit(s, t, ts);
}

/* A signal-delivery stop: the signal to inject when resuming. */
static int on_signal(struct pt_session *s, struct pt_thread *t, int sig, uint64_t ts)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) != 0)
		si.si_signo = sig;
	if (!(s->o.categories & PT_SIGNALS))
		return sig;
	/* ptrace sees a signal when it is delivered, not when it is sent: the
	 * generate event is stamped with the delivery stop's time (result 0,
	 * TRACE_SIGNAL_DELIVERED). */
	pt_rec_sig_generate(&s->rec, t->tid, sig, si.si_errno, si.si_code, t->comm, t->tid,
			    si.si_code != SI_TKILL, 0);
	emit(s, t, ts);
	bool ignored, caught;
	pt_proc_sigaction(t->tid, sig, &ignored, &caught);
	/* The handler's address is not read: SIG_DFL 0, SIG_IGN 1, a handler ~0. */
	uint64_t handler = caught ? ~0ull : ignored ? 1 : 0;
	pt_rec_sig_deliver(&s->rec, t->tid, sig, si.si_errno, si.si_code, handler, 0);
	emit(s, t, ts);
	return sig;
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static void on_wait(struct pt_session *s, pid_t tid, int st)
{
	uint64_t ts = pt_clock_now();
	s->stop_cpu = -1;
	struct pt_thread *t = find(s, tid);
	if (!t)
		t = add(s, tid, NULL, false);
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		if (t) {
			exit_events(s, t, st, ts);
			drop(s, t);
		}
		if (tid == s->leader)
			s->status = st;
		return;
	}
	if (!WIFSTOPPED(st) || !t)
		return;
	int sig = WSTOPSIG(st), event = st >> 16, req = resume_req(s, t), inject = 0;
	if (sig == (SIGTRAP | 0x80)) {
		req = syscall_stop(s, t, ts);
	} else if (event == PTRACE_EVENT_SECCOMP) {
		req = syscall_stop(s, t, ts);
	} else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
		   event == PTRACE_EVENT_CLONE) {
		on_fork(s, t, event, ts);
		t = find(s, tid);
	} else if (event == PTRACE_EVENT_EXEC) {
		on_exec(s, t, ts);
		t = find(s, tid);
	} else if (event == PTRACE_EVENT_EXIT) {
		unsigned long status = 0;
		ptrace(PTRACE_GETEVENTMSG, tid, 0, &status);
		exit_events(s, t, (int)status, ts);
		req = PTRACE_CONT;
	} else if (event == PTRACE_EVENT_STOP) {
		if (is_stop_signal(sig)) {
			/* group-stop: stay stopped, but tell us of SIGCONT or a kill */
			ptrace(PTRACE_LISTEN, tid, 0, 0);
			return;
		}
	} else if (event == 0) {
		inject = on_signal(s, t, sig, ts);
	}
	ptrace((enum __ptrace_request)req, tid, 0, (void *)(long)inject);
}

/* Interrupts every tracee and detaches it from the stop it reports, handing
 * back a signal it was about to receive. A group-stopped tracee stays stopped,
 * as it would without us. */
static void detach_all(struct pt_session *s)
{
	for (size_t i = 0; i < s->nr_thr; i++)
		ptrace(PTRACE_INTERRUPT, s->thr[i].tid, 0, 0);
	while (s->nr_thr) {
		int st;
		pid_t tid = waitpid(-1, &st, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		struct pt_thread *t = find(s, tid);
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (t)
				drop(s, t);
			if (tid == s->leader)
				s->status = st;
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		int sig = WSTOPSIG(st), event = st >> 16;
		if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
		    event == PTRACE_EVENT_CLONE) {
			/* the new tracee reports a stop of its own; detach it there */
			unsigned long child = 0;
			ptrace(PTRACE_GETEVENTMSG, tid, 0, &child);
			if (!find(s, (pid_t)child))
				add(s, (pid_t)child, NULL, false);
			t = find(s, tid);
		}
		int pass = event == 0 && sig != (SIGTRAP | 0x80) ? sig : 0;
		ptrace(PTRACE_DETACH, tid, 0, (void *)(long)pass);
		if (t)
			drop(s, t);
	}
}

/* A launched command with a seccomp filter is not detached on the first
 * request: without its tracer its selected calls would fail with ENOSYS. It
 * is served silently until it ends; a second request detaches it anyway. */
static bool detach_now(struct pt_session *s)
{
	return s->stop >= (s->seccomp ? 2 : 1);
}

int pt_run(struct pt_session *s)
{
	if (s->kernel) /* kernel backend */
		return pt_k_run(s->kernel);
	while (s->nr_thr && !detach_now(s)) {
		int st;
		pid_t tid = waitpid(-1, &st, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				break;
			return -1;
		}
		on_wait(s, tid, st);
	}
	if (s->nr_thr)
		detach_all(s);
	return s->launched ? s->status : 0;
}

void pt_request_stop(struct pt_session *s)
{
	if (s->kernel) /* kernel backend */
		pt_k_request_stop(s->kernel);
	s->stop = s->stop < 2 ? s->stop + 1 : 2;
}

pid_t pt_leader(const struct pt_session *s)
{
	return s->leader;
}

static struct pt_session *session_new(const struct pt_options *o)
{
	struct pt_session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->o = *o;
	pt_clock_init();
	return s;
}

/* The kernel backend's session in a pt_session, NULL if it failed. */
static struct pt_session *pt_k_wrap(struct pt_session *s, struct pt_ksession *k)
{
	s->kernel = k;
	if (!k) {
		free(s);
		return NULL;
	}
	return s;
}

void pt_free(struct pt_session *s)
{
	if (!s)
		return;
	pt_k_free(s->kernel); /* kernel backend */
	while (s->nr_thr)
		drop(s, &s->thr[0]);
	free(s->thr);
	free(s);
}

struct pt_session *pt_launch(const struct pt_options *o, char *const argv[], char *err,
			     size_t errlen)
{
	struct pt_session *s = session_new(o);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (pt_k_selected(o)) /* kernel backend */
		return pt_k_wrap(s, pt_k_launch(o, argv, err, errlen));
	s->launched = true;
	/* A syscall set is applied by the kernel before the stop; all calls stop
	 * anyway, so they need no filter (and leave none behind on detach). */
	s->seccomp = (o->categories & PT_SYSCALLS) && !o->all_syscalls;
	s->syscall_stops = (o->categories & PT_SYSCALLS) && o->all_syscalls;
	static struct pt_bpf prog; /* built before fork: the child only installs it */
	if (s->seccomp)
		pt_bpf_build(&o->syscalls, &prog);
	int release;
	pid_t pid = pt_spawn_held(o, argv, s->seccomp ? &prog : NULL, &release, err, errlen);
	if (pid < 0) {
		free(s);
		return NULL;
	}
	unsigned long opts = seize_opts | (s->seccomp ? PTRACE_O_TRACESECCOMP : 0);
	if (ptrace(PTRACE_SEIZE, pid, 0, (void *)opts) != 0) {
		snprintf(err, errlen, "PTRACE_SEIZE %d: %s", (int)pid, strerror(errno));
		pt_spawn_abort(pid, release);
		free(s);
		return NULL;
	}
	s->leader = pid;
	add(s, pid, NULL, false);
	if (s->syscall_stops) {
		/* to resume it with PTRACE_SYSCALL, it must stop once */
		ptrace(PTRACE_INTERRUPT, pid, 0, 0);
	}
	pt_spawn_release(release, err, errlen);
	return s;
}

static const char *attach_error(pid_t pid, int e, char *buf, size_t len)
{
	if (e == ESRCH) {
		snprintf(buf, len, "no process %d", (int)pid);
	} else if (e == EPERM) {
		char path[64], status[4096];
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(status, 1, sizeof(status) - 1, f) : 0;
		if (f)
			fclose(f);
		status[n] = 0;
		char *tp = strstr(status, "TracerPid:");
		int tracer = tp ? atoi(tp + 10) : 0;
		if (tracer)
			snprintf(buf, len, "process %d is already traced by %d", (int)pid, tracer);
		else
			snprintf(buf, len, "process %d: not permitted to trace it (%s)", (int)pid,
				 strerror(e));
	} else {
		snprintf(buf, len, "process %d: %s", (int)pid, strerror(e));
	}
	return buf;
}

/* Seizes the threads of /proc/PID/task until a pass finds none new (threads
 * may be created while we look; the seized ones report their clones). */
static int seize_threads(struct pt_session *s, pid_t pid, char *err, size_t errlen)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	for (bool more = true; more;) {
		more = false;
		DIR *d = opendir(path);
		if (!d) {
			attach_error(pid, errno == ENOENT ? ESRCH : errno, err, errlen);
			return -1;
		}
		struct dirent *de;
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);
			if (tid <= 0 || find(s, tid))
				continue;
			if (ptrace(PTRACE_SEIZE, tid, 0, (void *)seize_opts) != 0) {
				if (errno == ESRCH && tid != pid)
					continue; /* a thread that just ended */
				attach_error(pid, errno, err, errlen);
				closedir(d);
				return -1;
			}
			add(s, tid, NULL, false);
			if (s->syscall_stops)
				ptrace(PTRACE_INTERRUPT, tid, 0, 0);
			more = true;
		}
		closedir(d);
	}
	return 0;
}

/* --follow 0: seizes every process it may (all but our own), counting the
 * ones that refuse (not ours, already traced, a kernel thread) or fail. */
static void seize_all(struct pt_session *s)
{
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *de;
	pid_t self = getpid();
	char err[256];
	while ((de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);
		if (pid <= 0 || pid == self || find(s, pid))
			continue;
		if (seize_threads(s, pid, err, sizeof(err)) == 0)
			s->nr_followed++;
		else if (kill(pid, 0) == 0 || errno != ESRCH) /* gone: not counted */
			s->nr_refused++;
	}
	closedir(d);
}

void pt_follow_counts(const struct pt_session *s, unsigned *followed, unsigned *refused)
{
	*followed = s->nr_followed;
	*refused = s->nr_refused;
}

struct pt_session *pt_attach(const struct pt_options *o, pid_t pid, char *err, size_t errlen)
{
	struct pt_session *s = session_new(o);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (pt_k_selected(o)) /* kernel backend */
		return pt_k_wrap(s, pt_k_attach(o, pid, err, errlen));
	/* No filter can be put into a running process: every call stops it and
	 * the set is applied here. */
	s->syscall_stops = o->categories & PT_SYSCALLS;
	s->leader = pid;
	if (pid == 0) {
		seize_all(s);
		return s;
	}
	if (pid < 0 || kill(pid, 0) != 0) {
		attach_error(pid, pid <= 0 ? ESRCH : errno, err, errlen);
		free(s);
		return NULL;
	}
	if (seize_threads(s, pid, err, errlen) != 0) {
		detach_all(s);
		pt_free(s);
		return NULL;
	}
	return s;
}
