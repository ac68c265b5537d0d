/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The control socket's client (ctl_client.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "wire/ctl_proto.h"
#include "wire/ctl_rundir.h"
#include "client/ctl_client.h"
#include "util/atomics.h"

struct uft_ctl_conn {
	int fd;
	pthread_mutex_t call_lock; /* one call at a time */
	pthread_mutex_t send_lock; /* whole messages on the socket */
	uint32_t pending;	   /* id of the call awaiting its reply, 0 if none */
	uint32_t next_id;
	bool broken;
	bool intr_sent;
	volatile sig_atomic_t *intr_flag;
	uint32_t version; /* the protocol's, as HELLO agreed it */
	pid_t pid;	  /* as the process sees itself */
	pid_t peer_pid;	  /* as we see it (SO_PEERCRED); 0 outside our namespace */
	char comm[17];
	struct uft_ctl_reply rep; /* the last reply; its data lives in `in` */
	uint8_t out[UFT_CTL_MAX_MSG];
	uint8_t in[UFT_CTL_MAX_PAYLOAD];
};

static int send_locked(struct uft_ctl_conn *c, const void *buf, size_t len)
{
	pthread_mutex_lock(&c->send_lock);
	int rc = uft_ctl_send(c->fd, buf, len);
	pthread_mutex_unlock(&c->send_lock);
	return rc;
}

static void send_interrupt(struct uft_ctl_conn *c, uint32_t id)
{
	uint8_t buf[UFT_CTL_HDR_SIZE + 4];
	struct uft_ctl_req r = {.op = UFT_CTL_INTERRUPT, .handle = id};
	size_t n = uft_ctl_encode_req(&r, buf, sizeof(buf));
	if (n)
		send_locked(c, buf, n);
}

void uft_ctl_interrupt(struct uft_ctl_conn *c)
{
	uint32_t id = uft_load_seq_cst(&c->pending);
	if (id)
		send_interrupt(c, id);
}

/* A signal arrived while the call waited: pass it on if it was meant to stop us. */
static void on_eintr(void *arg)
{
	struct uft_ctl_conn *c = arg;
	if (c->intr_flag && *c->intr_flag && !c->intr_sent) {
		c->intr_sent = true;
		send_interrupt(c, uft_load_seq_cst(&c->pending));
	}
}

/* Sends r and waits for its reply in c->rep. Called with call_lock held. */
static int call(struct uft_ctl_conn *c, struct uft_ctl_req *r)
{
	if (c->broken)
		return -ECONNRESET;
	if (++c->next_id == 0)
		c->next_id = 1;
	r->id = c->next_id;
	size_t n = uft_ctl_encode_req(r, c->out, sizeof(c->out));
	if (!n)
		return -EINVAL;
	c->intr_sent = false;
	uft_store_seq_cst(&c->pending, r->id);
	int rc = send_locked(c, c->out, n);
	if (rc == 0 && c->intr_flag && *c->intr_flag)
		on_eintr(c);
	/* A refused peer may have answered and closed before the request went
	 * out: its answer is still there to read. */
	struct uft_ctl_hdr h;
	if (rc == 0 || rc == -EPIPE)
		rc = uft_ctl_recv(c->fd, &h, c->in, on_eintr, c);
	if (rc == 0)
		rc = uft_ctl_decode_reply(&h, c->in, &c->rep);
	/* A refusal answers the hello before reading it, so with id 0. */
	bool id_ok = c->rep.id == r->id || (r->op == UFT_CTL_HELLO && c->rep.id == 0);
	if (rc == 0 && (!id_ok || c->rep.op != r->op))
		rc = -EPROTO;
	uft_store_seq_cst(&c->pending, 0);
	if (rc < 0) {
		c->broken = true;
		return rc == -EPIPE ? -ECONNRESET : rc;
	}
	return 0;
}

/* A call whose reply is only its result. */
static int64_t simple_call(struct uft_ctl_conn *c, struct uft_ctl_req *r)
{
	pthread_mutex_lock(&c->call_lock);
	int64_t rc = call(c, r);
	if (rc == 0)
		rc = c->rep.result;
	pthread_mutex_unlock(&c->call_lock);
	return rc;
}

