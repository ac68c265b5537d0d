/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Live synthetic events: definitions made through synthetic_events or
 * dynamic_events, registered as events of system `synthetic`, and the emit
 * call hist actions use to generate their records. */
#ifndef UFT_LIB_SYNTH_H
#define UFT_LIB_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/synth/synth.h"
#include <uft/event.h>

struct uft_synth {
	struct uft_event ev; /* the registry's descriptor */
	struct uft_synth_def def;
	struct uft_field *fields; /* the format's field table */
	char *desc;		  /* listing line without the newline */
	volatile uint16_t gate;
	uint32_t refs; /* users (hist actions) that generate it; atomic */
	bool live;
	bool has_stack; /* a stack field: the trace files print it the kernel's way */
};

/* Everything but the emit runs under the tree's lock (tfs_lock). */

/* Creates an event from a parsed definition, taking the definition over
 * (def is left empty). Returns 0, -EEXIST or -ENOMEM. */
int uft_synth_create(struct uft_synth_def *def);
/* The live event of that name, or NULL. */
struct uft_synth *uft_synth_find(const char *name);
/* Deletes one: 0, -ENOENT, or -EBUSY while it is enabled, has triggers or
 * is referenced (refs). */
int uft_synth_delete(const char *name);
/* Deletes them all, or none (-EBUSY) when one is busy. */
int uft_synth_delete_all(void);
/* Calls fn for each live event in creation order. */
void uft_synth_each(void (*fn)(void *ctx, const struct uft_synth *s), void *ctx);

/* References held by whatever generates the event: a referenced event cannot
 * be deleted. */
void uft_synth_get(struct uft_synth *s);
void uft_synth_put(struct uft_synth *s);

/* Builds a record of s in one buffer, if the event is enabled there, through
 * that buffer's filter and triggers for it. Field i takes vals[i] (numbers,
 * stored in the field's size; for a stack field the address of its words:
 * the number of frames then the frames, up to the first zero, 0 for none)
 * or strs[i] (strings; NULL is ""). A static
 * string keeps at most N-1 bytes. No lock, no allocation: callable from
 * event context and signal handlers. Returns 1 when a record was built (the
 * filter may still have dropped it), 0 when the buffer does not take it. */
int uft_synth_emit(uint32_t buffer, const struct uft_synth *s, const uint64_t *vals,
		   const char *const *strs);

/* The emit's two halves, for building a record elsewhere: its length, and
 * its fields (after the common header) in rec of that length. A dynamic
 * string that grew meanwhile is cut to the length measured. */
uint32_t uft_synth_size(const struct uft_synth *s, const uint64_t *vals, const char *const *strs);
void uft_synth_fill(const struct uft_synth *s, const uint64_t *vals, const char *const *strs,
		    char *rec, uint32_t len);

/* Prints the body of a record of a synthetic event with a stack field as
 * the kernel's print_synth_event() does ("NAME: f=1 stack=STACK:" then
 * "=> SYMBOL" lines, %pS), sym naming addresses; returns 0 for any other
 * record. Other synthetic events print through their print fmt. */
int uft_synth_render(FILE *f, const void *data, uint32_t len,
		     int (*sym)(uint64_t addr, char *buf, size_t len));

#endif
