/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the tracefs tree needs from the event registry: a view of each live
 * event and per-buffer enable and filter state. */
#ifndef UFT_LIB_REGISTRY_H
#define UFT_LIB_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/filter/filter.h"
#include <uft/event.h>

struct uft_print_fmt;

/* Strings stay valid for the life of the process (events are never freed). */
struct uft_reg_view {
	const char *system;
	const char *name;
	uint16_t id;
	const char *format; /* the `format` file text */
	uint32_t format_len;
	uint32_t on_mask; /* buffers the event is enabled in (soft mode included) */
	const struct uft_event *desc;
	uint32_t soft_mask; /* buffers where it is in soft mode (triggers) */
	uint32_t sd_mask;   /* ... and soft-disabled */
};

/* Calls fn for each live event in id order, under the registry's lock (fn
 * must not call back into the registry); stops when fn returns non-zero. */
typedef int (*uft_reg_visit_fn)(void *ctx, const struct uft_reg_view *v);
int uft_registry_visit(uft_reg_visit_fn fn, void *ctx);

/* Enables or disables the live events matching system and name (NULL or "*"
 * match all) in one buffer. Returns the number of events matched. */
int uft_registry_enable_in(uint32_t buffer, const char *system, const char *name, bool on);

/* Compiles and installs a filter for one event in one buffer ("0" clears).
 * Returns 0, -ENOENT (no such event), -EINVAL with fe set, or -ENOMEM. */
int uft_registry_filter_in(uint32_t buffer, const char *system, const char *name, const char *expr,
			   struct uft_filter_error *fe);
/* The filter text of an event in a buffer, malloc'd, or NULL when none. */
char *uft_registry_filter_text(uint32_t buffer, const char *system, const char *name);

/* Disables every event in a buffer and drops its filters (a new or removed
 * instance). */
void uft_registry_buffer_reset(uint32_t buffer);

/* Registers a built-in event (ftrace:print ...) under a fixed small id. */
void uft_registry_add_fixed(struct uft_event *d, uint16_t id);

/* Registers a descriptor made at run time (a synthetic event) under a new
 * id: 0, -EEXIST (a live event has its system and name) or -ENOMEM. */
int uft_registry_add_dynamic(struct uft_event *d);
/* Takes it out again (its id stays retired): 0, -EBUSY while it is enabled
 * or in soft mode in a buffer or has triggers, -ENOENT. With check_only,
 * only says whether it could. */
int uft_registry_remove_dynamic(struct uft_event *d, bool check_only);

/* An eprobe takes (delta 1) or drops (-1) a use of its source event, which
 * uft_registry_remove_dynamic() then refuses with -EBUSY, as the kernel's
 * reference on the attached event. 0 or -ENOENT. */
int uft_registry_use(const char *system, const char *name, int delta);
/* The buffers a registered descriptor is enabled in, soft mode included
 * (0 when it is not registered). */
uint32_t uft_registry_on_mask(const struct uft_event *d);

/* Set once by whoever needs it (user events): called with the registry's
 * lock held whenever a descriptor starts or stops being recorded anywhere
 * (its state's enabled flag flips); must not call back into the registry. */
extern void (*uft_registry_enable_hook)(const struct uft_event *d, bool on);

/* For rendering a record of type id: the event's name and compiled print
 * format (compiled on first use; NULL when it cannot be). */
const struct uft_print_fmt *uft_registry_print_fmt(uint16_t id, const char **system,
						   const char **name);

/* For tfs_events.c: installs the filter compiled from expr (NULL: none) for
 * one event in one buffer while its filter text becomes text (NULL: none);
 * same returns as uft_registry_filter_in, nothing changed on an error. */
int uft_registry_filter_set_in(uint32_t buffer, const char *system, const char *name,
			       const char *expr, const char *text, struct uft_filter_error *fe);

/* ---- triggers (tfs_triggers.c) ---- */

struct uft_trig_spec;
struct uft_evstate;

