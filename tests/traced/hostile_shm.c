/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A traced program that turns on its own shared region: it records events,
 * then rewrites header fields a consumer relies on, as a hostile program
 * could, while `uft record` reads it. The recorder must survive, count what it
 * dropped, and still write everyone else's events; the writer in this
 * process must survive the rewrites too (it keeps its own geometry).
 *
 *   hostile_shm MODE    one rewrite (see `modes` below)
 *   hostile_shm all     each mode in a forked child (each its own region)
 *   hostile_shm unsealed  registers a fake region on an unsealed memfd */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uft/uft.h>

#include "wire/env_names.h"
#include "wire/record_proto.h"
#include "wire/shm_layout.h"

#define HUGE64 (1ull << 62)

static const char *const modes[] = {
    "nr_pages", "hdr_size",    "total_size",  "ring_magic",  "ring_off",
    "nr_rings", "region_size", "formats_off", "formats_len", "format_rec",
    "produced", "consumed",    "commit",      "cpu",	     "magic",
};

/* This process's own region and its connection to the recorder, found by
 * name as anyone holding them could. */
static struct uft_shm_header *own_region(size_t *len, int *sock)
{
	char want[64], path[300], link[128];
	snprintf(want, sizeof(want), "/memfd:uft-%d ", (int)getpid());
	struct uft_shm_header *h = NULL;
	*sock = -1;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		int fd = atoi(e->d_name);
		if (strncmp(link, "socket:", 7) == 0)
			*sock = fd;
		if (h || strncmp(link, want, strlen(want)) != 0)
			continue;
		struct stat st;
		if (fstat(fd, &st) != 0)
			continue;
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED) {
			h = m;
			*len = (size_t)st.st_size;
		}
	}
	if (d)
		closedir(d);
	return h;
}

static void events(const char *mode, int n)
{
	for (int i = 0; i < n; i++)
		UFT_TRACE(hostile, step, "mode=%s i=%d", mode, i);
}

/* Rewrites one field. Returns whether the writer goes on writing after it
 * (the others leave the rewrite in place for the recorder's last read). */
static int rewrite(const char *m, struct uft_shm_header *h)
{
	struct uft_ring *r = (struct uft_ring *)((char *)h + h->ring_off[0]);
	uint64_t p = r->produced;
	if (!strcmp(m, "nr_pages"))
		r->nr_pages = 0;
	else if (!strcmp(m, "hdr_size"))
		r->hdr_size = 0xfffffff0u;
	else if (!strcmp(m, "total_size"))
		r->total_size = HUGE64;
	else if (!strcmp(m, "ring_magic"))
		r->magic = 0;
	else if (!strcmp(m, "consumed"))
		r->consumed = HUGE64;
	else if (!strcmp(m, "magic"))
		h->magic = 0;
	else if (!strcmp(m, "region_size"))
		h->size = HUGE64;
	else if (!strcmp(m, "formats_off"))
		h->formats_off = HUGE64;
	else {
		if (!strcmp(m, "ring_off")) {
			h->ring_off[h->nr_rings] = h->size + 4096; /* a new slot, outside */
			h->nr_rings++;
		} else if (!strcmp(m, "nr_rings")) {
			h->nr_rings = 0xffffffffu;
		} else if (!strcmp(m, "formats_len")) {
			h->formats_len = HUGE64;
		} else if (!strcmp(m, "format_rec")) {
			struct uft_format_rec *f =
			    (struct uft_format_rec *)((char *)h + h->formats_off + h->formats_len);
			f->len = 0xfffffff0u;
			h->formats_len += sizeof(*f);
		} else if (!strcmp(m, "produced")) {
			r->produced = p + HUGE64;
		} else if (!strcmp(m, "commit")) {
			char *page = (char *)r + r->hdr_size + (p % r->nr_pages) * UFT_SUBBUF_SIZE;
			*(uint64_t *)(page + 8) = UFT_RB_COMMIT_MASK;
		} else if (!strcmp(m, "cpu")) {
			r->meta[p % r->nr_pages].cpu = 100000;
		}
		return 0;
	}
	return 1;
}

static int run_mode(const char *m)
{
	events(m, 50);
	size_t len;
	int sock;
	struct uft_shm_header *h = own_region(&len, &sock);
	if (!h || !h->ring_off[0]) {
		fprintf(stderr, "hostile_shm: no region\n");
		return 1;
	}
	int more = rewrite(m, h);
	if (sock >= 0) /* ask for a drain now */
		send(sock, "w", 1, MSG_NOSIGNAL);
	usleep(50000);
	if (more) /* several laps of a small ring after the rewrite */
		events(m, 3000);
	return 0;
}

/* A registration whose memfd is not sealed: the owner could shrink it. */
static int unsealed(void)
{
	const char *path = getenv(UFT_ENV_RECORD);
	if (!path)
		return 1;
	int fd = memfd_create("uft-fake", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, UFT_SHM_HDR_SIZE) != 0)
		return 1;
	struct uft_shm_header *h =
	    mmap(NULL, UFT_SHM_HDR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		return 1;
	*h = (struct uft_shm_header){.magic = UFT_SHM_MAGIC,
				     .version = UFT_SHM_VERSION,
				     .pid = getpid(),
				     .subbuf_size = UFT_SUBBUF_SIZE,
				     .size = UFT_SHM_HDR_SIZE,
				     .formats_off = UFT_SHM_HDR_SIZE,
				     .rings_off = UFT_SHM_HDR_SIZE,
				     .alloc_off = UFT_SHM_HDR_SIZE};
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		return 1;
	struct uft_hello hello = {.magic = UFT_HELLO_MAGIC, .pid = getpid(), .ppid = getppid()};
	memcpy(hello.comm, "fake", 5);
	char cbuf[CMSG_SPACE(sizeof(int))] = {0};
	struct iovec iov = {&hello, sizeof(hello)};
	struct msghdr msg = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(s, &msg, MSG_NOSIGNAL) < 0)
		return 1;
	/* Then pull the file from under any mapping. */
	if (ftruncate(fd, 0) != 0)
		return 1;
	char ack;
	ssize_t n = recv(s, &ack, 1, 0);
	printf("unsealed: %s\n", n == 1 ? "accepted" : "refused");
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "all";
	if (!strcmp(m, "unsealed"))
		return unsealed();
	if (strcmp(m, "all") != 0)
		return run_mode(m);
	int bad = 0;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(run_mode(modes[i]));
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "hostile_shm: mode %s: status %#x\n", modes[i], st);
			bad = 1;
		}
	}
	return bad;
}
