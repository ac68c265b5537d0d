/* Trampolines of the function tracers (x86-64, System V).
 *
 * uft_ftrace_caller: a patched sled calls it (through a jump near the
 * object), so 0(%rsp) is the sled's end and 8(%rsp) the traced function's
 * return address. Every register that may carry an argument is saved
 * (rdi rsi rdx rcx r8 r9, rax for the vector count, r10 for the static chain,
 * xmm0-7), the C hook runs with the stack aligned, and everything returns to
 * the function's body untouched.
 *
 * uft_ftrace_return: the graph hook put its address in place of a return
 * address; the function returns here with rsp just above that slot. The
 * return value registers (rax rdx xmm0 xmm1) are saved, the C hook pops the
 * shadow stack and gives back the real return address, and we jump there. */
	.text
	/* libuft's own: called directly, not through the PLT. */
	.hidden uft_ftrace_entry
	.hidden uft_ftrace_exit

	.globl uft_ftrace_caller
	.hidden uft_ftrace_caller
	.type uft_ftrace_caller, @function
uft_ftrace_caller:
	.cfi_startproc
	pushq %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq %rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq $-16, %rsp
	subq $208, %rsp
	movq %rdi, 0(%rsp)
	movq %rsi, 8(%rsp)
	movq %rdx, 16(%rsp)
	movq %rcx, 24(%rsp)
	movq %r8, 32(%rsp)
	movq %r9, 40(%rsp)
	movq %rax, 48(%rsp)
	movq %r10, 56(%rsp)
	movq %r11, 64(%rsp)
	movdqa %xmm0, 80(%rsp)
	movdqa %xmm1, 96(%rsp)
	movdqa %xmm2, 112(%rsp)
	movdqa %xmm3, 128(%rsp)
	movdqa %xmm4, 144(%rsp)
	movdqa %xmm5, 160(%rsp)
	movdqa %xmm6, 176(%rsp)
	movdqa %xmm7, 192(%rsp)
	movq 8(%rbp), %rdi	/* the sled's end */
	leaq 16(%rbp), %rsi	/* the slot of the function's return address */
	call uft_ftrace_entry
	movq 0(%rsp), %rdi
	movq 8(%rsp), %rsi
	movq 16(%rsp), %rdx
	movq 24(%rsp), %rcx
	movq 32(%rsp), %r8
	movq 40(%rsp), %r9
	movq 48(%rsp), %rax
	movq 56(%rsp), %r10
	movq 64(%rsp), %r11
	movdqa 80(%rsp), %xmm0
	movdqa 96(%rsp), %xmm1
	movdqa 112(%rsp), %xmm2
	movdqa 128(%rsp), %xmm3
	movdqa 144(%rsp), %xmm4
	movdqa 160(%rsp), %xmm5
	movdqa 176(%rsp), %xmm6
	movdqa 192(%rsp), %xmm7
	movq %rbp, %rsp
	popq %rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size uft_ftrace_caller, .-uft_ftrace_caller

	.globl uft_ftrace_return
	.hidden uft_ftrace_return
	.type uft_ftrace_return, @function
uft_ftrace_return:
	/* No CFI on purpose: unwinding never crosses it (the unwinder hooks
	 * put the real return addresses back first). */
	pushq %rbp
	movq %rsp, %rbp
	andq $-16, %rsp
	subq $64, %rsp
	movq %rax, 0(%rsp)
	movq %rdx, 8(%rsp)
	movdqa %xmm0, 16(%rsp)
	movdqa %xmm1, 32(%rsp)
	leaq 8(%rbp), %rdi	/* the stack pointer after the return */
	call uft_ftrace_exit
	movq %rax, %r11		/* where the function really returns */
	movq 0(%rsp), %rax
	movq 8(%rsp), %rdx
	movdqa 16(%rsp), %xmm0
	movdqa 32(%rsp), %xmm1
	movq %rbp, %rsp
	popq %rbp
	jmp *%r11
	.size uft_ftrace_return, .-uft_ftrace_return

	.section .note.GNU-stack,"",@progbits
