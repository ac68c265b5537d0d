/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside the probe engine: the kernel's error texts (kernel/trace/trace_probe.h
 * ERRORS) and the argument compiler's interface to the line parser. */
#ifndef UFT_ENGINE_PROBE_IMPL_H
#define UFT_ENGINE_PROBE_IMPL_H

#include "engine/probe/probe.h"

#define E_BAD_MAXACT "Invalid maxactive number"
#define E_MAXACT_TOO_BIG "Maxactive is too big"
#define E_BAD_MAXACT_TYPE "Maxactive is only for function exit"
#define E_MAXACT_NO_KPROBE "Maxactive is not for uprobe"
#define E_BAD_PROBE_ADDR "Invalid probed address or symbol"
#define E_BAD_RETPROBE "Retprobe address must be an function entry"
#define E_BAD_ADDR_SUFFIX "Invalid probed address suffix"
#define E_NO_GROUP_NAME "Group name is not specified"
#define E_GROUP_TOO_LONG "Group name is too long"
#define E_BAD_GROUP_NAME "Group name must follow the same rules as C identifiers"
#define E_NO_EVENT_NAME "Event name is not specified"
#define E_EVENT_TOO_LONG "Event name is too long"
#define E_BAD_EVENT_NAME "Event name must follow the same rules as C identifiers"
#define E_EVENT_EXIST "Given group/event name is already used by another event"
#define E_RETVAL_ON_PROBE "$retval is not available on probe"
#define E_NOFENTRY_ARGS "$arg* can be used only on function entry or exit"
#define E_BAD_STACK_NUM "Invalid stack number"
#define E_BAD_ARG_NUM "Invalid argument number"
#define E_BAD_VAR "Invalid $-valiable specified"
#define E_BAD_REG_NAME "Invalid register name"
#define E_BAD_MEM_ADDR "Invalid memory address"
#define E_BAD_IMM "Invalid immediate value"
#define E_IMMSTR_NO_CLOSE "String is not closed with '\"'"
#define E_FILE_ON_KPROBE "File offset is not available with kprobe"
#define E_BAD_FILE_OFFS "Invalid file offset value"
#define E_SYM_ON_UPROBE "Symbol is not available with uprobe"
#define E_TOO_MANY_OPS "Dereference is too much nested"
#define E_DEREF_NEED_BRACE "Dereference needs a brace"
#define E_BAD_DEREF_OFFS "Invalid dereference offset"
#define E_DEREF_OPEN_BRACE "Dereference brace is not closed"
#define E_COMM_CANT_DEREF "$comm can not be dereferenced"
#define E_BAD_FETCH_ARG "Invalid fetch argument"
#define E_ARRAY_NO_CLOSE "Array is not closed"
#define E_BAD_ARRAY_SUFFIX "Array has wrong suffix"
#define E_BAD_ARRAY_NUM "Invalid array size"
#define E_ARRAY_TOO_BIG "Array number is too big"
#define E_BAD_TYPE "Unknown type is specified"
#define E_BAD_STRING "String accepts only memory argument"
#define E_BAD_SYMSTRING "Symbol String doesn't accept data/userdata"
#define E_BAD_BITFIELD "Invalid bitfield"
#define E_ARG_NAME_TOO_LONG "Argument name is too long"
#define E_NO_ARG_NAME "Argument name is not specified"
#define E_BAD_ARG_NAME "Argument name must follow the same rules as C identifiers"
#define E_USED_ARG_NAME "This argument name is already used"
#define E_ARG_TOO_LONG "Argument expression is too long"
#define E_NO_ARG_BODY "No argument expression"
#define E_NEED_STRING_TYPE "$comm and immediate-string only accepts string type"
#define E_NOSUP_BTFARG "BTF is not available or not supported"
#define E_NO_BTFARG "This variable is not found at this probe point"
#define E_NO_BTF_ENTRY "No BTF entry for this probe point"
#define E_BAD_VAR_ARGS "$arg* must be an independent parameter without name etc."
#define E_DOUBLE_ARGS "$arg* can be used only once in the parameters"
#define E_ARGS_2LONG "$arg* failed because the argument list is too long"
#define E_NO_RETVAL "This function returns 'void' type"
#define E_NO_PTR_STRCT "This is not a pointer to union/structure."
#define E_NOSUP_DAT_ARG "Non pointer structure/union argument is not supported."
#define E_BAD_HYPHEN "Failed to parse single hyphen. Forgot '>'?"
#define E_NO_BTF_FIELD "This field is not found."
#define E_BAD_BTF_TID "Failed to get BTF type info."
#define E_BAD_TYPE4STR "This type does not fit for string."
/* uft's own: the kernel's BTF args have no index. */
#define E_BAD_INDEX "Invalid array index"
#define E_NOT_ARRAY "This is not an array or a pointer."
#define E_TOO_MANY_ARGS "Too many arguments are specified"
#define E_BAD_UPROBE_OFFS "Invalid uprobe offset"
#define E_BAD_REFCNT "Invalid reference counter offset"
#define E_REFCNT_OPEN_BRACE "Reference counter brace is not closed"
#define E_BAD_REFCNT_SUFFIX "Reference counter has wrong suffix"
#define E_NO_EVENT_INFO "This requires both group and event name to attach"
#define E_BAD_ATTACH_EVENT "Attached event does not exist"
#define E_NO_EP_FILTER "No filter rule after 'if'"
#define E_DIFF_PROBE_TYPE "Probe type is different from existing probe"
#define E_DIFF_ARG_TYPE "Argument type or name is different from existing probe"
#define E_SAME_PROBE "There is already the exact same probe event"

