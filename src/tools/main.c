/* uft: ftrace for user space. The command line front end, modeled on trace-cmd. */
#include <stdio.h>
#include <string.h>

#include "tools/commands.h"

#define UFT_VERSION "0.1.0"

static void usage(FILE *f)
{
	fprintf(f, "uft " UFT_VERSION " - ftrace for user space\n\n"
		   "usage: uft COMMAND [OPTIONS]\n\n"
		   "commands:\n"
		   "  record   run a program with tracing on and write trace.dat\n"
		   "  report   print a trace.dat file as the kernel's trace file reads\n"
		   "  list     list events and their formats (of a file or a program)\n"
		   "  version  print the version\n\n"
		   "'uft COMMAND -h' describes a command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "record") == 0)
		return cmd_record(argc - 1, argv + 1);
	if (strcmp(cmd, "report") == 0)
		return cmd_report(argc - 1, argv + 1);
	if (strcmp(cmd, "list") == 0)
		return cmd_list(argc - 1, argv + 1);
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
