/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The client side of a traced process's control socket (wire/ctl_proto.h):
 * the tracefs calls of src/runtime/tracefs/tracefs.h, made from another process. Used by
 * `uft ctl`, `uft mount` and the live commands.
 *
 * A connection runs one call at a time (calls from several threads take
 * turns); uft_ctl_interrupt() may come from any thread or a signal path's
 * flag and ends a pending read or wait with -EINTR. Errors are negative errno
 * values: the tree's own, or the connection's (-ECONNRESET once the process
 * is gone, -EPROTO for a peer that breaks the protocol). */
#ifndef UFT_CTL_CLIENT_H
#define UFT_CTL_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire/tree_calls.h"

struct uft_ctl_conn;

/* Connects to the control socket of pid (a pid of our namespace), in our
 * run directory or, for a process in a container, in its run directory as
 * seen through /proc/PID/root (ctl_find.c). -ESRCH when no such process
 * exists, -ENOTCONN when it exists but serves no socket we can reach. */
int uft_ctl_connect_pid(pid_t pid, struct uft_ctl_conn **out);
/* The same, and the socket's path in where (for more connections). */
int uft_ctl_connect_pid_path(pid_t pid, struct uft_ctl_conn **out, char *where, size_t cap);
/* The message for an error of uft_ctl_connect_pid. */
const char *uft_ctl_connect_error(int rc);
int uft_ctl_connect_path(const char *path, struct uft_ctl_conn **out);
void uft_ctl_close(struct uft_ctl_conn *c);

/* The pids (in our namespace) whose control socket answers, in our run
 * directory and in those of containers, sorted (malloc'd; *n of them).
 * Removes the sockets of gone processes from our run directory. Returns 0
 * or -errno. */
int uft_ctl_list_pids(pid_t **pids, size_t *n);

/* The peer's pid in our namespace (its own view when it is not visible in
 * ours), and whether it is visible. */
pid_t uft_ctl_peer_pid(const struct uft_ctl_conn *c);
bool uft_ctl_peer_visible(const struct uft_ctl_conn *c);
const char *uft_ctl_peer_comm(const struct uft_ctl_conn *c);

/* While *flag is non-zero, a call waiting on the process is interrupted:
 * set it from a signal handler installed without SA_RESTART. */
void uft_ctl_set_interrupt_flag(struct uft_ctl_conn *c, volatile sig_atomic_t *flag);
/* Interrupts the call pending on c, if any (from another thread). */
void uft_ctl_interrupt(struct uft_ctl_conn *c);

int uft_ctl_stat(struct uft_ctl_conn *c, const char *path, struct uft_tfs_stat *st);
int uft_ctl_readdir(struct uft_ctl_conn *c, const char *path, uft_tfs_dirent_fn fn, void *ctx);
/* Returns a handle (1 up) or -errno. */
int uft_ctl_open(struct uft_ctl_conn *c, const char *path, unsigned flags);
/* Reads or writes at most UFT_CTL_MAX_IO bytes per call. */
ssize_t uft_ctl_read(struct uft_ctl_conn *c, int handle, char *buf, size_t len, uint64_t off);
ssize_t uft_ctl_write(struct uft_ctl_conn *c, int handle, const char *buf, size_t len,
		      uint64_t off);
int uft_ctl_poll(struct uft_ctl_conn *c, int handle);
/* poll(2)'s events of the file (POLLPRI on an updated hist, ...); with peek
 * as a watcher looks, changing nothing. A process speaking protocol 1 or 2
 * says POLLIN|POLLRDNORM or nothing. Returns the events or -errno. */
int uft_ctl_poll_events(struct uft_ctl_conn *c, int handle, bool peek);
int uft_ctl_wait(struct uft_ctl_conn *c, int handle, int timeout_ms);
/* Hands the process records of other tasks (wire/inject_proto.h), at most
 * UFT_CTL_MAX_IO bytes. Returns how many it took, -EOPNOTSUPP when it
 * speaks a protocol before 4, or -errno. */
int uft_ctl_inject(struct uft_ctl_conn *c, const void *recs, size_t len);
int uft_ctl_release(struct uft_ctl_conn *c, int handle);
int uft_ctl_mkdir(struct uft_ctl_conn *c, const char *path);
int uft_ctl_rmdir(struct uft_ctl_conn *c, const char *path);

#endif
