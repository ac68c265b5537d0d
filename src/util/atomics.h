/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one atomics vocabulary of uft, with the kernel's names where it has
 * them, so that each ordering can be found with grep (a release store and
 * the acquire load it pairs with). Built on the GCC __atomic builtins, which
 * work on plain integers and pointers: shared fields need no _Atomic, and
 * no shared field is accessed any other way (the public fast-path headers in
 * include/uft/, which cannot include this one, excepted). Every macro still
 * accepts an _Atomic object (the cast below drops the qualifier: same size and
 * representation for lock-free types).
 *
 *   READ_ONCE / WRITE_ONCE          relaxed; a single, untorn access
 *   smp_load_acquire / smp_store_release
 *   uft_load_seq_cst / uft_store_seq_cst
 *   uft_xchg, uft_try_cmpxchg*       read-modify-write
 *   uft_fetch_<op>[_<order>], uft_<op>_return[_<order>], uft_or/and_relaxed
 *   uft_fence_acquire, uft_fence_release   thread fences
 *   barrier                          compiler-only: against signal handlers
 *
 * All are async-signal-safe (lock-free for the 1-8 byte types uft uses). */
#ifndef UFT_UTIL_ATOMICS_H
#define UFT_UTIL_ATOMICS_H

/* `p` as a pointer to the unqualified type (a comma expression's value has
 * no qualifiers, _Atomic included). */
#define uft__unqual(p) ((__typeof__((void)0, *(p)) *)(p))

#define READ_ONCE(x) __atomic_load_n(uft__unqual(&(x)), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(uft__unqual(&(x)), (v), __ATOMIC_RELAXED)

#define smp_load_acquire(p) __atomic_load_n(uft__unqual(p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(uft__unqual(p), (v), __ATOMIC_RELEASE)

/* Sequentially consistent, what <stdatomic.h> does without _explicit. */
#define uft_load_seq_cst(p) __atomic_load_n(uft__unqual(p), __ATOMIC_SEQ_CST)
#define uft_store_seq_cst(p, v) __atomic_store_n(uft__unqual(p), (v), __ATOMIC_SEQ_CST)

/* Stores v, returns the old value; fully ordered. */
#define uft_xchg(p, v) __atomic_exchange_n(uft__unqual(p), (v), __ATOMIC_SEQ_CST)

/* If *p == *old, stores new and returns true; else loads *p into *old and
 * returns false. The suffix is the order on success; failure is relaxed
 * except for the fully ordered form. */
#define uft__try_cmpxchg(p, old, new, ok, bad)                                                     \
	__atomic_compare_exchange_n(uft__unqual(p), (old), (new), 0, ok, bad)
#define uft_try_cmpxchg(p, old, new)                                                               \
	uft__try_cmpxchg(p, old, new, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define uft_try_cmpxchg_release(p, old, new)                                                       \
	uft__try_cmpxchg(p, old, new, __ATOMIC_RELEASE, __ATOMIC_RELAXED)
#define uft_try_cmpxchg_acquire(p, old, new)                                                       \
	uft__try_cmpxchg(p, old, new, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)
/* Acquire and release on success, acquire on failure. */
#define uft_try_cmpxchg_acq_rel(p, old, new)                                                       \
	uft__try_cmpxchg(p, old, new, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
#define uft_try_cmpxchg_relaxed(p, old, new)                                                       \
	uft__try_cmpxchg(p, old, new, __ATOMIC_RELAXED, __ATOMIC_RELAXED)

/* Arithmetic: fetch_ returns the old value, _return the new one. */
#define uft_fetch_add(p, v) __atomic_fetch_add(uft__unqual(p), (v), __ATOMIC_SEQ_CST)
#define uft_add_return(p, v) __atomic_add_fetch(uft__unqual(p), (v), __ATOMIC_SEQ_CST)
#define uft_add_return_acq_rel(p, v) __atomic_add_fetch(uft__unqual(p), (v), __ATOMIC_ACQ_REL)
#define uft_sub_return_acq_rel(p, v) __atomic_sub_fetch(uft__unqual(p), (v), __ATOMIC_ACQ_REL)
#define uft_fetch_add_relaxed(p, v) __atomic_fetch_add(uft__unqual(p), (v), __ATOMIC_RELAXED)
#define uft_fetch_add_release(p, v) __atomic_fetch_add(uft__unqual(p), (v), __ATOMIC_RELEASE)
#define uft_fetch_sub_release(p, v) __atomic_fetch_sub(uft__unqual(p), (v), __ATOMIC_RELEASE)
#define uft_fetch_or_release(p, v) __atomic_fetch_or(uft__unqual(p), (v), __ATOMIC_RELEASE)
#define uft_fetch_and_acq_rel(p, v) __atomic_fetch_and(uft__unqual(p), (v), __ATOMIC_ACQ_REL)
#define uft_add_return_relaxed(p, v) __atomic_add_fetch(uft__unqual(p), (v), __ATOMIC_RELAXED)
#define uft_sub_return_relaxed(p, v) __atomic_sub_fetch(uft__unqual(p), (v), __ATOMIC_RELAXED)
#define uft_or_relaxed(p, v) ((void)__atomic_or_fetch(uft__unqual(p), (v), __ATOMIC_RELAXED))
#define uft_and_relaxed(p, v) ((void)__atomic_and_fetch(uft__unqual(p), (v), __ATOMIC_RELAXED))

#define uft_fence_acquire() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define uft_fence_release() __atomic_thread_fence(__ATOMIC_RELEASE)

/* Orders memory accesses for the compiler only: enough between a thread and
 * a signal handler that interrupts it. */
#define barrier() __atomic_signal_fence(__ATOMIC_SEQ_CST)

#endif
