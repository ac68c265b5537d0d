/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Dynamic probe definitions (Documentation/trace/kprobetrace.rst,
 * uprobetracer.rst, fprobetrace.rst, eprobetrace.rst): the kernel's
 * definition language parsed with its checks and error_log messages, fetch
 * args compiled to small programs, and the record, format and listing texts
 * the kernel gives such events. Nothing here patches code: the runtime
 * attaches a definition to a probe point and calls uft_probe_record_fill()
 * there with the registers it saved. */
#ifndef UFT_ENGINE_PROBE_H
#define UFT_ENGINE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UFT_PROBE_ARGS_MAX 128	 /* MAX_TRACE_ARGS */
#define UFT_PROBE_NAME_MAX 64	 /* MAX_EVENT_NAME_LEN, NUL included */
#define UFT_PROBE_ARGNAME_MAX 32 /* MAX_ARG_NAME_LEN */
#define UFT_PROBE_ARGSTR_MAX 63	 /* MAX_ARGSTR_LEN: one fetch arg's text */
#define UFT_PROBE_ARRAY_MAX 64	 /* MAX_ARRAY_LEN */
#define UFT_PROBE_OPS_MAX 16	 /* FETCH_INSN_MAX: bounds dereference nesting */
#define UFT_PROBE_STACK_MAX 511	 /* PARAM_MAX_STACK with 4 KiB pages */
#define UFT_PROBE_MAXACT_MAX 4096
#define UFT_PROBE_STRING_MAX 4096 /* bytes one string arg copies at most */

/* Which file a line was written to: it picks the default group and whether
 * a SYMBOL location is a kprobe or a uprobe. */
enum uft_probe_src {
	UFT_PROBE_SRC_DYNAMIC = 0, /* dynamic_events */
	UFT_PROBE_SRC_KPROBE = 1,  /* kprobe_events */
	UFT_PROBE_SRC_UPROBE = 2,  /* uprobe_events */
};

enum uft_probe_kind {
	UFT_PROBE_KPROBE = 0, /* p/r on SYMBOL[+OFFS], LIB:SYMBOL[+OFFS] or an address */
	UFT_PROBE_UPROBE = 1, /* p/r on PATH:OFFSET, or anything from uprobe_events */
	UFT_PROBE_FPROBE = 2, /* f: function entry or exit by name */
	UFT_PROBE_EPROBE = 3, /* e: on another event's records */
};

/* x86-64 registers by the kernel's names (regs_query_register_offset). */
enum uft_probe_reg {
	UFT_REG_AX,
	UFT_REG_BX,
	UFT_REG_CX,
	UFT_REG_DX,
	UFT_REG_SI,
	UFT_REG_DI,
	UFT_REG_BP,
	UFT_REG_SP,
	UFT_REG_R8,
	UFT_REG_R9,
	UFT_REG_R10,
	UFT_REG_R11,
	UFT_REG_R12,
	UFT_REG_R13,
	UFT_REG_R14,
	UFT_REG_R15,
	UFT_REG_IP,
	UFT_REG_FLAGS,
	UFT_REG_NR,
};

struct uft_probe_regs {
	uint64_t r[UFT_REG_NR];
};

/* One step of a fetch program: each leaves a value in the accumulator. */
enum uft_probe_opcode {
	UFT_POP_REG,	/* r[arg] */
	UFT_POP_STACK,	/* the word arg at the stack pointer */
	UFT_POP_STACKP, /* the stack pointer */
	UFT_POP_ARG,	/* SysV argument arg (0-based) */
	UFT_POP_RETVAL, /* the return value */
	UFT_POP_IMM,	/* imm */
	UFT_POP_FOFFS,	/* imm plus the probed file's load bias */
	UFT_POP_TPARG,	/* a field of the eprobe's source record */
	UFT_POP_COMM,	/* the thread's name (strings only) */
	UFT_POP_DATA,	/* an immediate string (strings only) */
	UFT_POP_DEREF,	/* the word at acc + imm */
};

