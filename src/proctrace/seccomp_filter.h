/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seccomp-bpf program that makes only the selected syscalls stop a tracee. */
#ifndef UFT_PT_SECCOMP_FILTER_H
#define UFT_PT_SECCOMP_FILTER_H

#include <linux/filter.h>

#include "proctrace/syscall_table.h"

struct pt_bpf {
	unsigned short len;
	struct sock_filter insns[2 * PT_MAX_SYSCALL + 8];
};

/* SECCOMP_RET_TRACE for the calls of `set`, SECCOMP_RET_ALLOW for the rest
 * (other architectures' and x32 calls included: they are not ours to judge). */
void pt_bpf_build(const struct pt_sysset *set, struct pt_bpf *out);
/* In the child before exec: PR_SET_NO_NEW_PRIVS, then the filter. 0 or -errno.
 * Async-signal-safe (it runs between fork and exec). */
int pt_bpf_install(const struct pt_bpf *prog);

#endif
