/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft ns: runs a command in a private mount namespace where a running
 * process's tracefs tree is mounted (FUSE) at /sys/kernel/tracing and bound
 * at /sys/kernel/debug/tracing, so tools written for the kernel's tracefs
 * (trace-cmd, libtracefs programs, rtla, ftracetest) work on the process
 * unchanged.
 *
 * This process enters the namespace itself, mounts, forks the command and
 * serves the tree until the command ends; then it unmounts and exits with
 * the command's status. The command dies with it (PR_SET_PDEATHSIG), and the
 * namespace, with its mounts, goes when its last process does. A non-root
 * user gets a user namespace of its own where that is allowed. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client/ctl_client.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/ns_bridge.h"
#include "cmd/remote_tree.h"
#include "fuse/door.h"

#define TRACING "/sys/kernel/tracing"
#define DEBUGFS "/sys/kernel/debug"
#define DEBUG_TRACING DEBUGFS "/tracing"
#define FTRACE_ENABLED "/proc/sys/kernel/ftrace_enabled"
#define SYSCTL_KERNEL "/proc/sys/kernel"
#define STACK_TRACER "stack_tracer_enabled"

static const char usage[] =
    "usage: uft ns (-p PID | -S SOCKET) [-k[SYSTEMS]] [--] COMMAND [ARGS...]\n"
    "  runs COMMAND in a private mount namespace where the process's tracefs\n"
    "  tree is mounted at " TRACING " and " DEBUG_TRACING "; exits\n"
    "  with COMMAND's status. Needs root, or unprivileged user namespaces\n"
    "  -k, --kernel-events[=SYSTEMS]  the kernel's events of other tasks for\n"
    "      the process's events of the same name in SYSTEMS (comma-separated,\n"
    "      default sched), as the kernel's tracefs would show them (root)\n";

struct ns_opts {
	struct remote *r;
	long pid;
	int first;
	const char *kernel_events; /* NULL: none */
};

static int take(void *opts, int opt, char *arg)
{
	struct ns_opts *o = opts;
	if (opt == 'p' && !cli_pid("uft ns", arg, &o->pid))
		return CLI_USAGE;
	if (opt == 'S')
		snprintf(o->r->sock, sizeof(o->r->sock), "%s", arg);
	if (opt == 'k')
		o->kernel_events = arg && *arg ? arg : "sched";
	return CLI_OK;
}

static const struct option longopts[] = {{"pid", required_argument, NULL, 'p'},
					 {"socket", required_argument, NULL, 'S'},
					 {"kernel-events", optional_argument, NULL, 'k'},
					 {"help", no_argument, NULL, 'h'},
					 {NULL, 0, NULL, 0}};
/* "+": options end at COMMAND, whose own options are its own. */
static const struct cli ns_cli = {"uft ns", usage, "+p:S:k::h", longopts, take};

/* ---- with --kernel-events: every call of the door first brings the
 * kernel's records so far into the tree, so that what a tool reads or
 * changes comes after the events that happened before it, as in the
 * kernel (ns_bridge.h). ---- */

static struct uft_door_backend inner;
static struct ns_bridge *bridge;

static int b_open(void *ctx, const char *path, unsigned flags, void **file)
{
	/* Files opened to read one right after another (diff of two hists)
	 * see the same events: within 2 ms of such a look, the periodic sync
	 * serves. What changes the tree always syncs first. */
	if (flags & UFT_TFS_WRITE)
		ns_bridge_sync(bridge);
	else
		ns_bridge_sync_since(bridge, 2);
	return inner.open(ctx, path, flags, file);
}

static ssize_t b_write(void *file, const char *buf, size_t len, uint64_t off)
{
	ns_bridge_sync(bridge);
	return inner.write(file, buf, len, off);
}

static int b_mkdir(void *ctx, const char *path)
{
	ns_bridge_sync(bridge);
	return inner.mkdir(ctx, path);
}

static int b_rmdir(void *ctx, const char *path)
{
	ns_bridge_sync(bridge);
	return inner.rmdir(ctx, path);
}

