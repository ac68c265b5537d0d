/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal layout of a compiled print fmt, shared by its compiler and its
 * renderer. */
#ifndef UFT_PRINT_FMT_IMPL_H
#define UFT_PRINT_FMT_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/format/print_fmt.h"

#define PF_MAX_DEPTH 64
#define PF_MAX_WIDTH 100000

enum pf_op {
	N_CONST,
	N_FIELD,  /* REC->f: scalar, or fixed array (array set) */
	N_DYNLEN, /* __get_dynamic_array_len(f) */
	N_STR,	  /* __get_str(f) */
	N_DYNARR, /* __get_dynamic_array(f) */
	N_STRLIT,
	N_CAST,
	N_UNARY,
	N_BIN,
	N_COND,
	N_SYM,	 /* __print_symbolic */
	N_FLAGS, /* __print_flags */
	N_HEX,	 /* __print_hex */
};

struct pf_node {
	uint8_t op;
	uint8_t size; /* value truncated to 1, 2, 4 or 8 bytes */
	uint8_t array;
	char bop[3];
	uint16_t depth; /* of the subtree, bounds the evaluator's recursion */
	int32_t a, b, c;
	uint64_t val;
	uint32_t off, fsize;
	uint32_t sym, nsym;
	const char *str; /* string literal, __print_flags delimiter */
};

struct pf_sym {
	uint64_t val;
	const char *name;
};

enum pf_kind { S_TEXT, S_INT, S_STR, S_PTR };

struct pf_seg {
	uint8_t kind;
	int8_t ls;	  /* -2 hh, -1 h, 0, 1 l, 2 ll */
	uint8_t left;	  /* S_STR: '-' flag */
	int32_t width;	  /* S_STR */
	int32_t prec;	  /* S_STR: -1 when absent */
	const char *text; /* literal text, or the spec handed to snprintf */
	int32_t arg;
};

struct uft_print_fmt {
	struct pf_seg *segs;
	uint32_t nsegs;
	struct pf_node *nodes;
	uint32_t nnodes, ncap;
	struct pf_sym *syms;
	uint32_t nsyms, symcap;
	char *strs;
	size_t slen, scap;
};

/* Keeps the low `size` bytes of a value, as the renderer reads fields. */
static inline uint64_t uft__pf_trunc(uint64_t v, unsigned size)
{
	return size >= 8 ? v : v & ((1ull << (size * 8)) - 1);
}

/* Value of expression node `i` for a record (renderer; also folds constants). */
uint64_t uft__pf_eval(const struct uft_print_fmt *pf, int32_t i, const uint8_t *rec, uint32_t len);

#endif
