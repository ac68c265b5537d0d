/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lowering a compiled filter to specialised instructions: each integer
 * predicate gets an opcode naming its load and its test, so evaluation does
 * one dispatch and no size, sign or inversion logic per call. */
#include <string.h>

#include "engine/filter/filter_impl.h"

static uint8_t load_code(uint8_t base, unsigned size)
{
	switch (size) {
	case 1:
		return base;
	case 2:
		return (uint8_t)(base + 1);
	case 4:
		return (uint8_t)(base + 2);
	default:
		return (uint8_t)(base + 3);
	}
}

/* The instruction for one predicate, or FINS_PRED when only the generic
 * evaluator handles it. */
static void lower_one(const struct uft_fpred *p, struct uft_fins *o)
{
	bool inv = p->inv;

	o->code = FINS_PRED;
	o->offset = p->offset;
	o->val = p->val;
	o->val2 = p->val2;
	switch (p->fn) {
	case FFN_FALSE:
		o->code = FINS_FALSE;
		inv = false;
		break;
	case FFN_URANGE:
		o->code = load_code(FINS_RANGE_U8, p->size);
		break;
	case FFN_SRANGE:
		/* key(v) - val == v - (val ^ 2^63) for key(v) = v ^ 2^63. A
		 * signed 8-byte field needs no sign extension: it is U64. */
		o->code = p->size == 8 ? FINS_RANGE_U64 : load_code(FINS_RANGE_S8, p->size);
		o->val = p->val ^ (1ull << 63);
		break;
	case FFN_BAND:
		o->code = load_code(FINS_BAND_8, p->size);
		break;
	default:
		inv = false; /* the generic evaluator applies it */
		break;
	}
	o->jt = inv ? p->jf : p->jt;
	o->jf = inv ? p->jt : p->jf;
}

void uft_filter_lower(struct uft_filter *f, struct uft_fins *ins)
{
	uint32_t min_len = 0;

	memset(ins, 0, f->n * sizeof(*ins));
	for (uint32_t k = 0; k < f->n; k++) {
		lower_one(&f->prog[k], &ins[k]);
		if (ins[k].code != FINS_PRED && f->prog[k].end > min_len)
			min_len = f->prog[k].end;
	}
	f->min_len = min_len;
	f->ins = ins;
}