/* Installs a parsed trigger on one event of one buffer. Returns 0, -ENOENT
 * (no such event), -EINVAL (unknown target event, bad count or "if" part;
 * a filter that does not compile sets *filter_failed and fe), -EEXIST (one of
 * its kind is installed), -ERANGE (count) or -ENOMEM. Nothing changes on an
 * error. */
int uft_registry_trigger_add(uint32_t buffer, const char *system, const char *name,
			     const struct uft_trig_spec *sp, struct uft_filter_error *fe,
			     bool *filter_failed);
/* Removes the installed trigger a removal command names (same kind and, for
 * enable/disable_event, same target): 0, -ENOENT or -EINVAL (unknown
 * target). */
int uft_registry_trigger_remove(uint32_t buffer, const char *system, const char *name,
				const struct uft_trig_spec *sp);
/* Eprobes (ftrace/eprobe.c): the internal trigger of eprobe `probe` on its
 * source event in one buffer, the event put in soft mode as any trigger
 * does. `filter` (NULL: none) is the eprobe's "if" part, on the source's
 * fields. Attach: 0, -ENOENT, -EINVAL (fe set) or -ENOMEM; detach: 0 (also
 * when it is not there: an instance's reset took it). */
int uft_registry_eprobe_attach(uint32_t buffer, const char *system, const char *name, void *probe,
			       const char *filter, struct uft_filter_error *fe);
int uft_registry_eprobe_detach(uint32_t buffer, const char *system, const char *name, void *probe);
/* The trigger file's lines (malloc'd), or NULL when none is installed
 * (eprobes' triggers are not listed, as the kernel's). */
char *uft_registry_trigger_text(uint32_t buffer, const char *system, const char *name);

/* The function commands enable_event/disable_event (tfs_ftrace.c): the
 * state of event SYSTEM:NAME in a buffer that such a command flips (never
 * freed), with the registry's names for it (kept while the event is in soft
 * mode); NULL when there is no such event or it is an ftrace entry. */
struct uft_evstate *uft_registry_event_state(uint32_t buffer, const char *system, const char *name,
					     const char **rsys, const char **rname);
/* Takes or drops the soft-mode reference of a command aimed at that state. */
void uft_registry_soft_ref(uint32_t buffer, struct uft_evstate *st, bool get);

/* ---- hist triggers (tfs_hist.c) ---- */

struct uft_hist_error;
struct uft_hist_syms;

/* One hist command ("hist:..." without the '!') on one event of one buffer:
 * install, pause/continue/clear the installed one it names (uft_hist_same),
 * or with `remove` take that one out. Returns 0 or a negative errno:
 * -EINVAL or -EOPNOTSUPP from the engine, -EEXIST, -ENOENT (he->code set
 * for what the kernel logs), -EBUSY (a second snapshot() action in the
 * buffer) or -ENOMEM. Nothing changes on an error. */
int uft_registry_hist_cmd(uint32_t buffer, const char *system, const char *name, const char *cmd,
			  bool remove, struct uft_hist_error *he);
/* Set by the tree: switches buffer b to trace clock c as a trace_clock
 * write does, the buffer restarting empty even when c is its clock (the
 * kernel's tracing_set_clock()). Called with the registry's lock held
 * before a new hist trigger that reads common_timestamp is installed. */
extern int (*uft_registry_set_clock)(uint32_t buffer, int clock);
/* Whether a hist trigger of the buffer has a snapshot() action. */
bool uft_registry_hist_snapshots(uint32_t buffer);
/* Removes every hist trigger of the event in the buffer (O_TRUNC). */
int uft_registry_hist_remove_all(uint32_t buffer, const char *system, const char *name);
/* The updates of the event's histograms in the buffer so far (hits and
 * drops, summed): what a poll on the `hist` file compares. -ENOENT when the
 * event is gone. Takes no writer's lock: the counters are read as they are. */
int uft_registry_hist_updates(uint32_t buffer, const char *system, const char *name,
			      uint64_t *updates);
/* The `hist` file (malloc'd; empty without hist triggers), NULL on error. */
char *uft_registry_hist_text(uint32_t buffer, const char *system, const char *name,
			     const struct uft_hist_syms *syms);

#endif
