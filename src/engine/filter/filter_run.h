/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The filter evaluator's fast loop, inline for the event writer: one
 * dispatch per specialised instruction (filter_impl.h), no call unless a
 * predicate needs the generic evaluator or the record is short. */
#ifndef UFT_FILTER_RUN_H
#define UFT_FILTER_RUN_H

#include <string.h>

#include "engine/filter/filter_impl.h"
#include "util/util.h"

/* Every predicate checked against len (a record shorter than min_len). */
bool uft_filter_match_checked(const struct uft_filter *f, const void *rec, uint32_t len,
			      uint32_t cpu, const char *comm);
/* Predicate i through the generic evaluator: 1, 0, or -1 to reject. */
int uft_filter_eval_pred(const struct uft_filter *f, uint32_t i, const void *rec, uint32_t len,
			 uint32_t cpu, const char *comm);

static inline unsigned uft_filter_needs_of(const struct uft_filter *f)
{
	return f->needs;
}

static inline uint64_t uft_fld16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

static inline uint64_t uft_fld32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t uft_fld64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* uft_filter_match() of a non-NULL filter. */
static inline bool uft_filter_run(const struct uft_filter *f, const void *rec, uint32_t len,
				  uint32_t cpu, const char *comm)
{
	/* A record shorter than some field an instruction loads takes the
	 * checked loop, which rejects it only if that field is reached. */
	if (unlikely(len < f->min_len))
		return uft_filter_match_checked(f, rec, len, cpu, comm);

	const uint8_t *r = rec;
	const struct uft_fins *ins = f->ins;
	uint32_t i = 0, n = f->n;
	while (i < n) {
		const struct uft_fins *p = &ins[i];
		const uint8_t *a = r + p->offset;
		bool t;
		switch (p->code) {
		case FINS_RANGE_U8:
			t = (uint64_t)*a - p->val <= p->val2;
			break;
		case FINS_RANGE_U16:
			t = uft_fld16(a) - p->val <= p->val2;
			break;
		case FINS_RANGE_U32:
			t = uft_fld32(a) - p->val <= p->val2;
			break;
		case FINS_RANGE_U64:
			t = uft_fld64(a) - p->val <= p->val2;
			break;
		case FINS_RANGE_S8:
			t = (uint64_t)(int64_t)(int8_t)*a - p->val <= p->val2;
			break;
		case FINS_RANGE_S16:
			t = (uint64_t)(int64_t)(int16_t)uft_fld16(a) - p->val <= p->val2;
			break;
		case FINS_RANGE_S32:
			t = (uint64_t)(int64_t)(int32_t)uft_fld32(a) - p->val <= p->val2;
			break;
		case FINS_BAND_8:
			t = (*a & p->val) != 0;
			break;
		case FINS_BAND_16:
			t = (uft_fld16(a) & p->val) != 0;
			break;
		case FINS_BAND_32:
			t = (uft_fld32(a) & p->val) != 0;
			break;
		case FINS_BAND_64:
			t = (uft_fld64(a) & p->val) != 0;
			break;
		case FINS_FALSE:
			t = false;
			break;
		default: {
			int v = uft_filter_eval_pred(f, i, rec, len, cpu, comm);
			if (v < 0)
				return false;
			t = v;
			break;
		}
		}
		i = t ? p->jt : p->jf;
	}
	return i == n;
}

#endif
