/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* x86-64: the inline part of src/arch/arch.h (include that one). */
#ifndef UFT_ARCH_X86_64_ARCH_H
#define UFT_ARCH_X86_64_ARCH_H

#include <stdint.h>
#include <x86intrin.h>

#define UFT_ARCH_SLED 5			   /* call or jmp rel32 */
#define UFT_ARCH_STUB 16		   /* three rel32 branches and an int3 */
#define UFT_ARCH_THUNK 16		   /* jmp *0(%rip) and the address, padded */
#define UFT_ARCH_REACH 0x7fff0000u	   /* rel32, with a margin */
#define UFT_ARCH_USER_TOP 0x7ffffffff000ul /* 47-bit user space */

static inline __attribute__((always_inline)) uint64_t uft_arch_cycles(void)
{
	return __rdtsc();
}

/* The cpu_id of the calling thread's rseq area (glibc's registration, at
 * rseq_offset from the thread pointer: %fs on x86-64). */
static inline __attribute__((always_inline)) uint32_t uft_arch_rseq_cpu(long rseq_offset)
{
	uint32_t cpu;
	__asm__ volatile("movl %%fs:(%1), %0" : "=r"(cpu) : "r"(rseq_offset + 4));
	return cpu;
}

/* A stub is call GRAPH; call BODY; jmp RETURN: the body's call returns one
 * rel32 call after the first one. */
static inline __attribute__((always_inline)) uintptr_t uft_arch_stub_body_ret(uintptr_t in_stub)
{
	return in_stub + 5;
}

/* The stores of new code complete before anything after (the other
 * cores then serialize through a membarrier: ftrace_patch.c). */
static inline __attribute__((always_inline)) void uft_arch_code_written(void)
{
	__builtin_ia32_mfence();
}

/* A serializing instruction on this core: cpuid, which every x86-64 has
 * (Intel SDM vol. 3, 8.1.3: code written by another core, or by this one
 * through another mapping, runs as written after one). */
static inline __attribute__((always_inline)) void uft_arch_serialize(void)
{
	uint32_t a = 0, b, c = 0, d;
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d)::"memory");
}

#endif
