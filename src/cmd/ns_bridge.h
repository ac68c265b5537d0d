/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `uft ns --kernel-events`: the kernel's events of other tasks put on the
 * traced program's tree (docs/design/tracefs.md, "Kernel events of other
 * tasks"). For each event of the chosen systems that both the program and
 * the kernel define, the kernel's is enabled in a private instance
 * (instances/uft-<pid>-<n>, proctrace/kernel_instance.c) for every task
 * but this one's and the program's own (which writes its own); its records
 * are read as raw pages (proctrace/kernel_reader.c), put into the tree
 * event's field layout by field name, and handed to the program with the
 * control socket's INJECT (wire/inject_proto.h), which writes them as that
 * event. */
#ifndef UFT_NS_BRIDGE_H
#define UFT_NS_BRIDGE_H

#include <stdio.h>
#include <sys/types.h>

struct uft_ctl_conn;
struct ns_bridge;

/* systems: a comma-separated list ("sched"). Needs the kernel's tracefs at
 * /sys/kernel/tracing now (before the tree is mounted over it); the bridge
 * keeps descriptors of its own. Takes `c` (a connection of its own, so a
 * blocked read on the door's never holds it up). NULL with a message in
 * err. */
struct ns_bridge *ns_bridge_open(struct uft_ctl_conn *c, pid_t target, const char *systems,
				 char *err, size_t errlen);
/* Hands the program every record the kernel has now. Thread-safe. */
void ns_bridge_sync(struct ns_bridge *b);
/* The same for a look (a file opened to read): unless another look synced
 * under `ms` milliseconds ago, with no full sync since. */
void ns_bridge_sync_since(struct ns_bridge *b, unsigned ms);
/* A thread that syncs every few milliseconds, for readers that wait
 * (trace_pipe). 0 or -errno. */
int ns_bridge_start(struct ns_bridge *b);
/* Stops, syncs a last time, removes the instance, prints one line of
 * counts to `out` and frees. */
void ns_bridge_close(struct ns_bridge *b, FILE *out);

#endif
