/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist_poll DIR: poll(2), epoll and select on events/hp/tick/hist through
 * this process's own FUSE mount at DIR (UFT_TRACEFS=DIR), as the kernel's
 * hist files behave since 6.11 (its ftrace selftest trigger-hist-poll.tc):
 * no event, no POLLIN after a read and no POLLPRI; an event wakes a poll
 * waiting for POLLPRI; POLLPRI is reported once, POLLIN until the next read.
 * Timeouts only bound a failure, except where nothing may arrive.
 * Exits 0 pass, 1 fail, 3 when DIR never got mounted. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#include <uft/uft.h>

#define QUIET_MS 300   /* a poll that must time out: nothing fires */
#define BOUND_MS 20000 /* a poll that must be woken: only a failure takes this long */

static char dir[4096];
static int fired; /* events fired so far (atomic builtins) */

static void fail(const char *what)
{
	fprintf(stderr, "FAIL: %s\n", what);
	exit(1);
}

static bool mounted(void)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[8192];
	bool yes = false;
	while (f && !yes && fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');
		yes = sp && strncmp(sp + 1, dir, strlen(dir)) == 0 &&
		      strncmp(sp + 1 + strlen(dir), " fuse.uft ", 10) == 0;
	}
	if (f)
		fclose(f);
	return yes;
}

static void echo(const char *file, const char *text)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fail(file);
	close(fd);
}

static int open_hist(void)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/events/hp/tick/hist", dir);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		fail("open hist");
	return fd;
}

/* Reads the whole file from offset 0 into buf, as a reader after a poll. */
static void read_all(int fd, char *buf, size_t size)
{
	size_t used = 0;
	ssize_t n;
	while (used < size - 1 && (n = pread(fd, buf + used, size - 1 - used, (off_t)used)) > 0)
		used += (size_t)n;
	buf[used] = 0;
}

static void fire(void)
{
	int n = __atomic_add_fetch(&fired, 1, __ATOMIC_SEQ_CST);
	UFT_TRACE(hp, tick, "n=%d", n);
}

static int poll_one(int fd, short events, int ms, short *revents)
{
	struct pollfd p = {.fd = fd, .events = events};
	int n = poll(&p, 1, ms);
	if (n < 0)
		fail("poll");
	*revents = p.revents;
	return n;
}

struct waiter {
	int fd;
	int how; /* 0 poll, 1 epoll, 2 select */
	int ret;
	unsigned got;
	int fired_at_return;
};

/* Waits for POLLPRI (EPOLLPRI, an exceptional condition) on w->fd. */
static void *wait_pri(void *arg)
{
	struct waiter *w = arg;
	if (w->how == 0) {
		short rev;
		w->ret = poll_one(w->fd, POLLPRI, BOUND_MS, &rev);
		w->got = (unsigned short)rev;
	} else if (w->how == 1) {
		int ep = epoll_create1(0);
		struct epoll_event e = {.events = EPOLLPRI}, out;
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, w->fd, &e) != 0)
			fail("epoll_ctl");
		w->ret = epoll_wait(ep, &out, 1, BOUND_MS);
		w->got = w->ret > 0 ? out.events : 0;
		close(ep);
	} else {
		fd_set ex;
		FD_ZERO(&ex);
		FD_SET(w->fd, &ex);
		struct timeval tv = {BOUND_MS / 1000, 0};
		w->ret = select(w->fd + 1, NULL, NULL, &ex, &tv);
		w->got = w->ret > 0 && FD_ISSET(w->fd, &ex) ? POLLPRI : 0;
	}
	w->fired_at_return = __atomic_load_n(&fired, __ATOMIC_SEQ_CST);
	return NULL;
}

/* A waiter for POLLPRI, then an event while it waits: it must return with
 * POLLPRI, and not before the event. */
static void woken_by_event(int fd, int how, const char *name)
{
	struct waiter w = {.fd = fd, .how = how};
	int before = __atomic_load_n(&fired, __ATOMIC_SEQ_CST);
	pthread_t t;
	if (pthread_create(&t, NULL, wait_pri, &w) != 0)
		fail("pthread_create");
	usleep(200 * 1000); /* lets the waiter sleep first; passing does not depend on it */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fire();
	pthread_join(t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	char msg[128];
	snprintf(msg, sizeof(msg), "%s: returned %d, events 0x%x", name, w.ret, w.got);
	if (w.ret != 1 || !(w.got & POLLPRI))
		fail(msg);
	if (w.fired_at_return <= before)
		fail("the wait for POLLPRI returned before the event fired");
	/* for the log only: the door's watcher peeks every 10 ms */
	printf("%s: woken by the event (0x%x), %.1f ms after it\n", name, w.got,
	       (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: hist_poll DIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]); /* absolute and canonical */
	for (int i = 0; i < 400 && !mounted(); i++)
		usleep(50 * 1000);
	if (!mounted()) {
		fprintf(stderr, "%s was not mounted\n", dir);
		return 3;
	}
	char buf[16384];
	short rev;

	/* No histogram yet: nothing to report, for POLLIN (after a read) or
	 * POLLPRI (the kernel selftest's check that poll is supported). */
	int fd = open_hist();
	read_all(fd, buf, sizeof(buf));
	if (poll_one(fd, POLLIN, QUIET_MS, &rev) != 0)
		fail("POLLIN on a hist file nothing updated");
	if (poll_one(fd, POLLPRI, QUIET_MS, &rev) != 0)
		fail("POLLPRI on a hist file nothing updated");
	close(fd);

	echo("events/hp/tick/trigger", "hist:keys=n");
	echo("events/hp/tick/enable", "1");

	fd = open_hist();
	read_all(fd, buf, sizeof(buf));
	if (poll_one(fd, POLLIN | POLLPRI, QUIET_MS, &rev) != 0)
		fail("a new histogram reported an update before any event");
	woken_by_event(fd, 0, "poll");

	/* POLLPRI once per update; POLLIN until the file is read again, and
	 * that read shows the update. */
	if (poll_one(fd, POLLPRI, QUIET_MS, &rev) != 0)
		fail("POLLPRI reported twice for one update");
	if (poll_one(fd, POLLIN, BOUND_MS, &rev) != 1 || !(rev & POLLIN))
		fail("no POLLIN after an update the reader has not read");
	read_all(fd, buf, sizeof(buf));
	if (!strstr(buf, "Hits: 1\n"))
		fail("the read after the update has not its hit count");
	if (poll_one(fd, POLLIN | POLLPRI, QUIET_MS, &rev) != 0)
		fail("POLLIN or POLLPRI after the update was read");

	woken_by_event(fd, 1, "epoll");
	woken_by_event(fd, 2, "select");
	read_all(fd, buf, sizeof(buf));
	if (!strstr(buf, "Hits: 3\n"))
		fail("the read after three events has not their hit count");
	close(fd);

	/* A file opened after updates has not read them: POLLIN at once, as on
	 * the kernel; POLLPRI only for updates after the open. */
	fd = open_hist();
	if (poll_one(fd, POLLIN, BOUND_MS, &rev) != 1)
		fail("no POLLIN on a new open of an updated histogram");
	if (poll_one(fd, POLLPRI, QUIET_MS, &rev) != 0)
		fail("POLLPRI for updates made before the open");
	close(fd);
	printf("ok\n");
	return 0;
}
