/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft ctl: a running process's tracefs tree through its control socket, the
 * way ls, cat and echo reach the kernel's. Errors say what the same shell
 * command would: `uft: PATH: strerror`. The exit status is 2 when the tree
 * refused the path or value (nothing was done), 1 when the connection
 * failed while running. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/ctl_proto.h"
#include "cmd/commands.h"
#include "client/ctl_client.h"
#include "client/live.h"
#include "cmd/cli.h"

static volatile sig_atomic_t interrupted;

static const char usage[] =
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
    "  -l, --list                list the processes that can be reached: PID COMM\n";

static int fail(const char *what, int err)
{
	fprintf(stderr, "uft: %s: %s\n", what, strerror(-err));
	return live_refused(err) ? CLI_USAGE : 1;
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
			rc = fail(arg, (int)n) == CLI_USAGE && !off ? CLI_USAGE : 1;
			break;
		}
		off += (uint64_t)n;
		int w = write_out(buf, (size_t)n);
		if (w < 0) {
			fail("standard output", w);
			rc = 1;
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
		fputs(usage, stderr);
		return CLI_USAGE;
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
				rc = fail(arg, n < 0 ? (int)n : -EIO) == CLI_USAGE && !done
					 ? CLI_USAGE
					 : 1;
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
	if (rc < 0) {
		fail("run directory", rc);
		return 1;
	}
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

struct ctl_opts {
	const char *sock;
	long pid;
	bool list;
	const char *cmd; /* the COMMAND, and its arguments */
	int nargs;
	char **args;
};

static int take(void *opts, int opt, char *arg)
{
	struct ctl_opts *o = opts;
	if (opt == 'p' && !cli_pid("uft ctl", arg, &o->pid))
		return CLI_USAGE;
	if (opt == 'S')
		o->sock = arg;
	if (opt == 'l')
		o->list = true;
	return CLI_OK;
}

static const struct option longopts[] = {{"pid", required_argument, NULL, 'p'},
					 {"socket", required_argument, NULL, 'S'},
					 {"list", no_argument, NULL, 'l'},
					 {"help", no_argument, NULL, 'h'},
					 {NULL, 0, NULL, 0}};
static const struct cli cli = {"uft ctl", usage, "+p:S:lh", longopts, take};

static int parse(struct ctl_opts *o, int argc, char **argv)
{
	int first;
	int rc = cli_parse(&cli, o, argc, argv, &first);
	if (rc != CLI_OK || o->list)
		return rc;
	if ((!o->pid && !o->sock) || first >= argc)
		return cli_usage_error(&cli);
	o->cmd = argv[first++];
	o->nargs = argc - first;
	o->args = argv + first;
	bool is_ls = strcmp(o->cmd, "ls") == 0;
	bool needs_path = !is_ls && strcmp(o->cmd, "write") != 0;
	if ((needs_path && o->nargs != 1) || (is_ls && o->nargs > 1))
		return cli_usage_error(&cli);
	return CLI_OK;
}

static int connect_to(const struct ctl_opts *o, struct uft_ctl_conn **c)
{
	int rc = o->sock ? uft_ctl_connect_path(o->sock, c) : uft_ctl_connect_pid((pid_t)o->pid, c);
	if (rc < 0) {
		char what[128];
		/* The socket or pid given cannot be reached: refused. */
		if (o->sock)
			return fail(o->sock, rc);
		snprintf(what, sizeof(what), "process %ld", o->pid);
		fprintf(stderr, "uft: %s: %s\n", what, uft_ctl_connect_error(rc));
		return live_refused(rc) ? CLI_USAGE : 1;
	}
	struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: a waiting read stops */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	uft_ctl_set_interrupt_flag(*c, &interrupted);
	return 0;
}

static int run(struct uft_ctl_conn *c, const struct ctl_opts *o)
{
	char path[1100];
	const char *cmd = o->cmd, *arg = o->nargs ? o->args[0] : "";
	int rc;
	tree_path(path, sizeof(path), arg);
	if (strcmp(cmd, "ls") == 0)
		return do_ls(c, o->nargs ? arg : ".", path);
	if (strcmp(cmd, "cat") == 0)
		return do_read(c, arg, path, false);
	if (strcmp(cmd, "pipe") == 0)
		return do_read(c, arg, path, true);
	if (strcmp(cmd, "write") == 0)
		return do_write(c, o->nargs, o->args);
	if (strcmp(cmd, "mkdir") == 0)
		return (rc = uft_ctl_mkdir(c, path)) < 0 ? fail(arg, rc) : 0;
	if (strcmp(cmd, "rmdir") == 0)
		return (rc = uft_ctl_rmdir(c, path)) < 0 ? fail(arg, rc) : 0;
	fprintf(stderr, "uft ctl: unknown command '%s'\n", cmd);
	return cli_usage_error(&cli);
}

int cmd_ctl(int argc, char **argv)
{
	struct ctl_opts o = {0};
	int rc = parse(&o, argc, argv);
	if (rc != CLI_OK)
		return rc;
	if (o.list)
		return do_list();
	struct uft_ctl_conn *c;
	rc = connect_to(&o, &c);
	if (rc)
		return rc;
	rc = run(c, &o);
	uft_ctl_close(c);
	return rc;
}
