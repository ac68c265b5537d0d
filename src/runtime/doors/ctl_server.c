/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The control socket: every process linked with libuft serves its tracefs
 * tree on <rundir>/<pid>.sock (<pid>@<pidns>.sock in a container; wire/ctl_rundir.h), in the
 * protocol of wire/ctl_proto.h, to its own user and to root.
 *
 * A listener thread polls the socket, a wake-up pipe and the connections whose
 * thread sleeps in a read or a wait; each connection has a thread that runs
 * its requests in order. When the peer of a sleeping connection sends
 * something (an INTERRUPT) or hangs up, the listener interrupts the handle, so
 * a blocked trace_pipe read holds up no one else and ends as soon as its
 * client stops waiting. Threads of this file never trace and block every
 * signal, so the program's signals go to its own threads. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "wire/ctl_proto.h"
#include "runtime/doors/access.h"
#include "wire/ctl_rundir.h"
#include "runtime/doors/doors.h"
#include "runtime/core/runtime.h"
#include "runtime/core/secure_env.h"
#include "runtime/tracefs/tracefs.h"
#include "wire/env_names.h"

_Static_assert(UFT_TFS_READ == 1 && UFT_TFS_WRITE == 2 && UFT_TFS_TRUNC == 4 &&
		   UFT_TFS_APPEND == 8 && UFT_TFS_NONBLOCK == 16,
	       "the protocol's open flags are tracefs.h's");

#define MAX_CONNS 64
#define SLICE_MS 1000 /* longest sleep before a sleeping call looks at its peer itself */

struct conn {
	int fd;
	uint32_t cur_id;		 /* request being served */
	struct uft_tfs_handle *sleeping; /* srv.lock: handle a read or wait sleeps on */
	bool woken;			 /* srv.lock: the listener has interrupted it */
	struct conn *next;		 /* srv.lock */
	struct uft_tfs_handle *handles[UFT_CTL_MAX_HANDLES];
	bool nonblock[UFT_CTL_MAX_HANDLES];
	enum uft_access access; /* what the peer may do (access.h) */
	uint32_t version;	/* the protocol's, as HELLO agreed it */
	uid_t uid;
	uint8_t in[UFT_CTL_MAX_PAYLOAD];
	uint8_t out[UFT_CTL_MAX_MSG];
};

static struct {
	pthread_mutex_t lock;
	int listen_fd;
	int wake[2];
	pid_t owner; /* the process that made `path`: only it removes the file */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool stopping;
	bool said_refused;
	unsigned nconns;
	struct conn *conns;
} srv = {.lock = PTHREAD_MUTEX_INITIALIZER, .listen_fd = -1, .wake = {-1, -1}};

static void wake_listener(void)
{
	if (write(srv.wake[1], "", 1) < 0) {
		/* full pipe: the listener has wake-ups pending anyway */
	}
}

static void put_result(struct uft_ctl_out *o, int64_t v)
{
	for (int i = 0; i < 8; i++)
		o->buf[UFT_CTL_HDR_SIZE + i] = (uint8_t)((uint64_t)v >> (8 * i));
}

static int send_reply(struct conn *c, struct uft_ctl_out *o)
{
	size_t n = uft_ctl_out_end(o);
	return n ? uft_ctl_send(c->fd, c->out, n) : -EPROTO;
}

/* A reply that is just a result. */
static int reply(struct conn *c, uint16_t op, int64_t res)
{
	struct uft_ctl_out o;
	uft_ctl_out_begin(&o, c->out, sizeof(c->out), op, UFT_CTL_F_REPLY, c->cur_id);
	uft_ctl_put_u64(&o, (uint64_t)res);
	return send_reply(c, &o);
}

static struct uft_tfs_handle *handle_of(struct conn *c, uint32_t id)
{
	return id >= 1 && id <= UFT_CTL_MAX_HANDLES ? c->handles[id - 1] : NULL;
}

/* --- sleeping reads and waits --- */

