/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's own events beside a recording (design/recording.md, "The
 * kernel's events"): the tracefs events an -e names, recorded from a private
 * instance filtered to the followed process tree, on the clock that reads
 * uft's, and put into the collector as a pseudo-source (collect_local.h). */
#ifndef UFT_CMD_KERNEL_SOURCE_H
#define UFT_CMD_KERNEL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "recorder/collect.h"

struct kernel_source;

/* What to record: the -e specs (a kernel event is selected by a positive
 * SYSTEM:EVENT spec and no !spec), the -f of each (NULL: none), the events
 * to leave to another source (NULL: none), uft's -C clock (NULL: local). */
struct kernel_source_opts {
	char *const *events;
	char *const *filters;
	int nr_events;
	bool (*exclude)(const char *system, const char *name);
	const char *clock;
};

/* Whether spec names an event of the kernel's tracefs (one that can be
 * listed: tracefs readable), leaving out the excluded ones. */
bool kernel_source_spec_matches(const char *spec,
				bool (*exclude)(const char *system, const char *name));
/* The instance with the selected events' filters set and their formats
 * registered in c; nothing enabled yet. 0 with *out NULL when no spec names
 * a kernel event, 1 with *out set, -1 with a message in err (the kernel
 * cannot be used, a clock that cannot agree, a filter it refuses). */
int kernel_source_new(struct kernel_source **out, const struct kernel_source_opts *o,
		      struct collect *c, char *err, size_t errlen);
/* Follows pid (and with `threads` every thread it has now) and its future
 * children, or with pid 0 every process but the caller's own (--follow 0);
 * the first call enables the events. 0 or -errno. */
int kernel_source_follow(struct kernel_source *k, pid_t pid, bool threads);
/* Puts what the kernel has written into the collector (the caller holds the
 * collector): up to the previous drain's newest time, everything when final. */
void kernel_source_drain(struct kernel_source *k, bool final);
/* The records kept. */
uint64_t kernel_source_kept(const struct kernel_source *k);
/* Turns the events off, closes the pseudo-source and removes the instance. */
void kernel_source_free(struct kernel_source *k);

#endif
