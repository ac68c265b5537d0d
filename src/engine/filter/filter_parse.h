/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Parser state shared by the expression walk and the predicate parser. */
#ifndef UFT_FILTER_PARSE_H
#define UFT_FILTER_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/filter/filter_impl.h"

struct uft_fparse {
	const char *s;
	size_t len;
	const struct uft_field *fields;
	uint32_t nr_fields;
	const struct uft_filter_syms *syms;
	struct uft_filter_error *err;
	unsigned needs;
	/* CPUS{} bitmaps, copied into the compiled filter at the end */
	uint8_t (*masks)[UFT_FILTER_MASK_BYTES];
	uint32_t nr_masks, cap_masks;
};

/* Field classes, as the kernel's filter types. */
enum uft_fclass { FC_NUM, FC_STATIC, FC_DYN, FC_RDYN, FC_PTR, FC_CPUMASK, FC_CPU, FC_COMM };

struct uft_ffield {
	uint32_t offset, size;
	uint8_t cls; /* enum uft_fclass */
	bool is_signed;
	bool is_ptr; /* pointer-typed: ".ustring" reads it as a string */
};

/* Resolves the field named by s[0..n), noting pseudo fields in p->needs. */
bool uft_fparse_field(struct uft_fparse *p, const char *s, size_t n, struct uft_ffield *r);

/* Records the error and returns -EINVAL. */
int uft_fparse_fail(struct uft_fparse *p, int code, size_t pos);

/* Parses the predicate starting at s[start] (not a space). On success fills
 * *out (pat points into s; a CPUS{} list is masks[*mask], else *mask = -1)
 * and returns the index just past it; on failure returns a negative errno
 * with p->err set. */
long uft_fparse_pred(struct uft_fparse *p, size_t start, struct uft_fpred *out, int32_t *mask);

#endif