static void arm(struct conn *c, struct uft_tfs_handle *h)
{
	pthread_mutex_lock(&srv.lock);
	c->sleeping = h;
	c->woken = false;
	pthread_mutex_unlock(&srv.lock);
	wake_listener();
}

static void disarm(struct conn *c)
{
	pthread_mutex_lock(&srv.lock);
	c->sleeping = NULL;
	pthread_mutex_unlock(&srv.lock);
}

/* Looks at the peer while a call sleeps: 1 when it interrupted this request,
 * 0 when it has nothing to say, -1 when it hung up or broke the protocol
 * (the only message allowed while a request is pending is INTERRUPT). */
static int peer_check(struct conn *c, struct uft_tfs_handle *h)
{
	struct pollfd p = {.fd = c->fd, .events = POLLIN};
	if (poll(&p, 1, 0) <= 0)
		return 0;
	struct uft_ctl_hdr hdr;
	struct uft_ctl_req r;
	if (uft_ctl_recv(c->fd, &hdr, c->in, NULL, NULL) != 0 ||
	    uft_ctl_decode_req(&hdr, c->in, &r) != 0 || r.op != UFT_CTL_INTERRUPT)
		return -1;
	if (r.handle == c->cur_id)
		return 1;
	arm(c, h); /* a late INTERRUPT of an earlier request: watch again */
	return 0;
}

#define PEER_GONE INT64_MIN

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits up to ms for h to become readable; true when it is. */
static bool wait_ready(struct uft_tfs_handle *h, int ms)
{
	int64_t t0 = now_ms();
	if (uft_tracefs_wait(h, ms) > 0)
		return true;
	/* An interrupt that stays set on the handle must not make a spin. */
	if (now_ms() - t0 < ms / 2)
		usleep(10000);
	return false;
}

/* A read that may block or a wait, with the listener watching the peer. */
static int64_t sleeping_call(struct conn *c, struct uft_tfs_handle *h, const struct uft_ctl_req *r,
			     char *buf)
{
	int64_t deadline = r->timeout_ms >= 0 ? now_ms() + r->timeout_ms : -1;
	int64_t res;
	arm(c, h);
	for (;;) {
		int peer = peer_check(c, h);
		if (peer) {
			res = peer < 0 ? PEER_GONE : -EINTR;
			break;
		}
		int slice = SLICE_MS;
		if (r->op == UFT_CTL_WAIT && deadline >= 0) {
			int64_t left = deadline - now_ms();
			if (left <= 0) {
				res = uft_tracefs_poll(h) > 0;
				break;
			}
			if (left < slice)
				slice = (int)left;
		}
		if (uft_tracefs_poll(h) <= 0 && !wait_ready(h, slice))
			continue;
		if (r->op == UFT_CTL_WAIT) {
			res = 1;
			break;
		}
		/* Another reader may have taken the data: this read can still
		 * block, and the listener's interrupt ends it then. */
		res = uft_tracefs_read(h, buf, r->count, r->off);
		if (res != -EINTR)
			break;
	}
	disarm(c);
	return res;
}

/* --- requests --- */

struct dir_fill {
	struct uft_ctl_out *o;
	uint32_t index, first, count;
	bool more;
};

static int add_dirent(void *ctx, const char *name, int type)
{
	struct dir_fill *f = ctx;
	size_t len = strlen(name);
	if (len == 0 || len > UFT_CTL_MAX_NAME)
		return 0;
	if (f->index++ < f->first)
		return 0;
	if (f->o->len + 2 + len > UFT_CTL_HDR_SIZE + UFT_CTL_MAX_PAYLOAD) {
		f->more = true;
		return 1;
	}
	uft_ctl_put_u8(f->o, (uint8_t)type);
	uft_ctl_put_u8(f->o, (uint8_t)len);
	uft_ctl_put_bytes(f->o, name, len);
	f->count++;
	return 0;
}

