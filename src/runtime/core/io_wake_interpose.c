/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wakes and waits the wakeup tracers see besides the condition variables
 * and semaphores (wake_interpose.c): futexes through syscall(SYS_futex),
 * eventfds (eventfd_write/eventfd_read, and write/read of 8 bytes on one)
 * and pipes (a write wakes a reader blocked in read or poll).
 *
 * Every program calls write, read and syscall, so with no wakeup tracer
 * current each wrapper costs one load of the tracer's kinds, one of libc's
 * pointer and a predicted branch before libc's own; nothing else. While a
 * wakeup tracer runs, write/read/poll look at the descriptor (one fstat) to
 * know whether it is a pipe or an eventfd; nothing changes errno or a result,
 * and everything done is async-signal-safe (a self-pipe write from a signal
 * handler is a wake like any other).
 *
 * An object is named by a key for the slots of wakeup.c: the futex word's
 * address; a pipe's inode (its two ends share it); an eventfd's descriptor
 * (every eventfd shares one anonymous inode, so the number is what tells them
 * apart within the process; a dup of it is another object). Keys of
 * descriptors have the top bits set, so they never equal an address.
 *
 * syscall() is a few instructions of assembly (x86-64) in front of a C
 * function with fixed arguments: the caller's variadic call passes them in
 * the same registers, and the sixth on the stack, where glibc's own
 * syscall() reads it too; the entry tests and jumps, so the fast path
 * forwards registers and stack untouched (a C definition moves the sixth
 * argument about). This file does not include unistd's header, which
 * declares syscall() variadic. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "runtime/core/interpose.h"
#include "runtime/core/interpose_next.h"
#include "runtime/core/runtime.h"
#include "util/atomics.h"
#include "runtime/latency/wakeup.h"

UFT_EXPORT ssize_t write(int fd, const void *buf, size_t n);
UFT_EXPORT ssize_t read(int fd, void *buf, size_t n);
UFT_EXPORT int eventfd_write(int fd, eventfd_t v);
UFT_EXPORT int eventfd_read(int fd, eventfd_t *v);
UFT_EXPORT int poll(struct pollfd *fds, nfds_t nfds, int timeout);
/* the assembly entry below, by its exported name */
extern void uft_syscall_entry(void) __asm__("syscall");

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*read_fn)(int, void *, size_t);
typedef int (*evw_fn)(int, eventfd_t);
typedef int (*evr_fn)(int, eventfd_t *);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);
typedef long (*sys_fn)(long, long, long, long, long, long, long);

static struct {
	write_fn write;
	read_fn read;
	evw_fn evwrite;
	evr_fn evread;
	poll_fn poll;
} real;
/* libc's syscall(), read by the assembly entry: out of `real` to be named */
sys_fn uft_real_syscall __attribute__((visibility("hidden")));

UFT_DECLARE_ICPT(ssize_t, write, int, const void *, size_t);
UFT_DECLARE_ICPT(ssize_t, read, int, void *, size_t);
UFT_DECLARE_ICPT(int, eventfd_write, int, eventfd_t);
UFT_DECLARE_ICPT(int, eventfd_read, int, eventfd_t *);
UFT_DECLARE_ICPT(int, poll, struct pollfd *, nfds_t, int);
UFT_DECLARE_ICPT(long, syscall, long, ...);

#define NEXT(f, self) uft_interpose_next(#f, NULL, (void *)(self), UFT_ICPT(f))

/* Early among the constructors, as wake_interpose.c's; a call before it
 * resolves on the spot, every store the same value. */
__attribute__((constructor(101))) static void resolve(void)
{
	smp_store_release(&real.write, (write_fn)NEXT(write, &write));
	smp_store_release(&real.read, (read_fn)NEXT(read, &read));
	smp_store_release(&real.evwrite, (evw_fn)NEXT(eventfd_write, &eventfd_write));
	smp_store_release(&real.evread, (evr_fn)NEXT(eventfd_read, &eventfd_read));
	smp_store_release(&real.poll, (poll_fn)NEXT(poll, &poll));
	smp_store_release(&uft_real_syscall, (sys_fn)NEXT(syscall, &uft_syscall_entry));
}

