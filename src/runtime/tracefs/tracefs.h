/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The in-process tracefs tree: the kernel's control files, by path.
 *
 * Every door (the control socket, FUSE in the process, `uft mount` from
 * outside) goes through these calls, so a file behaves the same whichever way
 * it is reached. Paths are relative to the tree's root ("" is the root,
 * "events/demo/enable", "instances/foo/trace"), without a leading slash.
 * Errors are negative errno values, the ones the kernel returns for the same
 * mistake. The calls are thread-safe; the thread that makes them never traces
 * (uft_tracefs_thread_notrace), so reading the tree does not trace itself. */
#ifndef UFT_LIB_TRACEFS_H
#define UFT_LIB_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire/tree_calls.h"

#ifdef __cplusplus
extern "C" {
#endif

struct uft_tfs_handle; /* an open file */

int uft_tracefs_stat(const char *path, struct uft_tfs_stat *st);
/* Calls fn for each entry of a directory (no "." or ".."); stops when fn
 * returns non-zero. */
int uft_tracefs_readdir(const char *path, uft_tfs_dirent_fn fn, void *ctx);
int uft_tracefs_open(const char *path, unsigned flags, struct uft_tfs_handle **out);
/* Reads at `off` (snapshot files are generated at open and read by offset;
 * pipes ignore off and consume). Returns bytes read, 0 at the end, or -errno.
 * A pipe opened without UFT_TFS_NONBLOCK blocks until data arrives. */
ssize_t uft_tracefs_read(struct uft_tfs_handle *h, char *buf, size_t len, uint64_t off);
/* One write is one command, as one write(2) on the kernel's files. Returns
 * len or -errno; a failed write changes nothing. */
ssize_t uft_tracefs_write(struct uft_tfs_handle *h, const char *buf, size_t len, uint64_t off);
/* Non-zero when a read would not block (pipes; other files are always ready). */
int uft_tracefs_poll(struct uft_tfs_handle *h);
/* The events poll(2) reports for the handle: POLLIN|POLLRDNORM when
 * uft_tracefs_poll() says readable, except for files with events of their
 * own (a hist file: POLLIN when its histograms changed since it was last
 * read, POLLPRI when they changed since the last poll or read, POLLERR when
 * the event is gone). With peek: what a poll would report, changing nothing
 * (the doors' watchers); without: the poll itself. */
unsigned uft_tracefs_poll_events(struct uft_tfs_handle *h, bool peek);
/* Waits until the handle is readable, up to timeout_ms (-1: forever). Returns
 * 1 when readable, 0 on time-out or interrupt. An uft_tracefs_interrupt()
 * ends the wait or read it finds pending (or the next one) and is spent. */
int uft_tracefs_wait(struct uft_tfs_handle *h, int timeout_ms);
/* Makes a blocked read or wait on h return (-EINTR for a read). */
void uft_tracefs_interrupt(struct uft_tfs_handle *h);
void uft_tracefs_release(struct uft_tfs_handle *h);
/* tree_text.c: a file's whole text (malloc'd, NULL on error); `text` written
 * at offset 0 with UFT_TFS_WRITE | how (0 or -errno). */
char *uft_tracefs_read_text(const char *path);
int uft_tracefs_put_text(const char *path, const char *text, unsigned how);
/* Only under instances/: makes or removes an instance. */
int uft_tracefs_mkdir(const char *path);
/* A door refused a caller: one line in the top tree's error_log ("access"). */
void uft_tracefs_log_refusal(const char *cmd, const char *msg);
int uft_tracefs_rmdir(const char *path);

/* Marks the calling thread as one that never records events (door threads). */
void uft_tracefs_thread_notrace(void);

/* event-fork and function-fork for threads (thread_follow.c): a new thread
 * made by `parent` joins the pid lists `parent` is in; an exiting one leaves
 * them. uft_thread_follow() tells pthread_create whether any instance has
 * either option set. */
void uft_tracefs_thread_created(pid_t parent, pid_t self);
void uft_tracefs_thread_exits(pid_t self);
/* The control socket's INJECT (wire/inject_proto.h): writes the records of
 * other tasks that check out as events of the program; returns how many. */
int64_t uft_tracefs_inject(const uint8_t *buf, size_t len);
void uft_thread_follow(bool on);
void uft_thread_follow_init(void);

#ifdef __cplusplus
}
#endif
#endif
