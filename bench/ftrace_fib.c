/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recursion the function tracing benchmarks trace in every tracer: built
 * with -fpatchable-function-entry=5 for uft (and uftrace -P), with -pg for
 * uftrace's mcount mode. */
#include "ftrace_fib.h"

__attribute__((noinline)) unsigned long bf_fib(unsigned n)
{
	if (n < 2)
		return n;
	/* Opaque to the compiler, so that each call stays a call (no loop
	 * accumulating one of the two recursions). */
	unsigned long r = bf_fib(n - 1) + bf_fib(n - 2);
	__asm__ volatile("" : "+r"(r));
	return r;
}
