/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Events defined at run time, in the shape of the kernel's user_events ABI
 * (Documentation/trace/user_events.rst), so that code written in any
 * language with a foreign function interface can define and emit events
 * that then behave as static ones. See uft-events(3). */
#ifndef UFT_USER_EVENTS_H
#define UFT_USER_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <uft/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * uft_user_event_register() - define an event, or join one, and register an enable bit
 * @def: the kernel's registration string, `NAME [FIELD[;FIELD...]]`, a
 *	field being `TYPE NAME` (u8..u64, s8..s64, int, char, char[N],
 *	__data_loc char[], __rel_loc char[]) or `struct TYPE NAME SIZE`
 * @enable_word: a naturally aligned 32-bit word in the caller's memory
 * @bit: the bit of @enable_word (0..31) uft sets while the event is enabled
 *	anywhere (the tree, an instance, a trigger's soft mode) and clears
 *	when it is not
 * @write_index: set to the index uft_user_event_write() takes
 *
 * The event appears as events/user_events/NAME/ and as `u:NAME ...` in
 * dynamic_events. Registering a NAME that exists with the same fields joins
 * it (same index); with other fields it is refused.
 *
 * Return: 0, or -EINVAL (bad string, misaligned word, bit out of range),
 * -E2BIG (record too large), -EADDRINUSE (NAME exists with other fields,
 * or @enable_word and @bit are registered already), -ENOSPC (no index
 * left), -ENOMEM.
 */
UFT_EXPORT int uft_user_event_register(const char *def, uint32_t *enable_word, int bit,
				       int *write_index);
/**
 * uft_user_event_unregister() - forget an enable bit
 * @enable_word: the word given to uft_user_event_register()
 * @bit: its bit
 *
 * The bit is cleared; the event stays (dynamic_events' `-:NAME` deletes it
 * once nothing uses it).
 *
 * Return: 0 or -ENOENT.
 */
UFT_EXPORT int uft_user_event_unregister(uint32_t *enable_word, int bit);
/**
 * uft_user_event_delete() - delete an event no one uses, as `-:NAME` does
 * @name: the event's name
 *
 * Return: 0, -ENOENT, or -EBUSY while an enable bit is registered for it or
 * it is enabled, in soft mode or has triggers somewhere.
 */
UFT_EXPORT int uft_user_event_delete(const char *name);
/**
 * uft_user_event_write() - emit one record of a run-time event
 * @write_index: what uft_user_event_register() gave
 * @iov: the payload, laid out as the fields (without the index the kernel's
 *	write() carries first); a dynamic field's word holds the data's offset
 *	from the record start (the 8-byte common header included) and its
 *	size in the upper 16 bits
 * @iovcnt: entries in @iov
 *
 * The payload is checked as untrusted input before anything is recorded.
 * Callers test their enable bit first: the write costs a call otherwise.
 *
 * Return: the payload's size (also when the event is not enabled: nothing
 * is recorded then), or -ENOENT (no such index), -EINVAL (shorter than the
 * fixed fields, bad @iovcnt), -E2BIG (record larger than 4000 bytes),
 * -EFAULT (a NULL vector, a dynamic field outside the payload or a dynamic
 * string without its NUL). Refused payloads are counted.
 */
UFT_EXPORT ssize_t uft_user_event_write(int write_index, const struct iovec *iov, int iovcnt);
/**
 * uft_user_event_write_buf() - uft_user_event_write() of one buffer
 * @write_index: what uft_user_event_register() gave
 * @payload: the payload
 * @len: its size
 *
 * Return: as uft_user_event_write().
 */
UFT_EXPORT ssize_t uft_user_event_write_buf(int write_index, const void *payload, size_t len);
/**
 * uft_user_event_refused() - payloads refused so far
 * @write_index: an event's index, or -1 for every event
 *
 * Return: the count (0 for an unknown index).
 */
UFT_EXPORT uint64_t uft_user_event_refused(int write_index);

#ifdef __cplusplus
}
#endif
#endif
