/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Format files of three Linux kernel events (x86_64, 6.x field layouts), as
 * tracefs shows them and trace-cmd stores them; kmalloc's gfp_flags print
 * expression is shortened, the fields are the kernel's. */
#ifndef KERNEL_FORMATS_H
#define KERNEL_FORMATS_H

#define KF_COMMON                                                                                  \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                                 \
	"\n"

#define KF_SCHED_SWITCH_ID 316
static const char kf_sched_switch[] =
    "name: sched_switch\n"
    "ID: 316\n"
    "format:\n" KF_COMMON "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
    "next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
    "(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
    "0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
    "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
    "0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
    "\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
    "0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
    "REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
    "0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
    "REC->next_pid, REC->next_prio\n";

#define KF_SYS_ENTER_ID 22
static const char kf_sys_enter[] =
    "name: sys_enter\n"
    "ID: 22\n"
    "format:\n" KF_COMMON "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
    "\n"
    "print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
    "REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n";

#define KF_KMALLOC_ID 470
static const char kf_kmalloc[] =
    "name: kmalloc\n"
    "ID: 470\n"
    "format:\n" KF_COMMON "\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t bytes_alloc;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long gfp_flags;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\tfield:int node;\toffset:48;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=%lx "
    "node=%d\", (void *)REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc, "
    "REC->gfp_flags, REC->node\n";

#endif
