/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* printf-style events: the format string alone defines fields, layout and the
 * kernel print fmt.
 *
 * The print fmt keeps the caller's format, rewritten only where libtraceevent
 * (1.7.x, what trace-cmd uses) would print differently from printf: %c becomes
 * %s over a char[2] field (libtraceevent has no %c), and the j and t length
 * modifiers become l (same size on LP64, unknown to libtraceevent). Whatever
 * cannot be rewritten that way is refused, so a trace viewer always shows
 * what printf would have shown. Literal text is C-escaped; bytes outside
 * printable ASCII (UTF-8 included) can only show as escapes there. */
#include "engine/format/printf_event.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/format/format.h"
#include "util/util.h"

#define MAX_NAME 64
/* libtraceevent copies a conversion into a 32-byte buffer. */
#define MAX_SPEC 30

enum len_mod { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BAD };

struct spec {
	const char *start; /* the '%' */
	size_t len;	   /* through the conversion character */
	const char *flags;
	size_t nflags;
	const char *width;
	size_t nwidth;
	const char *prec; /* digits after '.', valid when has_prec */
	size_t nprec;
	bool has_prec;
	bool star;	 /* '*' width or precision */
	bool positional; /* n$ */
	enum len_mod mod;
	char bad_mod; /* L, q or Z */
	char conv;
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static size_t skip_digits(const char *p)
{
	size_t n = 0;
	while (p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

/* Skips a width or precision: digits, or `*` with an optional `N$`. */
static const char *skip_count(const char *q, bool *star)
{
	if (*q != '*')
		return q + skip_digits(q);
	*star = true;
	q++;
	size_t n = skip_digits(q);
	return n && q[n] == '$' ? q + n + 1 : q;
}

/* Scans one conversion leniently so errors can quote all of it. */
static void scan_spec(const char *p, struct spec *s)
{
	const char *q = p + 1;
	size_t n;

	memset(s, 0, sizeof(*s));
	s->start = p;
	n = skip_digits(q);
	if (n && q[n] == '$') {
		s->positional = true;
		q += n + 1;
	}
	s->flags = q;
	while (*q && strchr("-+ #0'I", *q))
		q++;
	s->nflags = (size_t)(q - s->flags);
	s->width = q;
	q = skip_count(q, &s->star);
	s->nwidth = (size_t)(q - s->width);
	if (*q == '.') {
		s->has_prec = true;
		q++;
		s->prec = q;
		q = skip_count(q, &s->star);
		s->nprec = (size_t)(q - s->prec);
	}
	switch (*q) {
	case 'h':
		s->mod = q[1] == 'h' ? LEN_HH : LEN_H;
		q += s->mod == LEN_HH ? 2 : 1;
		break;
	case 'l':
		s->mod = q[1] == 'l' ? LEN_LL : LEN_L;
		q += s->mod == LEN_LL ? 2 : 1;
		break;
	case 'j':
		s->mod = LEN_J;
		q++;
		break;
	case 'z':
		s->mod = LEN_Z;
		q++;
		break;
	case 't':
		s->mod = LEN_T;
		q++;
		break;
	case 'L':
	case 'q':
	case 'Z':
		s->mod = LEN_BAD;
		s->bad_mod = *q++;
		break;
	}
	s->conv = *q;
	s->len = (size_t)(q - p) + (*q ? 1 : 0);
}

static bool num_too_big(const char *digits, size_t n)
{
	if (n > 4)
		return true;
	return n && atoi(digits) > UFT_PRINTF_MAX_WIDTH;
}

/* The conversion letter: one that printf and libtraceevent print alike. */
static int check_conversion(const struct spec *s, unsigned idx, char *err, size_t errlen)
{
	int n = (int)s->len;
	const char *sp = s->start;
	char c = s->conv;

	if (!c) {
		set_err(err, errlen, "format ends inside conversion %u '%.*s'", idx, n, sp);
		return -EINVAL;
	}
	if (c == '%') {
		set_err(err, errlen, "'%.*s': a literal %% is written %%%%", n, sp);
		return -EINVAL;
	}
	if (strchr("fFeEgGaA", c)) {
		set_err(err, errlen, "conversion %u '%.*s': floating point is not supported", idx,
			n, sp);
		return -EINVAL;
	}
	if (c == 'n') {
		set_err(err, errlen, "conversion %u '%.*s': %%n is not supported", idx, n, sp);
		return -EINVAL;
	}
	if (c == 'm') {
		set_err(err, errlen, "conversion %u '%.*s': %%m is not supported (it prints errno)",
			idx, n, sp);
		return -EINVAL;
	}
	if (!strchr("diuxXocsp", c)) {
		if (c > ' ' && c < 0x7f)
			set_err(err, errlen, "conversion %u '%.*s': unknown conversion '%c'", idx,
				n, sp, c);
		else
			set_err(err, errlen, "conversion %u: unknown conversion byte 0x%02x", idx,
				(unsigned char)c);
		return -EINVAL;
	}
	return 0;
}

/* What stands between the % and the letter: no '*', no n$, no flag or
 * length the viewers cannot print, bounded numbers. */
static int check_form(const struct spec *s, unsigned idx, char *err, size_t errlen)
{
	int n = (int)s->len;
	const char *sp = s->start;

	if (s->star) {
		set_err(err, errlen,
			"conversion %u '%.*s': '*' width or precision is not supported; write the "
			"number in the format",
			idx, n, sp);
		return -EINVAL;
	}
	if (s->positional) {
		set_err(err, errlen,
			"conversion %u '%.*s': positional arguments (n$) are not supported", idx, n,
			sp);
		return -EINVAL;
	}
	if (s->mod == LEN_BAD) {
		set_err(err, errlen,
			"conversion %u '%.*s': length modifier '%c' is not supported; use ll", idx,
			n, sp, s->bad_mod);
		return -EINVAL;
	}
	for (size_t i = 0; i < s->nflags; i++) {
		char f = s->flags[i];
		if (f == '+' || f == ' ' || f == '\'' || f == 'I') {
			set_err(err, errlen,
				"conversion %u '%.*s': flag '%c' is not supported (trace viewers "
				"cannot print it)",
				idx, n, sp, f);
			return -EINVAL;
		}
	}
	if (num_too_big(s->width, s->nwidth) || (s->has_prec && num_too_big(s->prec, s->nprec))) {
		set_err(err, errlen, "conversion %u '%.*s': width or precision above %d", idx, n,
			sp, UFT_PRINTF_MAX_WIDTH);
		return -EINVAL;
	}
	if (s->len > MAX_SPEC) {
		set_err(err, errlen, "conversion %u '%.*s': longer than %d characters", idx, n, sp,
			MAX_SPEC);
		return -EINVAL;
	}
	return 0;
}

/* %p, %c and %s take fewer decorations than numbers do. */
static int check_letter_rules(const struct spec *s, unsigned idx, char *err, size_t errlen)
{
	int n = (int)s->len;
	const char *sp = s->start;
	char c = s->conv;

	if (c == 'p') {
		if (s->nflags || s->nwidth || s->has_prec || s->mod != LEN_NONE) {
			set_err(err, errlen,
				"conversion %u '%.*s': %%p takes no flags, width, precision or "
				"length",
				idx, n, sp);
			return -EINVAL;
		}
		/* Trace viewers read these as kernel pointer extensions (%pS...). */
		if (sp[2] && strchr("FfSsMmIiUh", sp[2])) {
			set_err(err, errlen,
				"conversion %u '%%p%c': a letter right after %%p reads as a kernel "
				"pointer extension; put a separator after %%p",
				idx, sp[2]);
			return -EINVAL;
		}
	}
	if (c == 'c' || c == 's') {
		if (s->mod != LEN_NONE) {
			set_err(
			    err, errlen,
			    "conversion %u '%.*s': wide characters and strings are not supported",
			    idx, n, sp);
			return -EINVAL;
		}
		for (size_t i = 0; i < s->nflags; i++) {
			if (s->flags[i] != '-') {
				set_err(err, errlen,
					"conversion %u '%.*s': only the '-' flag applies to %%%c",
					idx, n, sp, c);
				return -EINVAL;
			}
		}
		if (c == 'c' && s->has_prec) {
			set_err(err, errlen, "conversion %u '%.*s': %%c takes no precision", idx, n,
				sp);
			return -EINVAL;
		}
	}
	return 0;
}

/* Rejects what printf and libtraceevent would not print alike. */
static int check_spec(const struct spec *s, unsigned idx, char *err, size_t errlen)
{
	int rc = check_conversion(s, idx, err, errlen);

	if (!rc)
		rc = check_form(s, idx, err, errlen);
	if (!rc)
		rc = check_letter_rules(s, idx, err, errlen);
	return rc;
}

struct arg_type {
	const char *type;
	uint32_t size;
	uint8_t is_signed;
	uint8_t kind;  /* enum uft_field_kind */
	uint8_t pkind; /* enum uft_parg_kind */
};

static struct arg_type arg_type(const struct spec *s)
{
	bool sgn = s->conv == 'd' || s->conv == 'i';

	switch (s->conv) {
	case 's':
		return (struct arg_type){"__data_loc char[]", 4, 0, UFT_FIELD_DYN, UFT_PARG_STR};
	case 'c':
		return (struct arg_type){"char", 2, 0, UFT_FIELD_ARRAY, UFT_PARG_CHAR};
	case 'p':
		return (struct arg_type){"unsigned long", 8, 0, UFT_FIELD_SCALAR, UFT_PARG_U64};
	}
	switch (s->mod) {
	case LEN_L:
	case LEN_J: /* intmax_t, ptrdiff_t and size_t are long on LP64 */
	case LEN_Z:
	case LEN_T:
		return (struct arg_type){sgn ? "long" : "unsigned long", 8, sgn, UFT_FIELD_SCALAR,
					 UFT_PARG_U64};
	case LEN_LL:
		return (struct arg_type){sgn ? "long long" : "unsigned long long", 8, sgn,
					 UFT_FIELD_SCALAR, UFT_PARG_U64};
	default: /* h and hh arguments arrive promoted to int */
		return (struct arg_type){sgn ? "int" : "unsigned int", 4, sgn, UFT_FIELD_SCALAR,
					 UFT_PARG_U32};
	}
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static uint32_t arg_align(const struct arg_type *t)
{
	return t->pkind == UFT_PARG_CHAR ? 1 : t->size;
}

/* Growable string for the print fmt. */
struct sbuf {
	char *p;
	size_t len;
	size_t cap;
	bool oom;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

/* C-escapes one literal byte of the format for the quoted print fmt. */
static void sb_escaped(struct sbuf *b, unsigned char c)
{
	static const char esc_from[] = "\"\\\n\t\r\a\b\f\v";
	static const char esc_to[] = "\"\\ntrabfv";
	const char *e = c ? strchr(esc_from, c) : NULL;
	char tmp[5];

	if (e) {
		tmp[0] = '\\';
		tmp[1] = esc_to[e - esc_from];
		sb_add(b, tmp, 2);
	} else if (c < 0x20 || c >= 0x7f) {
		/* libtraceevent rejects print fmts holding bytes >= 0x80 (so
		 * UTF-8 text shows as octal digits). Three digits, so a
		 * following digit is not absorbed. */
		snprintf(tmp, sizeof(tmp), "\\%03o", c);
		sb_add(b, tmp, 4);
	} else {
		tmp[0] = (char)c;
		sb_add(b, tmp, 1);
	}
}

/* The conversion as libtraceevent needs it (see the file comment). */
static void sb_spec(struct sbuf *b, const struct spec *s)
{
	const char *after_width = s->flags + s->nflags + s->nwidth;
	const char *end = s->start + s->len - 1; /* conversion character */

	sb_add(b, s->start, (size_t)(after_width - s->start)); /* % flags width */
	if (s->has_prec) {
		sb_add(b, ".", 1);
		sb_add(b, s->prec, s->nprec);
	}
	if (s->mod == LEN_J || s->mod == LEN_T) {
		sb_add(b, "l", 1);
	} else {
		const char *mod = s->has_prec ? s->prec + s->nprec : after_width;
		sb_add(b, mod, (size_t)(end - mod));
	}
	sb_add(b, s->conv == 'c' ? "s" : end, 1);
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static bool name_taken(const struct uft_field *fields, uint32_t n, const char *name)
{
	/* Common fields shadow event fields, and libtraceevent replaces the
	 * *_PR_FMT tokens (a mac80211 workaround) wherever they appear. */
	static const char *const reserved[] = {
	    "common_type",  "common_flags", "common_preempt_count", "common_pid",
	    "LOCAL_PR_FMT", "STA_PR_FMT",   "VIF_PR_FMT",
	};
	for (size_t i = 0; i < ARRAY_SIZE(reserved); i++)
		if (!strcmp(reserved[i], name))
			return true;
	/* Char array names end in [2]; compare what print fmt references. */
	for (uint32_t i = 0; i < n; i++) {
		size_t len = strcspn(fields[i].name, "[");
		if (len == strlen(name) && !memcmp(fields[i].name, name, len))
			return true;
	}
	return false;
}

/* `key=%d` names the field `key`; otherwise argN (1-based). Clashes get _2,
 * _3... so every field stays addressable in filters and print fmt. */
static char *field_name(const char *fmt, const char *pct, unsigned idx,
			const struct uft_field *fields, uint32_t n)
{
	char base[MAX_NAME + 1];
	const char *end = pct;
	const char *p;

	base[0] = '\0';
	if (end > fmt && end[-1] == '=') {
		end--;
		p = end;
		while (p > fmt && is_ident(p[-1]))
			p--;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p < end) {
			size_t len = (size_t)(end - p);
			if (len > MAX_NAME)
				len = MAX_NAME;
			memcpy(base, p, len);
			base[len] = '\0';
		}
	}
	if (!base[0])
		snprintf(base, sizeof(base), "arg%u", idx);

	char buf[MAX_NAME + 16];
	snprintf(buf, sizeof(buf), "%s", base);
	for (unsigned k = 2; name_taken(fields, n, buf); k++)
		snprintf(buf, sizeof(buf), "%s_%u", base, k);
	return strdup(buf);
}

void uft_printf_layout_free(struct uft_printf_layout *l)
{
	if (!l)
		return;
	if (l->fields)
		for (uint32_t i = 0; i < l->nr_args; i++)
			free((char *)l->fields[i].name);
	free(l->fields);
	free(l->kinds);
	free(l->offsets);
	free(l->null_text);
	free(l->print_fmt);
	memset(l, 0, sizeof(*l));
}

/* First pass: validates every conversion and counts them. */
static int count_args(const char *fmt, uint32_t *nr, char *err, size_t errlen)
{
	uint32_t n = 0, off = UFT_COMMON_HDR_SIZE, nstr = 0;
	struct spec s;

	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		scan_spec(p, &s);
		int ret = check_spec(&s, n + 1, err, errlen);
		if (ret)
			return ret;
		struct arg_type t = arg_type(&s);
		off = align_up(off, arg_align(&t)) + t.size;
		nstr += t.pkind == UFT_PARG_STR;
		n++;
		/* The record's fixed part ends aligned to its widest field (8
		 * at most), and every string needs at least its NUL. */
		if (align_up(off, 8) + nstr > UFT_PRINTF_MAX_RECORD) {
			set_err(err, errlen,
				"too many conversions: fields alone exceed the %u-byte record",
				UFT_PRINTF_MAX_RECORD);
			return -EINVAL;
		}
		p += s.len - 1;
	}
	*nr = n;
	return 0;
}

/* The field of conversion s at p (the next argument), placed at *off. */
static int add_field(struct uft_printf_layout *out, const char *fmt, const char *p,
		     const struct spec *s, uint32_t *off, uint32_t *max_align)
{
	struct arg_type t = arg_type(s);
	uint32_t i = out->nr_args;
	struct uft_field *f = &out->fields[i];
	char *name = field_name(fmt, p, i + 1, out->fields, i);

	if (!name)
		return -ENOMEM;
	*off = align_up(*off, arg_align(&t));
	if (arg_align(&t) > *max_align)
		*max_align = arg_align(&t);
	if (t.pkind == UFT_PARG_CHAR) {
		/* "char" + name[2]: the format file prints arrays that way. */
		char *arr = malloc(strlen(name) + 4);
		if (!arr) {
			free(name);
			return -ENOMEM;
		}
		sprintf(arr, "%s[2]", name);
		free(name);
		name = arr;
	}
	f->type = t.type;
	f->name = name;
	f->offset = *off;
	f->size = t.size;
	f->is_signed = t.is_signed;
	f->kind = t.kind;
	f->elem_size = t.kind == UFT_FIELD_SCALAR ? 0 : 1;
	out->kinds[i] = t.pkind;
	if (t.pkind == UFT_PARG_STR)
		out->null_text[i] = s->has_prec && atoi(s->prec) < 6 ? "" : "(null)";
	out->offsets[i] = *off;
	out->nr_strings += t.pkind == UFT_PARG_STR;
	out->nr_args++;
	*off += t.size;
	return 0;
}

/* After the quoted format: the argument list, strings through __get_str. */
static void print_fmt_args(struct sbuf *pf, const struct uft_printf_layout *out)
{
	/* libtraceevent reads \\" as an escaped quote; a trailing %.0s of ""
	 * keeps a final backslash away from the closing quote. */
	bool tail_bslash = pf->len >= 2 && !memcmp(pf->p + pf->len - 2, "\\\\", 2);
	if (tail_bslash)
		sb_str(pf, "%.0s");
	sb_add(pf, "\"", 1);
	for (uint32_t i = 0; i < out->nr_args; i++) {
		const char *name = out->fields[i].name;
		if (out->kinds[i] == UFT_PARG_STR) {
			sb_str(pf, ", __get_str(");
			sb_str(pf, name);
			sb_str(pf, ")");
		} else {
			sb_str(pf, ", REC->");
			/* Char arrays are referenced without their [2]. */
			sb_add(pf, name, strcspn(name, "["));
		}
	}
	if (tail_bslash)
		sb_str(pf, ", \"\"");
}

int uft_printf_layout_parse(const char *fmt, struct uft_printf_layout *out, char *err,
			    size_t errlen)
{
	struct sbuf pf = {0};
	uint32_t nr, off = UFT_COMMON_HDR_SIZE, max_align = 4;
	struct spec s;
	int ret;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (!fmt) {
		set_err(err, errlen, "no format string");
		return -EINVAL;
	}
	ret = count_args(fmt, &nr, err, errlen);
	if (ret)
		return ret;

	out->fields = calloc(nr ? nr : 1, sizeof(*out->fields));
	out->kinds = calloc(nr ? nr : 1, sizeof(*out->kinds));
	out->offsets = calloc(nr ? nr : 1, sizeof(*out->offsets));
	out->null_text = calloc(nr ? nr : 1, sizeof(*out->null_text));
	if (!out->fields || !out->kinds || !out->offsets || !out->null_text)
		goto nomem;

	sb_add(&pf, "\"", 1);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			sb_escaped(&pf, (unsigned char)*p);
			continue;
		}
		if (p[1] == '%') {
			sb_add(&pf, "%%", 2);
			p++;
			continue;
		}
		scan_spec(p, &s);
		if (add_field(out, fmt, p, &s, &off, &max_align))
			goto nomem;
		sb_spec(&pf, &s);
		p += s.len - 1;
	}
	print_fmt_args(&pf, out);
	if (pf.oom)
		goto nomem;
	out->print_fmt = pf.p;
	out->fixed_size = align_up(off, max_align);
	uint32_t used = UFT_COMMON_HDR_SIZE;
	for (uint32_t i = 0; i < out->nr_args; i++)
		used += out->fields[i].size;
	out->has_holes = used != out->fixed_size;
	return 0;

nomem:
	free(pf.p);
	uft_printf_layout_free(out);
	set_err(err, errlen, "out of memory");
	return -ENOMEM;
}

/* Shared by size and fill: rec NULL only measures. lens, when not NULL,
 * holds one entry per string: a measure stores each string's length there
 * and a fill takes them from it instead of measuring again. */
static uint32_t layout_record(const struct uft_printf_layout *l, const uint64_t *args, uint8_t *rec,
			      uint32_t cap, uint32_t *lens)
{
	uint32_t si = 0;
	uint32_t budget = cap < UFT_PRINTF_MAX_RECORD ? cap : UFT_PRINTF_MAX_RECORD;
	uint32_t room, pos = l->fixed_size;

	if ((uint64_t)l->fixed_size + l->nr_strings > budget)
		return 0;
	/* Text bytes left once every string has its NUL. */
	room = budget - l->fixed_size - l->nr_strings;
	if (rec && l->has_holes)
		memset(rec + UFT_COMMON_HDR_SIZE, 0, l->fixed_size - UFT_COMMON_HDR_SIZE);
	for (uint32_t i = 0; i < l->nr_args; i++) {
		uint64_t v = args[i];
		uint8_t *f = rec ? rec + l->offsets[i] : NULL;

		switch (l->kinds[i]) {
		case UFT_PARG_U32:
			if (f) {
				uint32_t v32 = (uint32_t)v;
				memcpy(f, &v32, 4);
			}
			break;
		case UFT_PARG_U64:
			if (f)
				memcpy(f, &v, 8);
			break;
		case UFT_PARG_CHAR:
			if (f) {
				f[0] = (uint8_t)v;
				f[1] = 0;
			}
			break;
		case UFT_PARG_STR: {
			const char *str = v ? (const char *)(uintptr_t)v : l->null_text[i];
			uint32_t n;
			if (lens && rec)
				n = lens[si++];
			else
				n = (uint32_t)strnlen(str, room);
			if (lens && !rec)
				lens[si++] = n;
			room -= n;
			if (f) {
				uint32_t loc = pos | ((n + 1) << 16);
				memcpy(f, &loc, 4);
				memcpy(rec + pos, str, n);
				rec[pos + n] = '\0';
			}
			pos += n + 1;
			break;
		}
		}
	}
	return pos;
}

_Static_assert(UFT_TRACE_MAX_RECORD == UFT_PRINTF_MAX_RECORD,
	       "call sites truncate strings as the out-of-line writer does");
_Static_assert(UFT_ARG_U32 == UFT_PARG_U32 && UFT_ARG_U64 == UFT_PARG_U64 &&
		   UFT_ARG_STR == UFT_PARG_STR,
	       "a call site's argument kinds are compared with the format's");

bool uft_printf_inline_ok(const struct uft_printf_layout *l, const uint8_t *kinds,
			  uint32_t rec_size)
{
	if (!kinds || rec_size != l->fixed_size)
		return false;
	for (uint32_t i = 0; i < l->nr_args; i++) {
		if (kinds[i] != l->kinds[i] || l->kinds[i] == UFT_PARG_CHAR)
			return false;
		/* The site stores "(null)" for a NULL string. */
		if (l->kinds[i] == UFT_PARG_STR && strcmp(l->null_text[i], "(null)"))
			return false;
	}
	return kinds[l->nr_args] == UFT_ARG_END;
}

uint32_t uft_printf_record_size(const struct uft_printf_layout *l, const uint64_t *args)
{
	return layout_record(l, args, NULL, UFT_PRINTF_MAX_RECORD, NULL);
}

uint32_t uft_printf_record_fill(const struct uft_printf_layout *l, const uint64_t *args, void *rec,
				uint32_t cap)
{
	return layout_record(l, args, rec, cap, NULL);
}

uint32_t uft_printf_record_measure(const struct uft_printf_layout *l, const uint64_t *args,
				   uint32_t *lens)
{
	return layout_record(l, args, NULL, UFT_PRINTF_MAX_RECORD, lens);
}

uint32_t uft_printf_record_fill_measured(const struct uft_printf_layout *l, const uint64_t *args,
					 const uint32_t *lens, void *rec, uint32_t size)
{
	return layout_record(l, args, rec, size, (uint32_t *)lens);
}
