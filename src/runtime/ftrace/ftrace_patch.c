/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rewriting sleds while the program runs, as the kernel's stop_machine
 * does: every other thread of the process is sent UFT_FTRACE_STOP_SIG and
 * waits in the handler while the bytes change (text made writable, written,
 * made read-only again); a thread stopped inside a sled of gcc's five
 * one-byte NOPs is moved to the sled's end, which skips only NOPs. Returning
 * from the handler serializes the thread, so it sees the new code.
 *
 * Threads that block the signal cannot be stopped: libuft's signal wrappers
 * keep it unblocked, so only threads that block it by a direct system call
 * (and libuft's own threads, which never run traced code) are left running.
 * Nothing here allocates or locks while threads are stopped: a stopped
 * thread may hold any lock. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/grace.h"
#include "runtime/ftrace/ftrace.h"
#include "util/atomics.h"

struct change {
	uintptr_t addr;
	uint8_t bytes[UFT_FTRACE_SLED];
	struct uft_ftrace_site *site;
	uint8_t to; /* enum uft_ftrace_sled */
};

/* The session the handler serves: the changes (for the PC fix-up) and the
 * release word it waits on. A late handler may read the changes of a
 * session over: it reads them inside a grace section, nr_changes first
 * (release/acquire), so the array it finds holds at least that many; an
 * array outgrown is freed after a grace period. */
static struct change *changes;
static size_t nr_changes;
static uint32_t session; /* odd while threads are to stop */
static uint32_t arrived; /* threads waiting in this session */
/* the session this thread last stopped for */
static __thread uint32_t stopped_in __attribute__((tls_model("initial-exec")));

static long futex(uint32_t *w, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)w, op, val, NULL, NULL, 0);
}

/* Waits, stopped, until the session ends. */
static void stop_wait(uint32_t s)
{
	stopped_in = s;
	uft_fetch_add(&arrived, 1);
	while (uft_load_seq_cst(&session) == s)
		futex(&session, FUTEX_WAIT_PRIVATE, s);
}

/* A thread signaled inside a hook stops when it leaves the hook: so, once
 * every thread is stopped, no hook is halfway through acting on the state
 * the patcher is about to change. */
__thread uint32_t uft_ftrace_stop_pending __attribute__((tls_model("initial-exec")));

static void stop_handler(int sig, siginfo_t *si, void *ucv)
{
	int saved = errno;
	uint32_t s = uft_load_seq_cst(&session);
	if (!(s & 1) || stopped_in == s) {
		errno = saved;
		return; /* a late or repeated signal */
	}
	if (uft_ftrace_in_hook()) {
		uft_ftrace_stop_pending = s;
		errno = saved;
		return;
	}
	uintptr_t pc = uft_arch_context_pc(ucv);
	uft_grace_enter();
	size_t n = smp_load_acquire(&nr_changes);
	const struct change *ch = READ_ONCE(changes);
	for (size_t i = 0; i < n; i++)
		if (pc > ch[i].addr && pc < ch[i].addr + UFT_FTRACE_SLED)
			uft_arch_set_context_pc(ucv, ch[i].addr + UFT_FTRACE_SLED);
	uft_grace_exit(); /* not stopped inside a section */
	stop_wait(s);
	errno = saved;
}

void uft_ftrace_stop_now(void)
{
	uint32_t s = uft_ftrace_stop_pending;
	uft_ftrace_stop_pending = 0;
	barrier();
	int saved = errno;
	/* The handler may have stopped this thread since (it found the hook
	 * left): then the session is over or this thread is marked. */
	if (uft_load_seq_cst(&session) == s && stopped_in != s)
		stop_wait(s);
	errno = saved;
}

int uft_signals_install_internal(int sig, void (*fn)(int, siginfo_t *, void *));

static int install_handler(void)
{
	static int done;
	if (done)
		return 0;
	if (uft_signals_install_internal(UFT_FTRACE_STOP_SIG, stop_handler) != 0)
		return -errno;
	done = 1;
	return 0;
}