static struct uft_door_backend bridged(const struct uft_door_backend *be)
{
	inner = *be;
	struct uft_door_backend b = *be;
	b.open = b_open;
	b.write = b_write;
	b.mkdir = b_mkdir;
	b.rmdir = b_rmdir;
	return b;
}

static int write_fd(int fd, const char *text)
{
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int rc = n == (ssize_t)strlen(text) ? 0 : -errno;
	close(fd);
	return rc;
}

static int write_file(const char *path, const char *text)
{
	return write_fd(open(path, O_WRONLY | O_CLOEXEC), text);
}

static int write_file_new(const char *path, const char *text)
{
	return write_fd(open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), text);
}

/* A user namespace where this user is root, for the mounts. */
static int enter_userns(void)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
		return -errno;
	char map[64];
	int rc = write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if (rc == 0)
		rc = write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	if (rc == 0)
		rc = write_file("/proc/self/gid_map", map);
	return rc;
}

/* Enters a private mount namespace. Returns 0 or 1 after a message. */
static int enter_ns(void)
{
	int rc = 0;
	if (geteuid() == 0) {
		if (unshare(CLONE_NEWNS) != 0)
			rc = -errno;
	} else {
		rc = enter_userns();
		if (rc < 0) {
			fprintf(stderr,
				"uft ns: needs root, or unprivileged user namespaces: "
				"cannot make one (%s)\n",
				strerror(-rc));
			return 1;
		}
	}
	/* Nothing mounted here may reach the namespace we came from. */
	if (rc == 0 && mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		rc = -errno;
	if (rc < 0) {
		fprintf(stderr, "uft ns: cannot make a private mount namespace: %s\n",
			strerror(-rc));
		return 1;
	}
	return 0;
}

/* Tools find tracefs through /proc/mounts (libtracefs, ftracetest) and
 * mount the kernel's over ours where none is listed; so where none is, the
 * kernel's goes beneath the tree first, and they find its path, which is
 * ours. Without tracefs in the kernel, nothing is done. */
static void tracefs_beneath(void)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[512];
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *type = strchr(line, ' ');
		type = type ? strchr(type + 1, ' ') : NULL;
		found = type && strncmp(type + 1, "tracefs ", 8) == 0;
	}
	if (f)
		fclose(f);
	if (!found && mount("nodev", TRACING, "tracefs", 0, NULL) != 0) {
		/* no tracefs in this kernel, or not allowed here */
	}
}

/* Binds the tree at /sys/kernel/debug/tracing. Where debugfs is not
 * mounted, the kernel's is mounted first (trace-cmd would mount it over our
 * bind otherwise, putting the kernel's tracing back there), or without one,
 * a tmpfs holds the mount point. */
static int bind_debug_tracing(bool *own_debugfs)
{
	struct stat st;
	if (stat(DEBUG_TRACING, &st) != 0) {
		*own_debugfs = true;
		if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL) != 0 ||
		    stat(DEBUG_TRACING, &st) != 0) {
			umount2(DEBUGFS, MNT_DETACH);
			if (mount("uft", DEBUGFS, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
				  "mode=0700") != 0 ||
			    mkdir(DEBUG_TRACING, 0700) != 0)
				return -errno;
		}
	}
	return mount(TRACING, DEBUG_TRACING, NULL, MS_BIND, NULL) == 0 ? 0 : -errno;
}

/* trace-cmd turns the kernel's function tracer on through this sysctl
 * before it starts; the command gets a file of its own there (reading "1"),
 * so it neither fails where /proc/sys is read-only nor changes the kernel's
 * switch, which has nothing to do with the process's tree. */
