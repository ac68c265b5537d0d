/* uft ctl: a running process's tracefs tree through its control socket, the
 * way ls, cat and echo reach the kernel's. Errors say what the same shell
 * command would: `uft: PATH: strerror`, exit status 1. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/ctl_proto.h"
#include "cmd/commands.h"
#include "client/ctl_client.h"

static volatile sig_atomic_t interrupted;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uft ctl (-p PID | -S SOCKET) COMMAND [ARGS]\n"
		"       uft ctl --list\n"
		"  ls [PATH]                 list a directory of the process's tracefs tree\n"
		"  cat PATH                  print a file\n"
		"  write [-a] PATH VALUE...  write the values, joined by spaces, and a newline\n"
		"                            (as echo VALUE... > PATH; -a, --append: as >>)\n"
		"  pipe PATH                 stream a pipe such as trace_pipe until interrupted\n"
		"                            or the process exits\n"
		"  mkdir PATH                make an instance (instances/NAME)\n"
		"  rmdir PATH                remove an instance\n"
		"  -l, --list                list the processes that can be reached: PID COMM\n");
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "uft: %s: %s\n", what, strerror(-err));
	return 1;
}

/* "/events/demo/" -> "events/demo": the tree's paths have no outer slashes. */
static const char *tree_path(char *buf, size_t cap, const char *arg)
{
	while (*arg == '/')
		arg++;
	snprintf(buf, cap, "%s", strcmp(arg, ".") == 0 ? "" : arg);
	size_t n = strlen(buf);
	while (n && buf[n - 1] == '/')
		buf[--n] = 0;
	return buf;
}

