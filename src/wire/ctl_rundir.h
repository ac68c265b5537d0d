/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where control sockets live: <rundir>/<pid>.sock, the directory private to
 * its user. Shared by libuft (which listens) and the uft tool (which connects). */
#ifndef UFT_CTL_RUNDIR_H
#define UFT_CTL_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The directory: $UFT_RUNDIR, else $XDG_RUNTIME_DIR/uft, else /tmp/uft-<uid>
 * (<uid> the effective one), or ~/.cache/uft when that name is not a private
 * directory of this user (another user may have made it first). A setuid,
 * setgid or file-capability process (AT_SECURE) ignores the variables ($HOME
 * included), as secure_getenv() does.
 * With create, a missing directory is made (mode 0700). It must be a real
 * directory owned by the effective uid with no group or other access but
 * group search (runtime/doors/access.h).
 * Returns 0, or -errno (-EPERM when it is not safe, -ENAMETOOLONG). */
int uft_ctl_rundir(char *buf, size_t cap, bool create);

/* <dir>/<pid>.sock, checked to fit a sockaddr_un; 0 or -ENAMETOOLONG. */
int uft_ctl_sock_path(char *buf, size_t cap, const char *dir, pid_t pid);

/* The inode of namespace `kind` ("pid", "mnt", ...) of /proc/<pid> ("self"
 * for pid 0); 0 when it cannot be read. */
uint64_t uft_ns_inode(pid_t pid, const char *kind);
/* Its pid namespace's, or 0 for the initial namespace (or unreadable). */
uint64_t uft_pidns_of(pid_t pid);

/* The socket of a process whose pid in its own namespace is nspid and whose
 * pid namespace is ns (uft_pidns_of): <dir>/<nspid>.sock in the initial
 * namespace, <dir>/<nspid>@<ns>.sock in any other, so that processes of
 * containers sharing a directory never take each other's name. */
int uft_ctl_sock_path_ns(char *buf, size_t cap, const char *dir, pid_t nspid, uint64_t ns);

#endif
