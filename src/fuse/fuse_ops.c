/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The file system's operations: FUSE's low-level interface, so that an
 * interrupted read reaches the tree (fuse_req_interrupt_func) and the kernel
 * hands O_TRUNC and O_APPEND over at open.
 *
 * Inodes are paths: each name the kernel looks up gets a number for as long
 * as the kernel remembers it, and every operation asks the tree afresh, with
 * no attribute, entry or page caching, since control files change under us
 * and are generated at open. Files are direct I/O with size 0, as on tracefs. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wire/ctl_proto.h"
#include "fuse/fuse_ops.h"

#define BUCKETS 1024

struct node {
	uint64_t ino;
	uint64_t nlookup;
	struct node *next_path, *next_ino;
	char path[];
};

struct file {
	void *h;
	/* O_NONBLOCK set with fcntl after open reaches us only in the flags of
	 * each read (the kernel sends the file's f_flags of the moment), while
	 * the tree's handle keeps the flags of its open. Such reads go to a
	 * second handle of the same file opened non-blocking, made at the first
	 * of them: readers of one pipe share its queue, so an empty pipe
	 * answers EAGAIN as on tracefs (trace-cmd extract reads until then). */
	void *nb_h;
	bool nonblock;	/* opened with O_NONBLOCK: h never blocks */
	unsigned flags; /* the tree's open flags */
	struct file *prev, *next;
	struct fuse_pollhandle *ph; /* a poll waiting for one of the events in want */
	unsigned want;
	char path[];
};

struct dir_list {
	size_t n, cap;
	struct dir_ent {
		char *name;
		int type;
	} * v;
};

struct uft_fuse_fs {
	const struct uft_door_backend *be;
	pthread_mutex_t lock;
	struct node *by_path[BUCKETS], *by_ino[BUCKETS];
	uint64_t next_ino;
	struct file *files; /* open files, to interrupt at shutdown */
	/* Polls that wait: a thread checks them every few milliseconds (the
	 * tree's readers are woken in batches, never per event). */
	pthread_t watcher;
	bool watching, stopping;
	uid_t uid;
	gid_t gid;
	bool shared; /* allow_other */
	struct timespec t0;
	int releasing; /* op_release() calls under way (op_rmdir) */
};

static __thread bool thread_ready;

static struct uft_fuse_fs *fs_of(fuse_req_t req)
{
	struct uft_fuse_fs *fs = fuse_req_userdata(req);
	if (!thread_ready) {
		thread_ready = true;
		if (fs->be->thread_init)
			fs->be->thread_init();
	}
	return fs;
}

static unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % BUCKETS;
}

static struct node *find_ino(struct uft_fuse_fs *fs, uint64_t ino)
{
	for (struct node *n = fs->by_ino[ino % BUCKETS]; n; n = n->next_ino)
		if (n->ino == ino)
			return n;
	return NULL;
}

/* Copies the path of ino into buf; -ESTALE when the kernel's number is unknown. */
static int path_of(struct uft_fuse_fs *fs, fuse_ino_t ino, char *buf)
{
	pthread_mutex_lock(&fs->lock);
	struct node *n = find_ino(fs, ino);
	if (n)
		strcpy(buf, n->path);
	pthread_mutex_unlock(&fs->lock);
	return n ? 0 : -ESTALE;
}

static int child_path(struct uft_fuse_fs *fs, fuse_ino_t parent, const char *name, char *buf)
{
	char dir[UFT_CTL_MAX_PATH + 1];
	int rc = path_of(fs, parent, dir);
	if (rc)
		return rc;
	size_t dl = strlen(dir), nl = strlen(name);
	if (dl + 1 + nl > UFT_CTL_MAX_PATH)
		return -ENAMETOOLONG;
	if (dl) {
		memcpy(buf, dir, dl);
		buf[dl++] = '/';
	}
	memcpy(buf + dl, name, nl + 1);
	return 0;
}

