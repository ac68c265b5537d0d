/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Process start-up and the link to a recorder.
 *
 * `uft record` starts the program with UFT_RECORD naming its socket. At start-up
 * (and in every forked child) libuft creates the shared region and hands its
 * memfd to the recorder over that socket; the connection stays open, so the
 * recorder learns of the process's end, however it ends, from EOF. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "wire/record_proto.h"
#include "runtime/doors/doors.h"
#include "runtime/ftrace/ftrace.h"
#include "runtime/core/bootconfig_apply.h"
#include "runtime/core/grace.h"
#include "runtime/core/probes_env.h"
#include "runtime/core/runtime.h"
#include "runtime/core/secure_env.h"
#include "runtime/latency/csect.h"
#include "runtime/tracefs/tracefs.h"
#include "util/atomics.h"
#include "wire/env_names.h"
#include "util/util.h"
#include <uft/uft.h>

struct uft_session uft_sess = {.memfd = -1, .notify_fd = -1};
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char record_sock[sizeof(((struct sockaddr_un *)0)->sun_path)];

static int connect_recorder(void)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	memcpy(sa.sun_path, record_sock, sizeof(record_sock));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Whether this process image has events or functions to patch: the
 * recorder checks the settings of the first such process strictly. */
static bool traceable;

static int send_region(int sock, int memfd, char *ack)
{
	struct uft_hello hello = {.magic = UFT_HELLO2_MAGIC,
				  .pid = getpid(),
				  .ppid = getppid(),
				  .flags = traceable ? UFT_HELLO_TRACEABLE : 0};
	prctl(PR_GET_NAME, hello.comm, 0, 0, 0);
	struct iovec iov = {&hello, sizeof(hello)};
	char cbuf[CMSG_SPACE(sizeof(int))];
	memset(cbuf, 0, sizeof(cbuf));
	struct msghdr msg = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &memfd, sizeof(int));
	if (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0)
		return -1;
	/* Wait for the recorder to map the region before any event is written, so
	 * not even the first events of a short-lived process can be missed. */
	return recv(sock, ack, 1, 0) == 1 ? 0 : -1;
}

/* Creates the shared region for this process (idempotent; not signal-safe);
 * *ack is the recorder's answer (0 without one). */
static int session_create_ack(char *ack)
{
	*ack = 0;
	if (uft_sess.hdr)
		return 0;
	int memfd;
	uint32_t pages = uft_buffers[0].ring_pages;
	struct uft_shm_header *h =
	    uft_shm_create(uft_shm_size_for(pages), uft_shm_least_for(pages), &memfd);
	if (!h)
		return -1;
	uft_sess.memfd = memfd;
	uft_registry_publish_formats(h);
	smp_store_release(&uft_sess.hdr, h);
	if (record_sock[0]) {
		int s = connect_recorder();
		if (s >= 0 && send_region(s, memfd, ack) == 0) {
			uft_sess.notify_fd = s;
		} else {
			if (s >= 0)
				close(s);
			fprintf(stderr, "uft: cannot reach the recorder at %s: %s\n", record_sock,
				strerror(errno));
		}
	}
	return 0;
}

static int session_create(void)
{
	char ack;
	return session_create_ack(&ack);
}

int uft_session_start(void)
{
	uft_init();
	return session_create();
}

