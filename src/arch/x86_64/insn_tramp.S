/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The common trampoline of instruction-boundary probes (x86-64).
 *
 * A point's stub (ftrace_insn_probe.c) steps over the red zone (a leaf
 * function may keep data below its stack pointer) and calls this through
 * the address stored in the stub, so 0(%rsp) is the return into the stub
 * and the probed instruction's stack pointer is 136 bytes above. Everything
 * the interrupted code may hold live is saved: the flags, the sixteen
 * general registers, and xmm0-15 (a point inside a function, unlike a
 * function's entry, may have any of them live). The frame handed to
 * uft_insn_probe_hit is, from its start: r15 r14 r13 r12 rbp rbx r11 r10 r9
 * r8 rdi rsi rdx rcx rax flags, then the return into the stub. The upper
 * halves of ymm/zmm registers are not saved (as for the function tracer's
 * trampoline). The direction flag is cleared for the C code, as its ABI
 * wants, and put back with the other flags. */
	.text
	.hidden uft_insn_probe_hit
	.globl uft_insn_tramp
	.hidden uft_insn_tramp
	.type uft_insn_tramp, @function
	.p2align 4
uft_insn_tramp:
	.cfi_startproc
	pushfq
	.cfi_adjust_cfa_offset 8
	cld
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	.cfi_adjust_cfa_offset 80
	.cfi_offset %rbx, -96
	pushq %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -104
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	.cfi_adjust_cfa_offset 32
	movq %rsp, %rbx
	.cfi_def_cfa_register %rbx
	andq $-16, %rsp
	subq $256, %rsp
	movdqa %xmm0, 0(%rsp)
	movdqa %xmm1, 16(%rsp)
	movdqa %xmm2, 32(%rsp)
	movdqa %xmm3, 48(%rsp)
	movdqa %xmm4, 64(%rsp)
	movdqa %xmm5, 80(%rsp)
	movdqa %xmm6, 96(%rsp)
	movdqa %xmm7, 112(%rsp)
	movdqa %xmm8, 128(%rsp)
	movdqa %xmm9, 144(%rsp)
	movdqa %xmm10, 160(%rsp)
	movdqa %xmm11, 176(%rsp)
	movdqa %xmm12, 192(%rsp)
	movdqa %xmm13, 208(%rsp)
	movdqa %xmm14, 224(%rsp)
	movdqa %xmm15, 240(%rsp)
	movq %rbx, %rdi
	call uft_insn_probe_hit
	movdqa 0(%rsp), %xmm0
	movdqa 16(%rsp), %xmm1
	movdqa 32(%rsp), %xmm2
	movdqa 48(%rsp), %xmm3
	movdqa 64(%rsp), %xmm4
	movdqa 80(%rsp), %xmm5
	movdqa 96(%rsp), %xmm6
	movdqa 112(%rsp), %xmm7
	movdqa 128(%rsp), %xmm8
	movdqa 144(%rsp), %xmm9
	movdqa 160(%rsp), %xmm10
	movdqa 176(%rsp), %xmm11
	movdqa 192(%rsp), %xmm12
	movdqa 208(%rsp), %xmm13
	movdqa 224(%rsp), %xmm14
	movdqa 240(%rsp), %xmm15
	movq %rbx, %rsp
	.cfi_def_cfa_register %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rax
	popfq
	ret
	.cfi_endproc
	.size uft_insn_tramp, .-uft_insn_tramp
	.globl uft_insn_tramp_end
	.hidden uft_insn_tramp_end
uft_insn_tramp_end:
	.section .note.GNU-stack,"",@progbits
