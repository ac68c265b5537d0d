/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lists of custom events (UFT_CUSTOM_EVENT) on their tracepoints. A
 * writer walks a list without a lock; changes are serialised here and
 * published with release stores, so a walker sees a whole list, old or new. */
#include <pthread.h>
#include <stddef.h>

#include "util/atomics.h"
#include <uft/uft.h>

static pthread_mutex_t hook_lock = PTHREAD_MUTEX_INITIALIZER;

UFT_EXPORT void uft__custom_attach(struct uft_custom_hook **head, struct uft_custom_hook *hook)
{
	pthread_mutex_lock(&hook_lock);
	for (const struct uft_custom_hook *h = *head; h; h = h->next)
		if (h == hook)
			goto out; /* a constructor run twice */
	hook->next = *head;
	smp_store_release(head, hook);
out:
	pthread_mutex_unlock(&hook_lock);
}

/* The hook lives in the object being unloaded: it is unlinked, and a writer
 * that loaded it a moment before finishes with it before dlclose() unmaps
 * the object only if that writer is not racing the unload (as for any
 * function of an unloading object). */
UFT_EXPORT void uft__custom_detach(struct uft_custom_hook **head, struct uft_custom_hook *hook)
{
	pthread_mutex_lock(&hook_lock);
	struct uft_custom_hook *volatile *pp = (struct uft_custom_hook *volatile *)head;
	for (; *pp; pp = &(*pp)->next) {
		if (*pp == hook) {
			smp_store_release(pp, hook->next);
			break;
		}
	}
	pthread_mutex_unlock(&hook_lock);
}