void uft_session_wake(void)
{
	if (uft_sess.notify_fd >= 0)
		send(uft_sess.notify_fd, "w", 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* Set once a wake-up found the recorder's end closed; reset in a fork child,
 * which connects anew. */
static volatile int recorder_gone;

bool uft_session_wake_wait(void)
{
	int fd = READ_ONCE(uft_sess.notify_fd);
	if (fd < 0 || READ_ONCE(recorder_gone))
		return false;
	int saved = errno;
	/* A full socket (EAGAIN) is a recorder with wake-ups still to read. */
	bool ok = send(fd, "w", 1, MSG_DONTWAIT | MSG_NOSIGNAL) == 1 || errno == EAGAIN ||
		  errno == EINTR || errno == ENOBUFS;
	if (!ok)
		WRITE_ONCE(recorder_gone, 1);
	errno = saved;
	return ok;
}

static void after_fork_child(void)
{
	uft_writer_reset_after_fork();
	if (!uft_sess.hdr)
		return;
	/* The parent's region stays the parent's: the child gets its own. */
	if (uft_sess.notify_fd >= 0)
		close(uft_sess.notify_fd);
	close(uft_sess.memfd);
	uft_sess.notify_fd = -1;
	uft_sess.memfd = -1;
	uft_sess.hdr = NULL;
	recorder_gone = 0;
	session_create();
}

static void parse_env(void)
{
	const char *v;
	if ((v = uft_env(UFT_ENV_BUFFER_KB)) && *v) {
		unsigned long kb = strtoul(v, NULL, 0);
		unsigned long pages = (kb * 1024 + UFT_SUBBUF_SIZE - 1) / UFT_SUBBUF_SIZE;
		if (pages < 4)
			pages = 4;
		if (pages > UFT_SHM_MAX_RING_PAGES)
			pages = UFT_SHM_MAX_RING_PAGES;
		uft_buffers[0].ring_pages = (uint32_t)pages;
	}
	if ((v = uft_env(UFT_ENV_SUBBUF_KB)) && *v) {
		uint32_t size = uft_subbuf_from_kb(strtoul(v, NULL, 10));
		if (size)
			uft_buffers[0].subbuf_size = size;
		else
			fprintf(stderr, "uft: bad sub-buffer size '%s' KiB, using 4\n", v);
	}
	if ((v = uft_env(UFT_ENV_MODE)) && *v)
		uft_buffers[0].mode = strcmp(v, "discard") == 0 ? UFT_MODE_DISCARD
				      : strcmp(v, "block") == 0 ? UFT_MODE_BLOCK
								: UFT_MODE_OVERWRITE;
	if ((v = uft_env(UFT_ENV_CLOCK)) && *v) {
		int c = uft_clock_by_name(v);
		if (c >= 0)
			uft_buffers[0].clock = (uint32_t)c;
		else
			fprintf(stderr, "uft: unknown clock '%s', using local\n", v);
	}
	if ((v = uft_env(UFT_ENV_RECORD)) && *v)
		strncpy(record_sock, v, sizeof(record_sock) - 1);
}

static __thread bool in_init;

/* Writes the tree's available_tracers to fd and exits (`uft list -t`). */
static void list_tracers(int fd)
{
	struct uft_tfs_handle *h;
	char buf[256];
	ssize_t n = 0;
	if (uft_tracefs_open("available_tracers", UFT_TFS_READ, &h) == 0) {
		n = uft_tracefs_read(h, buf, sizeof(buf), 0);
		uft_tracefs_release(h);
	}
	_exit(n > 0 && write(fd, buf, (size_t)n) == n ? 0 : 1);
}

/* Tells the recorder what of its settings could not be applied (stderr
 * without one); a process it checks stops here, before main, on an error. */
static void send_report(struct uft_start_report *r, bool checked)
{
	if (!r->len)
		return;
	size_t n = r->len + 1 < UFT_MSG_REPORT_MAX ? r->len + 1 : UFT_MSG_REPORT_MAX;
	char *msg = malloc(n);
	bool sent = false;
	if (msg && uft_sess.notify_fd >= 0) {
		msg[0] = UFT_MSG_REPORT;
		memcpy(msg + 1, r->text, n - 1);
		sent = send(uft_sess.notify_fd, msg, n, MSG_NOSIGNAL) == (ssize_t)n;
	}
	free(msg);
	if (!sent)
		for (char *p = strtok(r->text, "\x1e"); p; p = strtok(NULL, "\x1e"))
			fprintf(stderr, "uft: %s%s", *p == 'E' ? "" : "warning: ", p + 1);
	if (checked && r->error)
		_exit(2);
}

/* `uft record --bootconfig` and `--probe`: the file applied (the probes
 * defined or enabled) around the recorder's settings, what it says
 * reported with them (a refusal is an error). */
static void add_applied(struct uft_start_report *r, int (*apply)(FILE *out))
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	int rc = apply(m);
	fclose(m);
	/* One message, its lines without libuft's own "uft: ". */
	char *o = text;
	for (char *p = text; p && *p;) {
		if ((p == text || p[-1] == '\n') && strncmp(p, "uft: ", 5) == 0)
			p += 5;
		*o++ = *p++;
	}
	if (o)
		*o = 0;
	if (text && *text)
		uft_start_report_add(r, rc < 0, "%s", text);
	free(text);
}

/* Under `uft record`: every loaded object's events registered now (not when
 * its constructor runs), so the settings are checked against all of them
 * before main. */
static void start_recorded(void)
{
	uft_registry_scan_loaded();
	traceable = uft_registry_nr_live() > 0 || uft_ftrace_scan() > 0;
	char ack;
	session_create_ack(&ack);
	struct uft_start_report r = {0};
	/* Probes are made before the -e that may name them, and enabled after
	 * it (its "!all" turns every event off). */
	add_applied(&r, uft_probes_define_env_to);
	uft_record_settings_apply(&r);
	add_applied(&r, uft_probes_enable_env_to);
	add_applied(&r, uft_bootconfig_apply_env_to);
	/* A process with nothing to trace (a shell that starts the program)
	 * has nothing to say about events, unless it is the one checked. */
	if (traceable || ack == UFT_ACK_CHECK)
		send_report(&r, ack == UFT_ACK_CHECK);
	uft_start_report_free(&r);
}

static void do_init(void)
{
	/* A second runtime (preloaded into a program with its own) does
	 * nothing: no region, no recorder, no tree. */
	if (uft_runtime_stands_down())
		return;
	in_init = true;
	uft_grace_fork_setup(); /* before every other fork handler */
	uft_env_report_ignored();
	uft_clock_init();
	parse_env();
	uft_writer_setup_fast_path();
	uft_signals_init();
	uft_registry_fork_setup();
	uft_thread_follow_init();
	pthread_atfork(NULL, NULL, after_fork_child);
	const char *list = uft_env(UFT_ENV_LIST_FORMATS);
	if (list && *list) {
		/* `uft list` on a program: report its events and stop before main. */
		uft_registry_scan_loaded();
		uft_registry_list_formats(atoi(list));
		_exit(0);
	}
	list = uft_env(UFT_ENV_LIST_TRACERS);
	if (list && *list)
		list_tracers(atoi(list)); /* `uft list -t`: its tracers, then stop */
	if (record_sock[0])
		start_recorded();
	else if (uft_probes_define_env_to(stderr) == 0 && uft_probes_enable_env_to(stderr) == 0)
		uft_bootconfig_apply_env();
	uft_ctl_server_start();
	uft_fuse_door_start();
	in_init = false;
}

void uft_init(void)
{
	if (!in_init) /* registration from inside start-up must not wait for itself */
		pthread_once(&init_once, do_init);
}

__attribute__((constructor(101))) static void uft_lib_init(void)
{
	uft_init();
}

void uft_flush(void)
{
	uft_writer_flush_self();
}

__attribute__((destructor)) static void uft_lib_fini(void)
{
	/* a max tracer's recording: its max trace, as trace-cmd keeps it */
	if (record_sock[0])
		uft_csect_send_max(uft_sess.notify_fd);
	uft_writer_thread_exit();
}
