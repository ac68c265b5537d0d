/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the portable runtime needs of the processor: a cycle counter for the
 * clocks, and for the function tracers the code they write (the sled's
 * call or jump, the stubs, the jumps to the trampolines), how threads are
 * made to see rewritten code, the interrupted program counter of a signal
 * context, and the trampolines themselves. One directory per processor
 * implements it (src/arch/x86_64/: x86_64/arch.h for the inline parts, code.c, the
 * trampolines' ftrace_tramp.S). */
#ifndef UFT_ARCH_ARCH_H
#define UFT_ARCH_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__)
#include "arch/x86_64/arch.h"
#else
#error "uft: this processor has no src/arch/ directory"
#endif

/* The inline part (arch/<arch>/arch.h) defines:
 *   UFT_ARCH_SLED         bytes of the NOP sled at a function entry
 *                         (-fpatchable-function-entry), one call or jump
 *   UFT_ARCH_STUB         bytes of one stub (uft_arch_put_stub)
 *   UFT_ARCH_THUNK        bytes of one absolute jump (uft_arch_put_thunk)
 *   UFT_ARCH_REACH        how far a sled's call or jump reaches either way
 *   UFT_ARCH_USER_TOP     the end of the user address space
 *   uint64_t uft_arch_cycles(void)           the cycle counter (TSC)
 *   uint32_t uft_arch_rseq_cpu(long off)     the cpu_id of the thread's rseq
 *                         area, off bytes from the thread pointer
 *   uintptr_t uft_arch_stub_body_ret(in_stub) where a stub's call of the
 *                         body returns, from where its first call returns
 *   void uft_arch_code_written(void)         orders the writes of new code
 *                         before the threads stopped meanwhile go on
 *   void uft_arch_serialize(void)            a serializing instruction on
 *                         the calling core (code written elsewhere runs as
 *                         written after it) */

/* Whether p holds a sled as the compiler emits it. */
bool uft_arch_is_sled(const uint8_t *p);
/* Bytes to skip at a patchable entry before its sled (a jump over data a
 * compiler put first, such as clang's -fsanitize=function signature), or 0. */
unsigned uft_arch_sled_skip(const uint8_t *p);
/* Writes into out (UFT_ARCH_SLED bytes) a call (jump false) or a jump from
 * the sled at `at` to `to`, within UFT_ARCH_REACH. */
void uft_arch_sled_branch(uint8_t *out, uintptr_t at, uintptr_t to, bool jump);
/* Whether the sled at p holds a call (jump false) or jump as written by
 * uft_arch_sled_branch (its first instruction's kind only). */
bool uft_arch_sled_is_branch(const uint8_t *p, bool jump);
/* An absolute jump to `target` at c (UFT_ARCH_THUNK bytes). */
void uft_arch_put_thunk(uint8_t *c, uintptr_t target);
/* A site's stub at st (UFT_ARCH_STUB bytes): calls `graph`, then calls
 * `body` (the sled's end), then jumps to `ret`; all within reach. */
void uft_arch_put_stub(uint8_t *st, uintptr_t graph, uintptr_t body, uintptr_t ret);

/* The program counter of a signal handler's context (a ucontext_t), and
 * moving it. */
uintptr_t uft_arch_context_pc(const void *uc);
void uft_arch_set_context_pc(void *uc, uintptr_t pc);

/* The trampolines (arch/<arch>/ftrace_tramp.S): a sled patched with a call
 * reaches uft_ftrace_caller, a stub's first call uft_ftrace_graph_caller,
 * and a hooked return lands on uft_ftrace_return. Never called from C. */
extern void uft_ftrace_caller(void);
extern void uft_ftrace_graph_caller(void);
extern void uft_ftrace_return(void);

#endif
