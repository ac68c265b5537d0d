/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Instruction-boundary probes (ftrace_insn_probe.c): which instructions a
 * 5-byte jump at a point displaces, whether they can run elsewhere, and
 * their copy relocated to a stub. Decoding is capstone's, loaded with
 * dlopen() the first time a point needs it, so a program that never puts a
 * probe off a sled never maps it. Control path only. */
#ifndef UFT_LIB_INSN_DECODE_H
#define UFT_LIB_INSN_DECODE_H

#include <stddef.h>
#include <stdint.h>

#define UFT_INSN_JUMP 5	    /* jmp rel32: what a point is overwritten with */
#define UFT_INSN_MAX 8	    /* displaced instructions at most */
#define UFT_INSN_RANGE 24   /* bytes displaced at most (4 + one 15-byte instruction, rounded) */
#define UFT_INSN_ABS_JMP 14 /* jmp *0(%rip); .quad target */

enum uft_insn_kind {
	UFT_INSN_PLAIN,	 /* runs anywhere as it is (also ret, jmp *%reg) */
	UFT_INSN_RIPREL, /* a %rip-relative operand: its disp32 is moved */
	UFT_INSN_JMP,	 /* jmp rel: an absolute jump */
	UFT_INSN_JCC,	 /* jcc rel: the opposite jcc over an absolute jump */
	UFT_INSN_CALL,	 /* call rel, last only: pushes the original return */
};

struct uft_insn {
	uint8_t off;  /* from the point */
	uint8_t size; /* bytes */
	uint8_t kind; /* enum uft_insn_kind */
	uint8_t disp; /* RIPREL: the disp32's offset in the instruction */
	uint8_t cc;   /* JCC: the condition (low nibble of the opcode) */
	uint64_t target;
};

/* What the jump at `point` displaces. */
struct uft_insn_plan {
	uintptr_t point;
	uint8_t len; /* bytes displaced, >= UFT_INSN_JUMP */
	uint8_t nr;
	struct uft_insn insn[UFT_INSN_MAX];
};

/* Plans a point in the function [fstart, fstart + fsize): 0, -EILSEQ (not
 * an instruction boundary), -EOPNOTSUPP (cannot be moved: *why says what),
 * -ENOSYS (no capstone: *why says so) or -ENOMEM. The whole function is
 * decoded: a relative branch of it into the displaced bytes (past their
 * first) refuses the point. */
int uft_insn_plan(uintptr_t fstart, size_t fsize, uintptr_t point, struct uft_insn_plan *plan,
		  const char **why);

/* Writes the displaced instructions as they run at `at` into out (room
 * `cap`), then a jump back after them; soff[i] is where instruction i
 * starts. Returns the bytes written, or -1 (a displacement out of reach). */
int uft_insn_relocate(const struct uft_insn_plan *plan, uintptr_t at, uint8_t *out, size_t cap,
		      uint16_t *soff);

#endif