static inline void *real_of(void *const *slot)
{
	void *f = smp_load_acquire((void **)slot);
	if (__builtin_expect(f == NULL, 0)) {
		resolve();
		f = smp_load_acquire((void **)slot);
	}
	return f;
}
#define REAL(f) ((__typeof__(real.f))real_of((void *const *)&real.f))

/* A wrapper's slow path never runs inside another (the tracer's own writes
 * and reads of descriptors are not the program's wakes). */
static __thread int busy __attribute__((tls_model("initial-exec")));

/* Whether the calling thread's descriptors are worth a look: not inside a
 * wrapper, not one of libuft's own threads (which never record). */
static inline bool may_look(void)
{
	return !busy && !uft_tls.notrace;
}

#define KEY_PIPE (UINT64_C(0x8) << 60)
#define KEY_EVFD (UINT64_C(0xc) << 60)
#define KEY_MASK ((UINT64_C(1) << 60) - 1)

/* The key of a pipe (or FIFO) or an eventfd, 0 for any other descriptor.
 * `len`: the bytes read or written (an eventfd moves 8), 0 for poll. */
static uintptr_t fd_key(int fd, size_t len)
{
	struct stat st;
	int saved = errno;
	int rc = fd < 0 ? -1 : fstat(fd, &st);
	errno = saved;
	if (rc != 0)
		return 0;
	if (S_ISFIFO(st.st_mode))
		return (uintptr_t)(KEY_PIPE |
				   (((((uint64_t)st.st_dev << 40) ^ st.st_ino) << 3) & KEY_MASK));
	/* an anonymous inode: no file type bits */
	if ((st.st_mode & S_IFMT) == 0 && (len == 0 || len >= sizeof(eventfd_t)))
		return (uintptr_t)(KEY_EVFD | ((uint64_t)(unsigned)fd << 3));
	return 0;
}

/* Waits on descriptors under way in the process: while there are none, a
 * write wakes nobody and is not looked at (no fstat). A write racing with a
 * wait's start is then not measured, as a wake whose slot is busy. */
static int32_t fd_waits;

static void fd_wait_begin(struct uft_wait *w, uintptr_t k, uintptr_t ra)
{
	uft_add_return_relaxed(&fd_waits, 1);
	uft_wait_begin(w, k, ra);
}

static void fd_wait_end(struct uft_wait *w, bool woken)
{
	uft_wait_end(w, woken);
	uft_sub_return_relaxed(&fd_waits, 1);
}

static void note_fd(int fd, size_t len)
{
	if (!may_look() || READ_ONCE(fd_waits) <= 0)
		return;
	busy = 1;
	uintptr_t k = fd_key(fd, len);
	if (k)
		uft_wake_note(k, false);
	busy = 0;
}

/* ---- write / read ---- */

