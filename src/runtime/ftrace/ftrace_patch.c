/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rewriting sleds while the program runs, as the kernel's stop_machine
 * does: every other thread of the process is sent UFT_FTRACE_STOP_SIG and
 * waits in the handler while the bytes change (text made writable, written,
 * made read-only again). A thread is never resumed strictly inside a sled:
 * gcc's sled is five one-byte NOPs, and one interrupted between them would
 * otherwise run the middle of the new call; every handler of the stop
 * signal, and libuft's trampoline in front of the program's handlers, moves
 * such a thread to the sled's end, which skips only NOPs. The new code is
 * made visible to every core by a core-serializing membarrier before the
 * threads go (x86's cross-modifying code rule); docs/design/ftrace.md
 * ("Patching") has the reasoning.
 *
 * Every thread is signaled, also one that blocks the signal at that moment
 * (it takes it when it unblocks, before running any more of the program),
 * and waited for until it arrives; only a thread that blocks the signal
 * while asleep (libuft's own threads, which never run traced code, or a
 * program thread parked with every signal blocked) is left as it is. Nothing
 * here allocates or locks while threads are stopped: a stopped thread may
 * hold any lock. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runtime/ftrace/ftrace.h"
#include "runtime/ftrace/ftrace_insn_probe.h"
#include "util/atomics.h"

struct change {
	uintptr_t addr;
	uint8_t bytes[UFT_FTRACE_SLED];
	struct uft_ftrace_site *site;
	uint8_t to; /* enum uft_ftrace_sled */
};

#define MAX_THREADS 8192

static struct change *changes; /* the patcher's own: the handlers never read it */
static size_t nr_changes;
static uint32_t session; /* odd while threads are to stop */
/* The arrivals of a session: the session in the high half, the count in
 * the low half, so that a handler which read a session since ended counts
 * for no later one. arrived_tid[i]: the i-th arrival, tagged the same way. */
static uint64_t arrival;
static uint64_t arrived_tid[MAX_THREADS];
/* arrived_uc[i]: the interrupted context of the i-th arrival (NULL: it
 * stopped as it left a hook), for the instruction probes' patching. */
static void *arrived_uc[MAX_THREADS];
/* the session this thread last stopped for */
static __thread uint32_t stopped_in __attribute__((tls_model("initial-exec")));

static long futex(uint32_t *w, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)w, op, val, NULL, NULL, 0);
}

/* Waits, stopped, until session s ends. */
static void stop_wait(uint32_t s, void *uc)
{
	stopped_in = s;
	uint64_t v = uft_load_seq_cst(&arrival);
	while ((uint32_t)(v >> 32) == s) {
		if (uft_try_cmpxchg(&arrival, &v, v + 1)) {
			uint32_t i = (uint32_t)v;
			uint64_t me = (uint64_t)s << 32 | (uint32_t)syscall(SYS_gettid);
			if (i < MAX_THREADS) {
				arrived_uc[i] = uc;
				smp_store_release(&arrived_tid[i], me);
			}
			break;
		}
	}
	while (uft_load_seq_cst(&session) == s)
		futex(&session, FUTEX_WAIT_PRIVATE, s);
}

void uft_ftrace_skip_sled(void *uc)
{
	uft_insn_skip(uc);
	if (!smp_load_acquire(&uft_ftrace_nr_objs))
		return;
	/* Strictly inside a sled: its end is 1 to 4 bytes ahead. */
	uintptr_t pc = uft_arch_context_pc(uc);
	for (uintptr_t k = 1; k < UFT_FTRACE_SLED; k++)
		if (uft_ftrace_site_at(pc + k)) {
			uft_arch_set_context_pc(uc, pc + k);
			return;
		}
}

/* A thread signaled inside a hook stops when it leaves the hook: so, once
 * every thread is stopped, no hook is halfway through acting on the state
 * the patcher is about to change. */