static int set_path(struct uft_ctl_req *r, const char *path)
{
	size_t n = strlen(path);
	if (n > UFT_CTL_MAX_PATH)
		return -ENAMETOOLONG;
	memcpy(r->path, path, n + 1);
	return 0;
}

static int hello(struct uft_ctl_conn *c)
{
	struct uft_ctl_req r = {.op = UFT_CTL_HELLO, .flags = UFT_CTL_VERSION};
	pthread_mutex_lock(&c->call_lock);
	int rc = call(c, &r);
	struct uft_ctl_hello_info info;
	if (rc == 0 && c->rep.result < 0)
		rc = (int)c->rep.result;
	else if (rc == 0 && uft_ctl_reply_hello(&c->rep, &info) == 0 && info.version >= 1 &&
		 info.version <= UFT_CTL_VERSION) {
		c->pid = (pid_t)info.pid;
		c->version = info.version;
		memcpy(c->comm, info.comm, sizeof(c->comm));
	} else if (rc == 0) {
		rc = -EPROTONOSUPPORT;
	}
	pthread_mutex_unlock(&c->call_lock);
	return rc;
}

int uft_ctl_connect_path(const char *path, struct uft_ctl_conn **out)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	struct uft_ctl_conn *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	pthread_mutex_init(&c->call_lock, NULL);
	pthread_mutex_init(&c->send_lock, NULL);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc = 0;
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		rc = -errno;
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	if (rc == 0 && getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0)
		c->peer_pid = cred.pid;
	if (rc == 0)
		rc = hello(c);
	if (rc < 0) {
		uft_ctl_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

void uft_ctl_close(struct uft_ctl_conn *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	pthread_mutex_destroy(&c->call_lock);
	pthread_mutex_destroy(&c->send_lock);
	free(c);
}

pid_t uft_ctl_peer_pid(const struct uft_ctl_conn *c)
{
	return c->peer_pid ? c->peer_pid : c->pid;
}

bool uft_ctl_peer_visible(const struct uft_ctl_conn *c)
{
	return c->peer_pid > 0;
}

const char *uft_ctl_peer_comm(const struct uft_ctl_conn *c)
{
	return c->comm;
}

void uft_ctl_set_interrupt_flag(struct uft_ctl_conn *c, volatile sig_atomic_t *flag)
{
	c->intr_flag = flag;
}

int uft_ctl_stat(struct uft_ctl_conn *c, const char *path, struct uft_tfs_stat *st)
{
	struct uft_ctl_req r = {.op = UFT_CTL_STAT};
	int rc = set_path(&r, path);
	if (rc)
		return rc;
	pthread_mutex_lock(&c->call_lock);
	rc = call(c, &r);
	uint32_t type, mode, gid;
	if (rc == 0 && c->rep.result < 0)
		rc = (int)c->rep.result;
	else if (rc == 0 && uft_ctl_reply_stat(&c->rep, &type, &mode, &gid) == 0)
		*st = (struct uft_tfs_stat){.type = (int)type,
					    .mode = mode,
					    .group_set = gid != UFT_CTL_NO_GROUP,
					    .gid = gid != UFT_CTL_NO_GROUP ? (gid_t)gid : 0};
	else if (rc == 0)
		rc = -EPROTO;
	pthread_mutex_unlock(&c->call_lock);
	return rc;
}

int uft_ctl_readdir(struct uft_ctl_conn *c, const char *path, uft_tfs_dirent_fn fn, void *ctx)
{
	struct uft_ctl_req r = {.op = UFT_CTL_READDIR};
	int rc = set_path(&r, path);
	if (rc)
		return rc;
	pthread_mutex_lock(&c->call_lock);
	for (bool more = true; more && rc == 0;) {
		rc = call(c, &r);
		if (rc == 0 && c->rep.result < 0)
			rc = (int)c->rep.result;
		size_t pos = 0;
		struct uft_ctl_dirent d;
		int got = 0;
		while (rc == 0 && (got = uft_ctl_dirent_next(&c->rep, &pos, &d, &more)) == 1) {
			r.count++;
			if (fn(ctx, d.name, d.type)) {
				more = false;
				break;
			}
		}
		if (rc == 0 && got < 0)
			rc = got;
		if (rc == 0 && more && c->rep.result == 0)
			rc = -EPROTO; /* "more", yet nothing: would never end */
	}
	pthread_mutex_unlock(&c->call_lock);
	return rc;
}

int uft_ctl_open(struct uft_ctl_conn *c, const char *path, unsigned flags)
{
	struct uft_ctl_req r = {.op = UFT_CTL_OPEN, .flags = flags};
	int rc = set_path(&r, path);
	return rc ? rc : (int)simple_call(c, &r);
}

ssize_t uft_ctl_read(struct uft_ctl_conn *c, int handle, char *buf, size_t len, uint64_t off)
{
	struct uft_ctl_req r = {.op = UFT_CTL_READ, .handle = (uint32_t)handle, .off = off};
	r.count = (uint32_t)(len < UFT_CTL_MAX_IO ? len : UFT_CTL_MAX_IO);
	pthread_mutex_lock(&c->call_lock);
	ssize_t rc = call(c, &r);
	if (rc == 0) {
		rc = (ssize_t)c->rep.result;
		if (rc > (ssize_t)r.count)
			rc = -EPROTO;
		else if (rc > 0)
			memcpy(buf, c->rep.data, (size_t)rc);
	}
	pthread_mutex_unlock(&c->call_lock);
	return rc;
}

ssize_t uft_ctl_write(struct uft_ctl_conn *c, int handle, const char *buf, size_t len, uint64_t off)
{
	if (len > UFT_CTL_MAX_IO)
		len = UFT_CTL_MAX_IO;
	struct uft_ctl_req r = {.op = UFT_CTL_WRITE,
				.handle = (uint32_t)handle,
				.off = off,
				.data = (const uint8_t *)buf,
				.data_len = len};
	return (ssize_t)simple_call(c, &r);
}

int uft_ctl_poll(struct uft_ctl_conn *c, int handle)
{
	struct uft_ctl_req r = {.op = UFT_CTL_POLL, .handle = (uint32_t)handle};
	return (int)simple_call(c, &r);
}

int uft_ctl_poll_events(struct uft_ctl_conn *c, int handle, bool peek)
{
	if (c->version < 3) {
		int rc = uft_ctl_poll(c, handle);
		return rc < 0 ? rc : rc ? POLLIN | POLLRDNORM : 0;
	}
	struct uft_ctl_req r = {
	    .op = UFT_CTL_POLL_EVENTS, .handle = (uint32_t)handle, .flags = peek};
	return (int)simple_call(c, &r);
}

int uft_ctl_inject(struct uft_ctl_conn *c, const void *recs, size_t len)
{
	if (c->version < 4)
		return -EOPNOTSUPP;
	if (len > UFT_CTL_MAX_IO)
		return -EMSGSIZE;
	struct uft_ctl_req r = {.op = UFT_CTL_INJECT, .data = recs, .data_len = len};
	return (int)simple_call(c, &r);
}

int uft_ctl_wait(struct uft_ctl_conn *c, int handle, int timeout_ms)
{
	struct uft_ctl_req r = {
	    .op = UFT_CTL_WAIT, .handle = (uint32_t)handle, .timeout_ms = timeout_ms};
	return (int)simple_call(c, &r);
}

int uft_ctl_release(struct uft_ctl_conn *c, int handle)
{
	struct uft_ctl_req r = {.op = UFT_CTL_RELEASE, .handle = (uint32_t)handle};
	return (int)simple_call(c, &r);
}

int uft_ctl_mkdir(struct uft_ctl_conn *c, const char *path)
{
	struct uft_ctl_req r = {.op = UFT_CTL_MKDIR};
	int rc = set_path(&r, path);
	return rc ? rc : (int)simple_call(c, &r);
}

int uft_ctl_rmdir(struct uft_ctl_conn *c, const char *path)
{
	struct uft_ctl_req r = {.op = UFT_CTL_RMDIR};
	int rc = set_path(&r, path);
	return rc ? rc : (int)simple_call(c, &r);
}
