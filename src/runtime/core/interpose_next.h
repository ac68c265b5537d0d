/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The definition a libuft wrapper calls (mutex_interpose.c,
 * wake_interpose.c). Normally libc's, the next after libuft's. Under
 * ThreadSanitizer, a program linked with libuft.a has libuft's wrapper in
 * place of the sanitizer's own (a weak alias), so the wrapper calls the
 * sanitizer's interceptor, which keeps its view of the lock and calls libc;
 * with libuft.so the interceptor comes first and calls the wrapper, which
 * then calls libc. */
#ifndef UFT_RUNTIME_INTERPOSE_NEXT_H
#define UFT_RUNTIME_INTERPOSE_NEXT_H

#include <dlfcn.h>

#if defined(__SANITIZE_THREAD__)
#define UFT_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UFT_UNDER_TSAN 1
#endif
#endif

/* `self`: the wrapper; `icpt`: the sanitizer's __interceptor_NAME (weak,
 * NULL without it); `version`: libc's default version, or NULL. */
static inline void *uft_interpose_next(const char *name, const char *version, void *self,
				       void *icpt)
{
	if (icpt && dlsym(RTLD_DEFAULT, name) == self)
		return icpt;
	void *p = version ? dlvsym(RTLD_NEXT, name, version) : NULL;
	return p ? p : dlsym(RTLD_NEXT, name);
}

#ifdef UFT_UNDER_TSAN
#define UFT_ICPT(name) ((void *)__interceptor_##name)
#define UFT_DECLARE_ICPT(ret, name, ...)                                                           \
	extern ret __interceptor_##name(__VA_ARGS__) __attribute__((weak))
#else
#define UFT_ICPT(name) NULL
#define UFT_DECLARE_ICPT(ret, name, ...) extern int uft__no_icpt_##name
#endif

#endif