__thread uint32_t uft_ftrace_stop_pending __attribute__((tls_model("initial-exec")));

static void stop_handler(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	int saved = errno;
	/* Whatever the session: a signal taken late (the thread blocked it, or
	 * was inside an earlier handler) may find the sled changed since. */
	uft_ftrace_skip_sled(ucv);
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
	stop_wait(s, ucv);
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
		stop_wait(s, NULL);
	errno = saved;
}

int uft_signals_install_internal(int sig, void (*fn)(int, siginfo_t *, void *));

/* -1 unknown, 0 no core-serializing membarrier, 1 registered */
static int sync_core = -1;

static int install_handler(void)
{
	static int done;
	if (done)
		return 0;
	if (uft_signals_install_internal(UFT_FTRACE_STOP_SIG, stop_handler) != 0)
		return -errno;
	sync_core =
	    syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0;
	done = 1;
	return 0;
}

/* Every core that runs a thread of the process executes a serializing
 * instruction before it runs the program again (the stopped threads are
 * all inside the handler or the kernel), and so does this one. */
static void sync_cores(void)
{
	if (sync_core == 1)
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
	uft_arch_serialize();
}

enum {
	T_GONE = 1,    /* exited */
	T_BLOCKS = 2,  /* blocks the stop signal */
	T_PENDING = 4, /* has it pending */
	T_RUNNING = 8, /* running or runnable */
};

static unsigned long long mask_field(const char *buf, const char *name)
{
	const char *b = strstr(buf, name);
	if (!b)
		return 0;
	b += strlen(name);
	while (*b == ' ' || *b == '\t')
		b++;
	return strtoull(b, NULL, 16);
}