/* Whether thread tid blocks the stop signal (from /proc, without stdio). */
static bool blocks_stop(pid_t tid)
{
	/* "/proc/self/task/<tid>/status" by hand: snprintf may lock. */
	char path[64], buf[2048], digits[16];
	const char *pre = "/proc/self/task/";
	size_t k = strlen(pre);
	memcpy(path, pre, k);
	int d = 0;
	for (unsigned v = (unsigned)tid; v || !d; v /= 10)
		digits[d++] = (char)('0' + v % 10);
	while (d)
		path[k++] = digits[--d];
	memcpy(path + k, "/status", 8);
	int n, fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true; /* gone */
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	const char *b = strstr(buf, "SigBlk:");
	if (!b)
		return false;
	b += 7;
	while (*b == ' ' || *b == '\t')
		b++;
	unsigned long long mask = strtoull(b, NULL, 16);
	return (mask >> (UFT_FTRACE_STOP_SIG - 1)) & 1;
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#define MAX_THREADS 8192

/* The threads signaled (or found blocking the signal) in this session. */
static pid_t *tids;
static bool *sent; /* signaled: it will arrive unless it blocks the signal now */
static size_t nr_tids;

static bool known(pid_t t)
{
	for (size_t i = 0; i < nr_tids; i++)
		if (tids[i] == t)
			return true;
	return false;
}

/* Signals every thread not signaled yet; returns how many were new
 * (-EAGAIN past MAX_THREADS). *expect counts those that will arrive. */
static int signal_new_threads(pid_t self, size_t *expect)
{
	int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[4096];
	int added = 0;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			off += d->d_reclen;
			pid_t t = (pid_t)atoi(d->d_name);
			if (t <= 0 || t == self || known(t))
				continue;
			if (nr_tids >= MAX_THREADS) {
				close(fd);
				return -EAGAIN;
			}
			sent[nr_tids] = false;
			tids[nr_tids++] = t;
			added++;
			if (blocks_stop(t))
				continue; /* cannot stop; never runs traced code if it is libuft's
					   */
			if (syscall(SYS_tgkill, getpid(), t, UFT_FTRACE_STOP_SIG) == 0) {
				sent[nr_tids - 1] = true;
				(*expect)++;
			}
		}
	}
	close(fd);
	return added;
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void release_threads(void)
{
	uft_fetch_add(&session, 1); /* even: go */
	futex(&session, FUTEX_WAKE_PRIVATE, INT_MAX);
}

/* Stops every other thread; 0, or -errno with every thread released. */
static int stop_threads(void)
{
	pid_t self = (pid_t)syscall(SYS_gettid);
	nr_tids = 0;
	uft_store_seq_cst(&arrived, 0);
	uft_fetch_add(&session, 1); /* odd: stop */
	size_t expect = 0;
	uint64_t deadline = now_ms() + 5000;
	for (;;) {
		int added = signal_new_threads(self, &expect);
		if (added < 0) {
			release_threads();
			return added;
		}
		/* Wait for the signaled ones; a thread that blocked the signal
		 * after it was sent, or exited, is not waited for. */
		uint64_t check = now_ms() + 20;
		while (uft_load_seq_cst(&arrived) < expect) {
			if (now_ms() > deadline) {
				release_threads();
				return -EBUSY;
			}
			if (now_ms() > check) {
				size_t blocked = 0;
				for (size_t i = 0; i < nr_tids; i++)
					blocked += sent[i] && blocks_stop(tids[i]);
				if (uft_load_seq_cst(&arrived) + blocked >= expect)
					break;
				check = now_ms() + 20;
			}
			sched_yield();
		}
		if (!added)
			return 0; /* everyone seen is stopped: no one can start a thread */
	}
}

