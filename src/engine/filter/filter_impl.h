/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compiled filter layout shared by the parser and the evaluator. */
#ifndef UFT_FILTER_IMPL_H
#define UFT_FILTER_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/filter/filter.h"

/* Operators, in the order the parser tries them ("<=" before "<"). */
enum uft_fop { FOP_GLOB, FOP_NE, FOP_EQ, FOP_LE, FOP_LT, FOP_GE, FOP_GT, FOP_BAND, FOP_COUNT };

/* What a predicate evaluates. */
enum uft_ffn {
	FFN_FALSE,	 /* never true (the kernel's no-op for odd sizes) */
	FFN_URANGE,	 /* unsigned integer field in [val, val + val2] */
	FFN_SRANGE,	 /* signed integer field, order-mapped, in [val, val + val2] */
	FFN_BAND,	 /* integer field & val != 0 */
	FFN_NUM_MASK,	 /* integer field holding a CPU vs a CPUS{} list */
	FFN_STR_STATIC,	 /* char array bounded by its size */
	FFN_STR_DYN,	 /* __data_loc: offset from the record start */
	FFN_STR_RDYN,	 /* __rel_loc: offset from the end of the field */
	FFN_STR_PTR,	 /* pointer to a string in this process */
	FFN_STR_COMM,	 /* the recording thread's name */
	FFN_CPU,	 /* recording CPU, order-mapped as an int, in [val, val + val2] */
	FFN_CPU_MASK,	 /* recording CPU vs a CPUS{} list */
	FFN_CPUMASK,	 /* __data_loc cpumask field vs a CPUS{} list */
	FFN_CPUMASK_CPU, /* __data_loc cpumask field vs one CPU */
	FFN_FUNCTION,	 /* address field inside [val, val2) */
};

/* String comparison kinds a pattern is classified into. */
enum uft_fmatch { FM_FULL, FM_FRONT, FM_MIDDLE, FM_END, FM_GLOB };

#define UFT_FILTER_MASK_BYTES (UFT_FILTER_NR_CPUS / 8)

/* One program step: evaluate, then continue at jt or jf. Index n of the
 * program means "match", n + 1 "no match"; jumps only go forward. */
struct uft_fpred {
	uint8_t fn;    /* enum uft_ffn */
	uint8_t op;    /* enum uft_fop */
	uint8_t inv;   /* the result is inverted ('!=', "!glob") */
	uint8_t match; /* enum uft_fmatch */
	uint8_t size;  /* integer load size: 1, 2, 4 or 8 */
	uint8_t shift; /* 64 - size bits, to sign-extend a loaded value */
	uint16_t jt, jf;
	uint32_t offset; /* field offset in the record */
	uint32_t end;	 /* the record must hold this many bytes for the field */
	uint32_t plen;	 /* pattern length */
	uint64_t val, val2;
	const char *pat;     /* pattern, NUL terminated */
	const uint8_t *mask; /* CPUS{} bitmap of UFT_FILTER_MASK_BYTES */
};

/* Specialised instructions (filter_lower.c): an integer predicate bound to
 * its load (size, signedness) and its comparison, `inv` folded into the
 * jumps. FINS_PRED runs the predicate of the same index generically. */
enum uft_fins_code {
	FINS_PRED,
	FINS_FALSE,
	FINS_RANGE_U8,
	FINS_RANGE_U16,
	FINS_RANGE_U32,
	FINS_RANGE_U64,
	FINS_RANGE_S8,
	FINS_RANGE_S16,
	FINS_RANGE_S32,
	FINS_BAND_8,
	FINS_BAND_16,
	FINS_BAND_32,
	FINS_BAND_64,
};

/* Ranges test (value - val) <= val2 in unsigned arithmetic on the loaded
 * value, sign-extended for the signed codes (val then has its top bit
 * flipped, which maps the order-mapped key back to plain subtraction). */
struct uft_fins {
	uint8_t code; /* enum uft_fins_code */
	uint8_t pad;
	uint16_t jt, jf;
	uint16_t pad2;
	uint32_t offset;
	uint32_t pad3;
	uint64_t val, val2;
};

struct uft_filter {
	uint32_t n;
	unsigned needs;	  /* UFT_FILTER_NEEDS_* */
	uint32_t min_len; /* records this long hold every field the instructions load */
	uint32_t pad;
	const struct uft_fins *ins; /* n instructions, beside prog in the same block */
	struct uft_fpred prog[];
};

/* Fills f->ins (room for f->n) and f->min_len from f->prog. */
void uft_filter_lower(struct uft_filter *f, struct uft_fins *ins);

/* Signed values compare in unsigned order once the sign bit is flipped. */
static inline uint64_t uft_fkey_signed(int64_t v)
{
	return (uint64_t)v ^ (1ull << 63);
}

/* The kernel's ctype: Latin-1 letters count as alphanumeric and 0xa0 as
 * space, which moves error positions on non-ASCII input. */
static inline bool uft_k_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static inline bool uft_k_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline bool uft_k_isalnum(unsigned char c)
{
	return uft_k_isdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= 0xc0 && c != 0xd7 && c != 0xf7);
}

#endif
