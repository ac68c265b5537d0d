/* SPDX-License-Identifier: GPL-2.0-or-later */
/* __lsan_disable()/__lsan_enable() around a library's known leaks (not ours
 * to fix): LeakSanitizer's in an ASan build, nothing otherwise. */
#ifndef UFT_TEST_LSAN_PAUSE_H
#define UFT_TEST_LSAN_PAUSE_H

#ifdef __has_feature
#if __has_feature(address_sanitizer)
#define WITH_LSAN 1
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#define WITH_LSAN 1
#endif
#ifdef WITH_LSAN
#include <sanitizer/lsan_interface.h>
#else
static inline void __lsan_disable(void)
{
}
static inline void __lsan_enable(void)
{
}
#endif

#endif
