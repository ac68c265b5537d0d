/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the bootconfig parser: any text either fails with a position inside
 * it or parses into a tree whose /proc/bootconfig-style listing parses back
 * to the same listing. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bootconfig/bootconfig.h"

#include "fuzz_check.h"

/* A value holding both quote characters cannot be written back quoted. */
static int quotable(const struct uft_bc_node *n)
{
	for (; n; n = n->next) {
		for (uint32_t i = 0; i < n->nr_vals; i++)
			if (strchr(n->vals[i], '"') && strchr(n->vals[i], '\''))
				return 0;
		if (!quotable(n->child))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > UFT_BC_DATA_MAX + 16)
		return 0;
	struct uft_bc_tree *t;
	struct uft_bc_error err;
	int rc = uft_bc_parse((const char *)data, size, &t, &err);
	if (rc) {
		CHECK(!t && err.msg[0]);
		CHECK(rc == -EINVAL || rc == -E2BIG || rc == -ENOMEM);
		CHECK(rc != -EINVAL || (err.line >= 1 && err.col >= 1 && err.line <= size + 1));
		return 0;
	}
	CHECK(t->nr_nodes <= UFT_BC_NODE_MAX);
	char *text = uft_bc_render(t);
	CHECK(text);
	if (quotable(t->root.child)) {
		struct uft_bc_tree *again;
		CHECK(uft_bc_parse(text, strlen(text), &again, &err) == 0 ||
		      strlen(text) > UFT_BC_DATA_MAX);
		if (again) {
			char *text2 = uft_bc_render(again);
			CHECK(text2 && strcmp(text, text2) == 0);
			free(text2);
			uft_bc_free(again);
		}
	}
	free(text);
	uft_bc_free(t);
	return 0;
}
