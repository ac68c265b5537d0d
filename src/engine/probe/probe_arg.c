/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compiles one fetch arg the way kernel/trace/trace_probe.c parses it: the same checks
 * in the same order, each error's caret where the kernel puts it (an offset
 * in the arg's word), into a program of value ops and a store. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/probe/probe_dwarf.h"
#include "engine/probe/probe_impl.h"
#include "util/util.h"

#include <uft/event.h>

static const char *const reg_names[UFT_REG_NR] = {
    [UFT_REG_AX] = "ax",   [UFT_REG_BX] = "bx",	      [UFT_REG_CX] = "cx",   [UFT_REG_DX] = "dx",
    [UFT_REG_SI] = "si",   [UFT_REG_DI] = "di",	      [UFT_REG_BP] = "bp",   [UFT_REG_SP] = "sp",
    [UFT_REG_R8] = "r8",   [UFT_REG_R9] = "r9",	      [UFT_REG_R10] = "r10", [UFT_REG_R11] = "r11",
    [UFT_REG_R12] = "r12", [UFT_REG_R13] = "r13",     [UFT_REG_R14] = "r14", [UFT_REG_R15] = "r15",
    [UFT_REG_IP] = "ip",   [UFT_REG_FLAGS] = "flags",
};

/* Names a probe's args may not take (kernel/trace/trace_probe.c reserved_field_names). */
static const char *const reserved[] = {
    "common_type", "common_flags", "common_preempt_count", "common_pid",
    "common_tgid", "__probe_ip",   "__probe_ret_ip",	   "__probe_func",
};

struct pstate {
	struct uft_probe_argctx *ctx;
	struct uft_probe_arg *a;
	struct uft_probe_errpos *ep;
};

static int err(struct uft_probe_errpos *ep, unsigned off, const char *msg)
{
	ep->msg = msg;
	ep->offset = off;
	return -EINVAL;
}

