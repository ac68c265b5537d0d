/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Folded stacks (the input of flamegraph.pl, inferno, speedscope): one
 * line per call path with a nonzero value, "outer;inner VALUE", the value
 * the path's self time in the file's clock units, or its count of calls or
 * stack samples. Paths in depth-first order, siblings by name. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/calltree.h"

struct folded {
	struct calltree ct;
	enum flame_by by;
	FILE *out;
};

static int write_paths(struct folded *fd, struct exp *x)
{
	struct calltree *ct = &fd->ct;
	uint32_t *path = NULL;
	size_t cap = 0, depth = 0;
	uint32_t at = ct->v[CT_ROOT].child;
	while (at != CT_NONE) {
		if (depth == cap) {
			cap = cap ? cap * 2 : 64;
			uint32_t *p = realloc(path, cap * sizeof(*p));
			if (!p) {
				free(path);
				return -ENOMEM;
			}
			path = p;
		}
		path[depth++] = at;
		const struct ct_node *n = &ct->v[at];
		uint64_t v = fd->by == FLAME_BY_TIME ? n->time : n->count;
		if (v) {
			for (size_t i = 0; i < depth; i++) {
				if (i)
					putc(';', fd->out);
				fputs(exp_name(x, ct->v[path[i]].name), fd->out);
			}
			fprintf(fd->out, " %llu\n", (unsigned long long)v);
		}
		/* Down to the first child, else along to the next sibling of
		 * the nearest node that has one. */
		if (n->child != CT_NONE) {
			at = n->child;
			continue;
		}
		while (depth && ct->v[path[depth - 1]].next == CT_NONE)
			depth--;
		at = depth ? ct->v[path[--depth]].next : CT_NONE;
	}
	free(path);
	return ferror(fd->out) ? -EIO : 0;
}

static int fd_finish(void *ctx, struct exp *x)
{
	struct folded *fd = ctx;
	fd->by = calltree_by(&fd->ct, fd->by);
	int rc = calltree_link(&fd->ct, fd->by, x);
	return rc ? rc : write_paths(fd, x);
}

int export_folded(struct trace_file *tf, const struct exp_opts *o, enum flame_by by, FILE *out,
		  FILE *err)
{
	struct folded fd = {.by = by, .out = out};
	struct exp_sink s;
	calltree_sink(&fd.ct, &s);
	s.ctx = &fd.ct;
	/* finish receives the tree's context: the tree is folded's first member. */
	s.finish = fd_finish;
	int rc = exp_run(tf, o, &s, err);
	calltree_free(&fd.ct);
	return rc;
}
