/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compiles a kernel `print fmt` (Documentation/trace/events.rst, "Event formats") into format
 * segments and expression nodes. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/format/print_fmt_impl.h"
#include "util/util.h"

struct cc {
	const char *p;
	struct uft_print_fmt *pf;
	const struct uft_field *fields;
	uint32_t nr;
	char *err;
	size_t errlen;
	bool bad;
	int depth;
};

__attribute__((format(printf, 2, 3))) static int fail(struct cc *c, const char *fmt, ...)
{
	if (!c->bad && c->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	c->bad = true;
	return -1;
}

static void skip_ws(struct cc *c)
{
	while (isspace((unsigned char)*c->p))
		c->p++;
}

/* Consumes punctuation tok unless it is the start of a longer operator. */
static bool accept(struct cc *c, const char *tok)
{
	size_t n = strlen(tok);
	skip_ws(c);
	if (strncmp(c->p, tok, n))
		return false;
	if (n == 1 && strchr("<>&|=!", tok[0]) && c->p[1] && strchr("<>&|=", c->p[1]) &&
	    !(tok[0] == '!' && c->p[1] != '='))
		return false;
	if (n == 2 && (tok[0] == '<' || tok[0] == '>') && tok[1] == tok[0] && c->p[2] == '=')
		return false;
	c->p += n;
	return true;
}

static bool expect(struct cc *c, const char *tok)
{
	if (accept(c, tok))
		return true;
	fail(c, "expected '%s' at '%.20s'", tok, c->p);
	return false;
}

static size_t ident(struct cc *c, char *buf, size_t n)
{
	size_t i = 0;
	skip_ws(c);
	if (!isalpha((unsigned char)*c->p) && *c->p != '_')
		return 0;
	while (isalnum((unsigned char)c->p[i]) || c->p[i] == '_')
		i++;
	if (i >= n) {
		fail(c, "identifier too long at '%.20s'", c->p);
		return 0;
	}
	memcpy(buf, c->p, i);
	buf[i] = '\0';
	c->p += i;
	return i;
}

static int32_t new_node(struct cc *c, uint8_t op, uint8_t size)
{
	struct uft_print_fmt *pf = c->pf;
	if (pf->nnodes == pf->ncap)
		return fail(c, "expression too complex");
	struct pf_node *n = &pf->nodes[pf->nnodes];
	memset(n, 0, sizeof(*n));
	n->op = op;
	n->size = size;
	n->a = n->b = n->c = -1;
	return (int32_t)pf->nnodes++;
}

static char *arena(struct cc *c, size_t n)
{
	struct uft_print_fmt *pf = c->pf;
	if (pf->slen + n + 1 > pf->scap) {
		fail(c, "format too long");
		return NULL;
	}
	char *s = pf->strs + pf->slen;
	pf->slen += n + 1;
	s[n] = '\0';
	return s;
}

/* A quoted string; escapes are decoded as libtraceevent prints them: \n \t
 * \r, any other escaped character stands for itself. Adjacent literals are
 * joined. */
static char *string_lit(struct cc *c)
{
	skip_ws(c);
	const char *start = c->p;
	size_t n = 0;
	/* First pass: measure. */
	for (const char *q = start; *q == '"';) {
		for (q++; *q && *q != '"'; q++, n++)
			if (*q == '\\' && q[1])
				q++;
		if (*q != '"') {
			fail(c, "unterminated string");
			return NULL;
		}
		q++;
		while (isspace((unsigned char)*q))
			q++;
		c->p = q;
	}
	char *s = arena(c, n), *d = s;
	if (!s)
		return NULL;
	for (const char *q = start; q < c->p;) {
		if (*q != '"') {
			q++;
			continue;
		}
		for (q++; *q != '"'; q++) {
			if (*q != '\\') {
				*d++ = *q;
				continue;
			}
			q++;
			*d++ = *q == 'n' ? '\n' : *q == 't' ? '\t' : *q == 'r' ? '\r' : *q;
		}
		q++;
	}
	*d = '\0';
	return s;
}

/* Truncates to size bytes, zero-extended. */
static const struct uft_field *find_field(struct cc *c, const char *name)
{
	size_t n = strlen(name);
	for (uint32_t i = 0; i < c->nr; i++) {
		const char *f = c->fields[i].name;
		if (f && !strncmp(f, name, n) && (f[n] == '\0' || f[n] == '['))
			return &c->fields[i];
	}
	return NULL;
}

static const struct uft_field common_fields[] = {
    {"unsigned short", "common_type", 0, 2, 0, UFT_FIELD_SCALAR, 2},
    {"unsigned char", "common_flags", 2, 1, 0, UFT_FIELD_SCALAR, 1},
    {"unsigned char", "common_preempt_count", 3, 1, 0, UFT_FIELD_SCALAR, 1},
    {"int", "common_pid", 4, 4, 1, UFT_FIELD_SCALAR, 4},
};

static int32_t field_ref(struct cc *c, uint8_t op)
{
	char name[128];
	if (!ident(c, name, sizeof(name)))
		return fail(c, "expected a field name at '%.20s'", c->p);
	const struct uft_field *f = find_field(c, name);
	for (size_t i = 0; !f && i < ARRAY_SIZE(common_fields); i++)
		if (!strcmp(common_fields[i].name, name))
			f = &common_fields[i];
	if (!f)
		return fail(c, "unknown field '%s'", name);
	bool dyn = f->kind == UFT_FIELD_DYN;
	if (op != N_FIELD && !dyn)
		return fail(c, "'%s' is not a __data_loc field", name);
	if (op == N_FIELD && dyn)
		return fail(c, "'%s' is a __data_loc field: use __get_str()", name);
	bool ptr = f->type && strchr(f->type, '*');
	uint8_t size = ptr ? 8 : (uint8_t)f->size;
	if (op == N_FIELD && f->kind == UFT_FIELD_SCALAR && size != 1 && size != 2 && size != 4 &&
	    size != 8)
		return fail(c, "field '%s' has size %u", name, f->size);
	int32_t i = new_node(c, op, op == N_DYNLEN ? 4 : size);
	if (i < 0)
		return i;
	struct pf_node *n = &c->pf->nodes[i];
	n->off = f->offset;
	n->fsize = f->size;
	n->array = f->kind == UFT_FIELD_ARRAY;
	if (op == N_FIELD) /* libtraceevent reads fields zero-extended */
		n->size = 8;
	if (n->array && accept(c, "[")) { /* REC->args[2]: one element, a number */
		char *end;
		unsigned long k = strtoul(c->p, &end, 0);
		unsigned es = f->elem_size;
		if (end == c->p || (c->p = end, !expect(c, "]")))
			return fail(c, "expected a constant index of '%s'", name);
		if ((es != 1 && es != 2 && es != 4 && es != 8) || k >= f->size / es)
			return fail(c, "index %lu out of '%s'", k, name);
		n = &c->pf->nodes[i];
		n->off += (uint32_t)(k * es);
		n->fsize = es;
		n->array = 0;
	}
	return i;
}

/* (type) casts. As libtraceevent, only char, short and int (optionally
 * unsigned) and u8..s32 truncate, to zero-extended values; other integer
 * and pointer types leave the value alone. */
static bool cast_type(struct cc *c, uint8_t *trunc)
{
	static const char *const words[] = {
	    "unsigned", "signed",   "const",	 "volatile", "char",	  "short",    "int",
	    "long",	"bool",	    "_Bool",	 "void",     "u8",	  "s8",	      "u16",
	    "s16",	"u32",	    "s32",	 "u64",	     "s64",	  "__u8",     "__s8",
	    "__u16",	"__s16",    "__u32",	 "__s32",    "__u64",	  "__s64",    "uint8_t",
	    "int8_t",	"uint16_t", "int16_t",	 "uint32_t", "int32_t",	  "uint64_t", "int64_t",
	    "size_t",	"ssize_t",  "uintptr_t", "intptr_t", "ptrdiff_t", "pid_t",    "uid_t",
	    "gid_t",	"off_t",    "uintmax_t", "intmax_t",
	};
	static const struct {
		const char *type;
		uint8_t size;
	} narrow[] = {
	    {"char", 1}, {"unsigned char", 1}, {"short", 2}, {"unsigned short", 2},
	    {"int", 4},	 {"unsigned int", 4},  {"u8", 1},    {"s8", 1},
	    {"u16", 2},	 {"s16", 2},	       {"u32", 4},   {"s32", 4},
	};
	const char *save = c->p;
	char type[64] = "", word[32];
	size_t tl = 0;
	while (ident(c, word, sizeof(word))) {
		size_t k, n = strlen(word);
		for (k = 0; k < ARRAY_SIZE(words); k++)
			if (!strcmp(words[k], word))
				break;
		if (k == ARRAY_SIZE(words) || tl + n + 2 > sizeof(type))
			goto no;
		tl += (size_t)snprintf(type + tl, sizeof(type) - tl, "%s%s", tl ? " " : "", word);
	}
	if (!tl || c->bad)
		goto no;
	bool ptr = false;
	while (accept(c, "*"))
		ptr = true;
	if (!accept(c, ")"))
		goto no;
	*trunc = 0;
	for (size_t k = 0; !ptr && k < ARRAY_SIZE(narrow); k++)
		if (!strcmp(narrow[k].type, type))
			*trunc = narrow[k].size;
	return true;
no:
	c->p = save;
	return false;
}

static int32_t expr(struct cc *c);
static int32_t unary(struct cc *c);

/* Sets the depth of node i from its children; refuses deep trees. */
static int32_t deepen(struct cc *c, int32_t i)
{
	struct pf_node *n = &c->pf->nodes[i];
	int32_t kids[3] = {n->a, n->b, n->op == N_COND ? n->c : -1};
	unsigned d = 0;
	for (int k = 0; k < 3; k++)
		if (kids[k] >= 0 && c->pf->nodes[kids[k]].depth > d)
			d = c->pf->nodes[kids[k]].depth;
	if (d >= PF_MAX_DEPTH * 4)
		return fail(c, "expression nested too deeply");
	n->depth = (uint16_t)(d + 1);
	return i;
}

static bool numeric(struct cc *c, int32_t i)
{
	if (i < 0)
		return false;
	const struct pf_node *n = &c->pf->nodes[i];
	if ((n->op == N_FIELD && !n->array) || n->op == N_CONST || n->op == N_DYNLEN ||
	    n->op == N_CAST || n->op == N_UNARY || n->op == N_BIN || n->op == N_COND)
		return true;
	fail(c, "a number is needed at '%.20s'", c->p);
	return false;
}

static int32_t number(struct cc *c)
{
	char *end;
	errno = 0;
	uint64_t v = strtoull(c->p, &end, 0);
	if (errno)
		return fail(c, "bad number at '%.20s'", c->p);
	c->p = end;
	while (*c->p && strchr("uUlL", *c->p)) /* suffixes change nothing in 64 bits */
		c->p++;
	int32_t i = new_node(c, N_CONST, 8); /* any constant is a 64-bit value */
	if (i >= 0)
		c->pf->nodes[i].val = v;
	return i;
}

/* Constant expression of a symbol table entry. */
static bool const_val(struct cc *c, uint64_t *v)
{
	uint32_t first = c->pf->nnodes;
	int32_t i = expr(c);
	if (!numeric(c, i))
		return false;
	for (uint32_t k = first; k < c->pf->nnodes; k++)
		if (c->pf->nodes[k].op != N_CONST && c->pf->nodes[k].op != N_CAST &&
		    c->pf->nodes[k].op != N_UNARY && c->pf->nodes[k].op != N_BIN &&
		    c->pf->nodes[k].op != N_COND) {
			fail(c, "symbol values must be constants");
			return false;
		}
	*v = uft__pf_eval(c->pf, i, NULL, 0);
	return true;
}

/* { value, "name" }, ... up to the closing parenthesis. */
static bool sym_table(struct cc *c, struct pf_node *n)
{
	struct uft_print_fmt *pf = c->pf;
	n->sym = pf->nsyms;
	while (accept(c, ",")) {
		if (!expect(c, "{"))
			return false;
		uint64_t v;
		if (!const_val(c, &v) || !expect(c, ","))
			return false;
		skip_ws(c);
		if (*c->p != '"') {
			fail(c, "expected a symbol name at '%.20s'", c->p);
			return false;
		}
		const char *name = string_lit(c);
		if (!name || !expect(c, "}"))
			return false;
		if (pf->nsyms == pf->symcap) {
			fail(c, "too many symbols");
			return false;
		}
		pf->syms[pf->nsyms++] = (struct pf_sym){v, name};
		n->nsym++;
	}
	return expect(c, ")");
}

static int32_t helper(struct cc *c, const char *name)
{
	int32_t i, a, b;
	if (!strcmp(name, "__get_str") || !strcmp(name, "__get_dynamic_array") ||
	    !strcmp(name, "__get_dynamic_array_len")) {
		uint8_t op = name[6] == 's' ? N_STR : strlen(name) > 19 ? N_DYNLEN : N_DYNARR;
		if (!expect(c, "(") || (i = field_ref(c, op)) < 0 || !expect(c, ")"))
			return -1;
		return i;
	}
	if (!strcmp(name, "__get_rel_str")) {
		/* A __rel_loc string: its offset counts from the end of its field. */
		if (!expect(c, "(") || (i = field_ref(c, N_STR)) < 0 || !expect(c, ")"))
			return -1;
		c->pf->nodes[i].val = 1;
		return i;
	}
	if (!strcmp(name, "__print_symbolic") || !strcmp(name, "__print_flags")) {
		bool flags = name[8] == 'f';
		if (!expect(c, "(") || !numeric(c, a = expr(c)))
			return -1;
		const char *delim = "";
		if (flags) {
			skip_ws(c);
			if (!expect(c, ",") || (skip_ws(c), *c->p != '"'))
				return fail(c, "__print_flags needs a delimiter string");
			if (!(delim = string_lit(c)))
				return -1;
		}
		if ((i = new_node(c, flags ? N_FLAGS : N_SYM, 8)) < 0)
			return -1;
		c->pf->nodes[i].a = a;
		c->pf->nodes[i].str = delim;
		return sym_table(c, &c->pf->nodes[i]) ? deepen(c, i) : -1;
	}
	if (!strcmp(name, "__print_hex")) {
		if (!expect(c, "(") || (a = expr(c)) < 0 || !expect(c, ","))
			return -1;
		const struct pf_node *p = &c->pf->nodes[a];
		if (p->op != N_DYNARR && p->op != N_STR && !(p->op == N_FIELD && p->array))
			return fail(c, "__print_hex needs an array");
		if (!numeric(c, b = expr(c)) || !expect(c, ")"))
			return -1;
		if ((i = new_node(c, N_HEX, 8)) < 0)
			return -1;
		c->pf->nodes[i].a = a;
		c->pf->nodes[i].b = b;
		return deepen(c, i);
	}
	return fail(c, "unsupported '%s'", name);
}

static int32_t primary(struct cc *c)
{
	char name[64];
	int32_t i;
	skip_ws(c);
	if (isdigit((unsigned char)*c->p))
		return number(c);
	if (*c->p == '"') {
		const char *s = string_lit(c);
		if (!s || (i = new_node(c, N_STRLIT, 8)) < 0)
			return -1;
		c->pf->nodes[i].str = s;
		return i;
	}
	if (accept(c, "(")) {
		if ((i = expr(c)) < 0 || !expect(c, ")"))
			return -1;
		return i;
	}
	if (!ident(c, name, sizeof(name)))
		return fail(c, "unexpected '%.20s'", c->p);
	if (!strcmp(name, "REC")) {
		if (!expect(c, "->"))
			return -1;
		return field_ref(c, N_FIELD);
	}
	return helper(c, name);
}

static int32_t unary(struct cc *c)
{
	int32_t i, a;
	uint8_t trunc;
	if (++c->depth > PF_MAX_DEPTH)
		return fail(c, "expression nested too deeply");
	skip_ws(c);
	const char *save = c->p;
	if (accept(c, "(") && cast_type(c, &trunc)) {
		if (!numeric(c, a = unary(c)) || (i = new_node(c, N_CAST, trunc ? trunc : 8)) < 0)
			return -1;
		c->pf->nodes[i].a = a;
		i = deepen(c, i);
	} else if (c->p = save, strchr("-~!+", *c->p) && *c->p && c->p[1] != '=') {
		char op = *c->p++;
		if (!numeric(c, a = unary(c)))
			return -1;
		if ((i = new_node(c, N_UNARY, 8)) < 0)
			return -1;
		c->pf->nodes[i].a = a;
		c->pf->nodes[i].bop[0] = op;
		i = deepen(c, i);
	} else {
		i = primary(c);
	}
	c->depth--;
	return c->bad ? -1 : i;
}

static const char *const levels[][4] = {
    {"||"},	  {"&&"},     {"|"},	       {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
#define NR_LEVELS (int)ARRAY_SIZE(levels)

static int32_t binary(struct cc *c, int level)
{
	if (level == NR_LEVELS)
		return unary(c);
	int32_t l = binary(c, level + 1);
	for (;;) {
		const char *op = NULL;
		for (int k = 0; k < 4 && levels[level][k]; k++)
			if (accept(c, levels[level][k])) {
				op = levels[level][k];
				break;
			}
		if (!op || l < 0)
			return c->bad ? -1 : l;
		if (op[0] == '^')
			return fail(c, "'^' is not evaluated by libtraceevent");
		int32_t r = binary(c, level + 1);
		if (!numeric(c, l) || !numeric(c, r))
			return -1;
		int32_t i = new_node(c, N_BIN, 8); /* unsigned 64 bits, as libtraceevent */
		if (i < 0)
			return -1;
		struct pf_node *n = &c->pf->nodes[i];
		memcpy(n->bop, op, strlen(op));
		n->a = l;
		n->b = r;
		if ((l = deepen(c, i)) < 0)
			return -1;
	}
}

static int32_t expr(struct cc *c)
{
	int32_t i = binary(c, 0);
	if (i < 0 || !accept(c, "?"))
		return i;
	if (++c->depth > PF_MAX_DEPTH)
		return fail(c, "expression nested too deeply");
	int32_t a = expr(c);
	if (!expect(c, ":"))
		return -1;
	int32_t b = expr(c);
	if (!numeric(c, i) || !numeric(c, a) || !numeric(c, b))
		return -1;
	int32_t n = new_node(c, N_COND, 8);
	if (n < 0)
		return -1;
	c->pf->nodes[n].a = i;
	c->pf->nodes[n].b = a;
	c->pf->nodes[n].c = b;
	c->depth--;
	return deepen(c, n);
}

/* Splits the decoded format into text and conversions. */
/* Literal text up to the next conversion, %% kept as one %. Returns the
 * cursor after it or NULL. */
static const char *text_seg(struct cc *c, struct pf_seg *s, const char *f)
{
	size_t n = 0;
	const char *q = f;
	char *t;
	while (*q && (*q != '%' || q[1] == '%')) {
		q += *q == '%' ? 2 : 1;
		n++;
	}
	if (!(t = arena(c, n)))
		return NULL;
	s->kind = S_TEXT;
	s->text = t;
	for (; f < q; f += *f == '%' ? 2 : 1)
		*t++ = *f;
	return q;
}

/* The printf spec a conversion segment prints with, in the arena. */
static int seg_spec(struct cc *c, struct pf_seg *s, const char *flags, char conv)
{
	static const char *const lens[] = {"hh", "h", "", "l", "ll"};
	char spec[64];
	int n = snprintf(spec, sizeof(spec), "%%%s", flags);
	if (s->width >= 0)
		n += snprintf(spec + n, sizeof(spec) - n, "%ld", (long)s->width);
	if (s->prec >= 0)
		n += snprintf(spec + n, sizeof(spec) - n, ".%ld", (long)s->prec);
	snprintf(spec + n, sizeof(spec) - n, "%s%c", s->kind == S_INT ? lens[s->ls + 2] : "", conv);
	char *t = arena(c, strlen(spec));
	if (!t)
		return -1;
	strcpy(t, spec);
	s->text = t;
	return 0;
}

/* One conversion at f, the arg-th: flags, width, precision, length, letter.
 * Returns the cursor after it or NULL (c says why). */
static const char *conv_seg(struct cc *c, struct pf_seg *s, const char *f, uint32_t arg)
{
	const char *start = f++;
	char flags[8];
	size_t nf = 0;
	while (*f && strchr("-0# +", *f)) {
		if (nf < sizeof(flags) - 1 && !memchr(flags, *f, nf))
			flags[nf++] = *f;
		f++;
	}
	flags[nf] = '\0';
	long width = -1, prec = -1;
	if (isdigit((unsigned char)*f))
		width = strtol(f, (char **)&f, 10);
	if (*f == '.') {
		f++;
		prec = isdigit((unsigned char)*f) ? strtol(f, (char **)&f, 10) : 0;
	}
	if (width > PF_MAX_WIDTH || prec > PF_MAX_WIDTH) {
		fail(c, "width or precision too large in '%.*s'", (int)(f - start), start);
		return NULL;
	}
	int ls = 0;
	for (;; f++) {
		if (*f == 'h')
			ls = ls > -2 ? ls - 1 : ls;
		else if (*f == 'l')
			ls = ls < 2 ? ls + 1 : ls;
		else if (*f == 'z')
			ls = 1;
		else
			break;
	}
	/* What libtraceevent prints as ">x<" instead. */
	if (strchr(flags, '+') || strchr(flags, ' ') || (*f && strchr("jtLqZc", *f))) {
		fail(c, "libtraceevent does not print '%.*s'", (int)(f - start + (*f != 0)), start);
		return NULL;
	}
	char conv = *f;
	if (!conv || !strchr("diuxXosp", conv)) {
		fail(c, "unsupported conversion '%.*s'", (int)(f - start + (conv != 0)), start);
		return NULL;
	}
	s->kind = conv == 's' ? S_STR : conv == 'p' ? S_PTR : S_INT;
	s->ls = (int8_t)ls;
	s->left = strchr(flags, '-') != NULL;
	s->width = (int32_t)width;
	s->prec = (int32_t)prec;
	s->arg = (int32_t)arg;
	return seg_spec(c, s, flags, conv) ? NULL : f + 1;
}

/* The format as segments; returns the number of conversions or -1. */
static int split_format(struct cc *c, const char *f)
{
	struct uft_print_fmt *pf = c->pf;
	uint32_t nconv = 0;
	while (*f) {
		struct pf_seg *s = &pf->segs[pf->nsegs++];
		memset(s, 0, sizeof(*s));
		s->arg = -1;
		if (*f != '%' || f[1] == '%')
			f = text_seg(c, s, f);
		else
			f = conv_seg(c, s, f, nconv++);
		if (!f)
			return -1;
	}
	return (int)nconv;
}

static bool check_arg(struct cc *c, const struct pf_seg *s, int32_t i)
{
	const struct pf_node *n = &c->pf->nodes[i];
	if (s->kind != S_STR)
		return numeric(c, i);
	if (n->op == N_DYNARR)
		return fail(c, "libtraceevent prints __get_dynamic_array() with %%s as \"\""),
		       false;
	if (n->op == N_STR || n->op == N_STRLIT || n->op == N_SYM || n->op == N_FLAGS ||
	    n->op == N_HEX || (n->op == N_FIELD && n->array))
		return true;
	fail(c, "%%s needs a string argument (conversion %s)", s->text);
	return false;
}

int uft_print_fmt_compile(const char *print_fmt, const struct uft_field *fields, uint32_t nr,
			  struct uft_print_fmt **out, char *err, size_t errlen)
{
	struct cc c = {.p = print_fmt, .fields = fields, .nr = nr, .err = err, .errlen = errlen};
	size_t len = print_fmt ? strlen(print_fmt) : 0;
	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!print_fmt)
		return fail(&c, "no print fmt"), -EINVAL;
	struct uft_print_fmt *pf = calloc(1, sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	pf->ncap = (uint32_t)len + 8;
	pf->symcap = (uint32_t)len / 4 + 1;
	pf->scap = len * 4 + 64;
	pf->nodes = calloc(pf->ncap, sizeof(*pf->nodes));
	pf->segs = calloc(len + 1, sizeof(*pf->segs));
	pf->syms = calloc(pf->symcap, sizeof(*pf->syms));
	pf->strs = malloc(pf->scap);
	if (!pf->nodes || !pf->segs || !pf->syms || !pf->strs) {
		uft_print_fmt_free(pf);
		return -ENOMEM;
	}
	c.pf = pf;
	skip_ws(&c);
	if (*c.p != '"') {
		fail(&c, "print fmt must start with a quoted string");
		goto bad;
	}
	const char *f = string_lit(&c);
	int nconv = f ? split_format(&c, f) : -1;
	if (nconv < 0)
		goto bad;
	int32_t *args = calloc((size_t)nconv + 1, sizeof(*args));
	if (!args) {
		uft_print_fmt_free(pf);
		return -ENOMEM;
	}
	int nargs = 0;
	while (!c.bad && accept(&c, ",")) {
		int32_t i = expr(&c);
		if (i < 0)
			break;
		if (nargs < nconv)
			args[nargs] = i;
		nargs++;
	}
	skip_ws(&c);
	if (!c.bad && *c.p)
		fail(&c, "unexpected '%.20s'", c.p);
	if (!c.bad && nargs != nconv)
		fail(&c, "%d conversions but %d arguments", nconv, nargs);
	for (uint32_t k = 0; !c.bad && k < pf->nsegs; k++) {
		struct pf_seg *s = &pf->segs[k];
		if (s->kind != S_TEXT && check_arg(&c, s, args[s->arg]))
			s->arg = args[s->arg];
	}
	free(args);
	if (c.bad)
		goto bad;
	*out = pf;
	return 0;
bad:
	uft_print_fmt_free(pf);
	return -EINVAL;
}

void uft_print_fmt_free(struct uft_print_fmt *pf)
{
	if (!pf)
		return;
	free(pf->nodes);
	free(pf->segs);
	free(pf->syms);
	free(pf->strs);
	free(pf);
}
