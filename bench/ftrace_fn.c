/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The called functions of bench_ftrace: the same body, once with the 5-byte
 * NOP sled at its entry (this file is built with -fpatchable-function-entry=5
 * by bench/Makefile, except bf_plain's attribute) and once without. */
#include "ftrace_fn.h"

__attribute__((noinline, patchable_function_entry(0, 0))) unsigned bf_plain(unsigned x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

__attribute__((noinline)) unsigned bf_sled(unsigned x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}
