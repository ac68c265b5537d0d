/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The bootconfig parser (bootconfig.h): one pass over the text with the line
 * and column kept as it goes, keys merged into one tree as they are met. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bootconfig/bootconfig.h"
#include "util/util.h"

struct bc_parser {
	const char *s;
	size_t len, i;
	uint32_t line;
	size_t line_start;
	struct uft_bc_tree *t;
	struct uft_bc_error *err;
	int rc;
};

static uint32_t col_at(const struct bc_parser *p, size_t i)
{
	return (uint32_t)(i - p->line_start + 1);
}

static int fail_at(struct bc_parser *p, uint32_t line, uint32_t col, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	p->err->line = line;
	p->err->col = col;
	p->rc = rc;
	return rc;
}

#define FAIL(p, ...) fail_at(p, (p)->line, col_at(p, (p)->i), -EINVAL, __VA_ARGS__)

static int peek(const struct bc_parser *p)
{
	return p->i < p->len ? (unsigned char)p->s[p->i] : -1;
}

static void adv(struct bc_parser *p)
{
	if (p->s[p->i++] == '\n') {
		p->line++;
		p->line_start = p->i;
	}
}

static void skip_blanks(struct bc_parser *p)
{
	while (peek(p) == ' ' || peek(p) == '\t' || peek(p) == '\r')
		adv(p);
}

static void skip_comment(struct bc_parser *p)
{
	while (p->i < p->len && p->s[p->i] != '\n')
		adv(p);
}

/* Blanks, newlines and comments. */
static void skip_space(struct bc_parser *p)
{
	for (;;) {
		int c = peek(p);
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			adv(p);
		else if (c == '#')
			skip_comment(p);
		else
			return;
	}
}

static bool word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

static int count_node(struct bc_parser *p)
{
	if (p->t->nr_nodes >= UFT_BC_NODE_MAX)
		return FAIL(p, "Too many nodes (max %d)", UFT_BC_NODE_MAX);
	p->t->nr_nodes++;
	return 0;
}

/* The child of parent named word[0..n), made when missing. */
static struct uft_bc_node *child_of(struct bc_parser *p, struct uft_bc_node *parent,
				    const char *word, size_t n, uint32_t line, uint32_t col)
{
	for (struct uft_bc_node *c = parent->child; c; c = c->next)
		if (strlen(c->word) == n && memcmp(c->word, word, n) == 0)
			return c;
	if (count_node(p))
		return NULL;
	struct uft_bc_node *c = calloc(1, sizeof(*c));
	if (!c || !(c->word = strndup(word, n))) {
		free(c);
		fail_at(p, line, col, -ENOMEM, "Out of memory");
		return NULL;
	}
	c->parent = parent;
	c->line = line;
	c->col = col;
	if (parent->last_child)
		parent->last_child->next = c;
	else
		parent->child = c;
	parent->last_child = c;
	return c;
}

/* A dotted key under group; keylen is the group's own key length. */
static struct uft_bc_node *parse_key(struct bc_parser *p, struct uft_bc_node *group, size_t keylen)
{
	struct uft_bc_node *n = group;
	uint32_t kline = p->line, kcol = col_at(p, p->i);
	for (;;) {
		size_t start = p->i;
		uint32_t col = col_at(p, start);
		while (word_char(peek(p)))
			adv(p);
		size_t wlen = p->i - start;
		if (!wlen) {
			FAIL(p, "Invalid keyword");
			return NULL;
		}
		keylen += (keylen ? 1 : 0) + wlen;
		if (keylen > UFT_BC_KEYLEN_MAX) {
			fail_at(p, kline, kcol, -EINVAL, "Too long key (max %d)",
				UFT_BC_KEYLEN_MAX);
			return NULL;
		}
		if (!(n = child_of(p, n, p->s + start, wlen, p->line, col)))
			return NULL;
		if (peek(p) != '.')
			return n;
		adv(p);
	}
}

static size_t key_length(const struct uft_bc_node *n)
{
	size_t len = 0;
	for (; n && n->parent; n = n->parent)
		len += strlen(n->word) + (n->parent->parent ? 1 : 0);
	return len;
}

static bool value_end(int c)
{
	return c < 0 || c == ',' || c == ';' || c == '\n' || c == '#' || c == '}';
}

