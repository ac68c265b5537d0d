/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The call paths of a trace merged into one tree (one node per distinct
 * stack), each node with the self time and the count of the calls or
 * samples that ended on it: what folded stacks and flame graphs show. */
#ifndef UFT_EXPORT_CALLTREE_H
#define UFT_EXPORT_CALLTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "export/export.h"
#include "export/formats.h"

#define CT_ROOT 0
#define CT_NONE UINT32_MAX

struct ct_node {
	uint32_t parent, name;
	uint32_t child, next; /* first child, next sibling (after ct_link) */
	uint64_t time, count;
	uint64_t total; /* self plus descendants, by the chosen measure (ct_total) */
};

struct calltree {
	struct ct_node *v;
	uint32_t n, cap;
	uint32_t *slots; /* (parent, name) hash: node + 1 */
	uint32_t nslots;
	uint64_t calls, samples; /* calls closed, stack samples taken */
};

/* A sink that builds the tree (ctx is the tree); the caller adds its
 * finish, which reads the tree while the pass's names still exist. */
void calltree_sink(struct calltree *ct, struct exp_sink *s);
void calltree_free(struct calltree *ct);
/* The measure FLAME_BY_AUTO stands for in this tree. */
enum flame_by calltree_by(const struct calltree *ct, enum flame_by by);
/* Links children (sorted by name) and fills each node's total: 0 or
 * -ENOMEM. */
int calltree_link(struct calltree *ct, enum flame_by by, const struct exp *x);

#endif
