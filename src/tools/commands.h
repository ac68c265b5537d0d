/* The uft subcommands. Each returns the process exit status. */
#ifndef UFT_COMMANDS_H
#define UFT_COMMANDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_list(int argc, char **argv);

#endif
