/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* x86-64 code the function tracers write and read (src/arch/arch.h), and
 * the program counter of a signal context. */
#define _GNU_SOURCE
#include <string.h>
#include <ucontext.h>

#include "arch/arch.h"

enum {
	OP_NOP = 0x90,
	OP_CALL_REL32 = 0xe8,
	OP_JMP_REL32 = 0xe9,
	OP_JMP_REL8 = 0xeb,
	OP_INT3 = 0xcc,
};

bool uft_arch_is_sled(const uint8_t *p)
{
	/* gcc: five one-byte NOPs; clang: nopl 0(%rax,%rax,1) (0f 1f 44 00 00) */
	static const uint8_t nops[UFT_ARCH_SLED] = {OP_NOP, OP_NOP, OP_NOP, OP_NOP, OP_NOP};
	return memcmp(p, nops, sizeof(nops)) == 0 ||
	       (p[0] == 0x0f && p[1] == 0x1f && p[2] == 0x44 && p[3] == 0x00);
}

unsigned uft_arch_sled_skip(const uint8_t *p)
{
	return p[0] == OP_JMP_REL8 && p[1] <= 16 ? 2u + p[1] : 0;
}

/* A call or jump (op) at c to target, both within reach. */
static void put_rel(uint8_t *c, uint8_t op, uintptr_t target)
{
	int32_t rel = (int32_t)((intptr_t)target - (intptr_t)(c + 5));
	c[0] = op;
	memcpy(c + 1, &rel, sizeof(rel));
}

void uft_arch_sled_branch(uint8_t *out, uintptr_t at, uintptr_t to, bool jump)
{
	int32_t rel = (int32_t)((intptr_t)to - (intptr_t)(at + UFT_ARCH_SLED));
	out[0] = jump ? OP_JMP_REL32 : OP_CALL_REL32;
	memcpy(out + 1, &rel, sizeof(rel));
}

bool uft_arch_sled_is_branch(const uint8_t *p, bool jump)
{
	return p[0] == (jump ? OP_JMP_REL32 : OP_CALL_REL32);
}

void uft_arch_put_thunk(uint8_t *c, uintptr_t target)
{
	const uint8_t jmp[6] = {0xff, 0x25, 0, 0, 0, 0}; /* jmp *0(%rip) */
	memcpy(c, jmp, sizeof(jmp));
	memcpy(c + 6, &target, sizeof(target));
}

void uft_arch_put_stub(uint8_t *st, uintptr_t graph, uintptr_t body, uintptr_t ret)
{
	put_rel(st, OP_CALL_REL32, graph);
	put_rel(st + 5, OP_CALL_REL32, body);
	put_rel(st + 10, OP_JMP_REL32, ret);
	st[15] = OP_INT3;
}

uintptr_t uft_arch_context_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
}

void uft_arch_set_context_pc(void *uc, uintptr_t pc)
{
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
}