struct uft_probe_op {
	uint8_t op;	    /* enum uft_probe_opcode */
	uint8_t size;	    /* TPARG: the field's size */
	uint8_t is_signed;  /* TPARG */
	uint8_t field_kind; /* TPARG: enum uft_field_kind */
	uint32_t arg;	    /* REG, STACK, ARG; TPARG: field offset */
	int64_t imm;	    /* IMM, FOFFS, DEREF offset */
};

/* How an arg's value reaches the record. */
enum uft_probe_store {
	UFT_PST_RAW,	/* the value, cut to the type's size */
	UFT_PST_MEM,	/* type-size bytes at the value + off */
	UFT_PST_STRING, /* the string at the value + off */
	UFT_PST_SYMSTR, /* the value as "sym+0xoff/0xsize" text */
};

struct uft_probe_type {
	const char *name;    /* as written: "u32", "x64", "string" */
	const char *fmttype; /* the format file's: "u32", "__data_loc char[]" */
	const char *fmt;     /* the print fmt conversion: "%u", "0x%Lx", "\"%s\"" */
	uint8_t size;	     /* in the record: 4 for a __data_loc */
	uint8_t is_signed;
	uint8_t is_string;   /* string, ustring, symstr */
	uint8_t kernel_only; /* symbol, symstr: not on uprobes */
};

struct uft_probe_arg {
	char *name;
	char *comm; /* the fetch arg as written, with its :TYPE (the listing's) */
	const struct uft_probe_type *type;
	uint32_t count;	 /* array elements, 0 for a scalar */
	uint32_t offset; /* in the record, common header included */
	uint8_t store;	 /* enum uft_probe_store */
	uint8_t nops;
	uint8_t bf_width, bf_shift; /* bitfield: 0 width when none */
	int64_t store_off;
	char *data; /* the immediate string of a DATA op */
	struct uft_probe_op ops[UFT_PROBE_OPS_MAX];
};

struct uft_probe_def {
	uint8_t kind; /* enum uft_probe_kind */
	bool is_return;
	bool has_addr; /* a raw address location */
	unsigned maxactive;
	char *group, *event;
	char *lib;    /* LIB of LIB:SYMBOL, or PATH of PATH:OFFSET */
	char *symbol; /* kprobe and fprobe */
	long offset;  /* SYMBOL+OFFS, or PATH:OFFSET's file offset */
	uint64_t addr;
	uint64_t refctr;       /* PATH:OFFSET(REFCTR) */
	char *sys, *sys_event; /* eprobe: the attached event */
	char *filter;	       /* eprobe: the text after "if" */
	uint32_t nr_args;
	struct uft_probe_arg *args;
	uint32_t head_size;  /* 8 + the __probe_* words */
	uint32_t fixed_size; /* where string data starts */
};

enum { UFT_PROBE_OP_NONE, UFT_PROBE_OP_CREATE, UFT_PROBE_OP_DELETE };

struct uft_probe_cmd {
	int op;
	char *group; /* DELETE: the group written, or NULL for any */
	char *event; /* DELETE */
	struct uft_probe_def def;
};

/* A refused line: the message, the error_log location (trace_kprobe,
 * trace_uprobe, trace_fprobe, event_probe), and the command as the kernel
 * logs it (the words joined by single blanks, malloc'd) with the caret's
 * offset in it. msg NULL: the kernel logs nothing for that line. */
struct uft_probe_error {
	const char *msg;
	const char *loc;
	char *cmd;
	unsigned pos;
};

/* What an existing group/event is. */
enum { UFT_PROBE_FREE = 0, UFT_PROBE_OTHER_EVENT = 1, UFT_PROBE_IS_PROBE = 2 };

struct uft_field;
/* What the parser asks its caller; any may be NULL. */
struct uft_probe_env {
	enum uft_probe_src src;
	void *ctx;
	int (*exists)(void *ctx, const char *group, const char *event);
	/* @SYM: the address of a data symbol (lib NULL: any object), 0 or -ENOENT. */
	int (*sym_addr)(void *ctx, const char *lib, const char *sym, uint64_t *addr);
	/* eprobe: the fields of the attached event, or NULL when it does not exist. */
	const struct uft_field *(*event_fields)(void *ctx, const char *sys, const char *event,
						uint32_t *nr);
	/* Args by DWARF name: the ELF file holding function sym (in lib
	 * when set) and its address in that file's own terms. 0 or -ENOENT.
	 * NULL: names are refused ("BTF is not available or not supported"). */
	int (*func_file)(void *ctx, const char *lib, const char *sym, char *path, size_t len,
			 uint64_t *vaddr);
};