/* One value (quoted or not) into *out; the delimiter after it is left. */
static int parse_one_value(struct bc_parser *p, char **out)
{
	int q = peek(p);
	size_t start, end;
	if (q == '"' || q == '\'') {
		uint32_t line = p->line, col = col_at(p, p->i);
		adv(p);
		start = p->i;
		while (p->i < p->len && p->s[p->i] != q) {
			if (p->s[p->i] == 0)
				return FAIL(p, "Non-printable character in a value");
			adv(p);
		}
		if (p->i >= p->len)
			return fail_at(p, line, col, -EINVAL, "No closing quotes");
		end = p->i;
		adv(p);
		skip_blanks(p);
		if (!value_end(peek(p)))
			return FAIL(p, "No value delimiter");
	} else {
		start = p->i;
		while (!value_end(peek(p))) {
			int c = peek(p);
			if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
				return FAIL(p, "Non-printable character in a value");
			adv(p);
		}
		end = p->i;
		while (end > start &&
		       (p->s[end - 1] == ' ' || p->s[end - 1] == '\t' || p->s[end - 1] == '\r'))
			end--;
	}
	if (!(*out = strndup(p->s + start, end - start)))
		return fail_at(p, p->line, col_at(p, p->i), -ENOMEM, "Out of memory");
	return 0;
}

static void free_vals(char **vals, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(vals[i]);
	free(vals);
}

/* `= V1, V2 ...` after the operator: the values, then the assignment. */
static int parse_values(struct bc_parser *p, struct uft_bc_node *n, char op, uint32_t oline,
			uint32_t ocol)
{
	char **vals = NULL;
	uint32_t nr = 0, cap = 0;
	skip_blanks(p);
	uint32_t vline = p->line, vcol = col_at(p, p->i);
	for (;;) {
		char *v = NULL;
		if (count_node(p) || parse_one_value(p, &v) ||
		    uft_array_reserve(vals, cap, nr + 1, 4)) {
			if (!p->rc)
				fail_at(p, p->line, col_at(p, p->i), -ENOMEM, "Out of memory");
			free(v);
			free_vals(vals, nr);
			return p->rc;
		}
		vals[nr++] = v;
		if (peek(p) != ',')
			break;
		adv(p);
		skip_space(p); /* an array may go on over lines and comments */
		if (peek(p) < 0) {
			free_vals(vals, nr);
			return FAIL(p, "No value after ','");
		}
	}
	if (op == '=' && n->has_value) {
		free_vals(vals, nr);
		return fail_at(p, oline, ocol, -EINVAL, "Value is redefined");
	}
	if (op == '+' && n->has_value) {
		if (uft_array_reserve(n->vals, n->cap_vals, n->nr_vals + nr, 4)) {
			free_vals(vals, nr);
			return fail_at(p, oline, ocol, -ENOMEM, "Out of memory");
		}
		memcpy(n->vals + n->nr_vals, vals, nr * sizeof(*vals));
		n->nr_vals += nr;
		free(vals);
	} else {
		free_vals(n->vals, n->nr_vals);
		n->vals = vals;
		n->nr_vals = nr;
		n->cap_vals = cap;
	}
	n->has_value = true;
	n->vline = vline;
	n->vcol = vcol;
	return 0;
}

/* What may follow a value or a bare key: a statement end, or a `}` the
 * group loop takes. */
static int end_statement(struct bc_parser *p)
{
	int c = peek(p);
	if (c == ';' || c == '\n')
		adv(p);
	else if (c == '#')
		skip_comment(p);
	else if (c >= 0 && c != '}')
		return FAIL(p, "No delimiter after the key");
	return 0;
}

/* The statements of one group until its `}` (or the end for the root). */
static int parse_group(struct bc_parser *p, struct uft_bc_node *group, int depth, uint32_t oline,
		       uint32_t ocol)
{
	size_t keylen = key_length(group);
	for (;;) {
		skip_space(p);
		int c = peek(p);
		if (c == ';') {
			adv(p);
			continue;
		}
		if (c < 0) {
			if (depth)
				return fail_at(p, oline, ocol, -EINVAL, "Brace is not closed");
			return 0;
		}
		if (c == '}') {
			if (!depth)
				return FAIL(p, "Unexpected '}'");
			adv(p);
			return 0;
		}
		struct uft_bc_node *n = parse_key(p, group, keylen);
		if (!n)
			return p->rc;
		skip_blanks(p);
		c = peek(p);
		uint32_t line = p->line, col = col_at(p, p->i);
		if (c == '{') {
			if (depth + 1 > UFT_BC_DEPTH_MAX)
				return FAIL(p, "Too many nested braces (max %d)", UFT_BC_DEPTH_MAX);
			adv(p);
			if (parse_group(p, n, depth + 1, line, col))
				return p->rc;
			continue;
		}
		char op = 0;
		if (c == '=') {
			op = '=';
			adv(p);
		} else if ((c == ':' || c == '+') && p->i + 1 < p->len && p->s[p->i + 1] == '=') {
			op = (char)c;
			adv(p);
			adv(p);
		}
		if (op && parse_values(p, n, op, line, col))
			return p->rc;
		if (!op && !value_end(peek(p)))
			return FAIL(p, "Invalid keyword");
		if (end_statement(p))
			return p->rc;
	}
}

