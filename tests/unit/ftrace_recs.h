/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building function tracer records in tests, and the kernel's format texts
 * of ftrace:function, funcgraph_entry and funcgraph_exit (6.5+, with
 * CONFIG_FUNCTION_GRAPH_RETVAL: the exit has retval; ftr_exit_format_old is
 * the layout before). */
#ifndef UFT_TEST_FTRACE_RECS_H
#define UFT_TEST_FTRACE_RECS_H

#include <stdint.h>
#include <string.h>

#include "wire/ftrace_records.h"

#define FTR_COMMON_FIELDS                                                                          \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char ftr_function_format[] =
    "name: function\nID: 1\nformat:\n" FTR_COMMON_FIELDS
    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\nprint fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static const char ftr_entry_format[] =
    "name: funcgraph_entry\nID: 11\nformat:\n" FTR_COMMON_FIELDS
    "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
    "\nprint fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char ftr_exit_format[] =
    "name: funcgraph_exit\nID: 10\nformat:\n" FTR_COMMON_FIELDS
    "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long retval;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:int depth;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int overrun;\toffset:28;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned long long calltime;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long long rettime;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\nprint fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d retval: %lx\", "
    "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth, REC->retval\n";

static const char ftr_exit_format_old[] =
    "name: funcgraph_exit\nID: 10\nformat:\n" FTR_COMMON_FIELDS
    "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\nprint fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
    "REC->depth, REC->calltime, REC->rettime, REC->depth\n";

/* Records of pid (the structs have no implicit padding: every byte is set). */
static inline struct uft_rec_function ftr_fn(int pid, uint64_t ip, uint64_t parent)
{
	return (struct uft_rec_function){
	    .common = {.type = UFT_ID_FUNCTION, .pid = pid}, .ip = ip, .parent_ip = parent};
}

static inline struct uft_rec_funcgraph_entry ftr_ent(int pid, uint64_t func, int depth)
{
	return (struct uft_rec_funcgraph_entry){
	    .common = {.type = UFT_ID_FUNCGRAPH_ENTRY, .pid = pid}, .func = func, .depth = depth};
}

static inline struct uft_rec_funcgraph_exit ftr_exit(int pid, uint64_t func, int depth,
						     uint64_t calltime, uint64_t rettime)
{
	return (struct uft_rec_funcgraph_exit){
	    .common = {.type = UFT_ID_FUNCGRAPH_EXIT, .pid = pid},
	    .func = func,
	    .depth = depth,
	    .calltime = calltime,
	    .rettime = rettime};
}

static inline struct uft_rec_funcgraph_exit ftr_exit_ret(int pid, uint64_t func, int depth,
							 uint64_t calltime, uint64_t rettime,
							 uint64_t retval)
{
	struct uft_rec_funcgraph_exit x = ftr_exit(pid, func, depth, calltime, rettime);
	x.retval = retval;
	return x;
}

#endif
