/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shell-style glob matching on length-bounded strings. */
#ifndef UFT_GLOB_H
#define UFT_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* Whether `str` (slen bytes, no NUL inside) matches `pat` (plen bytes):
 * '*' any run, '?' one character, "[a-z]" / "[!x]" classes (a leading ']' is
 * literal, an unterminated class is a literal '['), '\' quotes the next
 * character. The kernel's glob_match() semantics. */
bool uft_glob_match(const char *pat, size_t plen, const char *str, size_t slen);

#endif