static int do_readdir(struct conn *c, const struct uft_ctl_req *r)
{
	struct uft_ctl_out o;
	uft_ctl_out_begin(&o, c->out, sizeof(c->out), r->op, UFT_CTL_F_REPLY, r->id);
	uft_ctl_put_u64(&o, 0);
	uft_ctl_put_u8(&o, 0);
	struct dir_fill f = {.o = &o, .first = r->count};
	int rc = uft_tracefs_readdir(r->path, add_dirent, &f);
	if (rc < 0)
		return reply(c, r->op, rc);
	put_result(&o, f.count);
	o.buf[UFT_CTL_HDR_SIZE + 8] = f.more;
	return send_reply(c, &o);
}

static int do_hello(struct conn *c, const struct uft_ctl_req *r)
{
	if (r->flags < 1)
		return reply(c, r->op, -EPROTONOSUPPORT);
	uint32_t version = r->flags < UFT_CTL_VERSION ? r->flags : UFT_CTL_VERSION;
	c->version = version;
	char comm[16] = {0};
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (n > 0 && comm[n - 1] == '\n')
			comm[n - 1] = 0;
	}
	struct uft_ctl_out o;
	uft_ctl_out_begin(&o, c->out, sizeof(c->out), r->op, UFT_CTL_F_REPLY, r->id);
	uft_ctl_put_u64(&o, version);
	uft_ctl_put_u32(&o, version);
	uft_ctl_put_u32(&o, (uint32_t)getpid());
	uft_ctl_put_bytes(&o, comm, sizeof(comm));
	return send_reply(c, &o);
}

static int do_open(struct conn *c, const struct uft_ctl_req *r)
{
	unsigned slot = 0;
	while (slot < UFT_CTL_MAX_HANDLES && c->handles[slot])
		slot++;
	if (slot == UFT_CTL_MAX_HANDLES)
		return reply(c, r->op, -EMFILE);
	struct uft_tfs_handle *h = NULL;
	int rc = uft_access_check(c->access, c->uid, UFT_ACCESS_OP_OPEN, r->path, r->flags);
	if (rc == 0)
		rc = uft_tracefs_open(r->path, r->flags, &h);
	if (rc < 0)
		return reply(c, r->op, rc);
	c->handles[slot] = h;
	c->nonblock[slot] = r->flags & UFT_TFS_NONBLOCK;
	return reply(c, r->op, slot + 1);
}

static int do_read(struct conn *c, const struct uft_ctl_req *r, struct uft_tfs_handle *h)
{
	char *buf = (char *)c->out + UFT_CTL_HDR_SIZE + 8;
	int64_t n;
	if (c->nonblock[r->handle - 1])
		n = uft_tracefs_read(h, buf, r->count, r->off);
	else
		n = sleeping_call(c, h, r, buf);
	if (n == PEER_GONE)
		return -1;
	if (n < 0)
		return reply(c, r->op, n);
	struct uft_ctl_out o;
	uft_ctl_out_begin(&o, c->out, sizeof(c->out), r->op, UFT_CTL_F_REPLY, r->id);
	uft_ctl_put_u64(&o, (uint64_t)n);
	o.len += (size_t)n;
	return send_reply(c, &o);
}

