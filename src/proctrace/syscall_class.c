/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Looking calls up by number and name, and the classes of a syscall set.
 *
 * The classes follow strace's meanings: %file takes a file name argument,
 * %net is the socket calls, %process is the life of processes and threads,
 * %signal is signal handling, %memory is mapping and memory management. The
 * lists are kept by hand (strace keeps its own by hand too); a name missing
 * from the table is an error of this file, caught by tests/unit/test_proctrace.c. */
#include "proctrace/syscall_table.h"

#include <stdio.h>
#include <string.h>

static const char *const class_file[] = {
    "open",
    "stat",
    "lstat",
    "access",
    "execve",
    "truncate",
    "chdir",
    "rename",
    "mkdir",
    "rmdir",
    "creat",
    "link",
    "unlink",
    "symlink",
    "readlink",
    "chmod",
    "chown",
    "lchown",
    "utime",
    "mknod",
    "uselib",
    "statfs",
    "pivot_root",
    "chroot",
    "acct",
    "mount",
    "umount2",
    "swapon",
    "swapoff",
    "setxattr",
    "lsetxattr",
    "getxattr",
    "lgetxattr",
    "listxattr",
    "llistxattr",
    "removexattr",
    "lremovexattr",
    "utimes",
    "inotify_add_watch",
    "openat",
    "mkdirat",
    "mknodat",
    "fchownat",
    "futimesat",
    "newfstatat",
    "unlinkat",
    "renameat",
    "linkat",
    "symlinkat",
    "readlinkat",
    "fchmodat",
    "faccessat",
    "utimensat",
    "fanotify_mark",
    "name_to_handle_at",
    "renameat2",
    "execveat",
    "statx",
    "open_tree",
    "move_mount",
    "fsconfig",
    "fspick",
    "openat2",
    "faccessat2",
    "mount_setattr",
    "quotactl",
    "fchmodat2",
    "setxattrat",
    "getxattrat",
    "listxattrat",
    "removexattrat",
    "open_tree_attr",
    "file_getattr",
    "file_setattr",
    NULL,
};

static const char *const class_net[] = {
    "socket",	  "connect", "accept",	 "sendto",	"recvfrom",    "sendmsg",    "recvmsg",
    "shutdown",	  "bind",    "listen",	 "getsockname", "getpeername", "socketpair", "setsockopt",
    "getsockopt", "accept4", "recvmmsg", "sendmmsg",	NULL,
};

static const char *const class_process[] = {
    "clone",
    "fork",
    "vfork",
    "execve",
    "exit",
    "wait4",
    "kill",
    "exit_group",
    "tgkill",
    "waitid",
    "execveat",
    "clone3",
    "tkill",
    "pidfd_open",
    "pidfd_send_signal",
    "rt_tgsigqueueinfo",
    "rt_sigqueueinfo",
    "unshare",
    "setns",
    NULL,
};

static const char *const class_signal[] = {
    "rt_sigaction",
    "rt_sigprocmask",
    "rt_sigreturn",
    "pause",
    "kill",
    "rt_sigpending",
    "rt_sigtimedwait",
    "rt_sigqueueinfo",
    "rt_sigsuspend",
    "sigaltstack",
    "tkill",
    "tgkill",
    "signalfd",
    "signalfd4",
    "rt_tgsigqueueinfo",
    "pidfd_send_signal",
    NULL,
};

static const char *const class_memory[] = {
    "mmap",
    "mprotect",
    "munmap",
    "brk",
    "mremap",
    "msync",
    "mincore",
    "madvise",
    "shmat",
    "shmdt",
    "mlock",
    "munlock",
    "mlockall",
    "munlockall",
    "remap_file_pages",
    "mbind",
    "set_mempolicy",
    "get_mempolicy",
    "migrate_pages",
    "move_pages",
    "mlock2",
    "pkey_mprotect",
    "process_madvise",
    "process_mrelease",
    "set_mempolicy_home_node",
    "map_shadow_stack",
    "mseal",
    NULL,
};

static const struct {
	const char *name;
	const char *const *calls;
} classes[] = {
    {"file", class_file},	{"net", class_net},	  {"network", class_net},
    {"process", class_process}, {"signal", class_signal}, {"memory", class_memory},
};

const char *const *pt_syscall_class(const char *name)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strcmp(classes[i].name, name) == 0)
			return classes[i].calls;
	return NULL;
}

const struct pt_syscall *pt_syscall_by_nr(long nr)
{
	/* The table is sorted by number with few holes: start at the slot. */
	unsigned i =
	    nr >= 0 && (unsigned long)nr < pt_nr_syscalls ? (unsigned)nr : pt_nr_syscalls - 1;
	for (;;) {
		if (pt_syscalls[i].nr == nr)
			return &pt_syscalls[i];
		if (pt_syscalls[i].nr < nr) {
			if (++i >= pt_nr_syscalls || pt_syscalls[i].nr > nr)
				return NULL;
		} else if (i-- == 0) {
			return NULL;
		}
	}
}

const struct pt_syscall *pt_syscall_by_name(const char *name)
{
	for (unsigned i = 0; i < pt_nr_syscalls; i++) {
		const struct pt_syscall *s = &pt_syscalls[i];
		if (strcmp(s->name, name) == 0 || (s->event && strcmp(s->event, name) == 0))
			return s;
	}
	return NULL;
}

static int add_item(const char *item, struct pt_sysset *set, bool remove)
{
	const char *const *calls = NULL;
	const char *single[2] = {item, NULL};
	if (item[0] == '%') {
		calls = pt_syscall_class(item + 1);
		if (!calls)
			return -1;
	} else {
		calls = single;
	}
	for (; *calls; calls++) {
		const struct pt_syscall *s = pt_syscall_by_name(*calls);
		if (!s) {
			if (calls == single)
				return -1;
			continue; /* a class member this table lacks: nothing to stop */
		}
		if (s->nr >= PT_MAX_SYSCALL)
			continue;
		if (remove)
			set->bits[s->nr / 64] &= ~(1ull << (s->nr % 64));
		else
			pt_sysset_add(set, s->nr);
	}
	return 0;
}

int pt_sysset_parse(const char *spec, struct pt_sysset *out, char *bad, unsigned badlen)
{
	memset(out, 0, sizeof(*out));
	char item[64];
	const char *p = spec;
	while (*p) {
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof(item)) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return -1;
		}
		memcpy(item, p, n);
		item[n] = 0;
		bool remove = item[0] == '!';
		if (add_item(item + remove, out, remove) != 0) {
			snprintf(bad, badlen, "%s", item);
			return -1;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}
