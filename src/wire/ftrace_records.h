/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Records of the function tracers, laid out as the kernel's ftrace entries
 * function, funcgraph_entry and funcgraph_exit (x86-64), with the ids of the
 * kernel's trace_type enum, so trace-cmd and libtraceevent decode them as
 * they decode the kernel's. Times are in the buffer's clock units
 * (nanoseconds for the ns clocks). */
#ifndef UFT_FTRACE_RECORDS_H
#define UFT_FTRACE_RECORDS_H

#include <stdint.h>

#include <uft/event.h>

#include "wire/shm_layout.h" /* UFT_ID_FUNCTION (1) */

#define UFT_ID_FUNCGRAPH_EXIT 10
#define UFT_ID_FUNCGRAPH_ENTRY 11
/* The size of a funcgraph_exit record without retval (kernels before 6.5
 * or without CONFIG_FUNCTION_GRAPH_RETVAL, uft before it had one). */
#define UFT_FUNCGRAPH_EXIT_OLD_SIZE 40

/* ftrace:function: " %ps <-- %ps", REC->ip, REC->parent_ip */
struct uft_rec_function {
	struct uft_common_entry common;
	uint64_t ip;	    /* offset 8: the traced function's entry address */
	uint64_t parent_ip; /* offset 16: the return address into its caller */
};

/* ftrace:funcgraph_entry: field graph_ent.func at 8, graph_ent.depth at 16 */
struct uft_rec_funcgraph_entry {
	struct uft_common_entry common;
	uint64_t func;
	int32_t depth;
	uint32_t pad; /* the kernel's struct ftrace_graph_ent is 16 bytes */
};

/* ftrace:funcgraph_exit as a kernel with CONFIG_FUNCTION_GRAPH_RETVAL (6.5+)
 * lays it out: func at 8, retval at 16, depth at 24, overrun at 28, calltime
 * at 32, rettime at 40. The layout before (no retval, 40 bytes) is still
 * read from older recordings: uft_graph_exit_decode (engine/text). */
struct uft_rec_funcgraph_exit {
	struct uft_common_entry common;
	uint64_t func;
	uint64_t retval; /* the return value register (x86-64: rax) */
	int32_t depth;
	uint32_t overrun;
	uint64_t calltime;
	uint64_t rettime;
};

_Static_assert(sizeof(struct uft_rec_function) == 24, "function record");
_Static_assert(sizeof(struct uft_rec_funcgraph_entry) == 24, "funcgraph_entry record");
_Static_assert(sizeof(struct uft_rec_funcgraph_exit) == 48, "funcgraph_exit record");

#endif
