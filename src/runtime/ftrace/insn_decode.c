/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Decoding and relocating the instructions a probe's jump displaces, with
 * capstone (dlopen()ed on first use: only the headers are needed to build).
 *
 * What may move: any instruction whose meaning does not depend on where it
 * is, a %rip-relative operand (its disp32 rewritten for the new place), a
 * relative jmp or jcc (rewritten as absolute jumps), and a relative call as
 * the last displaced instruction (it pushes the original return address,
 * so the callee returns into the original code). What may not: a call
 * before the last (a thread asleep in the callee would return into the
 * middle of the jump), loop/jrcxz/xbegin, indirect calls and %rip-relative
 * indirect jumps, and syscall/int (a thread asleep in the system call would
 * sit in the stub, which could then never be freed). */
#define _GNU_SOURCE
#include "runtime/ftrace/insn_decode.h"

#include <capstone/capstone.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

static struct {
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	size_t (*disasm)(csh, const uint8_t *, size_t, uint64_t, size_t, cs_insn **);
	void (*free)(cs_insn *, size_t);
	csh h;
	int state; /* 0 not tried, 1 loaded, -1 missing */
} cs;

static int load_capstone(void)
{
	if (cs.state)
		return cs.state;
	cs.state = -1;
	void *lib = dlopen("libcapstone.so.4", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		lib = dlopen("libcapstone.so", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return -1;
	*(void **)&cs.open = dlsym(lib, "cs_open");
	*(void **)&cs.option = dlsym(lib, "cs_option");
	*(void **)&cs.disasm = dlsym(lib, "cs_disasm");
	*(void **)&cs.free = dlsym(lib, "cs_free");
	if (!cs.open || !cs.option || !cs.disasm || !cs.free ||
	    cs.open(CS_ARCH_X86, CS_MODE_64, &cs.h) != CS_ERR_OK ||
	    cs.option(cs.h, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK)
		return -1;
	cs.state = 1;
	return 1;
}

static bool in_group(const cs_insn *in, uint8_t g)
{
	for (uint8_t i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == g)
			return true;
	return false;
}

/* The target of a relative branch, or 0. */
static uint64_t rel_target(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	if (!in_group(in, X86_GRP_JUMP) && !in_group(in, X86_GRP_CALL))
		return 0;
	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return 0;
	return (uint64_t)x->operands[0].imm;
}

static bool rip_relative(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	for (uint8_t i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.base == X86_REG_RIP)
			return true;
	return false;
}

/* Classifies one displaced instruction; NULL, or why it cannot move. */
static const char *classify(const cs_insn *in, bool last, struct uft_insn *o)
{
	const cs_x86 *x = &in->detail->x86;
	o->size = (uint8_t)in->size;
	o->kind = UFT_INSN_PLAIN;
	switch (in->id) {
	case X86_INS_SYSCALL:
	case X86_INS_SYSENTER:
	case X86_INS_INT:
	case X86_INS_INT1:
	case X86_INS_INT3:
	case X86_INS_INTO:
	case X86_INS_UD2:
		return "a system call or trap in the displaced bytes";
	case X86_INS_LOOP:
	case X86_INS_LOOPE:
	case X86_INS_LOOPNE:
	case X86_INS_JRCXZ:
	case X86_INS_JECXZ:
	case X86_INS_JCXZ:
	case X86_INS_XBEGIN:
		return "a loop, jrcxz or xbegin in the displaced bytes";
	default:
		break;
	}
	if (in_group(in, X86_GRP_INT))
		return "a system call or trap in the displaced bytes";
	uint64_t t = rel_target(in);
	if (in_group(in, X86_GRP_CALL)) {
		if (!t)
			return "an indirect call in the displaced bytes";
		if (!last)
			return "a call before the end of the displaced bytes";
		o->kind = UFT_INSN_CALL;
		o->target = t;
		return NULL;
	}
	if (in_group(in, X86_GRP_JUMP) && t) {
		o->target = t;
		if (in->id == X86_INS_JMP) {
			o->kind = UFT_INSN_JMP;
			return NULL;
		}
		/* jcc: 7x rel8 or 0f 8x rel32. */
		uint8_t op = x->opcode[0] == 0x0f ? x->opcode[1] : x->opcode[0];
		if ((op & 0xf0) != 0x70 && (op & 0xf0) != 0x80)
			return "a relative branch uft cannot rewrite";
		o->kind = UFT_INSN_JCC;
		o->cc = op & 0x0f;
		return NULL;
	}
	if (rip_relative(in)) {
		if (in_group(in, X86_GRP_JUMP))
			return "a %rip-relative indirect jump in the displaced bytes";
		if (!x->encoding.disp_offset || x->encoding.disp_size != 4)
			return "a %rip-relative operand uft cannot rewrite";
		o->kind = UFT_INSN_RIPREL;
		o->disp = x->encoding.disp_offset;
	}
	return NULL;
}

int uft_insn_plan(uintptr_t fstart, size_t fsize, uintptr_t point, struct uft_insn_plan *plan,
		  const char **why)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	memset(plan, 0, sizeof(*plan));
	plan->point = point;
	pthread_mutex_lock(&lock);
	if (load_capstone() < 0) {
		pthread_mutex_unlock(&lock);
		*why = "capstone (libcapstone.so.4) cannot be loaded";
		return -ENOSYS;
	}
	cs_insn *in = NULL;
	size_t n = cs.disasm(cs.h, (const uint8_t *)fstart, fsize, fstart, 0, &in);
	pthread_mutex_unlock(&lock);
	if (!n) {
		*why = "the function cannot be decoded";
		return -EOPNOTSUPP;
	}
	size_t first = n;
	for (size_t i = 0; i < n && first == n; i++)
		if (in[i].address == point)
			first = i;
	int rc = 0;
	if (first == n) {
		rc = -EILSEQ;
		goto out;
	}
	size_t len = 0, i = first;
	for (; i < n && len < UFT_INSN_JUMP; i++) {
		if (plan->nr == UFT_INSN_MAX || len + in[i].size > UFT_INSN_RANGE) {
			*why = "too many instructions to displace";
			rc = -EOPNOTSUPP;
			goto out;
		}
		struct uft_insn *o = &plan->insn[plan->nr++];
		o->off = (uint8_t)len;
		len += in[i].size;
		const char *bad = classify(&in[i], len >= UFT_INSN_JUMP, o);
		if (bad) {
			*why = bad;
			rc = -EOPNOTSUPP;
			goto out;
		}
	}
	if (len < UFT_INSN_JUMP || point + len > fstart + fsize) {
		*why = "fewer than 5 bytes of the function from the point";
		rc = -EOPNOTSUPP;
		goto out;
	}
	plan->len = (uint8_t)len;
	/* No branch of the function may land past the jump's first byte. */
	for (size_t k = 0; k < n; k++) {
		uint64_t t = rel_target(&in[k]);
		if (t > point && t < point + len) {
			*why = "a branch of the function lands inside the displaced bytes";
			rc = -EOPNOTSUPP;
			goto out;
		}
	}
out:
	cs.free(in, n);
	return rc;
}

static void put_abs_jmp(uint8_t *p, uint64_t target)
{
	static const uint8_t jmp[6] = {0xff, 0x25, 0, 0, 0, 0}; /* jmp *0(%rip) */
	memcpy(p, jmp, 6);
	memcpy(p + 6, &target, 8);
}

int uft_insn_relocate(const struct uft_insn_plan *plan, uintptr_t at, uint8_t *out, size_t cap,
		      uint16_t *soff)
{
	const uint8_t *src = (const uint8_t *)plan->point;
	size_t w = 0;
	for (uint8_t i = 0; i < plan->nr; i++) {
		const struct uft_insn *in = &plan->insn[i];
		if (w + 32 > cap)
			return -1;
		soff[i] = (uint16_t)w;
		uint8_t *p = out + w;
		switch (in->kind) {
		case UFT_INSN_JMP:
			put_abs_jmp(p, in->target);
			w += UFT_INSN_ABS_JMP;
			break;
		case UFT_INSN_JCC:
			p[0] = (uint8_t)(0x70 | (in->cc ^ 1)); /* the opposite: over the jump */
			p[1] = UFT_INSN_ABS_JMP;
			put_abs_jmp(p + 2, in->target);
			w += 2 + UFT_INSN_ABS_JMP;
			break;
		case UFT_INSN_CALL: {
			/* lea -8(%rsp),%rsp; movl $lo,(%rsp); movl $hi,4(%rsp): no flag changes */
			uint64_t ret = plan->point + plan->len;
			uint32_t lo = (uint32_t)ret, hi = (uint32_t)(ret >> 32);
			static const uint8_t lea[5] = {0x48, 0x8d, 0x64, 0x24, 0xf8};
			memcpy(p, lea, 5);
			p[5] = 0xc7, p[6] = 0x04, p[7] = 0x24;
			memcpy(p + 8, &lo, 4);
			p[12] = 0xc7, p[13] = 0x44, p[14] = 0x24, p[15] = 0x04;
			memcpy(p + 16, &hi, 4);
			put_abs_jmp(p + 20, in->target);
			w += 20 + UFT_INSN_ABS_JMP;
			break;
		}
		case UFT_INSN_RIPREL: {
			memcpy(p, src + in->off, in->size);
			int32_t d;
			memcpy(&d, p + in->disp, 4);
			int64_t nd =
			    (int64_t)d + (int64_t)(plan->point + in->off) - (int64_t)(at + w);
			if (nd != (int32_t)nd)
				return -1;
			d = (int32_t)nd;
			memcpy(p + in->disp, &d, 4);
			w += in->size;
			break;
		}
		default:
			memcpy(p, src + in->off, in->size);
			w += in->size;
		}
	}
	if (w + UFT_INSN_ABS_JMP > cap)
		return -1;
	put_abs_jmp(out + w, plan->point + plan->len);
	return (int)(w + UFT_INSN_ABS_JMP);
}
