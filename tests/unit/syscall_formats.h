/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Format files of kernel events the sqlhist tests join (x86_64, 6.x): the
 * read system call's entry and exit, and sched_waking. Syscall events keep
 * __syscall_nr at offset 8 and every argument in an 8-byte slot from 16. */
#ifndef SYSCALL_FORMATS_H
#define SYSCALL_FORMATS_H

#include "kernel_formats.h"

static const char kf_sys_enter_read[] =
    "name: sys_enter_read\n"
    "ID: 720\n"
    "format:\n" KF_COMMON "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"fd: 0x%08lx, buf: 0x%08lx, count: 0x%08lx\", ((unsigned long)(REC->fd)), "
    "((unsigned long)(REC->buf)), ((unsigned long)(REC->count))\n";

static const char kf_sys_exit_read[] =
    "name: sys_exit_read\n"
    "ID: 719\n"
    "format:\n" KF_COMMON "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
    "\n"
    "print fmt: \"0x%lx\", REC->ret\n";

static const char kf_sched_waking[] =
    "name: sched_waking\n"
    "ID: 318\n"
    "format:\n" KF_COMMON "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, "
    "REC->target_cpu\n";

#endif