/* Serves one request: 0 to go on, non-zero to close the connection. */
static int serve_one(struct conn *c)
{
	struct uft_ctl_hdr hdr;
	struct uft_ctl_req r;
	if (uft_ctl_recv(c->fd, &hdr, c->in, NULL, NULL) != 0 ||
	    uft_ctl_decode_req(&hdr, c->in, &r) != 0)
		return -1;
	c->cur_id = r.id;
	struct uft_tfs_handle *h = handle_of(c, r.handle);
	switch (r.op) {
	case UFT_CTL_HELLO:
		return do_hello(c, &r);
	case UFT_CTL_INTERRUPT:
		return 0; /* its request has already been answered */
	case UFT_CTL_STAT: {
		struct uft_tfs_stat st = {0};
		int rc = uft_tracefs_stat(r.path, &st);
		if (rc < 0)
			return reply(c, r.op, rc);
		/* What the tracing group may do, as the FUSE door shows it: a
		 * mount of this tree shared with other users (uft mount) lets the
		 * kernel check them against it. */
		uft_access_door_stat(r.path, &st);
		struct uft_ctl_out o;
		uft_ctl_out_begin(&o, c->out, sizeof(c->out), r.op, UFT_CTL_F_REPLY, r.id);
		uft_ctl_put_u64(&o, 0);
		uft_ctl_put_u32(&o, (uint32_t)st.type);
		uft_ctl_put_u32(&o, st.mode);
		if (c->version >= 2)
			uft_ctl_put_u32(&o, st.group_set ? (uint32_t)st.gid : UFT_CTL_NO_GROUP);
		return send_reply(c, &o);
	}
	case UFT_CTL_READDIR:
		return do_readdir(c, &r);
	case UFT_CTL_OPEN:
		return do_open(c, &r);
	case UFT_CTL_MKDIR: {
		int rc = uft_access_check(c->access, c->uid, UFT_ACCESS_OP_MKDIR, r.path, 0);
		return reply(c, r.op, rc ? rc : uft_tracefs_mkdir(r.path));
	}
	case UFT_CTL_RMDIR: {
		int rc = uft_access_check(c->access, c->uid, UFT_ACCESS_OP_RMDIR, r.path, 0);
		return reply(c, r.op, rc ? rc : uft_tracefs_rmdir(r.path));
	}
	case UFT_CTL_INJECT: {
		/* Records written into the buffers: as much as a trace_marker
		 * write may do. */
		int rc = c->version < 4 ? -EPROTO
					: uft_access_check(c->access, c->uid, UFT_ACCESS_OP_OPEN,
							   "trace_marker", UFT_TFS_WRITE);
		return reply(c, r.op, rc ? rc : uft_tracefs_inject(r.data, r.data_len));
	}
	}
	if (!h)
		return reply(c, r.op, -EBADF);
	switch (r.op) {
	case UFT_CTL_READ:
		return do_read(c, &r, h);
	case UFT_CTL_WRITE:
		return reply(c, r.op,
			     uft_tracefs_write(h, (const char *)r.data, r.data_len, r.off));
	case UFT_CTL_POLL:
		return reply(c, r.op, uft_tracefs_poll(h) > 0);
	case UFT_CTL_POLL_EVENTS:
		if (c->version < 3)
			return reply(c, r.op, -EPROTO);
		return reply(c, r.op, (int64_t)uft_tracefs_poll_events(h, r.flags != 0));
	case UFT_CTL_WAIT: {
		int64_t res = c->nonblock[r.handle - 1] || r.timeout_ms == 0
				  ? uft_tracefs_poll(h) > 0
				  : sleeping_call(c, h, &r, NULL);
		return res == PEER_GONE ? -1 : reply(c, r.op, res);
	}
	case UFT_CTL_RELEASE:
		uft_tracefs_release(h);
		c->handles[r.handle - 1] = NULL;
		return reply(c, r.op, 0);
	}
	return -1;
}

static void drop_conn(struct conn *c)
{
	for (unsigned i = 0; i < UFT_CTL_MAX_HANDLES; i++)
		if (c->handles[i])
			uft_tracefs_release(c->handles[i]);
	pthread_mutex_lock(&srv.lock);
	for (struct conn **pp = &srv.conns; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			srv.nconns--;
			break;
		}
	}
	pthread_mutex_unlock(&srv.lock);
	close(c->fd);
	free(c);
}

static void *conn_main(void *arg)
{
	struct conn *c = arg;
	uft_tracefs_thread_notrace();
	while (serve_one(c) == 0) {
	}
	drop_conn(c);
	return NULL;
}

/* --- the listener --- */

