/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option loop and argument checks shared by the uft subcommands. */
#define _GNU_SOURCE
#include "cmd/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>

int cli_usage_error(const struct cli *cli)
{
	fputs(cli->usage, stderr);
	return CLI_USAGE;
}

int cli_error(const struct cli *cli, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", cli->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_USAGE;
}

int cli_parse(const struct cli *cli, void *opts, int argc, char **argv, int *first)
{
	int opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, cli->optstring, cli->longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(cli->usage, stdout);
			return 0;
		}
		if (opt == '?' || opt == ':')
			return cli_usage_error(cli);
		int rc = cli->take(opts, opt, optarg);
		if (rc != CLI_OK)
			return rc;
	}
	*first = optind;
	return CLI_OK;
}

bool cli_long(const char *s, int base, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, base);
	if (end == s || *end || errno == ERANGE || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool cli_pid(const char *prefix, const char *s, long *pid)
{
	if (cli_long(s, 10, 1, INT_MAX, pid))
		return true;
	fprintf(stderr, "%s: bad pid '%s'\n", prefix, s);
	return false;
}