static int write_out(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int print_entry(void *ctx, const char *name, int type)
{
	printf("%s%s\n", name, type == UFT_TFS_DIR ? "/" : "");
	return 0;
}

static int do_ls(struct uft_ctl_conn *c, const char *arg, const char *path)
{
	struct uft_tfs_stat st;
	int rc = uft_ctl_stat(c, path, &st);
	if (rc == 0 && st.type != UFT_TFS_DIR) {
		printf("%s\n", arg);
		return 0;
	}
	if (rc == 0)
		rc = uft_ctl_readdir(c, path, print_entry, NULL);
	return rc < 0 ? fail(arg, rc) : 0;
}

/* cat and pipe: read until the end, a signal, or the process's exit. */
static int do_read(struct uft_ctl_conn *c, const char *arg, const char *path, bool stream)
{
	int h = uft_ctl_open(c, path, UFT_TFS_READ);
	if (h < 0)
		return fail(arg, h);
	static char buf[UFT_CTL_MAX_IO];
	uint64_t off = 0;
	int rc = 0;
	for (;;) {
		ssize_t n = uft_ctl_read(c, h, buf, sizeof(buf), off);
		if (interrupted) {
			rc = stream ? 0 : 128 + SIGINT; /* cat dies of the signal; pipe is done */
			break;
		}
		if (n == 0 || (stream && n == -ECONNRESET))
			break;
		if (n < 0) {
			rc = fail(arg, (int)n);
			break;
		}
		off += (uint64_t)n;
		int w = write_out(buf, (size_t)n);
		if (w < 0) {
			rc = fail("standard output", w);
			break;
		}
	}
	uft_ctl_release(c, h);
	return rc;
}

static int do_write(struct uft_ctl_conn *c, int argc, char **argv)
{
	bool append = false;
	int i = 0;
	if (i < argc && (strcmp(argv[i], "-a") == 0 || strcmp(argv[i], "--append") == 0)) {
		append = true;
		i++;
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	const char *arg = argv[i++];
	char path[1100];
	tree_path(path, sizeof(path), arg);
	size_t len = 1;
	for (int k = i; k < argc; k++)
		len += strlen(argv[k]) + 1;
	char *text = malloc(len);
	if (!text)
		return fail(arg, -ENOMEM);
	text[0] = 0;
	for (int k = i; k < argc; k++) {
		strcat(text, argv[k]);
		strcat(text, k + 1 < argc ? " " : "");
	}
	strcat(text, "\n");
	len = strlen(text);
	int h = uft_ctl_open(c, path, UFT_TFS_WRITE | (append ? UFT_TFS_APPEND : UFT_TFS_TRUNC));
	int rc = 0;
	if (h < 0) {
		rc = fail(arg, h);
	} else {
		/* One write per call, as write(2) on a control file: short writes go on. */
		for (size_t done = 0; done < len && rc == 0;) {
			ssize_t n = uft_ctl_write(c, h, text + done, len - done, done);
			if (n <= 0)
				rc = fail(arg, n < 0 ? (int)n : -EIO);
			else
				done += (size_t)n;
		}
		uft_ctl_release(c, h);
	}
	free(text);
	return rc;
}

/* Every process whose socket in the run directory answers. */
static int do_list(void)
{
	pid_t *pids;
	size_t n;
	int rc = uft_ctl_list_pids(&pids, &n);
	if (rc < 0)
		return fail("run directory", rc);
	for (size_t i = 0; i < n; i++) {
		struct uft_ctl_conn *c;
		if (uft_ctl_connect_pid(pids[i], &c) != 0)
			continue; /* gone since */
		printf("%d %s\n", (int)uft_ctl_peer_pid(c), uft_ctl_peer_comm(c));
		uft_ctl_close(c);
	}
	free(pids);
	return 0;
}

static void on_signal(int sig)
{
	interrupted = 1;
}

int cmd_ctl(int argc, char **argv)
{
	static const struct option opts[] = {{"pid", required_argument, NULL, 'p'},
					     {"socket", required_argument, NULL, 'S'},
					     {"list", no_argument, NULL, 'l'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *sock = NULL;
	long pid = 0;
	bool list = false;
	int o;
	while ((o = getopt_long(argc, argv, "+p:S:lh", opts, NULL)) != -1) {
		char *end;
		switch (o) {
		case 'p':
			pid = strtol(optarg, &end, 10);
			if (*end || pid <= 0) {
				fprintf(stderr, "uft ctl: bad pid '%s'\n", optarg);
				return 2;
			}
			break;
		case 'S':
			sock = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (list)
		return do_list();
	if ((!pid && !sock) || optind >= argc) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[optind++];
	int nargs = argc - optind;
	char **args = argv + optind;
	bool needs_path = strcmp(cmd, "ls") != 0 && strcmp(cmd, "write") != 0;
	if ((needs_path && nargs != 1) || (strcmp(cmd, "ls") == 0 && nargs > 1)) {
		usage(stderr);
		return 2;
	}

	struct uft_ctl_conn *c;
	int rc = sock ? uft_ctl_connect_path(sock, &c) : uft_ctl_connect_pid((pid_t)pid, &c);
	if (rc < 0) {
		char what[128];
		if (sock)
			snprintf(what, sizeof(what), "%s", sock);
		else
			snprintf(what, sizeof(what), "process %ld", pid);
		return fail(what, rc);
	}
	struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: a waiting read stops */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	uft_ctl_set_interrupt_flag(c, &interrupted);

	char path[1100];
	const char *arg = nargs ? args[0] : "";
	tree_path(path, sizeof(path), arg);
	if (strcmp(cmd, "ls") == 0)
		rc = do_ls(c, nargs ? arg : ".", path);
	else if (strcmp(cmd, "cat") == 0)
		rc = do_read(c, arg, path, false);
	else if (strcmp(cmd, "pipe") == 0)
		rc = do_read(c, arg, path, true);
	else if (strcmp(cmd, "write") == 0)
		rc = do_write(c, nargs, args);
	else if (strcmp(cmd, "mkdir") == 0)
		rc = (rc = uft_ctl_mkdir(c, path)) < 0 ? fail(arg, rc) : 0;
	else if (strcmp(cmd, "rmdir") == 0)
		rc = (rc = uft_ctl_rmdir(c, path)) < 0 ? fail(arg, rc) : 0;
	else {
		fprintf(stderr, "uft ctl: unknown command '%s'\n", cmd);
		usage(stderr);
		rc = 2;
	}
	uft_ctl_close(c);
	return rc;
}
