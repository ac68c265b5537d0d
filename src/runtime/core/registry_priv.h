/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the registry's files share: the event table, its lock and the
 * helpers each part calls in another. Everything here runs with reg_lock
 * held unless it says otherwise. */
#ifndef UFT_LIB_REGISTRY_PRIV_H
#define UFT_LIB_REGISTRY_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime/core/runtime.h"
#include <uft/event.h>

struct uft_filter;
struct uft_print_fmt;
struct uft_trig;
struct uft_trig_list;
struct uft_evstate;

/* One SYSTEM:EVENT: its id, format and per-buffer state, and the
 * descriptors (one per object that defines it) that share them. */
struct reg_event {
	char *system;
	char *name;
	uint16_t id;
	bool live;
	uint32_t on_mask; /* buffers the event is enabled in (bit 0: global) */
	/* Per buffer: the compiled filter and the text it came from. */
	struct uft_filter *filter[UFT_MAX_BUFFERS];
	char *filter_text[UFT_MAX_BUFFERS];
	/* Per buffer: soft-mode references (the event's own triggers count
	 * once, each enable/disable_event aimed at it once), its triggers in
	 * the kernel's list order (newest first, hist triggers at the tail) and
	 * the list published from them. */
	uint32_t sm_ref[UFT_MAX_BUFFERS];
	struct uft_trig **trig[UFT_MAX_BUFFERS];
	uint32_t nr_trig[UFT_MAX_BUFFERS];
	struct uft_trig_list *tlist[UFT_MAX_BUFFERS];
	/* The global buffer's plain-histogram triggers as the inline path
	 * runs them (struct uft_trig_fast), NULL while they are not that. */
	struct uft_trig_fast *trig_fast;
	struct uft_evstate *st;	  /* [UFT_MAX_BUFFERS], never freed */
	struct uft_print_fmt *pf; /* compiled print fmt, for the live trace files */
	bool pf_failed;
	char *format; /* format file text */
	uint32_t format_len;
	struct uft_event **descs;
	uint32_t nr_descs, cap_descs;
	uint32_t users; /* eprobes attached to it: it cannot be removed */
};

extern pthread_mutex_t reg_lock;
/* Every event ever registered, in id order; dead ones keep their slot. */
extern struct reg_event *reg_events;
extern uint32_t reg_nr_events;

/* The live event SYS:NAME, or NULL. */
struct reg_event *reg_find_event(const char *sys, const char *name);

/* A registered descriptor as the runtime reads it (struct uft_event_priv's
 * view): fields, print fmt and layout resolved, nothing past the definer's
 * size. */
const struct uft_event *reg_view(const struct uft_event *d);
/* Keeps p (a filter, target or trigger list a writer may still read)
 * instead of freeing it. */
void reg_keep(const void *p);
/* Frees p (malloc'd; a filter) once no writer can be reading it (grace.h). */
void reg_retire_free(const void *p);
void reg_retire_filter(const void *p);
/* Publishes to the event's descriptors where its records go, from its
 * enable mask, filters, soft mode and triggers. */
void reg_publish_targets(struct reg_event *e);

/* registry_enable.c: gives a new event the filters and enable specs set
 * so far. */
void reg_apply_settings(struct reg_event *e);

/* registry_triggers.c: appends trigger t to e in buffer b (te: the target
 * of an enable/disable_event), or takes trigger i out; both publish.
 * Nothing changes on an error. */
int reg_trig_insert(struct reg_event *e, uint32_t b, struct uft_trig *t, struct reg_event *te);
int reg_trig_remove_at(struct reg_event *e, uint32_t b, uint32_t i, struct reg_event *te);
/* What e's descriptors' fast_filter holds for its global-buffer triggers:
 * the tagged struct uft_trig_fast while e goes to the global buffer alone
 * and its triggers there are all plain histograms, else NULL. Kept in
 * e->trig_fast while unchanged; a replaced one is retired. */
const void *reg_trig_fast(struct reg_event *e);
/* Drops every trigger and the soft mode of e in buffer b (a buffer reset). */
void reg_triggers_reset(struct reg_event *e, uint32_t b);

#endif
