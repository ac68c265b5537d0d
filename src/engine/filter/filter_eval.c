/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Filter evaluation on the event fast path: no allocation, no locks, no
 * reads outside the record. A predicate returns 1 or 0, or -1 when the
 * record cannot hold what it reads, which rejects the whole record. */
#define _GNU_SOURCE
#include <string.h>

#include "engine/filter/filter_impl.h"
#include "engine/filter/filter_run.h"
#include "util/glob.h"
#include "util/safe_read.h"
#include "util/util.h"

#define TASK_COMM_LEN 16
#define USTRING_MAX 1024 /* bytes the kernel copies from a string pointer */

/* Zero-extended load of a 1, 2, 4 or 8 byte field. */
static inline uint64_t load_u(const uint8_t *p, unsigned size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

/* The field's value: one 8-byte load and a mask while the record has the
 * room, sized loads near its end. */
static inline uint64_t load_field(const struct uft_fpred *p, const uint8_t *rec, uint32_t len)
{
	if (likely(len - p->offset >= 8)) {
		uint64_t v;
		memcpy(&v, rec + p->offset, 8);
		return p->shift ? v & (~0ull >> p->shift) : v;
	}
	return load_u(rec + p->offset, p->size);
}

static inline int in_range(const struct uft_fpred *p, uint64_t key)
{
	return (key - p->val <= p->val2) != p->inv;
}

static inline bool mask_has(const uint8_t *m, uint64_t cpu)
{
	return cpu < UFT_FILTER_NR_CPUS && (m[cpu / 8] >> (cpu % 8)) & 1;
}

/* A scalar CPU against a list of two or more CPUs: never equal to it. */
static inline bool cpu_vs_mask(unsigned op, const uint8_t *m, uint64_t cpu)
{
	switch (op) {
	case FOP_EQ:
		return false;
	case FOP_NE:
		return true;
	default:
		return mask_has(m, cpu);
	}
}

/* `str` holds at most n bytes; the string ends at the first NUL. */
static bool str_match(const struct uft_fpred *p, const char *str, size_t n)
{
	const char *nul = memchr(str, '\0', n);
	size_t len = nul ? (size_t)(nul - str) : n;
	size_t plen = p->plen;
	bool r;

	switch (p->match) {
	case FM_FULL:
		r = len == plen && !memcmp(str, p->pat, plen);
		break;
	case FM_FRONT:
		r = len >= plen && !memcmp(str, p->pat, plen);
		break;
	case FM_MIDDLE:
		r = !plen || (len >= plen && memmem(str, len, p->pat, plen));
		break;
	case FM_END:
		r = len >= plen && !memcmp(str + len - plen, p->pat, plen);
		break;
	default:
		r = uft_glob_match(p->pat, plen, str, len);
		break;
	}
	return r != p->inv;
}

/* A string behind a pointer: copied without trusting the pointer; a fault
 * before the NUL makes the predicate false, as in the kernel. Only as many
 * bytes as the comparison can need are read. */
static __attribute__((noinline)) int ptr_match(const struct uft_fpred *p, const uint8_t *rec)
{
	char buf[USTRING_MAX];
	uintptr_t addr = (uintptr_t)load_u(rec + p->offset, sizeof(void *));
	size_t want = USTRING_MAX;

	if (p->match == FM_FULL && p->plen < USTRING_MAX)
		want = p->plen + 1;
	else if (p->match == FM_FRONT && p->plen && p->plen < USTRING_MAX)
		want = p->plen;
	size_t got = uft_safe_read(buf, (const void *)addr, want);
	if (got < want && !memchr(buf, '\0', got))
		return 0;
	return str_match(p, buf, got);
}

/* A __data_loc word: offset in the low 16 bits, length in the high 16,
 * counted from `base`. */
static inline int loc_match(const struct uft_fpred *p, const uint8_t *rec, uint32_t len,
			    uint32_t base)
{
	uint32_t w = (uint32_t)load_u(rec + p->offset, 4);
	uint64_t off = (uint64_t)base + (w & 0xffff), n = w >> 16;

	if (off + n > len)
		return -1;
	return str_match(p, (const char *)rec + off, (size_t)n);
}

/* A __data_loc cpumask (byte bitmap) against a CPUS{} list or one CPU. */
static int cpumask_match(const struct uft_fpred *p, const uint8_t *rec, uint32_t len)
{
	uint32_t w = (uint32_t)load_u(rec + p->offset, 4);
	uint32_t off = w & 0xffff, n = w >> 16;

	if (off > len || n > len - off)
		return -1;
	const uint8_t *m = rec + off;
	if (n > UFT_FILTER_MASK_BYTES)
		n = UFT_FILTER_MASK_BYTES;

	if (p->fn == FFN_CPUMASK_CPU) {
		bool has = p->val / 8 < n && (m[p->val / 8] >> (p->val % 8)) & 1;
		if (p->op == FOP_BAND)
			return has;
		bool only = has;
		for (uint32_t i = 0; only && i < n; i++)
			if (m[i] & ~(i == p->val / 8 ? 1u << (p->val % 8) : 0u))
				only = false;
		return only != (p->op == FOP_NE);
	}
	bool equal = true, meet = false;
	for (uint32_t i = 0; i < UFT_FILTER_MASK_BYTES; i++) {
		uint8_t a = i < n ? m[i] : 0, b = p->mask[i];
		equal &= a == b;
		meet |= (a & b) != 0;
	}
	switch (p->op) {
	case FOP_EQ:
		return equal;
	case FOP_NE:
		return !equal;
	default:
		return meet;
	}
}

static inline int eval(const struct uft_fpred *p, const uint8_t *rec, uint32_t len, uint32_t cpu,
		       const char *comm)
{
	if (p->end > len)
		return -1;
	switch (p->fn) {
	case FFN_URANGE:
		return in_range(p, load_field(p, rec, len));
	case FFN_SRANGE: {
		uint64_t v = load_field(p, rec, len);
		return in_range(p, uft_fkey_signed((int64_t)(v << p->shift) >> p->shift));
	}
	case FFN_BAND:
		return (load_field(p, rec, len) & p->val) != 0;
	case FFN_NUM_MASK: {
		uint64_t v = load_u(rec + p->offset, p->size);
		return v < UFT_FILTER_NR_CPUS && cpu_vs_mask(p->op, p->mask, v);
	}
	case FFN_STR_STATIC:
		/* A char array of no declared size (the marker's buf[]) is the
		 * kernel's "dynamic, NUL-terminated": it runs to the record's end. */
		return str_match(p, (const char *)rec + p->offset,
				 (p->end > p->offset ? p->end : len) - p->offset);
	case FFN_STR_DYN:
		return loc_match(p, rec, len, 0);
	case FFN_STR_RDYN:
		return loc_match(p, rec, len, p->offset + 4);
	case FFN_STR_PTR:
		return ptr_match(p, rec);
	case FFN_STR_COMM:
		return str_match(p, comm ? comm : "", comm ? strnlen(comm, TASK_COMM_LEN) : 0);
	case FFN_CPU:
		return in_range(p, uft_fkey_signed((int32_t)cpu));
	case FFN_CPU_MASK:
		return cpu_vs_mask(p->op, p->mask, cpu);
	case FFN_CPUMASK:
	case FFN_CPUMASK_CPU:
		return cpumask_match(p, rec, len);
	case FFN_FUNCTION: {
		uint64_t a = load_u(rec + p->offset, 8);
		return (a >= p->val && a < p->val2) == (p->op == FOP_EQ);
	}
	default:
		return 0;
	}
}

/* Any record: every predicate checks what it reads against len. */
bool uft_filter_match_checked(const struct uft_filter *f, const void *rec, uint32_t len,
			      uint32_t cpu, const char *comm)
{
	uint32_t i = 0, n = f->n;
	while (i < n) {
		const struct uft_fpred *p = &f->prog[i];
		int r = eval(p, rec, len, cpu, comm);
		if (r < 0)
			return false;
		i = r ? p->jt : p->jf;
	}
	return i == n;
}

int uft_filter_eval_pred(const struct uft_filter *f, uint32_t i, const void *rec, uint32_t len,
			 uint32_t cpu, const char *comm)
{
	return eval(&f->prog[i], rec, len, cpu, comm);
}

bool uft_filter_match(const struct uft_filter *f, const void *rec, uint32_t len, uint32_t cpu,
		      const char *comm)
{
	return !f || uft_filter_run(f, rec, len, cpu, comm);
}
