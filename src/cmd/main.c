/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft: ftrace for user space. The command line front end, modeled on trace-cmd. */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "uft/version.h" /* generated from VERSION */

static void usage(FILE *f)
{
	fprintf(f, "uft " UFT_VERSION " - ftrace for user space\n\n"
		   "usage: uft COMMAND [OPTIONS]\n\n"
		   "commands:\n"
		   "  record   run a program with tracing on and write trace.dat\n"
		   "  stream   run a program with tracing on and print its events as they come\n"
		   "  report   print a trace.dat file as the kernel's trace file reads\n"
		   "  list     list events and their formats (of a file or a program)\n"
		   "  ctl      read and write a running process's tracefs files\n"
		   "  mount    mount a running process's tracefs tree with FUSE\n"
		   "  ns       run a command with a process's tree at /sys/kernel/tracing\n"
		   "  sqlhist  translate SQL into hist triggers and synthetic events\n"
		   "  start    enable events and start tracing in a running process\n"
		   "  stop     stop tracing in a running process (tracing_on 0)\n"
		   "  restart  start tracing again (tracing_on 1)\n"
		   "  show     print a running process's trace (or trace_pipe, snapshot ...)\n"
		   "  reset    disable events and filters, clear buffers, remove instances\n"
		   "  extract  write a running process's buffer into trace.dat\n"
		   "  stat     show what is enabled, buffer sizes, drops and overruns\n"
		   "  top      a live view of traced processes: event rates, functions, loss\n"
		   "  attach   load libuft into a running process started without it\n"
		   "  timerlat the timer latency of a thread per CPU (top, hist)\n"
		   "  osnoise  the noise a busy thread per CPU suffers (top, hist)\n"
		   "  version  print the version\n\n"
		   "'uft COMMAND -h' describes a command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {{"record", cmd_record},   {"report", cmd_report},	  {"list", cmd_list},
		    {"ctl", cmd_ctl},	      {"mount", cmd_mount},	  {"ns", cmd_ns},
		    {"sqlhist", cmd_sqlhist}, {"start", cmd_start},	  {"stop", cmd_stop},
		    {"restart", cmd_restart}, {"show", cmd_show},	  {"reset", cmd_reset},
		    {"extract", cmd_extract}, {"stat", cmd_stat},	  {"attach", cmd_attach},
		    {"stream", cmd_stream},   {"timerlat", cmd_timerlat}, {"osnoise", cmd_osnoise},
		    {"top", cmd_top}};
	const char *cmd = argv[1];
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(cmd, cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("uft version " UFT_VERSION "\n");
		return 0;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "uft: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