/* The node of path with one more lookup; its inode number, 0 without memory. */
static uint64_t node_ref(struct uft_fuse_fs *fs, const char *path)
{
	unsigned hp = hash_str(path);
	pthread_mutex_lock(&fs->lock);
	struct node *n = fs->by_path[hp];
	while (n && strcmp(n->path, path) != 0)
		n = n->next_path;
	if (!n) {
		size_t len = strlen(path) + 1;
		n = malloc(sizeof(*n) + len);
		if (n) {
			memcpy(n->path, path, len);
			n->ino = fs->next_ino++;
			n->nlookup = 0;
			n->next_path = fs->by_path[hp];
			fs->by_path[hp] = n;
			n->next_ino = fs->by_ino[n->ino % BUCKETS];
			fs->by_ino[n->ino % BUCKETS] = n;
		}
	}
	uint64_t ino = 0;
	if (n) {
		n->nlookup++;
		ino = n->ino;
	}
	pthread_mutex_unlock(&fs->lock);
	return ino;
}

static void node_forget(struct uft_fuse_fs *fs, uint64_t ino, uint64_t count)
{
	if (ino == FUSE_ROOT_ID)
		return;
	pthread_mutex_lock(&fs->lock);
	struct node *n = find_ino(fs, ino);
	if (n)
		n->nlookup = count < n->nlookup ? n->nlookup - count : 0;
	if (n && n->nlookup == 0) {
		struct node **pp = &fs->by_ino[ino % BUCKETS];
		while (*pp != n)
			pp = &(*pp)->next_ino;
		*pp = n->next_ino;
		pp = &fs->by_path[hash_str(n->path)];
		while (*pp != n)
			pp = &(*pp)->next_path;
		*pp = n->next_path;
		free(n);
	}
	pthread_mutex_unlock(&fs->lock);
}

static void fill_stat(struct uft_fuse_fs *fs, uint64_t ino, const struct uft_tfs_stat *t,
		      struct stat *st)
{
	memset(st, 0, sizeof(*st));
	bool dir = t->type == UFT_TFS_DIR;
	st->st_ino = ino;
	/* A shared mount serves everyone through this process's own access:
	 * only the owner and the group shown may pass the kernel's check. */
	st->st_mode = (dir ? S_IFDIR : S_IFREG) | (t->mode & (fs->shared ? 07770 : 07777));
	st->st_nlink = dir ? 2 : 1;
	st->st_uid = fs->uid;
	st->st_gid = t->group_set ? t->gid : fs->gid;
	st->st_blksize = 4096;
	st->st_atim = st->st_mtim = st->st_ctim = fs->t0;
}

static void reply_entry(fuse_req_t req, struct uft_fuse_fs *fs, const char *path)
{
	struct uft_tfs_stat t = {0};
	int rc = fs->be->stat(fs->be->ctx, path, &t);
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	struct fuse_entry_param e = {0};
	e.ino = node_ref(fs, path);
	if (!e.ino) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fill_stat(fs, e.ino, &t, &e.attr);
	if (fuse_reply_entry(req, &e) != 0)
		node_forget(fs, e.ino, 1);
}

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
	conn->max_write = UFT_CTL_MAX_IO; /* what one remote write carries */
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct uft_fuse_fs *fs = fs_of(req);
	char path[UFT_CTL_MAX_PATH + 1];
	int rc = child_path(fs, parent, name, path);
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		reply_entry(req, fs, path);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	node_forget(fuse_req_userdata(req), ino, nlookup);
	fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *forgets)
{
	for (size_t i = 0; i < count; i++)
		node_forget(fuse_req_userdata(req), forgets[i].ino, forgets[i].nlookup);
	fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct uft_fuse_fs *fs = fs_of(req);
	char path[UFT_CTL_MAX_PATH + 1];
	struct uft_tfs_stat t = {0};
	int rc = path_of(fs, ino, path);
	if (rc == 0)
		rc = fs->be->stat(fs->be->ctx, path, &t);
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	struct stat st;
	fill_stat(fs, ino, &t, &st);
	fuse_reply_attr(req, &st, 0);
}

/* Sizes may be "set" (truncate(2) on a control file does nothing, as on
 * tracefs, where O_TRUNC at open is what clears); owners and modes may not. */
static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	if (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	op_getattr(req, ino, fi);
}

static int add_dir_ent(void *ctx, const char *name, int type)
{
	struct dir_list *l = ctx;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		void *v = realloc(l->v, cap * sizeof(*l->v));
		if (!v)
			return 1;
		l->v = v;
		l->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return 1;
	l->v[l->n++] = (struct dir_ent){copy, type};
	return 0;
}