/* Parses one line (no newline, comment removed). Returns 0 with c set (op
 * NONE for a blank line), -EINVAL/-EEXIST/-E2BIG with e set (e->cmd to be
 * freed with uft_probe_error_free), or -ENOMEM. */
int uft_probe_parse(const char *line, const struct uft_probe_env *env, struct uft_probe_cmd *c,
		    struct uft_probe_error *e);
void uft_probe_cmd_free(struct uft_probe_cmd *c);
void uft_probe_def_free(struct uft_probe_def *d);
void uft_probe_error_free(struct uft_probe_error *e);

/* Whether a new definition of an existing probe event may be appended to
 * it (same kind and args, another point): 0, or -EEXIST/-EINVAL with the
 * kernel's message in e (e->cmd not set; e->pos the index of the word the
 * caret goes on, 0 the command's start). */
int uft_probe_check_append(const struct uft_probe_def *old, const struct uft_probe_def *new,
			   struct uft_probe_error *e);

/* The fetch-type table entry of a type name, or NULL. */
const struct uft_probe_type *uft_probe_type_find(const char *name);

/* The dynamic_events / kprobe_events / uprobe_events line (no newline), malloc'd. */
char *uft_probe_listing(const struct uft_probe_def *d);
/* The print fmt text, malloc'd. */
char *uft_probe_print_fmt(const struct uft_probe_def *d);
/* The format file's fields after the common ones (types and names
 * malloc'd, free with uft_probe_fields_free); *nr set. NULL on -ENOMEM. */
struct uft_field *uft_probe_fields(const struct uft_probe_def *d, uint32_t *nr);
void uft_probe_fields_free(struct uft_field *f, uint32_t nr);

/* What a probe hit gives the evaluator. */
struct uft_probe_ctx {
	const struct uft_probe_regs *regs;	 /* at the probe point */
	const struct uft_probe_regs *entry_regs; /* return probes: at entry ($argN); else regs */
	uint64_t retval;
	uint64_t ip;	       /* p: the probed address */
	uint64_t func, ret_ip; /* r: the function and where it returns to */
	const void *event_rec; /* eprobe: the source record (common header included) */
	uint32_t event_len;
	const char *comm;   /* $comm; NULL: the thread's name */
	uint64_t file_bias; /* @+OFFSET: the probed file's load bias */
	/* symstr: "sym+0xoff/0xsize" of addr into buf, or -1 (then 0x%lx). */
	int (*sym_name)(void *sym_ctx, uint64_t addr, char *buf, size_t len);
	void *sym_ctx;
};

/* Writes the record of a hit into rec[0..cap): everything after the 8-byte
 * common header, which the caller fills. Memory is read fault-safely: a bad
 * address gives 0 for numbers and an empty __data_loc (the kernel's
 * "(fault)") for strings. Returns the record's length, at most cap; strings
 * are cut to fit. cap must hold at least d->fixed_size. */
uint32_t uft_probe_record_fill(const struct uft_probe_def *d, const struct uft_probe_ctx *c,
			       uint8_t *rec, uint32_t cap);

/* Reads n bytes at src into dst without faulting: the bytes copied, up to
 * the first unreadable one. Async-signal-safe. */
size_t uft_probe_read(void *dst, const void *src, size_t n);
/* Makes uft_probe_read() a plain copy whose faults a SIGSEGV/SIGBUS
 * handler installed now resolves (chaining every other fault to the
 * handler before it): nanoseconds instead of a system call. For programs
 * that leave that handler in place and probes that never run with SIGSEGV
 * blocked. 0 or -1. */
int uft_probe_fast_read_init(void);

/* The kernel's trace text of an arg's value in a record (" name=value"
 * for each arg, appended to buf; strings "(fault)" when empty). Returns the
 * length written, as snprintf. */
int uft_probe_args_text(const struct uft_probe_def *d, const uint8_t *rec, uint32_t len, char *buf,
			size_t cap);

#endif
