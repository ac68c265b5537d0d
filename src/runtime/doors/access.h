/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Who may do what to the process's tree through its control socket. The
 * owner (the process's real or effective uid) and root may do everything; a
 * member of the access group (UFT_ACCESS_GROUP) may do what the access level
 * (UFT_ACCESS) allows, the levels nested as perf_event_paranoid's are:
 *
 *   stats     list the tree, read aggregates and settings (hist, stats,
 *             formats, filters, ...), never the records themselves
 *   records   also read the records (trace, trace_pipe, per_cpu raw pages)
 *   control   also change what is recorded (enable, filters, triggers,
 *             buffers, markers, instances)
 *   all       also change the program's code (current_tracer,
 *             set_ftrace_filter and the other function lists, probes)
 *
 * A secure process (setuid, setgid, capabilities) ignores both settings and
 * serves root alone. Every refusal is one line in the tree's error_log. */
#ifndef UFT_DOORS_ACCESS_H
#define UFT_DOORS_ACCESS_H

#include <stdbool.h>
#include <sys/types.h>

enum uft_access {
	UFT_ACCESS_NONE,
	UFT_ACCESS_STATS,
	UFT_ACCESS_RECORDS,
	UFT_ACCESS_CONTROL,
	UFT_ACCESS_ALL,
};

enum uft_access_op {
	UFT_ACCESS_OP_OPEN,  /* with the tree's open flags */
	UFT_ACCESS_OP_MKDIR, /* an instance */
	UFT_ACCESS_OP_RMDIR,
};

/* Reads the settings once, before the socket's threads start (they only
 * read them); a bad one is said on stderr and leaves the group out (nobody
 * but the owner and root gets in). */
void uft_access_init(void);

/* The group whose members are served, or -1 when there is none. */
gid_t uft_access_group(void);

/* The level of the peer of a connected socket. */
enum uft_access uft_access_of_peer(int fd, uid_t *uid);

/* 0 when the level allows the operation on the path, else -EACCES, with a
 * line in error_log naming the uid, the operation and the level missing. */
int uft_access_check(enum uft_access level, uid_t uid, enum uft_access_op op, const char *path,
		     unsigned flags);

/* For the FUSE door: with an access group, the file shows that group and,
 * as its group bits, what the level lets a member do to it (directories
 * searchable, and writable for instances at `control`), so that a mount
 * shared with allow_other,default_permissions has the kernel enforce the
 * policy. Without one, st is left as the tree made it. */
struct uft_tfs_stat;
void uft_access_door_stat(const char *path, struct uft_tfs_stat *st);

#endif
