/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seccomp filter of a launched tracee. A selected call returns
 * SECCOMP_RET_TRACE, which stops the tracee at PTRACE_EVENT_SECCOMP; every
 * other call runs without any stop, so an unselected call costs only the
 * filter's few instructions. Each selected number is one compare and one
 * return, so no jump is farther than one instruction (BPF jumps are 8 bits). */
#include "proctrace/seccomp_filter.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define X32_BIT 0x40000000u

void pt_bpf_build(const struct pt_sysset *set, struct pt_bpf *out)
{
	unsigned n = 0;
	struct sock_filter *f = out->insns;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (unsigned nr = 0; nr < PT_MAX_SYSCALL; nr++) {
		if (!pt_sysset_has(set, nr))
			continue;
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	out->len = (unsigned short)n;
}

int pt_bpf_install(const struct pt_bpf *prog)
{
	struct sock_fprog fp = {prog->len, (struct sock_filter *)prog->insns};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -errno;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) != 0)
		return -errno;
	return 0;
}
