/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BENCH_FTRACE_FIB_H
#define BENCH_FTRACE_FIB_H
/* fib(n) by plain recursion: 2 fib(n+1) - 1 calls. */
unsigned long bf_fib(unsigned n);
/* The calls bf_fib(n) makes. */
static inline unsigned long bf_fib_calls(unsigned n)
{
	unsigned long a = 0, b = 1; /* fib(0), fib(1) */
	for (unsigned i = 0; i <= n; i++) {
		unsigned long c = a + b;
		a = b;
		b = c;
	}
	return 2 * a - 1; /* a = fib(n + 1) */
}
#endif