static int start_thread(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the new thread starts with all blocked */
	pthread_t t;
	int rc = uft_thread_create_internal(&t, &attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return rc;
}

/* The peer may not reach the tree: it gets EACCES in place of a hello. */
static void refuse(int fd, unsigned uid)
{
	uint8_t buf[32];
	struct uft_ctl_out o;
	uft_ctl_out_begin(&o, buf, sizeof(buf), UFT_CTL_HELLO, UFT_CTL_F_REPLY, 0);
	uft_ctl_put_u64(&o, (uint64_t)(int64_t)-EACCES);
	size_t n = uft_ctl_out_end(&o);
	if (send(fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		/* it learns from the closed connection instead */
	}
	/* Closing with its hello unread would reset the connection before the
	 * peer reads the answer: take the hello first, waiting a moment at most. */
	shutdown(fd, SHUT_WR);
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char sink[256];
	while (poll(&p, 1, 100) > 0 && recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0) {
	}
	close(fd);
	if (!srv.said_refused) {
		srv.said_refused = true;
		fprintf(stderr, "uft: %s: refused a connection from uid %u\n", srv.path, uid);
	}
}

/* Called with srv.lock held. */
static void accept_one(void)
{
	int fd = accept4(srv.listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	uid_t uid = (uid_t)-1;
	enum uft_access access = uft_access_of_peer(fd, &uid);
	if (access == UFT_ACCESS_NONE) {
		refuse(fd, uid);
		return;
	}
	struct conn *c = srv.nconns < MAX_CONNS ? calloc(1, sizeof(*c)) : NULL;
	if (!c) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->access = access;
	c->uid = uid;
	if (start_thread(conn_main, c) != 0) {
		close(fd);
		free(c);
		return;
	}
	c->next = srv.conns;
	srv.conns = c;
	srv.nconns++;
}

/* A socket file that no one listens on is left over from a dead process. */
static bool is_stale(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	bool stale =
	    connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) != 0 && errno == ECONNREFUSED;
	close(fd);
	return stale;
}

/* The socket is the owner's alone (0600), or with an access group its
 * members' too (0660, that group), their way in through the run directory
 * opened for search to that group only (0710). */
static void share_socket(const char *path, const char *dir)
{
	gid_t gid = uft_access_group();
	if (gid == (gid_t)-1) {
		chmod(path, 0600);
		return;
	}
	struct stat st;
	if (chown(path, (uid_t)-1, gid) != 0 || chmod(path, 0660) != 0 || stat(dir, &st) != 0 ||
	    (st.st_gid != gid && chown(dir, (uid_t)-1, gid) != 0) ||
	    chmod(dir, (st.st_mode & 0700) | 0010) != 0) {
		fprintf(stderr, "uft: %s: not shared with group %u: %s\n", path, (unsigned)gid,
			strerror(errno));
		chmod(path, 0600);
	}
}

/* Called with srv.lock held, so a fork never copies a half-made socket. */
static int open_socket(void)
{
	char dir[sizeof(srv.path)];
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int rc = uft_ctl_rundir(dir, sizeof(dir), true);
	if (rc == 0)
		rc = uft_ctl_sock_path_ns(sa.sun_path, sizeof(sa.sun_path), dir, getpid(),
					  uft_pidns_of(0));
	if (rc < 0) {
		fprintf(stderr, "uft: no control socket: %s: %s\n", dir, strerror(-rc));
		return rc;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (rc != 0 && errno == EADDRINUSE && is_stale(&sa) && unlink(sa.sun_path) == 0)
		rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (rc != 0 || listen(fd, 16) != 0) {
		rc = -errno;
		fprintf(stderr, "uft: no control socket: %s: %s\n", sa.sun_path, strerror(-rc));
		close(fd);
		return rc;
	}
	share_socket(sa.sun_path, dir);
	srv.listen_fd = fd;
	srv.owner = getpid();
	memcpy(srv.path, sa.sun_path, sizeof(srv.path));
	return 0;
}

static void *listener_main(void *arg)
{
	uft_tracefs_thread_notrace();
	pthread_setname_np(pthread_self(), "uft-ctl");
	pthread_mutex_lock(&srv.lock);
	int rc = srv.stopping ? -1 : open_socket();
	pthread_mutex_unlock(&srv.lock);
	if (rc < 0)
		return NULL;
	struct pollfd pfd[2 + MAX_CONNS];
	struct conn *who[2 + MAX_CONNS];
	for (;;) {
		pthread_mutex_lock(&srv.lock);
		if (srv.stopping) {
			close(srv.listen_fd);
			srv.listen_fd = -1;
			pthread_mutex_unlock(&srv.lock);
			return NULL;
		}
		nfds_t n = 0;
		pfd[n++] = (struct pollfd){.fd = srv.listen_fd, .events = POLLIN};
		pfd[n++] = (struct pollfd){.fd = srv.wake[0], .events = POLLIN};
		for (struct conn *c = srv.conns; c && n < 2 + MAX_CONNS; c = c->next) {
			if (c->sleeping && !c->woken) {
				who[n] = c;
				pfd[n++] = (struct pollfd){.fd = c->fd, .events = POLLIN};
			}
		}
		pthread_mutex_unlock(&srv.lock);
		if (poll(pfd, n, -1) < 0)
			continue;
		char drain[64];
		if (pfd[1].revents)
			while (read(srv.wake[0], drain, sizeof(drain)) > 0) {
			}
		pthread_mutex_lock(&srv.lock);
		if (pfd[0].revents && !srv.stopping)
			accept_one();
		for (nfds_t i = 2; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			/* Only a connection still listed and still asleep is touched. */
			for (struct conn *c = srv.conns; c; c = c->next) {
				if (c == who[i] && c->sleeping && !c->woken) {
					c->woken = true;
					uft_tracefs_interrupt(c->sleeping);
				}
			}
		}
		pthread_mutex_unlock(&srv.lock);
	}
}

static void launch(void)
{
	if (pipe2(srv.wake, O_CLOEXEC | O_NONBLOCK) != 0)
		return;
	uft_access_init();
	if (start_thread(listener_main, NULL) != 0) {
		close(srv.wake[0]);
		close(srv.wake[1]);
		srv.wake[0] = srv.wake[1] = -1;
	}
}

/* At exit: the socket file goes and no new client comes in. Connections
 * still open end with the process. */
static void at_exit(void)
{
	pthread_mutex_lock(&srv.lock);
	if (srv.owner == getpid() && srv.path[0])
		unlink(srv.path);
	srv.path[0] = 0;
	srv.stopping = true;
	pthread_mutex_unlock(&srv.lock);
	if (srv.wake[1] >= 0)
		wake_listener();
}

static void before_fork(void)
{
	pthread_mutex_lock(&srv.lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&srv.lock);
}

/* ThreadSanitizer kills a child that starts a thread after a multi-threaded
 * fork: under it, forked children go without a control socket. */
extern void __tsan_init(void) __attribute__((weak));

/* The child has none of the parent's threads: it drops the parent's
 * connections and socket (leaving the file to the parent) and serves its
 * own. The parent's handles stay unreleased; they belong to the parent. */
static void after_fork_child(void)
{
	pthread_mutex_init(&srv.lock, NULL);
	if (srv.listen_fd >= 0)
		close(srv.listen_fd);
	for (int i = 0; i < 2; i++)
		if (srv.wake[i] >= 0)
			close(srv.wake[i]);
	while (srv.conns) {
		struct conn *c = srv.conns;
		srv.conns = c->next;
		close(c->fd);
		free(c);
	}
	srv.listen_fd = srv.wake[0] = srv.wake[1] = -1;
	srv.nconns = 0;
	srv.owner = 0;
	srv.path[0] = 0;
	if (!srv.stopping && !__tsan_init)
		launch();
}

static void install_hooks(void)
{
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	atexit(at_exit);
}

void uft_ctl_server_start(void)
{
	const char *v = uft_env(UFT_ENV_CTL);
	if (v && strcmp(v, "0") == 0)
		return;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, install_hooks);
	launch();
}
