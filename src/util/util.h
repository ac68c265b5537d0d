/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers every layer repeats: array length, branch hints, and the
 * doubling growth of malloc'd arrays. The public fast-path headers in
 * include/uft keep their own spellings (they must not depend on src/). */
#ifndef UFT_UTIL_UTIL_H
#define UFT_UTIL_UTIL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Elements of an array (not a pointer: the sizes would not divide). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Growable arrays: a pointer, a count and a capacity in elements, grown by
 * doubling with realloc. They allocate, so they are for ordinary code only:
 * never a signal handler or the tracing fast path. The macros evaluate their
 * arguments more than once: pass plain lvalues. */

/* Makes `cap` (any unsigned lvalue) at least `need` elements of `arr`,
 * starting at `first` and doubling. 0, or -ENOMEM with `arr` and `cap`
 * unchanged (the caller still owns and frees `arr`). */
#define uft_array_reserve(arr, cap, need, first)                                                   \
	({                                                                                         \
		int uft__rc = 0;                                                                   \
		if ((size_t)(need) > (size_t)(cap)) {                                              \
			size_t uft__c = (cap) ? (size_t)(cap) : (size_t)(first);                   \
			while (uft__c < (size_t)(need))                                            \
				uft__c *= 2;                                                       \
			void *uft__p = uft__c <= SIZE_MAX / sizeof(*(arr))                         \
					   ? realloc((arr), uft__c * sizeof(*(arr)))               \
					   : NULL;                                                 \
			if (uft__p) {                                                              \
				(arr) = uft__p;                                                    \
				(cap) = uft__c;                                                    \
			} else {                                                                   \
				uft__rc = -ENOMEM;                                                 \
			}                                                                          \
		}                                                                                  \
		uft__rc;                                                                           \
	})

/* Vectors: any struct with members v (the array), n and cap, which the
 * uft_vec_ macros below work on. */
#define UFT_VEC_FIRST 8 /* elements of a vector's first allocation */

#define uft_vec_reserve(vec, need) uft_array_reserve((vec)->v, (vec)->cap, need, UFT_VEC_FIRST)
/* Appends x: 0, or -ENOMEM with the vector unchanged. */
#define uft_vec_push(vec, x)                                                                       \
	({                                                                                         \
		int uft__r = uft_vec_reserve(vec, (vec)->n + 1);                                   \
		if (!uft__r)                                                                       \
			(vec)->v[(vec)->n++] = (x);                                                \
		uft__r;                                                                            \
	})

#endif
