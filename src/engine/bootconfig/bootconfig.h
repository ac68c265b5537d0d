/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's bootconfig syntax: text into a tree of keys, each with its
 * values and where it was written (docs/design/bootconfig.md).
 *
 * Pure: no tracefs, no runtime. libuft applies the tree at start-up
 * (src/runtime/core/bootconfig_apply.c); the fuzz target and the unit tests
 * drive it on its own. */
#ifndef UFT_ENGINE_BOOTCONFIG_H
#define UFT_ENGINE_BOOTCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UFT_BC_DATA_MAX 32767 /* bytes of text, as the kernel's XBC_DATA_MAX */
#define UFT_BC_NODE_MAX 8192  /* key words plus values, as XBC_NODE_MAX */
#define UFT_BC_KEYLEN_MAX 256 /* a whole dotted key */
#define UFT_BC_DEPTH_MAX 16   /* nested brace groups */

struct uft_bc_node {
	char *word; /* one word of the key; "" for the root */
	struct uft_bc_node *parent, *child, *last_child, *next;
	char **vals; /* the values, in order (nr_vals of them) */
	uint32_t nr_vals, cap_vals;
	bool has_value;	      /* `KEY = ...` was written (maybe one empty value) */
	bool used;	      /* set by a consumer that took the key */
	uint32_t line, col;   /* where the key was first written (from 1) */
	uint32_t vline, vcol; /* where its value was last assigned */
};

struct uft_bc_tree {
	struct uft_bc_node root;
	uint32_t nr_nodes;
};

struct uft_bc_error {
	uint32_t line, col; /* from 1; 0:0 for a whole-text error (size) */
	char msg[96];
};

/* Parses len bytes of text. 0 and *out, or -EINVAL (-ENOMEM, -E2BIG for the
 * size) with err filled and nothing allocated. */
int uft_bc_parse(const char *text, size_t len, struct uft_bc_tree **out, struct uft_bc_error *err);
void uft_bc_free(struct uft_bc_tree *t);

/* The child of n named by a path of words joined by dots, or NULL. */
struct uft_bc_node *uft_bc_find(const struct uft_bc_node *n, const char *path);
/* Its first value when it has one, else NULL. */
const char *uft_bc_value(const struct uft_bc_node *n, const char *path);
/* The full dotted key of n into buf (truncated); returns buf. */
char *uft_bc_key(const struct uft_bc_node *n, char *buf, size_t len);
/* The tree as /proc/bootconfig shows it: one `KEY = "V1", "V2"` line per key
 * that has a value or no subkey. Returns a malloc'd string or NULL. */
char *uft_bc_render(const struct uft_bc_tree *t);

/* The hist trigger command of one `hist` (or `hist.N`) node of an event, as
 * the kernel's boot-time tracing composes it; the nodes it takes are marked
 * used. 0 and *cmd (malloc'd), or -EINVAL with the offending node in *at and
 * the reason in *why. */
int uft_bc_hist_cmd(struct uft_bc_node *h, char **cmd, const struct uft_bc_node **at,
		    const char **why);

#endif