static void free_node(struct uft_bc_node *n)
{
	while (n) {
		struct uft_bc_node *next = n->next;
		free_node(n->child);
		free_vals(n->vals, n->nr_vals);
		free(n->word);
		free(n);
		n = next;
	}
}

void uft_bc_free(struct uft_bc_tree *t)
{
	if (!t)
		return;
	free_node(t->root.child);
	free_vals(t->root.vals, t->root.nr_vals);
	free(t);
}

int uft_bc_parse(const char *text, size_t len, struct uft_bc_tree **out, struct uft_bc_error *err)
{
	*out = NULL;
	*err = (struct uft_bc_error){0};
	if (len > UFT_BC_DATA_MAX) {
		snprintf(err->msg, sizeof(err->msg), "Config data is too big (max %d bytes)",
			 UFT_BC_DATA_MAX);
		return -E2BIG;
	}
	struct uft_bc_tree *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err->msg, sizeof(err->msg), "Out of memory");
		return -ENOMEM;
	}
	t->root.word = (char *)"";
	struct bc_parser p = {.s = text, .len = len, .line = 1, .t = t, .err = err};
	/* The kernel reads the text as a C string; here a NUL is refused. */
	const char *nul = memchr(text, 0, len);
	if (nul) {
		while (p.i < (size_t)(nul - text))
			adv(&p);
		FAIL(&p, "Non-printable character");
	} else {
		parse_group(&p, &t->root, 0, 0, 0);
	}
	if (p.rc) {
		uft_bc_free(t);
		return p.rc;
	}
	*out = t;
	return 0;
}

struct uft_bc_node *uft_bc_find(const struct uft_bc_node *n, const char *path)
{
	while (n && *path) {
		size_t w = strcspn(path, ".");
		const struct uft_bc_node *c = n->child;
		while (c && !(strlen(c->word) == w && memcmp(c->word, path, w) == 0))
			c = c->next;
		n = c;
		path += w;
		if (*path == '.')
			path++;
	}
	return (struct uft_bc_node *)n;
}

const char *uft_bc_value(const struct uft_bc_node *n, const char *path)
{
	n = uft_bc_find(n, path);
	return n && n->nr_vals ? n->vals[0] : n && n->has_value ? "" : NULL;
}

char *uft_bc_key(const struct uft_bc_node *n, char *buf, size_t len)
{
	const struct uft_bc_node *chain[UFT_BC_KEYLEN_MAX];
	size_t depth = 0;
	for (; n && n->parent && depth < ARRAY_SIZE(chain); n = n->parent)
		chain[depth++] = n;
	size_t at = 0;
	if (len)
		buf[0] = 0;
	while (depth-- && at < len) {
		int w = snprintf(buf + at, len - at, "%s%s", at ? "." : "", chain[depth]->word);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	return buf;
}

static void render_node(const struct uft_bc_node *n, FILE *f)
{
	for (; n; n = n->next) {
		if (n->has_value || !n->child) {
			char key[UFT_BC_KEYLEN_MAX + 1];
			fprintf(f, "%s = ", uft_bc_key(n, key, sizeof(key)));
			if (!n->nr_vals)
				fputs("\"\"", f);
			for (uint32_t i = 0; i < n->nr_vals; i++) {
				char q = strchr(n->vals[i], '"') ? '\'' : '"';
				fprintf(f, "%s%c%s%c", i ? ", " : "", q, n->vals[i], q);
			}
			fputc('\n', f);
		}
		render_node(n->child, f);
	}
}

char *uft_bc_render(const struct uft_bc_tree *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	render_node(t->root.child, f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