/* What /proc says of thread tid (read without stdio, which may lock). */
static unsigned thread_state(pid_t tid)
{
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
		return T_GONE;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return T_GONE;
	buf[n] = 0;
	const unsigned long long bit = 1ull << (UFT_FTRACE_STOP_SIG - 1);
	unsigned st = 0;
	const char *state = strstr(buf, "State:");
	if (state) {
		state += 6;
		while (*state == ' ' || *state == '\t')
			state++;
		if (*state == 'R')
			st |= T_RUNNING;
		else if (*state == 'Z' || *state == 'X')
			st |= T_GONE;
	}
	if (mask_field(buf, "SigBlk:") & bit)
		st |= T_BLOCKS;
	if (mask_field(buf, "SigPnd:") & bit)
		st |= T_PENDING;
	return st;
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* The threads seen in this session; sent: signaled (or found with the
 * signal pending), so expected to arrive unless left as parked. */
static pid_t tids[MAX_THREADS];
static bool sent[MAX_THREADS];
static size_t nr_tids;

static bool known(pid_t t)
{
	for (size_t i = 0; i < nr_tids; i++)
		if (tids[i] == t)
			return true;
	return false;
}

/* Signals every thread not seen yet, even one that blocks the signal now;
 * returns how many were new (-EAGAIN past MAX_THREADS). *expect counts
 * those signaled. */
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
			/* One queued at most: a thread that keeps it blocked
			 * (libuft's own) would otherwise pile them up. */
			unsigned st = thread_state(t);
			if (st & T_GONE)
				continue;
			if ((st & T_PENDING) ||
			    syscall(SYS_tgkill, getpid(), t, UFT_FTRACE_STOP_SIG) == 0) {
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

/* Whether thread tid arrived in session s (its record is in). */
static bool arrived_in(pid_t tid, uint32_t s, uint32_t count)
{
	uint64_t want = (uint64_t)s << 32 | (uint32_t)tid;
	for (uint32_t i = 0; i < count && i < MAX_THREADS; i++)
		if (smp_load_acquire(&arrived_tid[i]) == want)
			return true;
	return false;
}

/* Whether every signaled thread has arrived or is parked: asleep with the
 * signal blocked (it takes the signal when it unblocks, before it runs the
 * program again) or gone. A thread that blocks the signal but runs (inside
 * a handler, a hook's short masked section, a thread being created) is
 * waited for: it is about to take it. */
static bool all_accounted(uint32_t s, size_t expect)
{
	uint32_t count = (uint32_t)uft_load_seq_cst(&arrival);
	size_t done = 0;
	for (size_t i = 0; i < nr_tids; i++) {
		if (!sent[i])
			continue;
		if (arrived_in(tids[i], s, count)) {
			done++;
			continue;
		}
		unsigned st = thread_state(tids[i]);
		if ((st & T_GONE) || ((st & T_BLOCKS) && !(st & T_RUNNING)))
			done++;
	}
	return done >= expect;
}

/* Stops every other thread; 0, or -errno with every thread released. */
static int stop_threads(void)
{
	pid_t self = (pid_t)syscall(SYS_gettid);
	nr_tids = 0;
	uint32_t s = uft_load_seq_cst(&session) + 1;
	uft_store_seq_cst(&arrival, (uint64_t)s << 32);
	uft_store_seq_cst(&session, s); /* odd: stop */
	size_t expect = 0;
	uint64_t deadline = now_ms() + 5000;
	for (;;) {
		int added = signal_new_threads(self, &expect);
		if (added < 0) {
			release_threads();
			return added;
		}
		/* Every thread seen is accounted for before the next look, which
		 * finds the threads they started meanwhile. */
		unsigned spins = 0, next = 16;
		while ((uint32_t)uft_load_seq_cst(&arrival) < expect) {
			if (now_ms() > deadline) {
				release_threads();
				return -EBUSY;
			}
			/* Parked threads never arrive: look at /proc now and
			 * then, more rarely as the wait grows. */
			if (++spins == next) {
				next += next < 256 ? next : 256;
				if (all_accounted(s, expect))
					break;
			}
			/* A while on the processor, then off it: on a loaded
			 * machine the threads waited for need it. */
			if (spins < 64) {
				sched_yield();
			} else {
				struct timespec pause = {0, 50000};
				nanosleep(&pause, NULL);
			}
		}
		if (!added)
			return 0; /* everyone seen is stopped or parked */
	}
}

size_t uft_ftrace_stopped_contexts(void ***ucs)
{
	uint64_t v = uft_load_seq_cst(&arrival);
	uint32_t s = (uint32_t)(v >> 32), n = (uint32_t)v;
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	/* An arrival is counted before its context is stored: wait for it. */
	for (uint32_t i = 0; i < n; i++)
		while ((uint32_t)(smp_load_acquire(&arrived_tid[i]) >> 32) != s)
			sched_yield();
	*ucs = arrived_uc;
	return n;
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
	static size_t cap;
	if (n > cap) {
		struct change *bigger = realloc(changes, n * sizeof(*changes));
		if (!bigger)
			return -ENOMEM;
		changes = bigger;
		cap = n;
	}
	n = 0;
	for (uint32_t i = 0; i < uft_ftrace_nr_objs; i++) {
		const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		for (uint32_t k = 0; !o->gone && k < o->nr; k++) {
			struct uft_ftrace_site *s = &o->sites[k];
			if (wanted(s) == s->patched)
				continue;
			struct change *ch = &changes[n++];
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
	nr_changes = n;
	/* Nothing this thread calls may be traced while the others are stopped
	 * (a traced function could need a lock a stopped thread holds). */
	uint32_t held = uft_ftrace_hold();
	/* Once every thread is stopped, outside the hooks (a thread signaled
	 * inside one stops as it leaves it), every hook that started before the
	 * caller's changes has finished: what runs after sees them all. */
	rc = stop_threads();
	if (rc == 0) {
		rc = write_changes();
		sync_cores();
		if (stopped)
			stopped(ctx);
		release_threads();
	}
	nr_changes = 0;
	uft_ftrace_unhold(held);
	return rc;
}