/* Where an error is: the word (index into the split line) and the offset in it. */
struct uft_probe_errpos {
	const char *msg;
	int index;
	unsigned offset;
};

/* What a name compiled from DWARF leaves for the type: the fetch type its
 * DWARF type gives (NULL: the default x64), a bitfield, and what `:string`
 * makes of it (probe_dwarf.c). */
enum { UFT_DW_STR_NO, UFT_DW_STR_PTR, UFT_DW_STR_ARRAY };
struct uft_probe_dwname {
	const char *type;
	uint8_t bf_width, bf_shift;
	uint8_t str;	  /* UFT_DW_STR_*: a char pointer is read through */
	unsigned str_off; /* the caret of a type that does not fit a string */
};

struct uft_probe_dwfunc;

/* What the kind of probe allows its args. */
struct uft_probe_argctx {
	const struct uft_probe_env *env;
	uint8_t kind;
	bool is_return;
	bool fentry;			/* at a function entry: $argN allowed */
	bool file;			/* a PATH:OFFSET probe: @+OFFSET, no @SYM */
	const char *lib;		/* @SYM is looked up there first */
	const struct uft_field *fields; /* eprobe: the attached event's */
	uint32_t nr_fields;
	unsigned offset; /* of the text being parsed in its word */
	/* DWARF names (probe_dwarf.c): the probed function, whether the
	 * definition uses names ($retval is then typed too), the function
	 * opened on the first name, and what the last name gave the type. */
	const char *symbol;
	bool dwarf;
	bool dw_tried;
	int dw_rc;
	const char *dw_msg;
	struct uft_probe_dwfunc *dw;
	bool dw_set;
	struct uft_probe_dwname dwlast;
};

/* Compiles arg i ("[NAME=]FETCHARG[:TYPE]", index i among args) into
 * d->args[i], checking its name against args before it. 0, -EINVAL with
 * ep set, or -ENOMEM. */
int uft_probe_arg_parse(struct uft_probe_def *d, uint32_t i, const char *text,
			struct uft_probe_argctx *ctx, struct uft_probe_errpos *ep);
void uft_probe_arg_free(struct uft_probe_arg *a);

bool uft_probe_good_name(const char *s);

#endif
