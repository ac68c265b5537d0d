/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SANITIZED: 1 in an AddressSanitizer or ThreadSanitizer build (gcc's or
 * clang's), else 0; the tests that run fewer rounds there, or skip what a
 * sanitizer's own code makes impossible, test it with #if. */
#ifndef SANITIZED_H
#define SANITIZED_H

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#endif
