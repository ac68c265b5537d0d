/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Trampolines of the function tracers (x86-64, System V).
 *
 * uft_ftrace_caller: a sled patched with a call reaches it (through a jump
 * near the object), so 0(%rsp) is the sled's end and 8(%rsp) the traced
 * function's return address. Every register that may carry an argument is
 * saved (rdi rsi rdx rcx r8 r9, rax for the vector count, r10 for the static
 * chain, xmm0-7; rbx r12-r15 too, for the dynamic probes' snapshot), the C
 * hook runs with the stack aligned, and everything returns to the
 * function's body untouched.
 *
 * uft_ftrace_graph_caller: a sled patched with a jump goes to the site's
 * stub, whose first call reaches it: 0(%rsp) is the stub's second
 * instruction, `call BODY`, and 8(%rsp) the function's return address. When
 * the C hook takes the return (0), that address is on the shadow stack and
 * its slot is given up: the stub's call of the body puts the stub's third
 * instruction, `jmp uft_ftrace_return`, in its place. Every call then has
 * its own return and the processor predicts them all. When the hook does not
 * take it, the hook gives the body's address and we go there directly.
 *
 * uft_ftrace_return: a hooked return lands here with rsp just above the
 * slot. The return value registers (rax rdx xmm0 xmm1) are saved, the C hook
 * gets rax (the exit record's retval), pops the shadow stack and gives back
 * the real return address, and a return goes there: the address the
 * processor expects next, as the stub balanced its calls. */
	.text
	/* libuft's own: called directly, not through the PLT. */
	.hidden uft_ftrace_entry
	.hidden uft_ftrace_graph_entry
	.hidden uft_ftrace_exit
	.hidden uft_ftrace_graph_fast
	.hidden uft_ftrace_exit_fast
	.hidden uft_ftrace_stop_now

/* Saves the argument registers on an aligned frame, rbp being the caller's
 * rsp minus 8 (0(%rbp) the saved rbp, 8(%rbp) our return address). */
	.macro SAVE_ARGS
	pushq %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq %rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq $-16, %rsp
	subq $256, %rsp
	movq %rdi, 0(%rsp)
	movq %rsi, 8(%rsp)
	movq %rdx, 16(%rsp)
	movq %rcx, 24(%rsp)
	movq %r8, 32(%rsp)
	movq %r9, 40(%rsp)
	movq %rax, 48(%rsp)
	movq %r10, 56(%rsp)
	movq %r11, 64(%rsp)
	.endm

	.macro SAVE_XMM
	movdqa %xmm0, 80(%rsp)
	movdqa %xmm1, 96(%rsp)
	movdqa %xmm2, 112(%rsp)
	movdqa %xmm3, 128(%rsp)
	movdqa %xmm4, 144(%rsp)
	movdqa %xmm5, 160(%rsp)
	movdqa %xmm6, 176(%rsp)
	movdqa %xmm7, 192(%rsp)
	.endm

	.macro RESTORE_XMM
	movdqa 80(%rsp), %xmm0
	movdqa 96(%rsp), %xmm1
	movdqa 112(%rsp), %xmm2
	movdqa 128(%rsp), %xmm3
	movdqa 144(%rsp), %xmm4
	movdqa 160(%rsp), %xmm5
	movdqa 176(%rsp), %xmm6
	movdqa 192(%rsp), %xmm7
	.endm

/* Jumps to `label` when the thread was signaled to stop while in a hook
 * (uft_ftrace_stop_pending, an initial-exec TLS word). Clobbers rcx. */
	.macro IF_STOP_PENDING label
	movq uft_ftrace_stop_pending@gottpoff(%rip), %rcx
	cmpl $0, %fs:(%rcx)
	jne \label
	.endm

	.macro RESTORE_ARGS
	movq 0(%rsp), %rdi
	movq 8(%rsp), %rsi
	movq 16(%rsp), %rdx
	movq 24(%rsp), %rcx
	movq 32(%rsp), %r8
	movq 40(%rsp), %r9
	movq 48(%rsp), %rax
	movq 56(%rsp), %r10
	movq %rbp, %rsp
	popq %rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	.endm

	.globl uft_ftrace_caller
	.hidden uft_ftrace_caller
	.type uft_ftrace_caller, @function
uft_ftrace_caller:
	.cfi_startproc
	SAVE_ARGS
	SAVE_XMM
	/* The callee-saved registers too, for the dynamic probes' snapshot. */
	movq %rbx, 208(%rsp)
	movq %r12, 216(%rsp)
	movq %r13, 224(%rsp)
	movq %r14, 232(%rsp)
	movq %r15, 240(%rsp)
	movq 8(%rbp), %rdi	/* the sled's end */
	leaq 16(%rbp), %rsi	/* the slot of the function's return address */
	movq %rsp, %rdx		/* the saved registers */
	call uft_ftrace_entry
	RESTORE_XMM
	movq 64(%rsp), %r11
	RESTORE_ARGS
	ret
	.cfi_endproc
	.size uft_ftrace_caller, .-uft_ftrace_caller

	.globl uft_ftrace_graph_caller
	.hidden uft_ftrace_graph_caller
	.type uft_ftrace_graph_caller, @function
uft_ftrace_graph_caller:
	.cfi_startproc
	SAVE_ARGS
	movq 8(%rbp), %rdi	/* in the stub */
	leaq 16(%rbp), %rsi	/* the slot of the function's return address */
	call uft_ftrace_graph_fast
	cmpq $1, %rax
	je 3f
	testq %rax, %rax	/* a stop is due only after a hook that ran */
	jnz 2f
	IF_STOP_PENDING 4f
2:	movq %rax, %r11
	RESTORE_ARGS
	testq %r11, %r11
	jnz 1f
	/* Taken: our return address moves into the slot, which the stub's
	 * call of the body then fills with the return hook. */
	.cfi_remember_state
	popq %r11
	.cfi_def_cfa_offset 0
	.cfi_register %rip, %r11
	movq %r11, (%rsp)
	.cfi_def_cfa_offset 8
	.cfi_offset %rip, -8
	ret
1:	/* Not taken: into the body, the function's return untouched. */
	.cfi_restore_state
	movq %r11, (%rsp)
	ret
	/* The vector registers are saved only for the general hook and the
	 * stop (C code that may use them). */
3:	.cfi_def_cfa %rbp, 16
	.cfi_offset %rbp, -16
	SAVE_XMM
	movq 8(%rbp), %rdi
	leaq 16(%rbp), %rsi
	call uft_ftrace_graph_entry
	RESTORE_XMM
	jmp 2b
4:	SAVE_XMM
	movq %rax, 64(%rsp)
	call uft_ftrace_stop_now
	movq 64(%rsp), %rax
	RESTORE_XMM
	jmp 2b
	.cfi_endproc
	.size uft_ftrace_graph_caller, .-uft_ftrace_graph_caller

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
	leaq 8(%rbp), %rdi	/* the stack pointer after the return */
	movq %rax, %rsi		/* the return value (funcgraph_exit's retval) */
	call uft_ftrace_exit_fast
	testq %rax, %rax
	jz 3f
	IF_STOP_PENDING 4f
2:	movq %rax, %r11		/* where the function really returns */
	movq 0(%rsp), %rax
	movq 8(%rsp), %rdx
	movq %rbp, %rsp
	popq %rbp
	pushq %r11
	ret
3:	movdqa %xmm0, 16(%rsp)
	movdqa %xmm1, 32(%rsp)
	leaq 8(%rbp), %rdi
	movq 0(%rsp), %rsi
	movq 8(%rsp), %rdx	/* rdx too, for the return probes' %dx */
	call uft_ftrace_exit
	movdqa 16(%rsp), %xmm0
	movdqa 32(%rsp), %xmm1
	jmp 2b
4:	movdqa %xmm0, 16(%rsp)
	movdqa %xmm1, 32(%rsp)
	movq %rax, 48(%rsp)
	call uft_ftrace_stop_now
	movq 48(%rsp), %rax
	movdqa 16(%rsp), %xmm0
	movdqa 32(%rsp), %xmm1
	jmp 2b
	.size uft_ftrace_return, .-uft_ftrace_return

	.section .note.GNU-stack,"",@progbits
