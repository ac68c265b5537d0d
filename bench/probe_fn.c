/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probed functions of bench_probe: bp_sled with a patchable entry (this
 * file is built with -fpatchable-function-entry=5), and bp_mid without one,
 * in assembly so that its instruction boundaries are known:
 *	+0 mov %edi,%eax  +2 add $1,%eax  +5 xor %edx,%edx  +7 add %edx,%eax  +9 ret
 * (the probe goes at +2: the add and the xor are displaced). */
#include "probe_fn.h"

__attribute__((noinline)) unsigned bp_sled(unsigned x, unsigned y)
{
	__asm__ volatile("" : "+r"(x), "+r"(y));
	return x + 1;
}

__asm__(".text\n.globl bp_mid\n.type bp_mid,@function\nbp_mid:\n"
	"mov %edi,%eax\nadd $1,%eax\nxor %edx,%edx\nadd %edx,%eax\nret\n"
	".size bp_mid,.-bp_mid\n");