static int shadow_ftrace_enabled(void)
{
	/* The file lives on a tmpfs of this namespace (a bind needs that),
	 * mounted for a moment where the tree goes next. */
	if (mount("uft", TRACING, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k") != 0)
		return -errno;
	int rc = write_file_new(TRACING "/ftrace_enabled", "1\n");
	if (rc == 0 && mount(TRACING "/ftrace_enabled", FTRACE_ENABLED, NULL, MS_BIND, NULL) != 0)
		rc = -errno;
	umount2(TRACING, MNT_DETACH);
	return rc;
}

/* Makes an empty file at path. */
static int touch(const char *path, mode_t mode)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Binds src at dir/name where dir has no such entry: a tmpfs goes over dir
 * with every entry of the original bound at its name again (through a
 * descriptor of the original, opened before), and the new one. */
static int add_to_dir(const char *dir, const char *name, const char *src)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	int lfd = dup(dfd);
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	int rc = 0;
	if (!d || mount("uft", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555") != 0)
		rc = -errno;
	char from[PATH_MAX], to[PATH_MAX];
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(from, sizeof(from), "/proc/self/fd/%d/%s", dfd, e->d_name);
		snprintf(to, sizeof(to), "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(from, &st) != 0)
			continue;
		int made = S_ISDIR(st.st_mode) ? mkdir(to, 0555) : touch(to, 0444);
		if (made != 0 || mount(from, to, NULL, MS_BIND | MS_REC, NULL) != 0)
			rc = -errno;
	}
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	if (rc == 0 && touch(to, 0644) != 0)
		rc = -errno;
	if (rc == 0 && mount(src, to, NULL, MS_BIND, NULL) != 0)
		rc = -errno;
	if (rc != 0)
		umount2(dir, MNT_DETACH);
	if (d)
		closedir(d);
	close(dfd);
	return rc;
}

/* The stack tracer's switch is the sysctl stack_tracer_enabled in the
 * kernel; the tree's own file takes its place here, so that tools and
 * tests that write the sysctl switch the process's stack tracer. Where the
 * kernel has no such sysctl, one is made. Quietly nothing when the tree
 * has no such file. Whether it was bound (a mount of the tree, to take
 * away before the tree's last one). */
static bool bind_stack_tracer(void)
{
	struct stat st;
	const char *src = TRACING "/" STACK_TRACER;
	if (stat(src, &st) != 0)
		return false;
	int rc = 0;
	if (stat(SYSCTL_KERNEL "/" STACK_TRACER, &st) == 0)
		rc = mount(src, SYSCTL_KERNEL "/" STACK_TRACER, NULL, MS_BIND, NULL) ? -errno : 0;
	else
		rc = add_to_dir(SYSCTL_KERNEL, STACK_TRACER, src);
	if (rc < 0)
		fprintf(stderr, "uft ns: warning: %s/%s stays the kernel's: %s\n", SYSCTL_KERNEL,
			STACK_TRACER, strerror(-rc));
	return rc == 0;
}

/* Takes every mount at path away, ours and any the command stacked there
 * (trace-cmd mounts debugfs where none is). The tree's last mount gone, the
 * FUSE connection ends and wakes the door's workers. */
static void detach_all(const char *path)
{
	for (int i = 0; i < 16 && umount2(path, MNT_DETACH) == 0; i++) {
	}
}

/* The command, in a child that dies with us. */
static pid_t run(char **argv, const sigset_t *old)
{
	pid_t parent = getpid();
	pid_t child = fork();
	if (child != 0)
		return child;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	sigprocmask(SIG_SETMASK, old, NULL);
	execvp(argv[0], argv);
	fprintf(stderr, "uft ns: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* Waits for the command, passing it the signals sent to us; a terminal's
 * (SI_KERNEL) reached it already, in the same process group. Returns its
 * exit status, shell style. */
static int wait_child(pid_t child, int sfd)
{
	int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	for (;;) {
		int status;
		pid_t w = waitpid(child, &status, WNOHANG);
		if (w == child)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (w < 0 && errno != EINTR)
			return 1;
		struct pollfd p[2] = {{.fd = sfd, .events = POLLIN},
				      {.fd = pidfd, .events = POLLIN}};
		/* Without pidfds, the command is looked at twice a second. */
		if (poll(p, 2, pidfd < 0 ? 500 : -1) < 0 && errno != EINTR)
			return 1;
		struct signalfd_siginfo si;
		if (p[0].revents && read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si) &&
		    si.ssi_code != SI_KERNEL)
			kill(child, (int)si.ssi_signo);
		if (pidfd >= 0 && p[1].revents)
			close(pidfd), pidfd = -1;
	}
}

int cmd_ns(int argc, char **argv)
{
	struct remote r = {.shared = NULL};
	struct ns_opts o = {&r, 0, 0, NULL};
	int rc = cli_parse(&ns_cli, &o, argc, argv, &o.first);
	if (rc != CLI_OK)
		return rc;
	if ((!o.pid && !r.sock[0]) || o.first >= argc)
		return cli_usage_error(&ns_cli);
	rc = remote_tree_connect(&r, o.pid);
	if (rc)
		return rc;
	/* The bridge's own connection: a read that blocks on the door's never
	 * holds it up. */
	struct remote rb = {.shared = NULL};
	memcpy(rb.sock, r.sock, sizeof(rb.sock));
	if (o.kernel_events && (rc = remote_tree_connect(&rb, o.pid)) != 0) {
		uft_ctl_close(r.shared);
		return rc;
	}
	if (enter_ns()) {
		uft_ctl_close(r.shared);
		uft_ctl_close(rb.shared);
		return 1;
	}
	sigset_t sigs, old;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGQUIT);
	sigprocmask(SIG_BLOCK, &sigs, &old);

	/* Without it, only trace-cmd start and record fail: a warning. */
	if (access(FTRACE_ENABLED, F_OK) == 0 && (rc = shadow_ftrace_enabled()) < 0)
		fprintf(stderr, "uft ns: warning: %s stays the kernel's: %s\n", FTRACE_ENABLED,
			strerror(-rc));
	tracefs_beneath();
	struct uft_door_backend be = remote_tree_backend(&r);
	if (o.kernel_events) {
		char err[300];
		pid_t target = uft_ctl_peer_pid(rb.shared);
		bridge = ns_bridge_open(rb.shared, target, o.kernel_events, err, sizeof(err));
		if (!bridge) {
			fprintf(stderr, "uft ns: --kernel-events: %s\n", err);
			uft_ctl_close(r.shared);
			return 1;
		}
		be = bridged(&be);
	}
	char err[300];
	struct uft_fuse_door *d = uft_fuse_door_open(&be, TRACING, err, sizeof(err));
	if (!d) {
		fprintf(stderr, "uft ns: %s: %s\n", TRACING, err);
		ns_bridge_close(bridge, stderr);
		uft_ctl_close(r.shared);
		return 1;
	}
	bool own_debugfs = false;
	rc = bind_debug_tracing(&own_debugfs);
	if (rc < 0) {
		fprintf(stderr, "uft ns: %s: %s\n", DEBUG_TRACING, strerror(-rc));
		uft_fuse_door_close(d);
		ns_bridge_close(bridge, stderr);
		uft_ctl_close(r.shared);
		return 1;
	}
	bool stack_bound = bind_stack_tracer();
	if (bridge && (rc = ns_bridge_start(bridge)) < 0)
		fprintf(stderr, "uft ns: warning: kernel events only as files are opened: %s\n",
			strerror(-rc));
	int sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	pid_t child = run(argv + o.first, &old);
	if (child < 0) {
		fprintf(stderr, "uft ns: fork: %s\n", strerror(errno));
		rc = 1;
	} else {
		rc = wait_child(child, sfd);
	}
	if (sfd >= 0)
		close(sfd);
	if (stack_bound)
		umount2(SYSCTL_KERNEL "/" STACK_TRACER, MNT_DETACH);
	detach_all(own_debugfs ? DEBUGFS : DEBUG_TRACING);
	detach_all(TRACING);
	uft_fuse_door_close(d);
	ns_bridge_close(bridge, stderr);
	uft_ctl_close(r.shared);
	return rc;
}
