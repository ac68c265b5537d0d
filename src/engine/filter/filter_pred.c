/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One predicate: FIELD[.ustring|.function] OP VALUE. The checks run in the
 * kernel's order and report its positions: "pos + i" there is one past the
 * byte index here, because the kernel hands the predicate parser an offset
 * that is already one too far. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpulist.h"
#include "engine/filter/filter_parse.h"
#include "util/util.h"

#define MAX_STR_VAL 256 /* quoted values hold at most 255 bytes */
#define NUM_BUF 24	/* numbers hold at most 23 bytes */

/* Where a field ends; a table claiming more than 4 GiB never fits a record. */
static uint32_t field_end(uint32_t offset, uint64_t size)
{
	uint64_t end = offset + size;
	return end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
}

static const char *const op_text[FOP_COUNT] = {"~", "!=", "==", "<=", "<", ">=", ">", "&"};

int uft_fparse_fail(struct uft_fparse *p, int code, size_t pos)
{
	p->err->code = code;
	p->err->pos = (int)pos;
	return -EINVAL;
}

static int oom(struct uft_fparse *p)
{
	p->err->code = -ENOMEM;
	p->err->pos = 0;
	return -ENOMEM;
}

static bool is_string(const struct uft_ffield *r)
{
	return r->cls == FC_STATIC || r->cls == FC_DYN || r->cls == FC_RDYN || r->cls == FC_PTR ||
	       r->cls == FC_COMM;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'z' ? c - 'a' + 10 : 99;
}

static bool is_xdigit(char c)
{
	return digit_value(c) < 16;
}