static __attribute__((noinline)) ssize_t write_slow(int fd, const void *buf, size_t n)
{
	if (uft_wake_on())
		note_fd(fd, n);
	return REAL(write)(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	write_fn f = smp_load_acquire(&real.write);
	if (__builtin_expect(f != NULL, 1) && !uft_wake_on())
		return f(fd, buf, n);
	return write_slow(fd, buf, n);
}

static __attribute__((noinline)) ssize_t read_slow(int fd, void *buf, size_t n, uintptr_t ra)
{
	uintptr_t k = uft_wake_on() && may_look() ? fd_key(fd, n) : 0;
	if (!k)
		return REAL(read)(fd, buf, n);
	struct uft_wait w;
	busy = 1;
	fd_wait_begin(&w, k, ra);
	busy = 0; /* a handler's write meanwhile is a wake */
	ssize_t rc = REAL(read)(fd, buf, n);
	busy = 1;
	fd_wait_end(&w, rc > 0);
	busy = 0;
	return rc;
}

ssize_t read(int fd, void *buf, size_t n)
{
	read_fn f = smp_load_acquire(&real.read);
	if (__builtin_expect(f != NULL, 1) && !uft_wake_on())
		return f(fd, buf, n);
	return read_slow(fd, buf, n, (uintptr_t)__builtin_return_address(0));
}

/* ---- eventfd_write / eventfd_read (glibc's call its internal write and
 * read, which do not come here: no wake is counted twice) ---- */

int eventfd_write(int fd, eventfd_t v)
{
	if (uft_wake_on() && fd >= 0 && READ_ONCE(fd_waits) > 0)
		uft_wake_note((uintptr_t)(KEY_EVFD | ((uint64_t)(unsigned)fd << 3)), false);
	return REAL(evwrite)(fd, v);
}

int eventfd_read(int fd, eventfd_t *v)
{
	if (!uft_wake_on() || fd < 0)
		return REAL(evread)(fd, v);
	struct uft_wait w;
	fd_wait_begin(&w, (uintptr_t)(KEY_EVFD | ((uint64_t)(unsigned)fd << 3)),
		      (uintptr_t)__builtin_return_address(0));
	int rc = REAL(evread)(fd, v);
	fd_wait_end(&w, rc == 0);
	return rc;
}

/* ---- poll: a wait on each pipe or eventfd polled for input (the first
 * few); the first of them found readable is the wake ---- */

#define POLL_WAITS 4

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	if (!uft_wake_on() || !may_look() || !fds)
		return REAL(poll)(fds, nfds, timeout);
	struct uft_wait w[POLL_WAITS];
	nfds_t at[POLL_WAITS];
	int nw = 0;
	uintptr_t ra = (uintptr_t)__builtin_return_address(0);
	busy = 1;
	for (nfds_t i = 0; i < nfds && nw < POLL_WAITS; i++) {
		if (fds[i].fd < 0 || !(fds[i].events & (POLLIN | POLLRDNORM)))
			continue;
		uintptr_t k = fd_key(fds[i].fd, 0);
		if (!k)
			continue;
		at[nw] = i;
		fd_wait_begin(&w[nw++], k, ra);
	}
	busy = 0;
	int rc = REAL(poll)(fds, nfds, timeout);
	bool taken = false;
	busy = 1;
	for (int j = 0; j < nw; j++) {
		bool ready = rc > 0 && (fds[at[j]].revents & (POLLIN | POLLRDNORM));
		fd_wait_end(&w[j], ready && !taken);
		taken |= ready;
	}
	busy = 0;
	return rc;
}

/* ---- syscall(SYS_futex, ...) ---- */

long uft_syscall_slow(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
    __attribute__((visibility("hidden"), used));

long uft_syscall_slow(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	sys_fn f = smp_load_acquire(&uft_real_syscall);
	if (__builtin_expect(f == NULL, 0)) {
		resolve();
		f = smp_load_acquire(&uft_real_syscall);
	}
	if (nr != SYS_futex || !uft_wake_on() || !a1)
		return f(nr, a1, a2, a3, a4, a5, a6);
	int cmd = (int)a2 & FUTEX_CMD_MASK;
	switch (cmd) {
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
	case FUTEX_WAKE_OP:
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
		/* a3: how many it wakes (at most); more than one is a broadcast */
		uft_wake_note((uintptr_t)a1, (int)a3 > 1);
		return f(nr, a1, a2, a3, a4, a5, a6);
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET: {
		struct uft_wait w;
		/* entered by a jump: this returns to syscall()'s caller */
		uft_wait_begin(&w, (uintptr_t)a1, (uintptr_t)__builtin_return_address(0));
		long rc = f(nr, a1, a2, a3, a4, a5, a6);
		uft_wait_end(&w, rc == 0);
		return rc;
	}
	default:
		return f(nr, a1, a2, a3, a4, a5, a6);
	}
}

/* The entry: libc's syscall() when it is resolved and no wakeup tracer is
 * current (one load of each, two predicted branches), else the C function
 * above, the arguments as they came. */
#define WAKES_MASK 0x2c
_Static_assert(WAKES_MASK == UFT_CSECT_WAKES, "the entry's test of uft_csect_type");
#ifdef __CET__
#define ENDBR "	endbr64\n"
#else
#define ENDBR ""
#endif
#define STR_(x) #x
#define STR(x) STR_(x)
__asm__(".text\n"
	".globl syscall\n"
	".type syscall, @function\n"
	".p2align 4\n"
	"syscall:\n"
	"	.cfi_startproc\n" ENDBR "	movq uft_real_syscall(%rip), %rax\n"
	"	testq %rax, %rax\n"
	"	jz 1f\n"
	"	testl $" STR(WAKES_MASK) ", uft_csect_type(%rip)\n"
					 "	jnz 1f\n"
					 "	jmp *%rax\n"
					 "1:	jmp uft_syscall_slow\n"
					 "	.cfi_endproc\n"
					 ".size syscall, .-syscall\n");
