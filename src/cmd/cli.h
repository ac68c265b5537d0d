/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line of a uft subcommand: one option loop, number and pid
 * parsing, usage printing. Each command describes itself in a struct cli
 * and takes its options one at a time in a callback. Exit statuses follow
 * one rule: 0 after -h (usage on standard output), 2 after a mistake in the
 * command line (a message, or usage, on standard error) and nothing run,
 * 1 after a failure while running. An argument checked against something
 * outside (a file that must be a trace.dat, a pid, an instance, an event, a
 * filter compiled against a format) is checked before anything is run,
 * printed or written, and its refusal is a mistake too: exit 2. */
#ifndef UFT_CLI_H
#define UFT_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* Returned where parsing went through and the command goes on. */
#define CLI_OK (-1)
/* The exit status of a mistake in the command line. */
#define CLI_USAGE 2

struct cli {
	const char *name;	       /* "uft record": the prefix of messages */
	const char *usage;	       /* the text -h prints */
	const char *optstring;	       /* getopt_long's; 'h' is help */
	const struct option *longopts; /* NULL: short options only */
	/* Takes one option (never 'h', '?' or ':'); CLI_OK or an exit status. */
	int (*take)(void *opts, int opt, char *arg);
};

/* Runs the option loop over argv[1..]; *first is then the index of the
 * first operand. Returns CLI_OK, or the exit status to return: 0 after -h,
 * CLI_USAGE after a bad option (getopt's message and the usage), or what
 * take returned. */
int cli_parse(const struct cli *cli, void *opts, int argc, char **argv, int *first);
/* The usage on standard error; returns CLI_USAGE. */
int cli_usage_error(const struct cli *cli);
/* "NAME: MESSAGE\n" on standard error; returns CLI_USAGE. */
int cli_error(const struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* All of s as a base-`base` number within [min, max]. */
bool cli_long(const char *s, int base, long min, long max, long *out);
/* A process id; otherwise "PREFIX: bad pid 'S'" on standard error and false. */
bool cli_pid(const char *prefix, const char *s, long *pid);

#endif