static void free_dir_list(struct dir_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	free(l);
}

/* The entries are taken once at opendir, so offsets stay stable. */
static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct uft_fuse_fs *fs = fs_of(req);
	char path[UFT_CTL_MAX_PATH + 1];
	struct dir_list *l = calloc(1, sizeof(*l));
	int rc = l ? path_of(fs, ino, path) : -ENOMEM;
	if (rc == 0) {
		add_dir_ent(l, ".", UFT_TFS_DIR);
		add_dir_ent(l, "..", UFT_TFS_DIR);
		rc = fs->be->readdir(fs->be->ctx, path, add_dir_ent, l);
	}
	if (rc < 0) {
		if (l)
			free_dir_list(l);
		fuse_reply_err(req, -rc);
		return;
	}
	fi->fh = (uintptr_t)l;
	if (fuse_reply_open(req, fi) != 0)
		free_dir_list(l);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct dir_list *l = (struct dir_list *)(uintptr_t)fi->fh;
	char *buf = malloc(size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	size_t used = 0;
	for (size_t i = off < 0 ? 0 : (size_t)off; i < l->n; i++) {
		/* Any inode number but 0, which readdir(3) would skip. */
		struct stat st = {.st_ino = 0xffffffff,
				  .st_mode = l->v[i].type == UFT_TFS_DIR ? S_IFDIR : S_IFREG};
		size_t need = fuse_add_direntry(req, buf + used, size - used, l->v[i].name, &st,
						(off_t)(i + 1));
		if (need > size - used)
			break;
		used += need;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void op_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	free_dir_list((struct dir_list *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static unsigned tfs_flags(int flags)
{
	unsigned f = 0;
	int acc = flags & O_ACCMODE;
	if (acc == O_RDONLY || acc == O_RDWR)
		f |= UFT_TFS_READ;
	if (acc == O_WRONLY || acc == O_RDWR)
		f |= UFT_TFS_WRITE;
	if (flags & O_TRUNC)
		f |= UFT_TFS_TRUNC;
	if (flags & O_APPEND)
		f |= UFT_TFS_APPEND;
	if (flags & O_NONBLOCK)
		f |= UFT_TFS_NONBLOCK;
	return f;
}

static int nonblocking_twin(struct uft_fuse_fs *fs, struct file *f, void **h)
{
	pthread_mutex_lock(&fs->lock);
	void *twin = f->nb_h;
	pthread_mutex_unlock(&fs->lock);
	if (!twin) {
		/* Without the write flags: a second open for writing could clear. */
		unsigned flags = (f->flags & UFT_TFS_READ) | UFT_TFS_NONBLOCK;
		int rc = fs->be->open(fs->be->ctx, f->path, flags, &twin);
		if (rc < 0)
			return rc;
		pthread_mutex_lock(&fs->lock);
		if (f->nb_h) { /* another read made one first */
			fs->be->release(twin);
			twin = f->nb_h;
		} else {
			f->nb_h = twin;
		}
		pthread_mutex_unlock(&fs->lock);
	}
	*h = twin;
	return 0;
}

static void close_file(struct uft_fuse_fs *fs, struct file *f)
{
	pthread_mutex_lock(&fs->lock);
	if (f->ph)
		fuse_pollhandle_destroy(f->ph);
	f->ph = NULL;
	if (f->prev)
		f->prev->next = f->next;
	else
		fs->files = f->next;
	if (f->next)
		f->next->prev = f->prev;
	pthread_mutex_unlock(&fs->lock);
	fs->be->release(f->h);
	if (f->nb_h)
		fs->be->release(f->nb_h);
	free(f);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct uft_fuse_fs *fs = fs_of(req);
	char path[UFT_CTL_MAX_PATH + 1];
	int rc = path_of(fs, ino, path);
	struct file *f = rc == 0 ? calloc(1, sizeof(*f) + strlen(path) + 1) : NULL;
	if (rc == 0 && !f)
		rc = -ENOMEM;
	if (rc == 0) {
		strcpy(f->path, path);
		f->flags = tfs_flags(fi->flags);
		rc = fs->be->open(fs->be->ctx, path, f->flags, &f->h);
	}
	if (rc < 0) {
		free(f);
		fuse_reply_err(req, -rc);
		return;
	}
	f->nonblock = fi->flags & O_NONBLOCK;
	fi->fh = (uintptr_t)f;
	fi->direct_io = 1; /* every read and write goes to the tree, each write(2) as one */
	fi->keep_cache = 0;
	pthread_mutex_lock(&fs->lock);
	f->next = fs->files;
	if (f->next)
		f->next->prev = f;
	fs->files = f;
	pthread_mutex_unlock(&fs->lock);
	if (fuse_reply_open(req, fi) != 0)
		close_file(fs, f); /* the opener is gone; release() will not come */
}

static void on_interrupt(fuse_req_t req, void *data)
{
	struct uft_fuse_fs *fs = fuse_req_userdata(req);
	fs->be->interrupt(((struct file *)data)->h);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct uft_fuse_fs *fs = fs_of(req);
	struct file *f = (struct file *)(uintptr_t)fi->fh;
	char *buf = malloc(size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	/* O_NONBLOCK set by fcntl after open reaches us only here, in the
	 * flags of each read (the kernel sends the file's current f_flags).
	 * The tree's file was opened blocking, so an empty one answers EAGAIN
	 * from its poll, as tracefs would (trace-cmd extract relies on it). */
	void *h = f->h;
	if ((fi->flags & O_NONBLOCK) && !f->nonblock) {
		int rc = nonblocking_twin(fs, f, &h);
		if (rc < 0) {
			free(buf);
			fuse_reply_err(req, -rc);
			return;
		}
	}
	fuse_req_interrupt_func(req, on_interrupt, f);
	ssize_t n = fs->be->read(h, buf, size, (uint64_t)off);
	fuse_req_interrupt_func(req, NULL, NULL);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct uft_fuse_fs *fs = fs_of(req);
	struct file *f = (struct file *)(uintptr_t)fi->fh;
	ssize_t n = fs->be->write(f->h, buf, size, (uint64_t)off);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_write(req, (size_t)n);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct uft_fuse_fs *fs = fs_of(req);
	__atomic_add_fetch(&fs->releasing, 1, __ATOMIC_SEQ_CST);
	close_file(fs, (struct file *)(uintptr_t)fi->fh);
	__atomic_sub_fetch(&fs->releasing, 1, __ATOMIC_SEQ_CST);
	fuse_reply_err(req, 0);
}

/* The file's poll(2) events; peek: as a watcher looks, changing nothing. */
static unsigned file_events(struct uft_fuse_fs *fs, struct file *f, bool peek)
{
	if (fs->be->poll_events)
		return fs->be->poll_events(f->h, peek);
	return !fs->be->poll || fs->be->poll(f->h) ? POLLIN | POLLRDNORM : 0;
}

/* Wakes the pollers whose file has an event they wait for, until the file
 * system stops; the kernel then polls again for the events themselves. */
static void *watch_polls(void *arg)
{
	struct uft_fuse_fs *fs = arg;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (fs->be->thread_init)
		fs->be->thread_init();
	pthread_mutex_lock(&fs->lock);
	while (!fs->stopping) {
		for (struct file *f = fs->files; f; f = f->next) {
			if (f->ph && (file_events(fs, f, true) & f->want)) {
				fuse_lowlevel_notify_poll(f->ph);
				fuse_pollhandle_destroy(f->ph);
				f->ph = NULL;
			}
		}
		pthread_mutex_unlock(&fs->lock);
		usleep(10000);
		pthread_mutex_lock(&fs->lock);
	}
	pthread_mutex_unlock(&fs->lock);
	return NULL;
}

static void op_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
		    struct fuse_pollhandle *ph)
{
	struct uft_fuse_fs *fs = fs_of(req);
	struct file *f = (struct file *)(uintptr_t)fi->fh;
	/* The events asked for (0 from kernels that do not say: any). */
	unsigned want = fi->poll_events ? fi->poll_events : POLLIN | POLLRDNORM | POLLPRI;
	want |= POLLERR | POLLHUP;
	unsigned ev = file_events(fs, f, false);
	if (ev & want) {
		if (ph)
			fuse_pollhandle_destroy(ph);
		fuse_reply_poll(req, ev);
		return;
	}
	if (ph) {
		pthread_mutex_lock(&fs->lock);
		/* The kernel wakes every poller of the file with the one
		 * handle: wait for what any of them asked. */
		if (f->ph)
			fuse_pollhandle_destroy(f->ph);
		f->want = f->ph ? f->want | want : want;
		f->ph = ph;
		if (!fs->watching && !fs->stopping)
			fs->watching = pthread_create(&fs->watcher, NULL, watch_polls, fs) == 0;
		pthread_mutex_unlock(&fs->lock);
	}
	fuse_reply_poll(req, ev);
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	struct uft_fuse_fs *fs = fs_of(req);
	char path[UFT_CTL_MAX_PATH + 1];
	int rc = child_path(fs, parent, name, path);
	if (rc == 0)
		rc = fs->be->mkdir(fs->be->ctx, path);
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		reply_entry(req, fs, path);
}

static void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct uft_fuse_fs *fs = fs_of(req);
	char path[UFT_CTL_MAX_PATH + 1];
	int rc = child_path(fs, parent, name, path);
	if (rc == 0)
		rc = fs->be->rmdir(fs->be->ctx, path);
	/* The kernel's close() has released the instance's file when it
	 * returns; FUSE sends the release without waiting, so an rmdir right
	 * after it (rtla's) can overtake it on another loop thread. The
	 * releases under way are waited for, and 20 ms for one not yet
	 * picked up, before the instance is called busy. */
	for (int ms = 0; rc == -EBUSY && ms < 2000; ms++) {
		if (ms >= 20 && !__atomic_load_n(&fs->releasing, __ATOMIC_SEQ_CST))
			break;
		nanosleep(&(struct timespec){0, 1000000}, NULL);
		rc = fs->be->rmdir(fs->be->ctx, path);
	}
	fuse_reply_err(req, -rc);
}

/* What the kernel answers for files tracefs does not let one make or remove. */
static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		      struct fuse_file_info *fi)
{
	fuse_reply_err(req, EACCES);
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, EPERM);
}

const struct fuse_lowlevel_ops uft_fuse_ops = {
    .init = op_init,
    .lookup = op_lookup,
    .forget = op_forget,
    .forget_multi = op_forget_multi,
    .getattr = op_getattr,
    .setattr = op_setattr,
    .opendir = op_opendir,
    .readdir = op_readdir,
    .releasedir = op_releasedir,
    .open = op_open,
    .read = op_read,
    .write = op_write,
    .release = op_release,
    .poll = op_poll,
    .mkdir = op_mkdir,
    .rmdir = op_rmdir,
    .create = op_create,
    .unlink = op_unlink,
};

struct uft_fuse_fs *uft_fuse_fs_new(const struct uft_door_backend *be, bool shared)
{
	struct uft_fuse_fs *fs = calloc(1, sizeof(*fs));
	if (!fs)
		return NULL;
	fs->be = be;
	fs->shared = shared;
	pthread_mutex_init(&fs->lock, NULL);
	fs->uid = geteuid();
	fs->gid = getegid();
	clock_gettime(CLOCK_REALTIME, &fs->t0);
	fs->next_ino = FUSE_ROOT_ID;
	if (!node_ref(fs, "")) {
		free(fs);
		return NULL;
	}
	return fs;
}

void uft_fuse_fs_interrupt_all(struct uft_fuse_fs *fs)
{
	pthread_mutex_lock(&fs->lock);
	for (struct file *f = fs->files; f; f = f->next)
		fs->be->interrupt(f->h);
	pthread_mutex_unlock(&fs->lock);
}

void uft_fuse_fs_free(struct uft_fuse_fs *fs)
{
	pthread_mutex_lock(&fs->lock);
	fs->stopping = true;
	bool joined = fs->watching;
	pthread_mutex_unlock(&fs->lock);
	if (joined)
		pthread_join(fs->watcher, NULL);
	for (unsigned b = 0; b < BUCKETS; b++) {
		while (fs->by_ino[b]) {
			struct node *n = fs->by_ino[b];
			fs->by_ino[b] = n->next_ino;
			free(n);
		}
	}
	while (fs->files) {
		struct file *f = fs->files;
		fs->files = f->next;
		if (f->ph)
			fuse_pollhandle_destroy(f->ph);
		fs->be->release(f->h);
		if (f->nb_h)
			fs->be->release(f->nb_h);
		free(f);
	}
	pthread_mutex_destroy(&fs->lock);
	free(fs);
}