bool uft_probe_good_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	while (*++s)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* kstrtoul / kstrtol: the whole text is the number (base 0: 0x hex, 0 octal). */
static int to_ul(const char *s, int base, unsigned long *out)
{
	if (*s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, base);
	if (*end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

static int to_l(const char *s, int base, long *out)
{
	bool neg = *s == '-';
	unsigned long v;
	if (neg || *s == '+')
		s++;
	if (!isdigit((unsigned char)*s) || to_ul(s, base, &v) ||
	    v > (neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX))
		return -EINVAL;
	*out = neg ? (long)(0 - v) : (long)v;
	return 0;
}

static int emit(struct pstate *s, struct uft_probe_op op)
{
	/* The kernel's program holds 16 instructions, its end among them; the
	 * store replaces the last dereference. */
	if (s->a->nops >= UFT_PROBE_OPS_MAX - 1)
		return err(s->ep, s->ctx->offset, E_TOO_MANY_OPS);
	s->a->ops[s->a->nops++] = op;
	return 0;
}

static int parse_name(struct pstate *s, const char *arg, bool retval);

static int parse_vars(struct pstate *s, const char *arg)
{
	struct uft_probe_argctx *ctx = s->ctx;
	const char *v = arg + 1;
	unsigned long n;

	if (ctx->kind == UFT_PROBE_EPROBE) {
		for (uint32_t i = 0; i < ctx->nr_fields; i++) {
			const struct uft_field *f = &ctx->fields[i];
			size_t nl = strcspn(f->name, "[");
			if (strlen(v) == nl && strncmp(f->name, v, nl) == 0)
				return emit(s, (struct uft_probe_op){.op = UFT_POP_TPARG,
								     .size = (uint8_t)f->size,
								     .is_signed = f->is_signed,
								     .field_kind = f->kind,
								     .arg = f->offset});
		}
		if (strcmp(v, "comm") == 0 || strcmp(v, "COMM") == 0)
			return emit(s, (struct uft_probe_op){.op = UFT_POP_COMM});
		return err(s->ep, 0, E_BAD_VAR);
	}
	if (strncmp(v, "retval", 6) == 0 && (!v[6] || strchr("-.[", v[6]))) {
		if (!ctx->is_return)
			return err(s->ep, ctx->offset, E_RETVAL_ON_PROBE);
		/* Typed from DWARF in a definition that uses names, as the
		 * kernel's with BTF; a member of it always. */
		if (v[6] || ctx->dwarf)
			return parse_name(s, arg, true);
		return emit(s, (struct uft_probe_op){.op = UFT_POP_RETVAL});
	}
	if (strncmp(v, "stack", 5) == 0) {
		if (!v[5])
			return emit(s, (struct uft_probe_op){.op = UFT_POP_STACKP});
		if (!isdigit((unsigned char)v[5]))
			return err(s->ep, ctx->offset, E_BAD_VAR);
		if (to_ul(v + 5, 10, &n) || n > UFT_PROBE_STACK_MAX)
			return err(s->ep, ctx->offset, E_BAD_STACK_NUM);
		return emit(s, (struct uft_probe_op){.op = UFT_POP_STACK, .arg = (uint32_t)n});
	}
	if (strcmp(v, "comm") == 0 || strcmp(v, "COMM") == 0)
		return emit(s, (struct uft_probe_op){.op = UFT_POP_COMM});
	if (strncmp(v, "arg", 3) == 0) {
		if (to_ul(v + 3, 10, &n) || v[3] == '+')
			return err(s->ep, ctx->offset, E_BAD_VAR);
		if (n == 0 || n > UFT_PROBE_STACK_MAX)
			return err(s->ep, ctx->offset, E_BAD_ARG_NUM);
		if (!ctx->fentry && !ctx->is_return)
			return err(s->ep, ctx->offset, E_NOFENTRY_ARGS);
		return emit(s, (struct uft_probe_op){.op = UFT_POP_ARG, .arg = (uint32_t)(n - 1)});
	}
	return err(s->ep, ctx->offset, E_BAD_VAR);
}

static int parse_mem(struct pstate *s, char *arg)
{
	struct uft_probe_argctx *ctx = s->ctx;
	long off = 0;
	unsigned long addr;
	int rc;

	if (isdigit((unsigned char)arg[1])) {
		if (to_ul(arg + 1, 0, &addr))
			return err(s->ep, ctx->offset, E_BAD_MEM_ADDR);
		rc = emit(s, (struct uft_probe_op){.op = UFT_POP_IMM, .imm = (int64_t)addr});
	} else if (arg[1] == '+') {
		if (!ctx->file)
			return err(s->ep, ctx->offset, E_FILE_ON_KPROBE);
		if (to_l(arg + 2, 0, &off))
			return err(s->ep, ctx->offset, E_BAD_FILE_OFFS);
		rc = emit(s, (struct uft_probe_op){.op = UFT_POP_FOFFS, .imm = off});
		off = 0;
	} else {
		if (ctx->file)
			return err(s->ep, ctx->offset, E_SYM_ON_UPROBE);
		char *sym = arg + 1;
		char *sign = strpbrk(sym, "+-");
		if (sign) {
			if (to_l(sign, 0, &off))
				return err(s->ep, ctx->offset, E_BAD_MEM_ADDR);
			*sign = 0;
		}
		uint64_t at = 0;
		if (!sym[0] || !ctx->env || !ctx->env->sym_addr ||
		    (ctx->env->sym_addr(ctx->env->ctx, ctx->lib, sym, &at) != 0 &&
		     (!ctx->lib || ctx->env->sym_addr(ctx->env->ctx, NULL, sym, &at) != 0)))
			return err(s->ep, ctx->offset, E_BAD_MEM_ADDR);
		rc = emit(s, (struct uft_probe_op){.op = UFT_POP_IMM, .imm = (int64_t)at});
	}
	if (rc)
		return rc;
	return emit(s, (struct uft_probe_op){.op = UFT_POP_DEREF, .imm = off});
}

static int parse_one(struct pstate *s, char *arg);

/* +|-[u]OFFS(FETCHARG) */
static int parse_deref(struct pstate *s, char *arg)
{
	struct uft_probe_argctx *ctx = s->ctx;
	long off;
	if (arg[1] == 'u') { /* a user-space read: the same one here */
		arg[1] = arg[0];
		arg++;
		ctx->offset++;
	}
	if (arg[0] == '+')
		arg++;
	char *open = strchr(arg, '(');
	if (!open)
		return err(s->ep, ctx->offset, E_DEREF_NEED_BRACE);
	*open = 0;
	if (to_l(arg, 0, &off))
		return err(s->ep, ctx->offset, E_BAD_DEREF_OFFS);
	ctx->offset += (unsigned)(open + 1 - arg) + (arg[0] != '-' ? 1 : 0);
	arg = open + 1;
	char *close = strrchr(arg, ')');
	if (!close)
		return err(s->ep, ctx->offset + (unsigned)strlen(arg), E_DEREF_OPEN_BRACE);
	*close = 0;
	unsigned cur = ctx->offset;
	int rc = parse_one(s, arg);
	if (rc)
		return rc;
	ctx->offset = cur;
	ctx->dw_set = false; /* a name's type is not the dereference's */
	uint8_t last = s->a->ops[s->a->nops - 1].op;
	if (last == UFT_POP_COMM || last == UFT_POP_DATA)
		return err(s->ep, ctx->offset, E_COMM_CANT_DEREF);
	return emit(s, (struct uft_probe_op){.op = UFT_POP_DEREF, .imm = off});
}

static int parse_imm(struct pstate *s, char *arg)
{
	struct uft_probe_argctx *ctx = s->ctx;
	if (arg[1] == '"') {
		size_t len = strlen(arg + 2);
		if (len == 0 || arg[2 + len - 1] != '"')
			return err(s->ep, ctx->offset + 2 + (unsigned)len, E_IMMSTR_NO_CLOSE);
		free(s->a->data);
		s->a->data = strndup(arg + 2, len - 1);
		if (!s->a->data)
			return -ENOMEM;
		return emit(s, (struct uft_probe_op){.op = UFT_POP_DATA});
	}
	const char *v = arg + 1;
	unsigned long u;
	long l;
	int64_t imm;
	if (isdigit((unsigned char)v[0]) && to_ul(v, 0, &u) == 0)
		imm = (int64_t)u;
	else if ((v[0] == '-' || v[0] == '+') && to_l(v, 0, &l) == 0)
		imm = l;
	else
		return err(s->ep, ctx->offset + 1, E_BAD_IMM);
	return emit(s, (struct uft_probe_op){.op = UFT_POP_IMM, .imm = imm});
}

static int parse_one(struct pstate *s, char *arg)
{
	struct uft_probe_argctx *ctx = s->ctx;
	switch (arg[0]) {
	case '$':
		return parse_vars(s, arg);
	case '%':
		if (ctx->kind == UFT_PROBE_EPROBE)
			return err(s->ep, ctx->offset, E_BAD_FETCH_ARG);
		for (int r = 0; r < UFT_REG_NR; r++)
			if (strcmp(arg + 1, reg_names[r]) == 0)
				return emit(s, (struct uft_probe_op){.op = UFT_POP_REG,
								     .arg = (uint32_t)r});
		return err(s->ep, ctx->offset, E_BAD_REG_NAME);
	case '@':
		return parse_mem(s, arg);
	case '+':
	case '-':
		return parse_deref(s, arg);
	case '\\':
		return parse_imm(s, arg);
	default:
		if (isalpha((unsigned char)arg[0]) || arg[0] == '_')
			return parse_name(s, arg, false);
		return err(s->ep, ctx->offset, E_BAD_FETCH_ARG);
	}
}

/* A parameter by name, members, elements (probe_dwarf.c), or $retval's.
 * Only at a function's entry or return of a probe on a symbol, as the
 * kernel's BTF args. */
static int parse_name(struct pstate *s, const char *arg, bool retval)
{
	struct uft_probe_argctx *ctx = s->ctx;
	if (ctx->kind == UFT_PROBE_EPROBE || ctx->file || (!ctx->fentry && !ctx->is_return))
		return err(s->ep, ctx->offset, E_NOSUP_BTFARG);
	struct uft_probe_dwfunc *f;
	const char *msg;
	int rc = uft_probe_dwarf_ctx(ctx, &f, &msg);
	if (rc) {
		if (msg) {
			s->ep->msg = msg;
			s->ep->offset = ctx->offset;
		}
		return rc;
	}
	struct uft_probe_op ops[UFT_PROBE_OPS_MAX];
	unsigned n;
	rc = uft_probe_dwarf_expr(f, arg, retval, ctx->offset, ops, UFT_PROBE_OPS_MAX, &n,
				  &ctx->dwlast, s->ep);
	for (unsigned i = 0; rc == 0 && i < n; i++)
		rc = emit(s, ops[i]);
	ctx->dw_set = rc == 0;
	return rc;
}

/* The type of "b<W>@<O>/<C>": the container's unsigned type. */
static const struct uft_probe_type *bitfield_type(const char *t)
{
	const char *slash = strchr(t, '/');
	unsigned long bits;
	if (!slash || to_ul(slash + 1, 0, &bits))
		return NULL;
	switch (bits) {
	case 8:
		return uft_probe_type_find("u8");
	case 16:
		return uft_probe_type_find("u16");
	case 32:
		return uft_probe_type_find("u32");
	case 64:
		return uft_probe_type_find("u64");
	}
	return NULL;
}

static int parse_bitfield(struct uft_probe_arg *a, const char *t)
{
	char *tail;
	unsigned long bw = strtoul(t + 1, &tail, 0);
	if (bw == 0 || *tail != '@' || !isdigit((unsigned char)t[1]))
		return -EINVAL;
	const char *bf = tail + 1;
	unsigned long bo = strtoul(bf, &tail, 0);
	if (tail == bf || *tail != '/' || !isdigit((unsigned char)*bf))
		return -EINVAL;
	if (bw + bo > a->type->size * 8u || bw > 64)
		return -EINVAL;
	a->bf_width = (uint8_t)bw;
	a->bf_shift = (uint8_t)bo;
	return 0;
}

static bool last_op_is(const struct uft_probe_arg *a, uint8_t op)
{
	return a->nops && a->ops[a->nops - 1].op == op;
}

/* A name's DWARF type when none is written (the kernel's BTF rules);
 * with :string, a char pointer is read through and a char array read in
 * place, anything else refused. */
static int dwarf_type(struct pstate *s, const char *t)
{
	struct uft_probe_argctx *ctx = s->ctx;
	struct uft_probe_arg *a = s->a;
	const struct uft_probe_dwname *dn = &ctx->dwlast;
	if (!t) {
		if (dn->type)
			a->type = uft_probe_type_find(dn->type);
		a->bf_width = dn->bf_width;
		a->bf_shift = dn->bf_shift;
		return 0;
	}
	if (!a->type->is_string || strcmp(a->type->name, "symstr") == 0)
		return 0;
	if (dn->str == UFT_DW_STR_PTR)
		return emit(s, (struct uft_probe_op){.op = UFT_POP_DEREF});
	if (dn->str == UFT_DW_STR_ARRAY)
		return 0;
	return err(s->ep, dn->str_off, E_BAD_TYPE4STR);
}

/* The fetch arg after "NAME=": its type, its program, its store. */
static int parse_body(char *arg, struct pstate *s)
{
	struct uft_probe_argctx *ctx = s->ctx;
	struct uft_probe_arg *a = s->a;
	unsigned base = ctx->offset;
	char *t = strchr(arg, ':');
	unsigned toff = 0;
	if (t) {
		*t++ = 0;
		toff = (unsigned)(t - arg);
		char *br = strchr(t, '[');
		if (br) {
			*br++ = 0;
			char *close = strchr(br, ']');
			if (!close)
				return err(s->ep, base + (unsigned)(br + strlen(br) - arg),
					   E_ARRAY_NO_CLOSE);
			if (close[1])
				return err(s->ep, base + (unsigned)(close + 1 - arg),
					   E_BAD_ARRAY_SUFFIX);
			*close = 0;
			unsigned long n;
			if (to_ul(br, 0, &n) || n == 0)
				return err(s->ep, base + (unsigned)(br - arg), E_BAD_ARRAY_NUM);
			if (n > UFT_PROBE_ARRAY_MAX)
				return err(s->ep, base + (unsigned)(br - arg), E_ARRAY_TOO_BIG);
			a->count = (uint32_t)n;
		}
	}
	if (ctx->kind != UFT_PROBE_EPROBE &&
	    (strcmp(arg, "$comm") == 0 || strcmp(arg, "$COMM") == 0 ||
	     strncmp(arg, "\\\"", 2) == 0)) {
		if (a->count || (t && strcmp(t, "string") != 0))
			return err(s->ep, base + toff, E_NEED_STRING_TYPE);
		a->type = uft_probe_type_find("string");
	} else if (t && t[0] == 'b') {
		a->type = bitfield_type(t);
	} else {
		a->type = uft_probe_type_find(t ? t : "x64");
		if (a->type && a->type->kernel_only && ctx->kind == UFT_PROBE_UPROBE)
			a->type = NULL;
	}
	if (!a->type)
		return err(s->ep, base + toff, E_BAD_TYPE);

	ctx->dw_set = false;
	int rc = parse_one(s, arg);
	if (rc)
		return rc;
	ctx->offset = base;
	if (ctx->dw_set && (rc = dwarf_type(s, t)))
		return rc;

	uint8_t last = a->ops[a->nops - 1].op;
	/* An eprobe's $comm (when no field is called comm) is a string. */
	if (!t && (last == UFT_POP_COMM || last == UFT_POP_DATA))
		a->type = uft_probe_type_find("string");
	bool is_symstr = strcmp(a->type->name, "symstr") == 0;
	if (is_symstr) {
		if (last != UFT_POP_REG && last != UFT_POP_STACK && last != UFT_POP_RETVAL &&
		    last != UFT_POP_ARG && last != UFT_POP_DEREF && last != UFT_POP_TPARG)
			return err(s->ep, base + toff, E_BAD_SYMSTRING);
	} else if (a->type->is_string) {
		if (last != UFT_POP_DEREF && last != UFT_POP_IMM && last != UFT_POP_COMM &&
		    last != UFT_POP_DATA && last != UFT_POP_TPARG)
			return err(s->ep, base + toff, E_BAD_STRING);
	} else if (last == UFT_POP_COMM || last == UFT_POP_DATA) {
		return err(s->ep, base + toff, E_NEED_STRING_TYPE);
	}
	if (a->count && !last_op_is(a, UFT_POP_DEREF))
		return err(s->ep, base + toff, E_BAD_STRING);
	if (t && t[0] == 'b' && parse_bitfield(a, t))
		return err(s->ep, base + toff, E_BAD_BITFIELD);

	/* The last dereference becomes the store's read, as the kernel's
	 * ST_MEM and ST_STRING replace it; a string array and a symstr keep it
	 * (they read pointers, and a symbol's value). */
	a->store = UFT_PST_RAW;
	if (is_symstr) {
		a->store = UFT_PST_SYMSTR;
	} else if (last_op_is(a, UFT_POP_DEREF)) {
		a->store_off = a->ops[--a->nops].imm;
		a->store = a->type->is_string ? UFT_PST_STRING : UFT_PST_MEM;
	} else if (a->type->is_string) {
		a->store = UFT_PST_STRING;
	}
	return 0;
}

void uft_probe_arg_free(struct uft_probe_arg *a)
{
	free(a->name);
	free(a->comm);
	free(a->data);
	memset(a, 0, sizeof(*a));
}

int uft_probe_arg_parse(struct uft_probe_def *d, uint32_t i, const char *text,
			struct uft_probe_argctx *ctx, struct uft_probe_errpos *ep)
{
	struct uft_probe_arg *a = &d->args[i];
	size_t len = strlen(text);
	ctx->offset = 0;
	if (len > UFT_PROBE_ARGSTR_MAX)
		return err(ep, 0, E_ARG_TOO_LONG);
	if (len == 0)
		return err(ep, 0, E_NO_ARG_BODY);
	const char *body = strchr(text, '=');
	if (body) {
		if (body - text > UFT_PROBE_ARGNAME_MAX)
			return err(ep, 0, E_ARG_NAME_TOO_LONG);
		if (body == text)
			return err(ep, 0, E_NO_ARG_NAME);
		a->name = strndup(text, (size_t)(body - text));
		body++;
	} else {
		/* A C name is its own arg's name (a DWARF name), as the kernel's. */
		a->name = strndup(text, strcspn(text, ":"));
		if (a->name && !uft_probe_good_name(a->name)) {
			free(a->name);
			if (asprintf(&a->name, "arg%u", i + 1) < 0)
				a->name = NULL;
		}
		body = text;
	}
	a->comm = strdup(body);
	if (!a->name || !a->comm)
		return -ENOMEM;
	if (!uft_probe_good_name(a->name))
		return err(ep, 0, E_BAD_ARG_NAME);
	for (size_t k = 0; k < ARRAY_SIZE(reserved); k++)
		if (strcmp(a->name, reserved[k]) == 0)
			return err(ep, 0, E_USED_ARG_NAME);
	for (uint32_t k = 0; k < i; k++)
		if (strcmp(a->name, d->args[k].name) == 0)
			return err(ep, 0, E_USED_ARG_NAME);
	ctx->offset = (unsigned)(body - text);
	char *buf = strdup(body);
	if (!buf)
		return -ENOMEM;
	struct pstate s = {ctx, a, ep};
	int rc = parse_body(buf, &s);
	free(buf);
	return rc;
}