static int write_changes(void)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int rc = 0;
	for (size_t i = 0; i < nr_changes;) {
		/* Runs of changes on the same pages share one mprotect. */
		uintptr_t start = changes[i].addr & ~(page - 1);
		uintptr_t end = (changes[i].addr + UFT_FTRACE_SLED + page - 1) & ~(page - 1);
		size_t j = i + 1;
		while (j < nr_changes && changes[j].addr >= start && changes[j].addr <= end) {
			uintptr_t e = (changes[j].addr + UFT_FTRACE_SLED + page - 1) & ~(page - 1);
			if (e > end)
				end = e;
			j++;
		}
		/* Executable throughout: the range may hold this very code. */
		if (mprotect((void *)start, end - start, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
			rc = -errno;
			i = j;
			continue;
		}
		for (size_t k = i; k < j; k++) {
			memcpy((void *)changes[k].addr, changes[k].bytes, UFT_FTRACE_SLED);
			changes[k].site->patched = changes[k].to;
			changes[k].site->touched |= changes[k].to != UFT_SLED_NOP;
		}
		mprotect((void *)start, end - start, PROT_READ | PROT_EXEC);
		i = j;
	}
	uft_arch_code_written();
	return rc;
}

/* What the sled is to hold. A function command's stack trace starts in
 * the function, so a site with one keeps the call into its body; so does a
 * site whose function records take a stack (func_stack_trace), and one the
 * stack tracer or the profiler wants (the stack tracer unwinds from it). */
static uint8_t wanted(const struct uft_ftrace_site *s)
{
	uint32_t stacks = s->fn_mask & READ_ONCE(uft_ftrace_fn_stack);
	if (s->graph_mask && !s->probe && !stacks && !s->want)
		return UFT_SLED_STUB;
	return s->fn_mask || s->graph_mask || s->probe || s->want ? UFT_SLED_CALL : UFT_SLED_NOP;
}

int uft_ftrace_apply(bool sync, void (*stopped)(void *ctx), void *ctx)
{
	size_t n = 0;
	for (uint32_t i = 0; i < uft_ftrace_nr_objs; i++) {
		const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		for (uint32_t k = 0; !o->gone && k < o->nr; k++)
			n += wanted(&o->sites[k]) != o->sites[k].patched;
	}
	if (!n && !sync)
		return 0;
	int rc = install_handler();
	if (rc)
		return rc;
	/* A thread the signal reaches late may still read the list: a larger
	 * one replaces a smaller one, which is freed after a grace period
	 * (the tree's lock is held: tfs_unlock ends the operation). */
	static struct change *c;
	static size_t cap;
	if (n > cap) {
		struct change *bigger = malloc(n * sizeof(*c));
		if (!bigger)
			return -ENOMEM;
		struct change *old = c;
		WRITE_ONCE(changes, bigger);
		uft_grace_defer(old, free);
		c = bigger;
		cap = n;
	}
	if (!tids)
		tids = malloc(MAX_THREADS * sizeof(*tids));
	if (!sent)
		sent = malloc(MAX_THREADS * sizeof(*sent));
	if (!tids || !sent)
		return -ENOMEM;
	n = 0;
	for (uint32_t i = 0; i < uft_ftrace_nr_objs; i++) {
		const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		for (uint32_t k = 0; !o->gone && k < o->nr; k++) {
			struct uft_ftrace_site *s = &o->sites[k];
			if (wanted(s) == s->patched)
				continue;
			struct change *ch = &c[n++];
			ch->addr = s->addr;
			ch->site = s;
			ch->to = wanted(s);
			if (ch->to == UFT_SLED_NOP) {
				memcpy(ch->bytes, s->orig, UFT_FTRACE_SLED);
			} else {
				bool stub = ch->to == UFT_SLED_STUB;
				uft_arch_sled_branch(ch->bytes, s->addr,
						     stub ? uft_ftrace_stub_of(o, s) : o->stub,
						     stub);
			}
		}
	}
	WRITE_ONCE(changes, c);
	smp_store_release(&nr_changes, n);
	/* Nothing this thread calls may be traced while the others are stopped
	 * (a traced function could need a lock a stopped thread holds). */
	uint32_t held = uft_ftrace_hold();
	/* Once every thread is stopped, outside the hooks (a thread signaled
	 * inside one stops as it leaves it), every hook that started before the
	 * caller's changes has finished: what runs after sees them all. */
	rc = stop_threads();
	if (rc == 0) {
		rc = write_changes();
		if (stopped)
			stopped(ctx);
		release_threads();
	}
	WRITE_ONCE(nr_changes, 0);
	uft_ftrace_unhold(held);
	return rc;
}
