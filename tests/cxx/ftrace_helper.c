/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tree and the rings for the C++ function tracer test, in C (the tree's
 * headers are C). */
#include <stdlib.h>
#include <string.h>

#include "wire/ftrace_records.h"
#include "wire/ring_reader.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tracefs.h"

int ftx_echo(const char *path, const char *text)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | UFT_TFS_TRUNC, &h);
	if (rc)
		return rc;
	ssize_t w = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return w < 0 ? (int)w : 0;
}

int ftx_append(const char *path, const char *text)
{
	struct uft_tfs_handle *h;
	int rc = uft_tracefs_open(path, UFT_TFS_WRITE | UFT_TFS_APPEND, &h);
	if (rc)
		return rc;
	ssize_t w = uft_tracefs_write(h, text, strlen(text), 0);
	uft_tracefs_release(h);
	return w < 0 ? (int)w : 0;
}

struct check {
	uint64_t open[256];
	int32_t depth[256];
	unsigned top;
	long entries, exits, bad;
};

static int one(void *ctx, uint64_t ts, uint32_t cpu, const void *data, uint32_t len,
	       uint64_t missed)
{
	struct check *c = ctx;
	const struct uft_common_entry *e = data;
	if (e->type == UFT_ID_FUNCGRAPH_ENTRY) {
		const struct uft_rec_funcgraph_entry *r = data;
		c->entries++;
		if (c->top < 256) {
			c->open[c->top] = r->func;
			c->depth[c->top++] = r->depth;
		}
	} else if (e->type == UFT_ID_FUNCGRAPH_EXIT) {
		const struct uft_rec_funcgraph_exit *r = data;
		c->exits++;
		if (!c->top || c->open[c->top - 1] != r->func || c->depth[c->top - 1] != r->depth)
			c->bad++;
		else
			c->top--;
	}
	return 0;
}

static void peek(void *ctx, struct uft_ring *r, uint32_t slot)
{
	uft_ring_peek(r, one, ctx);
}

/* Entries and exits of buffer 0 (one thread); -1 if an exit does not close
 * the newest open entry. */
long ftx_check(long *entries)
{
	struct check c;
	memset(&c, 0, sizeof(c));
	pthread_mutex_lock(&tfs_lock);
	tfs_for_each_ring(0, peek, &c);
	pthread_mutex_unlock(&tfs_lock);
	*entries = c.entries;
	return c.bad ? -1 : c.exits;
}

/* How many times needle is in the file. */
long ftx_count(const char *path, const char *needle)
{
	struct uft_tfs_handle *h;
	if (uft_tracefs_open(path, UFT_TFS_READ | UFT_TFS_NONBLOCK, &h))
		return -1;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	for (ssize_t n; buf; len += (size_t)n) {
		if (cap - len < 4096) {
			char *more = realloc(buf, cap *= 2);
			if (!more) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = more;
		}
		n = uft_tracefs_read(h, buf + len, cap - len - 1, len);
		if (n <= 0)
			break;
	}
	uft_tracefs_release(h);
	if (!buf)
		return -1;
	buf[len] = 0;
	long k = 0;
	for (const char *p = buf; (p = strstr(p, needle)); p++)
		k++;
	free(buf);
	return k;
}