/* kstrtoull() with base 0: "0x" + hex digit means hex, a leading 0 octal. */
static int parse_u64(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	const char *start;

	if (s[0] == '0') {
		base = 8;
		if ((s[1] | 0x20) == 'x' && is_xdigit(s[2])) {
			base = 16;
			s += 2;
		}
	}
	for (start = s; *s; s++) {
		unsigned d = (unsigned)digit_value(*s);
		if (d >= base)
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	if (s == start)
		return -1;
	*out = v;
	return 0;
}

/* kstrtoll() / kstrtoull() by the field's signedness. */
static int parse_number(const char *s, bool is_signed, uint64_t *out)
{
	uint64_t v;

	if (!is_signed || s[0] != '-') {
		if (parse_u64(s, &v) || (is_signed && (int64_t)v < 0))
			return -1;
		*out = v;
		return 0;
	}
	if (parse_u64(s + 1, &v) || (int64_t)(0 - v) > 0)
		return -1;
	*out = 0 - v;
	return 0;
}

/* Turns `key OP k` (keys in unsigned order) into a range test
 * key - val <= val2, inverted for !=; an empty range is never true. */
static void set_range(struct uft_fpred *o, uint64_t k)
{
	uint64_t lo = 0, hi = UINT64_MAX;

	switch (o->op) {
	case FOP_NE:
		o->inv = 1;
		/* fallthrough */
	case FOP_EQ:
		lo = hi = k;
		break;
	case FOP_LT:
		if (k == 0)
			goto never;
		hi = k - 1;
		break;
	case FOP_LE:
		hi = k;
		break;
	case FOP_GT:
		if (k == UINT64_MAX)
			goto never;
		lo = k + 1;
		break;
	default: /* FOP_GE */
		lo = k;
		break;
	}
	o->val = lo;
	o->val2 = hi - lo;
	return;
never:
	o->fn = FFN_FALSE;
	o->end = 0;
}

/* The comparison the kernel picks for an integer field: the value keeps the
 * bits the field's type keeps, and orders as the field's signedness says. */
static void set_numeric(struct uft_fpred *o, const struct uft_ffield *r, bool is_signed,
			uint64_t val)
{
	unsigned bits = r->size * 8;

	if (r->size != 1 && r->size != 2 && r->size != 4 && r->size != 8) {
		o->fn = FFN_FALSE; /* no comparison for this size: never true */
		return;
	}
	o->size = (uint8_t)r->size;
	o->shift = (uint8_t)(64 - bits);
	o->offset = r->offset;
	o->end = field_end(r->offset, r->size);
	if (bits < 64)
		val &= (1ull << bits) - 1;
	if (o->op == FOP_BAND) {
		o->fn = FFN_BAND;
		o->val = val;
		return;
	}
	o->fn = is_signed ? FFN_SRANGE : FFN_URANGE;
	if (is_signed)
		val = uft_fkey_signed((int64_t)(val << o->shift) >> o->shift);
	set_range(o, val);
}

static uint8_t *new_mask(struct uft_fparse *p, int32_t *idx)
{
	if (uft_array_reserve(p->masks, p->cap_masks, p->nr_masks + 1, 4))
		return NULL;
	*idx = (int32_t)p->nr_masks;
	return p->masks[p->nr_masks++];
}

static int mask_weight(const uint8_t *m, uint32_t *first)
{
	int w = 0;

	for (uint32_t b = UFT_FILTER_NR_CPUS; b-- > 0;) {
		if (m[b / 8] & (1u << (b % 8))) {
			w++;
			*first = b;
		}
	}
	return w;
}

/* VALUE = CPUS{list}, at s[i] (known to start with "CPUS"). */
static long parse_cpus(struct uft_fparse *p, size_t i, const struct uft_ffield *r,
		       struct uft_fpred *o, int32_t *mask)
{
	const char *s = p->s;
	size_t start;
	uint8_t *m;
	uint32_t first = 0;

	if (r->cls != FC_CPUMASK && r->cls != FC_CPU && r->cls != FC_NUM)
		return uft_fparse_fail(p, UFT_FILTER_ERR_ILLEGAL_FIELD_OP, i + 1);
	if (o->op != FOP_EQ && o->op != FOP_NE && o->op != FOP_BAND)
		return uft_fparse_fail(p, UFT_FILTER_ERR_ILLEGAL_FIELD_OP, i + 1);
	i += 4;
	if (s[i++] != '{')
		return uft_fparse_fail(p, UFT_FILTER_ERR_MISSING_BRACE_OPEN, i + 1);
	for (start = i; s[i] && s[i] != '}'; i++)
		;
	if (s[i] != '}')
		return uft_fparse_fail(p, UFT_FILTER_ERR_MISSING_BRACE_CLOSE, i + 1);
	if (start == i)
		return uft_fparse_fail(p, UFT_FILTER_ERR_INVALID_CPULIST, i + 1);
	m = new_mask(p, mask);
	if (!m)
		return oom(p);
	if (uft_cpulist_parse(s + start, i - start, m, UFT_FILTER_NR_CPUS))
		return uft_fparse_fail(p, UFT_FILTER_ERR_INVALID_CPULIST, i + 1);
	i++;

	/* A one-CPU list is a plain number. */
	bool single = mask_weight(m, &first) == 1;
	if (single) {
		p->nr_masks--;
		*mask = -1;
		o->val = first;
		if (o->op == FOP_BAND && r->cls != FC_CPUMASK)
			o->op = FOP_EQ;
	}
	o->offset = r->offset;
	switch (r->cls) {
	case FC_CPUMASK:
		o->fn = single ? FFN_CPUMASK_CPU : FFN_CPUMASK;
		o->end = field_end(r->offset, 4);
		break;
	case FC_CPU:
		o->fn = single ? FFN_CPU : FFN_CPU_MASK;
		if (single)
			set_range(o, uft_fkey_signed((int32_t)first));
		break;
	default:
		if (single) {
			set_numeric(o, r, false, first);
		} else {
			o->fn = FFN_NUM_MASK;
			o->size = (uint8_t)r->size;
			o->end = field_end(r->offset, r->size);
			if (r->size != 1 && r->size != 2 && r->size != 4 && r->size != 8) {
				o->fn = FFN_FALSE;
				o->end = 0;
			}
		}
	}
	return (long)i;
}

/* How a pattern compares (the kernel's filter_parse_regex()): trims the
 * pattern to what the comparison needs. Only '~' reads metacharacters. */
static void classify_pattern(struct uft_fpred *o, const char **pat, size_t *len)
{
	const char *b = *pat;
	size_t n = *len;

	o->match = FM_FULL;
	if (o->op != FOP_GLOB)
		return;
	if (n && b[0] == '!') {
		o->inv = 1;
		b++;
		n--;
	}
	*pat = b;
	*len = n;
	/* The kernel takes a leading digit for a function index and falls
	 * back to an exact match. */
	if (n && uft_k_isdigit((unsigned char)b[0]))
		return;
	for (size_t i = 0; i < n; i++) {
		if (b[i] == '*') {
			if (i == 0) {
				o->match = FM_END;
			} else if (i == n - 1) {
				o->match = o->match == FM_END ? FM_MIDDLE : FM_FRONT;
				n = i;
				break;
			} else {
				o->match = FM_GLOB;
				return;
			}
		} else if (b[i] == '[' || b[i] == '?' || b[i] == '\\') {
			o->match = FM_GLOB;
			return;
		}
	}
	if (n && b[0] == '*') {
		b++;
		n--;
	}
	*pat = b;
	*len = n;
}

/* VALUE = "..." or '...', at s[i]. */
static long parse_string(struct uft_fparse *p, size_t i, const struct uft_ffield *r,
			 struct uft_fpred *o)
{
	const char *s = p->s;
	char q = s[i];
	size_t start = i + 1;

	if (o->op == FOP_NE)
		o->inv = 1;
	else if (o->op != FOP_GLOB && o->op != FOP_EQ)
		return uft_fparse_fail(p, UFT_FILTER_ERR_ILLEGAL_FIELD_OP, i + 1);
	if (!is_string(r))
		return uft_fparse_fail(p, UFT_FILTER_ERR_EXPECT_DIGIT, i + 1);
	/* A backslash keeps the next byte (a quote, say) inside the string. */
	for (i++; s[i] && s[i] != q; i++)
		if (s[i] == '\\' && s[i + 1])
			i++;
	if (!s[i])
		return uft_fparse_fail(p, UFT_FILTER_ERR_MISSING_QUOTE, i + 1);
	if (i - start >= MAX_STR_VAL)
		return uft_fparse_fail(p, UFT_FILTER_ERR_OPERAND_TOO_LONG, i + 1);

	const char *pat = s + start;
	size_t plen = i - start;
	classify_pattern(o, &pat, &plen);
	o->pat = pat;
	o->plen = (uint32_t)plen;
	o->offset = r->offset;
	switch (r->cls) {
	case FC_COMM:
		o->fn = FFN_STR_COMM;
		break;
	case FC_STATIC:
		o->fn = FFN_STR_STATIC;
		o->end = field_end(r->offset, r->size);
		break;
	case FC_DYN:
		o->fn = FFN_STR_DYN;
		o->end = field_end(r->offset, 4);
		break;
	case FC_RDYN:
		o->fn = FFN_STR_RDYN;
		o->end = field_end(r->offset, 4);
		break;
	default:
		o->fn = FFN_STR_PTR;
		o->end = field_end(r->offset, r->size);
		break;
	}
	return (long)(i + 1);
}

/* VALUE = number, at s[i] (a digit or '-'). */
static long parse_int(struct uft_fparse *p, size_t i, const struct uft_ffield *r,
		      struct uft_fpred *o)
{
	const char *s = p->s;
	size_t start = i;
	char buf[NUM_BUF];
	uint64_t val;

	if (is_string(r))
		return uft_fparse_fail(p, UFT_FILTER_ERR_EXPECT_STRING, i + 1);
	if (o->op == FOP_GLOB)
		return uft_fparse_fail(p, UFT_FILTER_ERR_ILLEGAL_FIELD_OP, i + 1);
	if (s[i] == '-')
		i++;
	while (uft_k_isalnum((unsigned char)s[i]))
		i++;
	if (i - start >= NUM_BUF)
		return uft_fparse_fail(p, UFT_FILTER_ERR_OPERAND_TOO_LONG, i + 1);
	memcpy(buf, s + start, i - start);
	buf[i - start] = '\0';
	if (parse_number(buf, r->is_signed, &val))
		return uft_fparse_fail(p, UFT_FILTER_ERR_ILLEGAL_INTVAL, start + 1);
	if (r->cls == FC_CPU) {
		/* compared as an int; & is accepted but never true */
		o->fn = FFN_CPU;
		if (o->op == FOP_BAND)
			o->fn = FFN_FALSE;
		else
			set_range(o, uft_fkey_signed((int32_t)val));
	} else {
		set_numeric(o, r, r->is_signed, val);
	}
	return (long)i;
}

/* VALUE for FIELD.function: a number or a symbol name. */
static long parse_function(struct uft_fparse *p, size_t i, const struct uft_ffield *r,
			   struct uft_fpred *o)
{
	const char *s = p->s;
	const struct uft_filter_syms *syms = p->syms;
	size_t start = i;
	uint64_t addr = 0, lo, hi;
	char buf[NUM_BUF];
	int found;

	if (r->size != sizeof(long))
		return uft_fparse_fail(p, UFT_FILTER_ERR_ILLEGAL_FIELD_OP, i + 1);
	if (o->op != FOP_EQ && o->op != FOP_NE)
		return uft_fparse_fail(p, UFT_FILTER_ERR_INVALID_OP, i + 1);
	if (uft_k_isdigit((unsigned char)s[i])) {
		while (uft_k_isalnum((unsigned char)s[i]))
			i++;
		if (i - start >= NUM_BUF)
			return uft_fparse_fail(p, UFT_FILTER_ERR_OPERAND_TOO_LONG, i + 1);
		memcpy(buf, s + start, i - start);
		buf[i - start] = '\0';
		if (parse_u64(buf, &addr))
			return uft_fparse_fail(p, UFT_FILTER_ERR_INVALID_VALUE, i + 1);
		if (syms && syms->lookup) {
			found = syms->lookup(syms->ctx, NULL, addr, &lo, &hi) == 0;
		} else {
			lo = addr;
			hi = addr + 1;
			found = 1;
		}
	} else {
		while (s[i] && !uft_k_isspace((unsigned char)s[i]))
			i++;
		char *name = strndup(s + start, i - start);
		if (!name)
			return oom(p);
		found = syms && syms->lookup && syms->lookup(syms->ctx, name, 0, &lo, &hi) == 0;
		free(name);
	}
	if (!found || hi <= lo)
		return uft_fparse_fail(p, UFT_FILTER_ERR_NO_FUNCTION, i + 1);
	o->fn = FFN_FUNCTION;
	o->offset = r->offset;
	o->end = field_end(r->offset, 8);
	o->val = lo;
	o->val2 = hi;
	return (long)i;
}

static size_t skip_space(const char *s, size_t i)
{
	while (uft_k_isspace((unsigned char)s[i]))
		i++;
	return i;
}

static bool has_prefix(const char *s, const char *pre)
{
	return !strncmp(s, pre, strlen(pre));
}

long uft_fparse_pred(struct uft_fparse *p, size_t start, struct uft_fpred *o, int32_t *mask)
{
	const char *s = p->s;
	size_t i = start;
	bool ustring = false, function = false;
	struct uft_ffield r;
	int op;

	memset(o, 0, sizeof(*o));
	*mask = -1;
	while (uft_k_isalnum((unsigned char)s[i]) || s[i] == '_')
		i++;
	if (i == start) /* the kernel gives no message for a missing field */
		return uft_fparse_fail(p, UFT_FILTER_ERR_NONE, 0);
	if (!uft_fparse_field(p, s + start, i - start, &r))
		return uft_fparse_fail(p, UFT_FILTER_ERR_FIELD_NOT_FOUND, i + 1);
	if (has_prefix(s + i, ".ustring")) {
		ustring = true;
		i += strlen(".ustring");
	}
	if (has_prefix(s + i, ".function")) {
		function = true;
		i += strlen(".function");
	}
	i = skip_space(s, i);
	for (op = 0; op < FOP_COUNT; op++)
		if (has_prefix(s + i, op_text[op]))
			break;
	if (op == FOP_COUNT)
		return uft_fparse_fail(p, UFT_FILTER_ERR_INVALID_OP, i + 1);
	o->op = (uint8_t)op;
	i = skip_space(s, i + strlen(op_text[op]));

	if (function)
		return parse_function(p, i, &r, o);
	if (has_prefix(s + i, "CPUS"))
		return parse_cpus(p, i, &r, o, mask);
	if (s[i] == '"' || s[i] == '\'') {
		/* any pointer read as a user string compares as one */
		if (ustring && r.is_ptr && r.cls == FC_NUM)
			r.cls = FC_PTR;
		return parse_string(p, i, &r, o);
	}
	if (uft_k_isdigit((unsigned char)s[i]) || s[i] == '-')
		return parse_int(p, i, &r, o);
	return uft_fparse_fail(p, UFT_FILTER_ERR_INVALID_VALUE, i + 1);
}
